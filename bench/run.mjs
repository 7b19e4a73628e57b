// npm run bench: wikitape against a bare node:http server writing the same prebuilt bytes, in
// the same run, with the same load generator (autocannon), each server in its own process.
// Also: talkback 4 replaying that response from 1 and from 10,000 tapes; wikitape replaying
// cassettes of 1, 10,000 and 100,000 recorded interactions (bench/make-cassettes.mjs) under a
// random mix of their URLs, with startup time and memory; and the latency record mode adds in
// front of the live wiki (scripts/live-wiki.sh), skipped with a reason when no live wiki answers.
//
// Env: BENCH_SECONDS (default 5) per case; BENCH_ONLY=substring runs only the cases whose name
// contains it (the bare baseline always runs: the ratios need it); BENCH_READY_TIMEOUT seconds a
// server may take to start (default 60); BENCH_RECORD_PAIRS (default 150) request pairs for the
// record case; BENCH_LIVE=off skips it, BENCH_LIVE=start lets the bench run
// `scripts/live-wiki.sh start` even where MediaWiki is not installed yet (it installs Debian packages).
//
// One file of ~530 lines on purpose: it is a script read from top to bottom, the harness (start a
// server in its own process, load it, measure) and then every case in the order bench/RESULTS.md
// reports them; split, a reader would have to jump between files to see what one case measures.
import { execFile, fork } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { makeCassette } from './make-cassettes.mjs';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../dist/util/ordered-json.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ONLY = (process.env.BENCH_ONLY ?? '').toLowerCase();
const READY_TIMEOUT = Number(process.env.BENCH_READY_TIMEOUT ?? 60);
const RECORD_PAIRS = Number(process.env.BENCH_RECORD_PAIRS ?? 150);
const LIVE = `http://127.0.0.1:${process.env.WIKITAPE_LIVE_PORT ?? 8088}/wiki/api.php`;
const CONNECTIONS = 32;
const HIT = 'action=query&list=logevents&format=json';
const SERVER = new URL('./server.mjs', import.meta.url);
const ROOT = mkdtempSync(join(tmpdir(), 'wikitape-bench-'));
const log = (line) => process.stderr.write(`bench: ${line}\n`);

// Every server and generator this run starts, ended (and the temp folder removed) however the run ends.
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(ROOT, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** The line of a process's stderr that says what went wrong (its error, else its last line). */
function errorLine(stderr) {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /^(FATAL ERROR|\w*Error\b)/.test(l)) ?? lines.at(-1) ?? '';
}

/** Ends a server: SIGTERM, SIGKILL after 2 s; resolves once it has exited. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 2000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `node bench/server.mjs kind ...args`; resolves with its URL and the seconds from spawn to
 * the URL (the server answers from then on). Rejects, with the server ended, when it exits first
 * or is not ready within READY_TIMEOUT; the message carries its last error line.
 */
function start(kind, ...args) {
  const startedAt = performance.now();
  const child = fork(SERVER, [kind, ...args], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-8000)));
  return new Promise((resolve, reject) => {
    let out = '';
    let settled = false;
    const fail = (why) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const last = errorLine(stderr);
      void stop(child).then(() => reject(new Error(last ? `${why}: ${last}` : why)));
    };
    const timer = setTimeout(() => fail(`not ready after ${READY_TIMEOUT} s`), READY_TIMEOUT * 1000);
    child.stdout.on('data', (d) => {
      if (settled) return; // (still read, so the server never blocks on a full pipe)
      out += d;
      const m = /^(https?:\/\/\S+)$/m.exec(out);
      if (!m) return;
      settled = true;
      clearTimeout(timer);
      resolve({ child, url: m[1], startup: (performance.now() - startedAt) / 1000 });
    });
    child.once('exit', (code, signal) => fail(`exited (${signal ?? `code ${code}`}) before it was ready`));
  });
}

/** The server's resident memory in bytes (null when it does not answer within 10 s). */
const rss = (child) =>
  new Promise((resolve) => {
    const t = setTimeout(() => resolve(null), 10_000);
    child.once('message', (m) => {
      clearTimeout(t);
      resolve(m.rss);
    });
    child.send('rss');
  });

