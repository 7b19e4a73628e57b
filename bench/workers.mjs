// npm run bench:workers: `wikitape replay --workers 2` against one process, in the same run: a
// cassette hit and a computed answer (a log page at another limit than recorded) of the bundled
// wiki with debuginfo off, as production wikis run, each loaded by two generators in this process:
// autocannon (a full HTTP client) and bench/pipelined.mjs (raw keep-alive sockets, 8 requests in
// flight per connection, answers skipped unread: a fraction of autocannon's CPU). Prints each
// case's requests per second with one and two workers and the ratio (of the best rates, and the
// median and range of each round's own), and beside them what decides
// it on a shared 2-core machine (Linux /proc): the CPU time per answer of the server's processes
// (primary and workers) and of the generator, and how long the servers' processes waited for a
// core (run queue) while they had work, and how much of their CPU was their main threads' (the rest:
// V8's helper threads). docs/decisions/0019-many-processes.md.
//
// Env: BENCH_SECONDS (default 5) per measurement; BENCH_WORKERS (default 2); BENCH_ROUNDS
// (default 2: 1, N, 1, N … so that a change in the machine's load shows in both);
// BENCH_GENERATORS (default "autocannon,pipelined"); BENCH_CASES (default all, see below).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { pipelined } from './pipelined.mjs';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../dist/util/ordered-json.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 32;
const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const CASES = [
  { name: 'cassette hit (list=logevents)', query: 'action=query&list=logevents&format=json', source: 'cassette' },
  // A distinct lelimit per request (1-500, then again with another requestid): computed each time, never one printed answer reused.
  { name: 'computed (list=logevents, lelimit 1-500)', query: 'action=query&list=logevents&lelimit=7&format=json', source: 'synthesized', vary: true },
];
// BENCH_CASES: the cases to run, by the start of their name ("computed", "cassette hit"); default all.
const ONLY = (process.env.BENCH_CASES ?? '').split(',').filter(Boolean);
const RUN = ONLY.length === 0 ? CASES : CASES.filter((c) => ONLY.some((o) => c.name.startsWith(o)));
if (RUN.length === 0) {
  process.stderr.write(`bench:workers: BENCH_CASES=${process.env.BENCH_CASES} names no case; the cases: ${CASES.map((c) => `"${c.name}"`).join(', ')}\n`);
  process.exit(2);
}
const log = (line) => process.stderr.write(`bench:workers: ${line}\n`);

const ROOT = mkdtempSync(join(tmpdir(), 'wikitape-bench-workers-'));
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(ROOT, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

// The bundled cassette with debuginfo off (a 4.6 KB hit, as bench/run.mjs measures it).
{
  const c = parseKeepingKeyOrder(readFileSync(new URL('../cassettes/bundled-wiki.json', import.meta.url), 'utf8'));
  c.meta.profile.debugInfo = false;
  writeFileSync(join(ROOT, 'bundled-wiki.json'), `${stringifyKeepingKeyOrder(c, 2)}\n`);
}

/** Starts `wikitape replay --workers n`; resolves with its api.php URL once it prints it. */
function start(n) {
  const child = spawn(process.execPath, [CLI, 'replay', '--cassettes', ROOT, '--port', '0', '--quiet', '--workers', String(n)], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /wikitape replay: (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`wikitape --workers ${n} exited (${code}) before it listened: ${err.trim().split('\n').at(-1)}`)));
  });
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * CPU time (µs, user + system) of a process, every thread and its main (JavaScript) thread alone
 * (the rest is V8's helper threads: parallel scavenges, concurrent marking, compiling), and its
 * run-queue wait (µs, main thread), from /proc (Linux); null elsewhere.
 */
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
function procTimes(pid) {
  try {
    const cpuOf = (path) => {
      const stat = readFileSync(path, 'utf8');
      const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      return (Number(f[11]) + Number(f[12])) * TICK_US;
    };
    const waited = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1000;
    return { cpu: cpuOf(`/proc/${pid}/stat`), main: cpuOf(`/proc/${pid}/task/${pid}/stat`), waited };
  } catch {
    return null;
  }
}
/** The primary's pid and its workers' (node:cluster forks them as its children). */
function serverPids(child) {
  try {
    return [child.pid, ...readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)];
  } catch {
    return [child.pid];
  }
}
const GENERATORS = (process.env.BENCH_GENERATORS ?? 'autocannon,pipelined').split(',').filter(Boolean);

