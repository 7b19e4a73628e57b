// `npm run bench:rounds` (builds, then `node bench/rounds.mjs`): short interleaved rounds, for
// differences the full bench cannot tell from this machine's noise. Per case, every server is up
// at once (a bare node:http server writing exactly the bytes wikitape answers, wikitape from
// dist/, and optionally wikitape from another build); each round loads each of them in turn for
// ROUND_SECONDS (autocannon, 32 connections), the order rotating from round to round, so that a
// burst of other work on the machine falls on all of them alike. Printed per round: requests per
// second and the CPU time each server spent per answer (user + system: what the server costs, less
// moved by other work on the machine than the rate), with the ratios (to bare, and new to old);
// then the medians of the ratios, and the load average.
//
// Env: ROUNDS (default 7), ROUND_SECONDS (default 3), ROUNDS_CASES (comma-separated names from
// the list below; default all), ROUNDS_OLD (another build's dist/ folder, e.g. of an older commit
// in a temporary worktree: its server runs beside this one and "new / old" is printed).
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../dist/util/ordered-json.js';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const SECONDS = Number(process.env.ROUND_SECONDS ?? 3);
const OLD = process.env.ROUNDS_OLD ? resolve(process.env.ROUNDS_OLD) : null;
const SERVER = new URL('./server.mjs', import.meta.url).pathname;
const ROOT = mkdtempSync(join(tmpdir(), 'wikitape-rounds-'));
const BUNDLED = new URL('../cassettes', import.meta.url).pathname;
const NODEBUG = join(ROOT, 'debuginfo-off');
const HIT = 'action=query&list=logevents&format=json';
const CASES = [
  { name: 'hit', label: 'cassette hit, format=json (debuginfo on)', dir: BUNDLED, query: HIT },
  { name: 'hit-off', label: 'cassette hit, format=json (debuginfo off)', dir: NODEBUG, query: HIT },
  { name: 'synth', label: 'synthesized page (lelimit=7) (debuginfo on)', dir: BUNDLED, query: `${HIT}&lelimit=7` },
  { name: 'synth-off', label: 'synthesized page (lelimit=7) (debuginfo off)', dir: NODEBUG, query: `${HIT}&lelimit=7` },
  { name: 'builtin', label: 'built-in answer (extlinks of two pages) (debuginfo on)', dir: BUNDLED, query: 'action=query&prop=extlinks&titles=Alpha|Beta&format=json' },
  { name: 'builtin-off', label: 'built-in answer (extlinks of two pages) (debuginfo off)', dir: NODEBUG, query: 'action=query&prop=extlinks&titles=Alpha|Beta&format=json' },
];
const wanted = (process.env.ROUNDS_CASES ?? '').split(',').filter(Boolean);

const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(ROOT, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

/** `node bench/server.mjs ...args` (with BENCH_DIST for another build); resolves with its child and URL. */
function start(args, dist) {
  const child = fork(SERVER, args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env: { ...process.env, ...(dist ? { BENCH_DIST: dist } : {}) } });
  children.add(child);
  return new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^(https?:\/\/\S+)$/m.exec(out);
      if (m) resolveUrl({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`server ${args[0]} exited (${code}) before it was ready`)));
  });
}

/** Writes the headers and bytes `url` answers to a file, for the bare server. */
async function answerFile(url) {
  const res = await fetch(url);
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)));
  const body = Buffer.from(await res.arrayBuffer());
  const file = join(ROOT, `answer-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ headers, body: body.toString('base64') }));
  return { file, bytes: body.length, source: res.headers.get('x-wikitape-source') };
}

/** The CPU time (µs) a server has used so far. */
const cpu = (child) =>
  new Promise((resolveCpu) => {
    const take = (m) => {
      if (m?.cpu === undefined) return;
      child.off('message', take);
      resolveCpu(m.cpu);
    };
    child.on('message', take);
    child.send('cpu');
  });

/** Loads a server for `duration` s: its requests per second and the CPU µs it spent per answer. */
async function round(server, query, duration) {
  const before = await cpu(server.child);
  const r = await autocannon({ url: `${server.url}?${query}`, connections: 32, duration });
  return { rps: r.requests.average, us: ((await cpu(server.child)) - before) / Math.max(1, r.requests.total) };
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

async function runCase(c) {
  const servers = [{ name: 'new', ...(await start(['wikitape', c.dir])) }];
  if (OLD) servers.push({ name: 'old', ...(await start(['wikitape', c.dir], OLD)) });
  const answer = await answerFile(`${servers[0].url}?${c.query}`);
  servers.unshift({ name: 'bare', ...(await start(['bare', answer.file])) });
  for (const s of servers) await round(s, c.query, 1); // warm-up
  console.log(`\n${c.label}: ${answer.bytes} bytes (${answer.source}), ${ROUNDS} rounds of ${SECONDS} s, load before ${load()}`);
  const names = servers.map((s) => s.name);
  const pairs = OLD ? ['new/bare', 'old/bare', 'new/old'] : ['new/bare'];
  const cols = [...names.map((n) => `${n} req/s`), ...pairs.map((p) => `${p} req/s`), ...names.map((n) => `${n} µs/answer`), ...pairs.map((p) => `${p} µs`)];
  console.log(`| round | ${cols.join(' | ')} |\n|${'---|'.repeat(1 + cols.length)}`);
  const per = Object.fromEntries(pairs.flatMap((p) => [[`${p} req/s`, []], [`${p} µs`, []]]));
  for (let r = 0; r < ROUNDS; r++) {
    const got = {};
    for (let i = 0; i < servers.length; i++) {
      const s = servers[(r + i) % servers.length];
      got[s.name] = await round(s, c.query, SECONDS);
    }
    for (const p of pairs) {
      const [a, b] = p.split('/');
      per[`${p} req/s`].push(got[a].rps / got[b].rps);
      per[`${p} µs`].push(got[a].us / got[b].us);
    }
    const cells = [...names.map((n) => Math.round(got[n].rps)), ...pairs.map((p) => per[`${p} req/s`].at(-1).toFixed(2)), ...names.map((n) => got[n].us.toFixed(1)), ...pairs.map((p) => per[`${p} µs`].at(-1).toFixed(2))];
    console.log(`| ${r + 1} | ${cells.join(' | ')} |`);
  }
  const medians = [...names.map(() => ''), ...pairs.map((p) => median(per[`${p} req/s`]).toFixed(2)), ...names.map(() => ''), ...pairs.map((p) => median(per[`${p} µs`]).toFixed(2))];
  console.log(`| median | ${medians.join(' | ')} |`);
  console.log(`load after ${load()}`);
  for (const s of servers) s.child.kill('SIGKILL');
}

mkdirSync(NODEBUG);
{
  const c = parseKeepingKeyOrder(readFileSync(join(BUNDLED, 'bundled-wiki.json'), 'utf8'));
  c.meta.profile.debugInfo = false;
  writeFileSync(join(NODEBUG, 'bundled-wiki.json'), `${stringifyKeepingKeyOrder(c, 2)}\n`);
}
console.log(`node ${process.version}; new: dist/${OLD ? `; old: ${OLD}` : ''}`);
for (const c of CASES.filter((x) => wanted.length === 0 || wanted.includes(x.name))) await runCase(c);
process.exit(0);