/**
 * A 1 s warm-up, then DURATION seconds; with `paths`, each request takes the next of them. With
 * `firstUse`, the warm-up is instead one pass over every path (each question asked for the first
 * time, as a test run does; for 1,000 questions and more), whose rate is reported too.
 */
async function load(url, paths, firstUse = false) {
  const options = { url, connections: CONNECTIONS };
  if (paths) {
    let next = 0;
    options.requests = [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }];
  }
  let first;
  if (firstUse && paths && paths.length >= 1000) {
    const w = await autocannon({ ...options, amount: paths.length });
    first = { firstRps: w.requests.total / (w.duration || 1), firstErrors: w.errors + w.non2xx };
  } else await autocannon({ ...options, duration: 1 });
  const r = await autocannon({ ...options, duration: DURATION });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, ...first };
}

/** A fixed shuffle (so runs send the same sequence). */
function shuffled(list) {
  const out = [...list];
  let seed = 0x9e3779b9;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** How many of 20 sampled URLs wikitape did not answer from a cassette (a generator or lookup bug). */
async function misses(base, paths) {
  let n = 0;
  for (let i = 0; i < 20; i++) {
    const r = await fetch(new URL(paths[(i * 7919) % paths.length], base));
    await r.arrayBuffer();
    if (r.status !== 200 || r.headers.get('x-wikitape-source') !== 'cassette') n++;
  }
  return n;
}

/** One case: start its server, measure, end it. A server that fails gives a row with the error. */
async function measure({ name, kind, args = [], query, urls, check, firstUse }) {
  const row = { name };
  let s;
  try {
    s = await start(kind, ...args);
    row.startup = s.startup;
    row.rssReady = await rss(s.child);
    const api = new URL(s.url);
    const paths = urls && shuffled(urls).map((q) => `${api.pathname}?${q}`);
    if (paths && check) row.misses = await misses(api.origin, paths);
    Object.assign(row, await load(query ? `${s.url}?${query}` : api.origin, paths, firstUse));
    row.rss = await rss(s.child);
  } catch (e) {
    row.error = e.message;
  } finally {
    if (s) await stop(s.child);
  }
  return row;
}

/** Runs a command to its end (its output passed on to stderr); rejects on a non-zero exit. */
function run(cmd, args, timeoutSec = 300) {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { timeout: timeoutSec * 1000, maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      if (stderr) process.stderr.write(stderr);
      if (err) reject(new Error(`${[cmd, ...args].map((a) => a.split('/').at(-1)).join(' ')} failed: ${errorLine(stderr) || err.message}`));
      else resolve(stdout);
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
  });
}

// ---------------------------------------------------------------------------------------------
// What the cases need, made when first needed.

const once = (f) => {
  const done = new Map();
  return (n) => {
    if (!done.has(n)) done.set(n, f(n));
    return done.get(n);
  };
};

/** DIR with bench.json (n interactions, `n` or `n-off` for debuginfo off) and urls.txt, written by make-cassettes.mjs. */
const cassettes = once(async (which) => {
  const [n, off] = String(which).split('-');
  const dir = join(ROOT, `cassettes-${which}`);
  log(`generating ${n} interactions${off ? ' (debuginfo off)' : ''}`);
  process.stderr.write(await run(process.execPath, [new URL('./make-cassettes.mjs', import.meta.url).pathname, n, dir, ...(off ? ['--no-debuginfo'] : [])], 120));
  return { dir, urls: readFileSync(join(dir, 'urls.txt'), 'utf8').trim().split('\n') };
});

/**
 * A talkback tape folder: the hit (its exact bytes and headers, stored base64 so they are replayed
 * unchanged) in the middle of the load order (talkback tries tapes in order: the middle is the
 * average place of a hit) and n-1 decoys with other URLs: the generated interactions, with their
 * JSON bodies stored readable as talkback records JSON. Files as talkback names them (*.json5;
 * written as JSON, which is JSON5).
 */