/** Loads `url` for `seconds` with a generator and `connections`: { total answers, per second, errors }. */
async function loadOne(generator, url, vary, seconds, connections) {
  const path = new URL(url).pathname;
  let n = 0;
  const next = () => `${path}?action=query&list=logevents&lelimit=${(n % 500) + 1}&requestid=${n++}&format=json`;
  if (generator === 'pipelined') return pipelined({ url, seconds, connections, ...(vary ? { path: next } : {}) });
  const requests = vary ? [{ method: 'GET', setupRequest: (req) => ({ ...req, path: next() }) }] : undefined;
  const r = await autocannon({ url, connections, duration: seconds, ...(requests ? { requests } : {}) });
  return { total: r.requests.total, perSecond: r.requests.average, errors: r.errors + r.non2xx };
}

/** Loads every URL at once, the connections shared out among them; the answers summed. */
async function load(generator, urls, vary, seconds) {
  const each = await Promise.all(urls.map((u) => loadOne(generator, u, vary, seconds, CONNECTIONS / urls.length)));
  return each.reduce((a, r) => ({ total: a.total + r.total, perSecond: a.perSecond + r.perSecond, errors: a.errors + r.errors }), { total: 0, perSecond: 0, errors: 0 });
}

/**
 * One case against one server (1 s of warm-up first): requests per second, and per answer the
 * CPU µs of the primary, of the workers together and of the generator, and the share of the
 * window the servers' processes waited for a core.
 */
