// npm run soak: mixed load on wikitape replay for SOAK_SECONDS (default 600); RSS is sampled
// every 2 s after a warm-up, each time right after a full collection in the server (--expose-gc),
// so a sample shows what the server keeps, not how much garbage waits for the next collection.
// The server starts with V8's young generation at its full size (--min-semi-space-size=16): V8
// otherwise grows it once, at some moment under load, a one-time step of ~15 MB that is no leak
// (seen: flat at 88 MB, then 104 MB for the rest of the run, heap kept and buffers unchanged).
// Fails (exit 1) on any error or 5xx, or when the median RSS of the last third of the run is more
// than 10% above the median of the first third (a leak grows; a settled heap stays flat).
import { fork } from 'node:child_process';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const WARMUP = Math.min(30, Math.max(10, Math.floor(SECONDS / 10)));
const paths = [
  'action=query&list=logevents&format=json', // cassette hit
  'action=query&list=logevents&format=json&formatversion=2',
  'action=query&list=logevents&lelimit=7&ledir=newer&format=json', // synthesized
  'action=query&list=blocks&bklimit=3&format=json',
  'action=query&prop=extlinks&titles=Alpha|Beta&format=json', // built-in
  'action=query&list=logevents&ledir=up&format=json', // error
  'action=parse&summary=%5B%5B%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0%5D%5D%D1%8B&prop=&format=json',
  'action=query&list=protectedtitles', // HTML page
];

const child = fork(new URL('./server.mjs', import.meta.url), ['wikitape'], { execArgv: ['--expose-gc', '--min-semi-space-size=16'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const url = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(d.toString().trim())));
const memory = () => new Promise((resolve) => { child.once('message', resolve); child.send('rss'); });
const requests = paths.map((p) => ({ method: 'GET', path: `${new URL(url).pathname}?${p}` }));

await autocannon({ url, connections: 16, duration: WARMUP, requests });
const base = await memory();
const samples = [];
const sampler = setInterval(async () => samples.push(await memory()), 2000);
const r = await autocannon({ url, connections: 16, duration: SECONDS, requests });
clearInterval(sampler);
const end = await memory();
child.kill();
const mb = (b) => Math.round(b / 1048576);
const third = Math.max(1, Math.floor(samples.length / 3));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const series = (field) => (samples.length ? samples : [base, end]).map((s) => s[field]);
const early = median(series('rss').slice(0, third));
const late = median(series('rss').slice(-third));
const heapEarly = median(series('heapUsed').slice(0, third));
const heapLate = median(series('heapUsed').slice(-third));
const growth = (late - early) / early;
console.log(`soak: ${SECONDS} s, ${r.requests.total} requests (${Math.round(r.requests.average)}/s), errors ${r.errors}, timeouts ${r.timeouts}, 5xx ${r['5xx']}`);
console.log(`RSS after warm-up ${mb(base.rss)} MB, at the end ${mb(end.rss)} MB; median of the first third ${mb(early)} MB, of the last third ${mb(late)} MB (${(growth * 100).toFixed(1)}%)`);
console.log(`heap in use after a full collection: median of the first third ${mb(heapEarly)} MB, of the last third ${mb(heapLate)} MB; buffers ${mb(median(series('arrayBuffers').slice(0, third)))} MB and ${mb(median(series('arrayBuffers').slice(-third)))} MB`);
if (process.env.SOAK_SAMPLES) console.log(samples.map((x) => `${mb(x.rss)}/${mb(x.arrayBuffers)}`).join(' '));
if (r.errors > 0 || r.timeouts > 0 || r['5xx'] > 0 || growth > 0.1) process.exit(1);