const tapes = once(async (which) => {
  const [count, cassetteDir] = which.split('\n');
  const n = Number(count);
  const dir = join(ROOT, `tapes-${n}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  log(`writing ${n} talkback tapes`);
  const { headers, body } = JSON.parse(readFileSync(await answerFile(`${cassetteDir}\n${HIT}`), 'utf8'));
  const meta = { createdAt: new Date().toISOString(), host: LIVE.replace(/\/wiki\/api\.php$/, '') };
  const arrays = (h) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, [String(v)]]));
  const hit = { meta: { ...meta, resHumanReadable: false }, req: { url: `/wiki/api.php?${HIT}`, method: 'GET', headers: {}, body: '' }, res: { status: 200, headers: arrays(headers), body } };
  const { 'content-length': _, ...decoyHeaders } = headers;
  const decoys = n > 1 ? makeCassette(n).hits.filter((h) => h.query !== HIT).slice(0, n - 1) : [];
  const all = [...decoys.slice(0, Math.floor(n / 2)), null, ...decoys.slice(Math.floor(n / 2))];
  all.forEach((d, i) => {
    const tape = d ? { meta: { ...meta, resHumanReadable: true }, req: { ...hit.req, url: `/wiki/api.php?${d.query}` }, res: { status: 200, headers: arrays(decoyHeaders), body: d.interaction.body } } : hit;
    writeFileSync(join(dir, `tape-${String(i).padStart(5, '0')}.json5`), JSON.stringify(tape, null, 4));
  });
  return dir;
});

/** A file with the headers and bytes wikitape answers for `query` from the cassettes in `dir` (for bare baselines and talkback). */
const answerFile = once(async (which) => {
  const [dir, query] = which.split('\n');
  const probe = await start('wikitape', dir);
  try {
    const res = await fetch(`${probe.url}?${query}`);
    const headers = Object.fromEntries([...res.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)));
    const file = join(ROOT, `answer-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') }));
    return file;
  } finally {
    await stop(probe.child);
  }
});

// The bundled cassettes as recorded (the test wiki has debuginfo on, every answer ~100 KB) and the
// same with debuginfo off, as production wikis run (the hit is then a 4.6 KB answer).
const BUNDLED = new URL('../cassettes', import.meta.url).pathname;
const NODEBUG = join(ROOT, 'bundled-debuginfo-off');
mkdirSync(NODEBUG);
{
  const c = parseKeepingKeyOrder(readFileSync(join(BUNDLED, 'bundled-wiki.json'), 'utf8'));
  c.meta.profile.debugInfo = false;
  writeFileSync(join(NODEBUG, 'bundled-wiki.json'), `${stringifyKeepingKeyOrder(c, 2)}\n`);
}
const hitFile = answerFile(`${BUNDLED}\n${HIT}`);

// ---------------------------------------------------------------------------------------------
// The cases.

const file = await hitFile;
const thousands = (x) => x.toLocaleString('en-US');

// Questions nobody recorded, each asked afresh: log pages the complete walk proves (synthesized) and
// external links of pages (built-in), 10,000 distinct URLs each, in a fixed random order.
const LE_TYPES = ['', 'create', 'upload', 'block', 'protect', 'move', 'delete', 'newusers', 'patrol', 'rights'];
const SYNTH = [];
for (let limit = 1; limit <= 500; limit++) for (const dir of ['older', 'newer']) for (const t of LE_TYPES) SYNTH.push(`${HIT}&lelimit=${limit}&ledir=${dir}${t ? `&letype=${t}` : ''}`);
const TITLES = ['Alpha', 'Beta', 'Москва', 'Список_ссылок', 'Несуществующая'];
const BUILTIN = [];
for (let limit = 1; limit <= 500; limit++) for (let a = 0; a < TITLES.length; a++) for (let b = a; b < TITLES.length; b++) BUILTIN.push(`action=query&prop=extlinks&format=json&ellimit=${limit}&titles=${encodeURIComponent(a === b ? TITLES[a] : `${TITLES[a]}|${TITLES[b]}`)}`);