async function measure(servers, { query, vary }, generator) {
  const urls = servers.map((s) => `${s.url}?${query}`);
  const check = await fetch(urls[0]);
  await check.arrayBuffer();
  const source = check.headers.get('x-wikitape-source');
  await load(generator, urls, vary, 1);
  const pids = servers.flatMap((s) => serverPids(s.child));
  const before = pids.map(procTimes);
  const mine = process.cpuUsage();
  const started = process.hrtime.bigint();
  const r = await load(generator, urls, vary, DURATION);
  const windowUs = Number(process.hrtime.bigint() - started) / 1e3;
  const used = process.cpuUsage(mine);
  const after = pids.map(procTimes);
  const per = (us) => us / Math.max(1, r.total);
  const spent = pids.map((_, i) => (before[i] && after[i] ? { cpu: after[i].cpu - before[i].cpu, main: after[i].main - before[i].main, waited: after[i].waited - before[i].waited } : null));
  const known = spent.every(Boolean);
  const sum = (list, k) => list.reduce((a, x) => a + x[k], 0);
  return {
    rps: r.perSecond,
    errors: r.errors,
    source,
    primaryUs: known && servers.length === 1 && pids.length > 1 ? per(spent[0].cpu) : null,
    serverUs: known ? per(sum(spent, 'cpu')) : null,
    mainUs: known ? per(sum(spent, 'main')) : null,
    waited: known ? sum(spent, 'waited') / windowUs : null,
    generatorUs: per(used.user + used.system),
  };
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const fixed = (x, d = 0) => (x === null ? 'n/a' : x.toFixed(d));

/**
 * What is compared: one process; `--workers N`; and, as the control, N separate one-process
 * servers, each on its own port with its share of the connections (no cluster, no shared state):
 * what N processes get from this machine at all. The workers' CPU per answer against the control's
 * tells what `--workers` itself costs.
 */
const SETUPS = [
  { key: 'one', label: '1 process', start: async () => [await start(1)] },
  { key: 'workers', label: `--workers ${WORKERS}`, start: async () => [await start(WORKERS)] },
  { key: 'apart', label: `${WORKERS} separate processes`, start: () => Promise.all(Array.from({ length: WORKERS }, () => start(1))) },
];

const rows = [];
const before = loadavg();
log(`${cpus().length} cores, load average ${before.map((l) => l.toFixed(2)).join(' ')}; ${DURATION} s per measurement, ${ROUNDS} rounds, generators ${GENERATORS.join(', ')}`);
for (const c of RUN) {
  for (const generator of GENERATORS) {
    const got = Object.fromEntries(SETUPS.map((x) => [x.key, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const setup of SETUPS) {
        const servers = await setup.start();
        try {
          const r = await measure(servers, c, generator);
          if (r.source !== c.source) throw new Error(`${c.name}: answered from ${r.source}, not ${c.source}`);
          if (r.errors > 0) throw new Error(`${c.name}: ${r.errors} errors with ${setup.label}`);
          got[setup.key].push(r);
          log(`${c.name}, ${generator}: ${setup.label} ${Math.round(r.rps)} req/s; CPU µs per answer: server ${fixed(r.serverUs, 1)} (main threads ${fixed(r.mainUs, 1)}${r.primaryUs === null ? '' : `, primary ${fixed(r.primaryUs, 1)}`}), generator ${fixed(r.generatorUs, 1)}; servers waited for a core ${fixed(r.waited === null ? null : r.waited * 100)} % of the time; load ${loadavg()[0].toFixed(2)}`);
        } finally {
          for (const s of servers) await stop(s.child);
        }
      }
    }
    const best = (k) => Math.max(...got[k].map((r) => r.rps));
    const m = (k, field) => median(got[k].map((r) => r[field]));
    const all = Object.values(got).flat();
    // Each round measures the setups back to back: its own ratios see the same machine (the median and range of those beside the best rates).
    const perRound = (k) => got[k].map((r, i) => r.rps / got.one[i].rps).sort((a, b) => a - b);
    const perSetup = (of) => Object.fromEntries(SETUPS.map((x) => [x.key, of(x.key)]));
    rows.push({ case: c.name, generator, rounds: Object.fromEntries(['workers', 'apart'].map((k) => [k, perRound(k)])), rps: perSetup(best), cpu: perSetup((k) => m(k, 'serverUs')), main: perSetup((k) => m(k, 'mainUs')), wait: perSetup((k) => m(k, 'waited')), primary: m('workers', 'primaryUs'), generatorUs: median(all.map((r) => r.generatorUs)) });
  }
}
const after = loadavg();
const pct = (x) => (x === null ? 'n/a' : `${Math.round(x * 100)} %`);
console.log(`| case | generator | 1 process (req/s) | --workers ${WORKERS} (req/s) | ratio | per round: median (range) | ${WORKERS} separate processes (req/s) | ratio | per round | server CPU µs per answer: 1 / workers / separate | of which main threads | of which the primary | generator CPU µs per answer | servers waited for a core: 1 / workers / separate |`);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const keys = SETUPS.map((x) => x.key);
  const spread = (list) => `${median(list).toFixed(2)}× (${list[0].toFixed(2)}–${list.at(-1).toFixed(2)})`;
  console.log(`| ${r.case} | ${r.generator} | ${Math.round(r.rps.one)} | ${Math.round(r.rps.workers)} | ${(r.rps.workers / r.rps.one).toFixed(2)}× | ${spread(r.rounds.workers)} | ${Math.round(r.rps.apart)} | ${(r.rps.apart / r.rps.one).toFixed(2)}× | ${spread(r.rounds.apart)} | ${keys.map((k) => fixed(r.cpu[k])).join(' / ')} | ${keys.map((k) => fixed(r.main[k])).join(' / ')} | ${fixed(r.primary, 1)} | ${fixed(r.generatorUs)} | ${keys.map((k) => pct(r.wait[k])).join(' / ')} |`);
}
console.log(`\n${cpus().length} cores; load average (1, 5, 15 min) before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${after.map((l) => l.toFixed(2)).join(' ')}; req/s: best of ${ROUNDS} rounds of ${DURATION} s (each round runs the setups in turn; "per round": the ratios within each round); CPU and waits: medians ("main threads": the servers' JavaScript threads, the rest is V8's helper threads); ${CONNECTIONS} connections in all, the generators in the bench's own process, on the same cores. "Waited for a core": run-queue time of the servers' main threads, summed, as a share of the window (2 processes that each waited half the time: 100 %).`);
