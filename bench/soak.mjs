// npm run soak: mixed load on wikitape replay for SOAK_SECONDS (default 600); RSS is sampled
// every 2 s after a warm-up. Fails (exit 1) on any error or 5xx, or when the median RSS of the
// last third of the run is more than 10% above the median of the first third (a leak grows;
// a heap that has settled only swings with each collection).
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

const child = fork(new URL('./server.mjs', import.meta.url), ['wikitape'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const url = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(d.toString().trim())));
const rss = () => new Promise((resolve) => { child.once('message', (m) => resolve(m.rss)); child.send('rss'); });
const requests = paths.map((p) => ({ method: 'GET', path: `${new URL(url).pathname}?${p}` }));

await autocannon({ url, connections: 16, duration: WARMUP, requests });
const base = await rss();
const samples = [];
const sampler = setInterval(async () => samples.push(await rss()), 2000);
const r = await autocannon({ url, connections: 16, duration: SECONDS, requests });
clearInterval(sampler);
const end = await rss();
child.kill();
const mb = (b) => Math.round(b / 1048576);
const third = Math.max(1, Math.floor(samples.length / 3));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const early = median(samples.length ? samples.slice(0, third) : [base]);
const late = median(samples.length ? samples.slice(-third) : [end]);
const growth = (late - early) / early;
console.log(`soak: ${SECONDS} s, ${r.requests.total} requests (${Math.round(r.requests.average)}/s), errors ${r.errors}, timeouts ${r.timeouts}, 5xx ${r['5xx']}`);
console.log(`RSS after warm-up ${mb(base)} MB, at the end ${mb(end)} MB; median of the first third ${mb(early)} MB, of the last third ${mb(late)} MB (${(growth * 100).toFixed(1)}%)`);
if (r.errors > 0 || r.timeouts > 0 || r['5xx'] > 0 || growth > 0.1) process.exit(1);