/** The main cases on one set of cassettes; `same` adds a bare server writing that case's exact bytes. */
function mainCases(label, dir) {
  const w = (name, query, extra = {}) => ({ name: `wikitape: ${name} (${label})`, kind: 'wikitape', args: [dir], query, same: true, ...extra });
  return [
    { name: `bare node:http, prebuilt buffer: the json hit (${label})`, kind: 'bare', args: ['hit'], query: HIT, dir, baseline: true },
    w('cassette hit, format=json', HIT, { same: false }),
    w('cassette hit, formatversion=2', `${HIT}&formatversion=2`),
    w('cassette hit, jsonfm (HTML)', 'action=query&list=logevents&format=jsonfm'),
    w('cassette hit, no format (HTML)', 'action=query&list=logevents'),
    w('synthesized page (lelimit=7)', `${HIT}&lelimit=7`),
    w('built-in answer (extlinks of two pages)', 'action=query&prop=extlinks&titles=Alpha|Beta&format=json'),
    w(`synthesized pages, ${thousands(SYNTH.length)} distinct questions`, undefined, { urls: SYNTH, same: false }),
    w(`built-in answers, ${thousands(BUILTIN.length)} distinct questions`, undefined, { urls: BUILTIN, same: false }),
  ];
}
const MAIN = [
  ...mainCases('debuginfo on', BUNDLED),
  { name: 'express 5, one route, prebuilt buffer: the json hit (debuginfo on)', kind: 'express', args: [file], query: HIT },
  ...mainCases('debuginfo off', NODEBUG),
];
/** The same bytes' bare baseline of a case: a bare server writing exactly what wikitape answered. */
const sameBytes = (c) => ({ name: `bare, the same bytes as: ${c.name}`, kind: 'bare', args: ['answer'], query: c.query, dir: c.args[0] });
const SIZES = [];
for (const off of [false, true]) {
  const label = off ? 'debuginfo off' : 'debuginfo on';
  const dirOf = off ? NODEBUG : BUNDLED;
  // under the random mix of the 100,000 URLs (the server ignores them): what the mix costs the load generator
  SIZES.push({
    name: `bare node:http, prebuilt buffer: the json hit, random mix of 100,000 URLs (${label})`,
    count: null,
    kind: 'bare',
    args: ['hit'],
    query: HIT,
    dir: dirOf,
    baseline: true,
    group: label,
    prepare: async (c) => {
      c.urls = (await cassettes(off ? '100000-off' : 100_000)).urls;
      return c.args;
    },
  });
  for (const count of [1, 10_000]) {
    SIZES.push({ name: `talkback 4: that same response, ${thousands(count)} tape${count > 1 ? 's' : ''} (${label})`, count, kind: 'talkback', query: HIT, group: label, prepare: async () => [await tapes(`${count}\n${dirOf}`)] });
  }
  for (const count of [1, 10_000, 100_000]) {
    SIZES.push({
      name: `wikitape: cassette of ${thousands(count)} interaction${count > 1 ? 's' : ''}, random mix (${label})`,
      count,
      kind: 'wikitape',
      check: true,
      firstUse: true,
      group: label,
      prepare: async (c) => {
        const { dir, urls } = await cassettes(off ? `${count}-off` : count);
        c.urls = urls;
        return [dir];
      },
    });
  }
}
const RECORD_NAME = 'wikitape record mode: added latency';
const picked = (c) => !ONLY || c.name.toLowerCase().includes(ONLY);
// A table's bare baselines run when any other case of that table does (the ratios need them).
const chosenIn = (table) => {
  const any = table.some((c) => !c.baseline && picked(c));
  return (c) => any && (c.baseline || picked(c));
};
/** Bare cases name their bytes: 'hit' (the json hit of their cassettes) or 'answer' (the case's own). */
async function resolveBare(c) {
  if (c.kind !== 'bare' || !c.dir) return c;
  return { ...c, args: [await answerFile(`${c.dir}\n${c.query}`)] };
}
const mainRows = [];
for (const c of MAIN.filter(chosenIn(MAIN))) {
  const row = await measure(await resolveBare(c));
  row.baselineOf = c.baseline ? c.dir : undefined;
  row.dir = c.args?.[0];
  if (c.same && c.query) row.same = await measure(await resolveBare(sameBytes(c)));
  mainRows.push(row);
}
const sizeRows = [];
for (const c of SIZES.filter(chosenIn(SIZES))) {
  try {
    if (c.prepare) c.args = await c.prepare(c);
  } catch (e) {
    sizeRows.push({ name: c.name, count: c.count, group: c.group, error: e.message });
    continue;
  }
  sizeRows.push({ ...(await measure(await resolveBare(c))), count: c.count, group: c.group, baseline: c.baseline });
}

// ---------------------------------------------------------------------------------------------
// Record mode: the same read requests straight to the live wiki and through `wikitape record`,
// one at a time, alternating (which goes first alternates too), after a warm-up that records them.

