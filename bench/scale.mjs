// `npm run bench:scale` (builds, then `node bench/scale.mjs`): how wikitape copes with big wikis.
// For each size it writes the wikis (bench/scale-data.mjs, under SCALE_DIR, default
// /tmp/wikitape-scale; kept for the next run) and measures a replay server in its own process:
//   start            spawn to listening, ready to answer (node's own start included)
//   RSS              at ready
//   first computed   the first answer not recorded (a deep continuation: works out knowledge)
//   deep p50         list=logevents&lelimit=500 from three quarters down, 20 distinct questions
//   type+user p50    list=logevents&letype=…&leuser=…, 20 distinct questions
//   extlinks p50     prop=extlinks of 50 titles of pages the wiki holds, 20 distinct questions, and
//                    where the answers came from (a database with its log walk alone holds no
//                    extlinks recording: its links are unknown, the answer a wikitape-miss)
//   hit / bare       req/s of an exact cassette hit (one recorded walk page, 500 rows) against a bare
//                    node:http server writing the same bytes, in the same run (autocannon, 10
//                    connections, SCALE_HIT_SECONDS each, default 3)
// min / median / max of SCALE_RUNS starts (default 3; 1 for sizes of 1M and more).
// `record into` lines time `wikitape record` appending one answer to the database row's wiki
// against the same into a new database (timeAppend).
// `snapshot` rows time `wikitape snapshot` of a fixture server of N log events (SCALE_SNAPSHOT
// sizes, default 10k,100k), stopped after SCALE_SNAPSHOT_TIMEOUT seconds (default 600).
// Environment: SCALE_SIZES (default 10k,100k; e.g. 10k,100k,1m,10m), SCALE_DIST (the build to
// measure, default dist/), SCALE_ONLY=cassette|database|dbsnapshot|append|fixture|snapshot. The database rows hold
// the issue's wiki: N log events, N/10 pages × 5 links, N/10 blocks, N/100 protected titles; the
// `dbsnapshot` row is that wiki as `wikitape snapshot --store sqlite` records it from a wikitape
// server serving the database row's cassette (the snapshot timed once, kept under SCALE_DIR).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { USERS, logContinue, writeCassette, writeDatabase, writeFixture } from './scale-data.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const DIST = resolve(process.env.SCALE_DIST ?? join(HERE, '..', 'dist'));
const DIR = process.env.SCALE_DIR ?? '/tmp/wikitape-scale';
const parseSize = (s) => Number(s.toLowerCase().replace(/k$/, '000').replace(/m$/, '000000'));
const SIZES = (process.env.SCALE_SIZES ?? '10k,100k').split(',').map(parseSize);
const SNAPSHOTS = (process.env.SCALE_SNAPSHOT ?? '10k,100k').split(',').filter(Boolean).map(parseSize);
const ONLY = process.env.SCALE_ONLY ?? '';
const HIT_SECONDS = Number(process.env.SCALE_HIT_SECONDS ?? 3);
const SNAPSHOT_TIMEOUT = Number(process.env.SCALE_SNAPSHOT_TIMEOUT ?? 600);
const fmt = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));


