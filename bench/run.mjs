// npm run bench: wikitape against a bare node:http server writing the same prebuilt bytes, in
// the same run, with the same load generator (autocannon), each server in its own process.
import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const HIT = 'action=query&list=logevents&format=json';

function start(kind, file) {
  const child = fork(new URL('./server.mjs', import.meta.url), [kind, ...(file ? [file] : [])], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  return new Promise((resolve) => child.stdout.once('data', (d) => resolve({ child, url: d.toString().trim() })));
}
const rss = (child) => new Promise((resolve) => { child.once('message', (m) => resolve(m.rss)); child.send('rss'); });

async function load(url) {
  await autocannon({ url, connections: CONNECTIONS, duration: 1 }); // warm-up
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

// The bytes wikitape answers for the hit, for the bare baselines.
const probe = await start('wikitape');
const res = await fetch(`${probe.url}?${HIT}`);
const headers = Object.fromEntries([...res.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)));
const dir = mkdtempSync(join(tmpdir(), 'wikitape-bench-'));
const file = join(dir, 'hit.json');
writeFileSync(file, JSON.stringify({ headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') }));
probe.child.kill();

const cases = [
  ['bare node:http, prebuilt buffer', 'bare', file, HIT],
  ['express 5, one route, prebuilt buffer', 'express', file, HIT],
  ['wikitape: cassette hit, format=json', 'wikitape', undefined, HIT],
  ['wikitape: cassette hit, formatversion=2', 'wikitape', undefined, `${HIT}&formatversion=2`],
  ['wikitape: cassette hit, jsonfm (HTML)', 'wikitape', undefined, 'action=query&list=logevents&format=jsonfm'],
  ['wikitape: cassette hit, no format (HTML)', 'wikitape', undefined, 'action=query&list=logevents'],
  ['wikitape: synthesized page (lelimit=7)', 'wikitape', undefined, `${HIT}&lelimit=7`],
  ['wikitape: built-in answer (extlinks of two pages)', 'wikitape', undefined, 'action=query&prop=extlinks&titles=Alpha|Beta&format=json'],
];
const results = [];
for (const [name, kind, f, query] of cases) {
  const s = await start(kind, f);
  const r = await load(`${s.url}?${query}`);
  results.push({ name, ...r, rss: await rss(s.child) });
  s.child.kill();
}
const bare = results[0].rps;
console.log(`node ${process.version}, ${cpus().length} cores, ${CONNECTIONS} connections, ${DURATION} s per case\n`);
console.log('| case | req/s | ratio to bare | p50 ms | p99 ms | RSS MB | errors |\n|---|---|---|---|---|---|---|');
for (const r of results) console.log(`| ${r.name} | ${Math.round(r.rps)} | ${(r.rps / bare).toFixed(2)} | ${r.p50} | ${r.p99} | ${Math.round(r.rss / 1048576)} | ${r.errors} |`);