const RECORD_QUERIES = [
  'action=query&list=logevents&format=json&formatversion=2',
  'action=query&list=blocks&format=json&formatversion=2',
  'action=query&list=protectedtitles&format=json&formatversion=2',
  'action=query&meta=siteinfo&format=json&formatversion=2',
  'action=query&prop=extlinks&titles=Alpha|Beta&format=json&formatversion=2',
];

async function liveAnswers(url) {
  try {
    const r = await fetch(`${url}?action=query&meta=siteinfo&format=json`, { signal: AbortSignal.timeout(5000) });
    return r.status === 200 && 'general' in ((await r.json()).query ?? {});
  } catch {
    return false;
  }
}

/** The live wiki's URL, started with scripts/live-wiki.sh where that only starts it; else why not. */
async function liveWiki() {
  if (await liveAnswers(LIVE)) return { url: LIVE };
  if (process.env.BENCH_LIVE === 'off') return { skip: 'BENCH_LIVE=off' };
  if (!existsSync('/usr/share/mediawiki/api.php') && process.env.BENCH_LIVE !== 'start') {
    return { skip: `no wiki answers at ${LIVE} and MediaWiki is not installed (run "bash scripts/live-wiki.sh start", which installs Debian packages, or set BENCH_LIVE=start)` };
  }
  log('starting the live wiki: bash scripts/live-wiki.sh start');
  try {
    const out = await run('bash', [new URL('../scripts/live-wiki.sh', import.meta.url).pathname, 'start'], 900);
    const url = out.trim().split('\n').at(-1);
    if (await liveAnswers(url)) return { url, started: true };
    return { skip: `scripts/live-wiki.sh start printed ${url}, which does not answer` };
  } catch (e) {
    return { skip: e.message };
  }
}

/** GET to the end of the body, in ms. */
function timedGet(url, agent) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    request(url, { agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ ms: Number(process.hrtime.bigint() - t) / 1e6, status: res.statusCode }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];

async function recordLatency(live) {
  const dir = join(ROOT, `recorded-${Math.random().toString(36).slice(2)}`);
  const s = await start('record', live, dir);
  const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
  try {
    const pair = async (q, first) => {
      const direct = () => timedGet(`${live}?${q}`, agents[0]);
      const via = () => timedGet(`${s.url}?${q}`, agents[1]);
      if (first === 'direct') {
        const d = await direct();
        return [d, await via()];
      }
      const v = await via();
      return [await direct(), v];
    };
    for (const q of RECORD_QUERIES) for (let i = 0; i < 2; i++) await pair(q, 'direct'); // warm-up; records each question
    const direct = [];
    const via = [];
    const diff = [];
    let errors = 0;
    for (let i = 0; i < RECORD_PAIRS; i++) {
      const [d, v] = await pair(RECORD_QUERIES[i % RECORD_QUERIES.length], i % 2 === 0 ? 'direct' : 'via');
      if (d.status !== 200 || v.status !== 200) errors++;
      direct.push(d.ms);
      via.push(v.ms);
      diff.push(v.ms - d.ms);
    }
    let recorded = 0;
    try {
      recorded = JSON.parse(readFileSync(join(dir, 'bench.json'), 'utf8')).interactions.length;
    } catch {
      // no cassette written: `recorded` stays 0 and the report says so
    }
    return { direct, via, diff, errors, recorded };
  } finally {
    for (const a of agents) a.destroy();
    await stop(s.child);
  }
}

