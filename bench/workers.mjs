// npm run bench:workers: `wikitape replay --workers 2` against one process, in the same run, with
// the same load generator (autocannon, in this process): a cassette hit and a computed answer
// (a log page at another limit than recorded) of the bundled wiki with debuginfo off, as
// production wikis run. Prints each case's requests per second with one and two workers, the
// ratio, and the load average before and after (the machine may be shared; the ratio needs the
// cores the generator does not use). docs/decisions/0019-many-processes.md.
//
// Env: BENCH_SECONDS (default 5) per measurement; BENCH_WORKERS (default 2); BENCH_ROUNDS
// (default 2: 1, N, 1, N … so that a change in the machine's load shows in both).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
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

/** Requests per second of one case against one server (1 s of warm-up first). */
async function rps(url, { query, vary }) {
  const check = await fetch(`${url}?${query}`);
  await check.arrayBuffer();
  const source = check.headers.get('x-wikitape-source');
  const path = new URL(url).pathname;
  let n = 0;
  const requests = vary ? [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${path}?action=query&list=logevents&lelimit=${(n % 500) + 1}&requestid=${n++}&format=json` }) }] : undefined;
  const options = { url: `${url}?${query}`, connections: CONNECTIONS, ...(requests ? { requests } : {}) };
  await autocannon({ ...options, duration: 1 });
  const r = await autocannon({ ...options, duration: DURATION });
  return { rps: r.requests.average, errors: r.errors + r.non2xx, source };
}

const rows = [];
const before = loadavg();
log(`${cpus().length} cores, load average ${before.map((l) => l.toFixed(2)).join(' ')}; ${DURATION} s per measurement, ${ROUNDS} rounds`);
for (const c of CASES) {
  const got = { 1: [], [WORKERS]: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of [1, WORKERS]) {
      const s = await start(n);
      try {
        const r = await rps(s.url, c);
        if (r.source !== c.source) throw new Error(`${c.name}: answered from ${r.source}, not ${c.source}`);
        if (r.errors > 0) throw new Error(`${c.name}: ${r.errors} errors with ${n} worker(s)`);
        got[n].push(r.rps);
        log(`${c.name}: ${n} worker(s) ${Math.round(r.rps)} req/s`);
      } finally {
        await stop(s.child);
      }
    }
  }
  const best = (l) => Math.max(...l);
  rows.push({ case: c.name, one: Math.round(best(got[1])), many: Math.round(best(got[WORKERS])), ratio: best(got[WORKERS]) / best(got[1]) });
}
const after = loadavg();
console.log(`| case | 1 worker (req/s) | ${WORKERS} workers (req/s) | ratio |`);
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.case} | ${r.one} | ${r.many} | ${r.ratio.toFixed(2)}× |`);
console.log(`\n${cpus().length} cores; load average (1, 5, 15 min) before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${after.map((l) => l.toFixed(2)).join(' ')}; best of ${ROUNDS} rounds of ${DURATION} s; autocannon (${CONNECTIONS} connections) runs in the bench's own process, on the same cores.`);