async function main() {
  process.stdout.write(`scale bench: ${DIST}, node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
  const rows = [];
  const appended = [];
  for (const n of SIZES) {
    const runs = Number(process.env.SCALE_RUNS ?? (n >= 1e6 ? 1 : 3));
    if (!ONLY || ONLY === 'cassette') rows.push(await measure(`cassette, ${fmt(n)} log events`, 'cassettes', await cassetteOf(n), n, runs, false));
    if (!ONLY || ONLY === 'database') {
      const wiki = `${fmt(n)} log events + ${fmt(n / 10)} pages × 5 links + ${fmt(n / 10)} blocks + ${fmt(n / 100)} protected titles`;
      rows.push(await measure(`database cassette, ${wiki}`, 'cassettes', await databaseOf(n, true), n, runs, n / 10));
      // (10M and more: the walk's row alone, ~17 GB on disk; SCALE_ENTITIES=1 writes and measures the other too)
      if (n < 1e7 || process.env.SCALE_ENTITIES) rows.push(await measure(`database cassette, entities only (no recording), ${wiki}`, 'cassettes', await databaseOf(n, false), n, runs, n / 10, false));
    }
    // The database wiki again, as `wikitape snapshot --store sqlite` records it from a wikitape server serving it.
    if (!ONLY || ONLY === 'dbsnapshot') rows.push(await measureSnapshotOf(n, runs));
    if (!ONLY || ONLY === 'append') appended.push(await timeAppend(n));
    if (!ONLY || ONLY === 'fixture') rows.push(await measure(`fixture, ${fmt(n)} log events + ${fmt(n)} pages × 5 links + ${fmt(n)} blocks`, 'fixture', fixtureOf(n), n, runs, true));
  }
  if (rows.length > 0) printTable(rows);
  for (const line of appended) process.stdout.write(`${line}\n`);
  if (!ONLY || ONLY === 'snapshot') for (const n of SNAPSHOTS) process.stdout.write(`${await timeSnapshot(n)}\n`);
  process.stdout.write(`load after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
}

async function cassetteOf(n) {
  const dir = join(DIR, `cassette-${fmt(n)}`);
  const file = join(dir, 'snapshot.json');
  if (!existsSync(file)) {
    const t = performance.now();
    await writeCassette(file, n, n, join(HERE, '..', 'dist'));
    process.stdout.write(`wrote ${file} in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  return dir;
}

/** A database cassette of the issue's wiki at n log events (bench/scale-data.mjs writeDatabase), with its walk or entities only. */
async function databaseOf(n, walk) {
  const dir = join(DIR, `database-${fmt(n)}${walk ? '' : '-entities'}`);
  const file = join(dir, 'snapshot.sqlite');
  if (!existsSync(file)) {
    const t = performance.now();
    await writeDatabase(file, { n, pages: n / 10, links: 5, blocks: n / 10, titles: n / 100, walk }, DIST);
    process.stdout.write(`wrote ${file} in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  return dir;
}

function fixtureOf(n, only = false) {
  const file = join(DIR, only ? `fixture-log-${fmt(n)}.json` : `fixture-${fmt(n)}.json`);
  if (!existsSync(file)) {
    const t = performance.now();
    writeFixture(file, only ? { n, pages: 0, links: 0, blocks: 0 } : { n, pages: n, links: 5, blocks: n });
    process.stdout.write(`wrote ${file} in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  return file;
}

/** Starts a server (`kind` `path`); resolves when it prints its URL. */
function start(args, timeoutS = 600) {
  const t = performance.now();
  const child = spawn(process.execPath, ['--max-old-space-size=8192', ...args], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((res, rej) => {
    const timer = setTimeout(() => {
      child.kill();
      rej(new Error(`not ready after ${timeoutS} s`));
    }, timeoutS * 1000);
    child.stdout.once('data', (d) => {
      clearTimeout(timer);
      res({ child, url: String(d).trim(), startS: (performance.now() - t) / 1000 });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`exited ${code}: ${err.trim().split('\n').slice(-3).join(' / ').slice(0, 300)}`));
    });
  });
}
const rssOf = (child) => new Promise((res) => child.once('message', res) && child.send('rss'));
const stop = (child) => new Promise((res) => (child.exitCode !== null ? res() : (child.once('exit', res), child.kill())));

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** GET url; resolves to { ms, status, headers, body }. */
function get(url) {
  const t = performance.now();
  return new Promise((res, rej) => {
    request(url, { agent }, (r) => {
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => res({ ms: performance.now() - t, status: r.statusCode, headers: r.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', rej)
      .end();
  });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The questions of one run: each list distinct, so no template of an earlier answer serves it. `withPages`: true, or how many pages the wiki has (the titles asked are pages it holds). */
function questions(url, n, withPages) {
  const pages = typeof withPages === 'number' ? withPages : n;
  const q = (s) => `${url}?action=query&format=json&${s}`;
  const deep = Array.from({ length: 20 }, (_, i) => q(`list=logevents&lelimit=500&lecontinue=${encodeURIComponent(logContinue(Math.floor(n / 4) + 7 * i + 3))}`));
  const types = ['delete', 'protect', 'move', 'block', 'upload'];
  const filtered = Array.from({ length: 20 }, (_, i) => q(`list=logevents&letype=${types[i % types.length]}&leuser=User${(i * 7) % USERS}`));
  const titles = (i) => Array.from({ length: 50 }, (_, k) => `Page ${1 + ((i * 7919 + k * 104729) % pages)}`).join('|');
  const links = withPages ? Array.from({ length: 20 }, (_, i) => q(`prop=extlinks&ellimit=max&titles=${encodeURIComponent(titles(i))}`)) : [];
  return { deep, filtered, links };
}

/** The median time of the answers to `urls`; `sources` (a Set) gets where they came from (X-Wikitape-Source: a miss is timed too, and said). */
async function p50(urls, sources = new Set()) {
  const ms = [];
  for (const u of urls) {
    const r = await get(u);
    if (r.status !== 200) throw new Error(`${u}: HTTP ${r.status}`);
    ms.push(r.ms);
    sources.add(r.headers['x-wikitape-source']);
  }
  return median(ms);
}

async function measure(name, kind, path, n, runs, withPages, hits = kind === 'cassettes') {
  const m = { name, start: [], rss: [], first: [], deep: [], filtered: [], links: [], linkSources: new Set(), hit: null };
  process.stdout.write(`${name}:`);
  for (let run = 0; run < runs; run++) {
    let s;
    try {
      s = await start([fileURLToPath(import.meta.url), 'serve', kind, path]);
    } catch (e) {
      process.stdout.write(` fails: ${e.message}\n`);
      return { ...m, fails: e.message };
    }
    try {
      m.start.push(s.startS);
      m.rss.push((await rssOf(s.child)) / 2 ** 20);
      const qs = questions(s.url, n, withPages);
      m.first.push((await get(qs.deep[0])).ms);
      m.deep.push(await p50(qs.deep.slice(1)));
      m.filtered.push(await p50(qs.filtered));
      if (withPages) m.links.push(await p50(qs.links, m.linkSources));
      if (run === 0 && hits) m.hit = await hitRatio(s.url);
    } finally {
      await stop(s.child);
    }
    process.stdout.write(` run ${run + 1}`);
  }
  process.stdout.write('\n');
  return m;
}

/** An exact hit (the walk's first page) against a bare server writing its bytes, req/s each. */
async function hitRatio(url) {
  const { MODULES } = await import(`${DIST}/modules/index.js`);
  const params = MODULES.query.list.find((l) => l.name === 'logevents').snapshot[0];
  const hitUrl = `${url}?action=query&list=logevents&format=json&formatversion=2&${new URLSearchParams(params)}`;
  const answer = await get(hitUrl);
  const file = join(DIR, 'hit.json');
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)));
  writeFileSync(file, JSON.stringify({ headers, body: answer.body.toString('base64') }));
  const bare = await start([join(HERE, 'server.mjs'), 'bare', file]);
  try {
    const load = async (u) => (await autocannon({ url: u, connections: 10, duration: HIT_SECONDS })).requests.average;
    const path = hitUrl.slice(url.length);
    const b = await load(bare.url + path);
    const w = await load(hitUrl);
    return { wikitape: w, bare: b, kb: answer.body.length / 1024 };
  } finally {
    await stop(bare.child);
  }
}

function printTable(rows) {
  const mmm = (xs, unit, digits) => (xs.length === 0 ? '—' : `${[Math.min(...xs), median(xs), Math.max(...xs)].map((x) => x.toFixed(digits)).join(' / ')} ${unit}`);
  process.stdout.write('\n| data held | start | RSS at ready | first computed answer | deep continuation (lelimit=500) p50 | letype+leuser p50 | 50 titles\' extlinks p50 | exact hit / bare (same run) |\n|---|---|---|---|---|---|---|---|\n');
  for (const r of rows) {
    if (r.fails) {
      process.stdout.write(`| ${r.name} | fails: ${r.fails} | | | | | | |\n`);
      continue;
    }
    const hit = r.hit ? `${(r.hit.wikitape / r.hit.bare).toFixed(2)} (${Math.round(r.hit.wikitape)} / ${Math.round(r.hit.bare)} req/s, ${r.hit.kb.toFixed(0)} KB)` : '—';
    process.stdout.write(`| ${r.name} | ${mmm(r.start, 's', 2)} | ${mmm(r.rss, 'MB', 0)} | ${mmm(r.first, 'ms', 0)} | ${mmm(r.deep, 'ms', 1)} | ${mmm(r.filtered, 'ms', 1)} | ${mmm(r.links, 'ms', 1)}${r.links.length ? ` (${[...r.linkSources].join(', ')})` : ''} | ${hit} |\n`);
  }
  process.stdout.write('(min / median / max of the runs)\n\n');
}

/** `wikitape snapshot` of a fixture server of n log events, timed. */
async function timeSnapshot(n) {
  const up = await start([fileURLToPath(import.meta.url), 'serve', 'fixture', fixtureOf(n, true), 'builtin']);
  const out = join(DIR, `snapshot-${fmt(n)}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const t = performance.now();
  try {
    const child = spawn(process.execPath, [join(DIST, 'cli.js'), 'snapshot', '--upstream', up.url, '--cassettes', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill(), SNAPSHOT_TIMEOUT * 1000);
    const code = await new Promise((res) => child.once('exit', (c, sig) => res(sig ?? c)));
    clearTimeout(timer);
    const s = ((performance.now() - t) / 1000).toFixed(1);
    if (code === 'SIGTERM') return `snapshot of ${fmt(n)} log events: unfinished after ${SNAPSHOT_TIMEOUT} s`;
    if (code !== 0) return `snapshot of ${fmt(n)} log events: failed (${code}): ${err.trim().slice(-300)}`;
    return `snapshot of ${fmt(n)} log events: ${s} s`;
  } finally {
    await stop(up.child);
  }
}

/**
 * A row for `wikitape snapshot --store sqlite` of a wikitape server serving databaseOf(n, true):
 * the snapshot timed (kept, with its time, for the next run), then replayed as the other rows are.
 */
async function measureSnapshotOf(n, runs) {
  const out = join(DIR, `dbsnapshot-${fmt(n)}`);
  const timeFile = join(out, 'snapshot-seconds.txt');
  if (!existsSync(timeFile)) {
    // (on-miss builtin: the database's recordings walk the log alone, so the other lists are answered flagged)
    const up = await start([fileURLToPath(import.meta.url), 'serve', 'cassettes', await databaseOf(n, true), 'builtin']);
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const t = performance.now();
    try {
      const child = spawn(process.execPath, ['--max-old-space-size=16384', join(DIST, 'cli.js'), 'snapshot', '--upstream', up.url, '--cassettes', out, '--store', 'sqlite'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise((res) => child.once('exit', (c, sig) => res(sig ?? c)));
      if (code !== 0) return { name: `database snapshot of ${fmt(n)}`, fails: `snapshot ${code}: ${err.trim().slice(-300)}` };
    } finally {
      await stop(up.child);
    }
    writeFileSync(timeFile, `${((performance.now() - t) / 1000).toFixed(1)} s (load ${loadavg()[0].toFixed(1)})`);
  }
  const took = readFileSync(timeFile, 'utf8').trim();
  process.stdout.write(`snapshot --store sqlite of the ${fmt(n)} database: ${took}\n`);
  return measure(`snapshot (--store sqlite, ${took}) of a wikitape server serving the ${fmt(n)} database cassette`, 'cassettes', out, n, runs, n / 10);
}

/**
 * `wikitape record` appending to the database of n log events (a copy of databaseOf(n, true)),
 * against the same recorder making a new database, in the same run: from the recorder's start to
 * its first recorded answer (a log page none holds, from a replay of the bundled wiki), and its
 * peak RSS (Linux), with the recordings written when it stops. Sizes of 10M and more are left out
 * (a copy of ~17 GB).
 */
async function timeAppend(n) {
  if (n >= 1e7) return `record into the ${fmt(n)} database: not measured (its copy would be ~17 GB)`;
  const up = await start([fileURLToPath(import.meta.url), 'serve', 'cassettes', join(HERE, '..', 'cassettes')]);
  try {
    const fresh = await recordOne(join(DIR, 'append-new'), null);
    const held = await recordOne(join(DIR, `append-${fmt(n)}`), join(await databaseOf(n, true), 'snapshot.sqlite'));
    const f = (r) => `${r.firstMs.toFixed(0)} ms to the first recorded answer, peak RSS ${r.peakMb.toFixed(0)} MB`;
    return `record into the ${fmt(n)} database: ${f(held)}; into a new one: ${f(fresh)} (ratio ${(held.firstMs / fresh.firstMs).toFixed(2)}, RSS ${(held.peakMb / fresh.peakMb).toFixed(2)})`;
  } finally {
    await stop(up.child);
  }

  async function recordOne(dir, copyOf) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    if (copyOf) copyFileSync(copyOf, join(dir, 'snapshot.sqlite'));
    const t = performance.now();
    const rec = await start([join(DIST, 'cli.js'), 'record', '--cassettes', dir, '--cassette', 'snapshot', '--store', 'sqlite', '--upstream', up.url, '--port', '0', '--quiet']);
    const url = /(http:\S+)/.exec(rec.url)[1];
    const answer = await get(`${url}?action=query&list=logevents&lelimit=7&leprop=ids%7Ctitle%7Cuser&format=json`);
    if (answer.status !== 200) throw new Error(`record: ${answer.status}`);
    const firstMs = performance.now() - t;
    const peakMb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${rec.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    await new Promise((res) => (rec.child.once('exit', res), rec.child.kill('SIGINT')));
    rmSync(dir, { recursive: true, force: true });
    return { firstMs, peakMb };
  }
}

/** The child: one wikitape server (`node bench/scale.mjs serve cassettes|fixture PATH [ON_MISS]`). */
async function serve(kind, path, onMiss) {
  const { startServer } = await import(`${DIST}/index.js`);
  const s = await startServer({ ...(kind === 'cassettes' ? { cassettes: path } : { fixtures: [path] }), clock: 'real', ...(onMiss ? { onMiss } : {}) });
  process.on('message', () => process.send(process.memoryUsage().rss));
  process.stdout.write(`${s.url}\n`);
}

if (process.argv[2] === 'serve') await serve(process.argv[3], process.argv[4], process.argv[5]);
else await main();