let record = null;
let recordSmall = null;
if (!ONLY || RECORD_NAME.toLowerCase().includes(ONLY)) {
  // Against a local upstream answering at once with the 4.6 KB hit (a production wiki's answer size:
  // the live wiki's answers carry ~100 KB of debuginfo): what the recorder itself costs.
  const upstream = await start('bare', await answerFile(`${NODEBUG}\n${HIT}`));
  try {
    recordSmall = { ...(await recordLatency(upstream.url)), live: `${upstream.url} (a bare node:http server answering the 4.6 KB hit)` };
  } catch (e) {
    recordSmall = { skip: `record server failed: ${e.message}` };
  } finally {
    await stop(upstream.child);
  }
  const live = await liveWiki();
  if (live.skip) record = { skip: live.skip };
  else {
    try {
      record = { ...(await recordLatency(live.url)), live: live.url };
    } catch (e) {
      record = { skip: `record server failed: ${e.message}` };
    }
    if (live.started) await run('bash', [new URL('../scripts/live-wiki.sh', import.meta.url).pathname, 'stop']).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

// Each wikitape row's ratio is to the bare server writing the json hit of the same cassettes (the
// first bare row above it); "same bytes" is to a bare server writing exactly the bytes of that answer.
const mb = (b) => (b == null ? '—' : String(Math.round(b / 1048576)));
const cell = (x) => (x === undefined ? '—' : x);
const r2 = (x, y) => (x !== undefined && y ? (x / y).toFixed(2) : '—');
console.log(`node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${CONNECTIONS} connections, ${DURATION} s per case\n`);
console.log('| case | req/s | ratio to bare | ratio to bare, same bytes | p50 ms | p99 ms | RSS MB | errors |\n|---|---|---|---|---|---|---|---|');
let bare;
for (const r of mainRows) {
  if (r.name.startsWith('bare')) bare = r.rps;
  if (r.error) console.log(`| ${r.name} | failed: ${r.error} | | | | | | |`);
  else console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r2(r.rps, bare)} | ${r.same ? `${r2(r.rps, r.same.rps)} (bare: ${Math.round(r.same.rps)}/s)` : '—'} | ${r.p50} | ${r.p99} | ${mb(r.rss)} | ${r.errors} |`);
}
if (sizeRows.length) {
  console.log('\nStartup is from spawning the server process to its URL (it answers from then on); RSS at ready is');
  console.log('right after that, RSS after load after the measured run. wikitape rows: first every recorded question');
  console.log('once in random order (first use: the rate of that pass), then each request a random one of them');
  console.log('(format=json); talkback rows: the hit tape is in the middle of the load order. Ratios are to the bare');
  console.log('server writing the json hit of the same kind (debuginfo on or off).\n');
  console.log('| case | interactions / tapes | startup s | RSS MB at ready | first use req/s | req/s | ratio to bare | p50 ms | p99 ms | RSS MB after load | errors |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  let base;
  for (const r of sizeRows) {
    if (r.baseline) base = r.rps;
    const count = r.count == null ? '—' : thousands(r.count);
    if (r.error) {
      console.log(`| ${r.name} | ${count} | ${r.startup === undefined ? '—' : r.startup.toFixed(2)} | ${mb(r.rssReady)} | failed: ${r.error} | | | | | | |`);
      continue;
    }
    const errors = r.misses ? `${r.errors} (${r.misses} of 20 sampled not from the cassette)` : r.errors + (r.firstErrors ?? 0);
    const first = r.firstRps === undefined ? '—' : Math.round(r.firstRps);
    console.log(`| ${r.name} | ${count} | ${r.startup.toFixed(2)} | ${mb(r.rssReady)} | ${first} | ${Math.round(r.rps)} | ${r2(r.rps, base)} | ${cell(r.p50)} | ${cell(r.p99)} | ${mb(r.rss)} | ${errors} |`);
  }
}
for (const r of [record, recordSmall]) {
  if (!r) continue;
  console.log('');
  if (r.skip) console.log(`record mode: skipped: ${r.skip}`);
  else {
    const f = (x) => x.toFixed(2);
    const added = percentile(r.via, 50) - percentile(r.direct, 50);
    const paired = percentile(r.diff, 50);
    console.log(`record mode: ${RECORD_PAIRS} pairs of GETs (${RECORD_QUERIES.length} read questions, format=json&formatversion=2), one at a time, alternating, to ${r.live}`);
    console.log(`  straight to the upstream:      p50 ${f(percentile(r.direct, 50))} ms, p99 ${f(percentile(r.direct, 99))} ms`);
    console.log(`  through wikitape record:       p50 ${f(percentile(r.via, 50))} ms, p99 ${f(percentile(r.via, 99))} ms`);
    console.log(`  added at p50: ${f(added)} ms (median of the paired differences ${f(paired)} ms; target under 2 ms: ${paired < 2 && added < 2 ? 'met' : 'not met'}); added at p99: ${f(percentile(r.via, 99) - percentile(r.direct, 99))} ms`);
    console.log(`  errors ${r.errors}; ${r.recorded} interactions recorded`);
  }
}
