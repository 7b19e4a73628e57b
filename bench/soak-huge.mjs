// npm run soak (second part): a stream of distinct huge requests against wikitape replay for
// SOAK_SECONDS (default 120), from 4 clients at once: 500-900 KB query strings, 7.5 MB urlencoded
// and multipart POSTs, bodies over PHP's 8 MB, long summaries, 150,000-URL spam checks, 7 MB
// anonymous edits and reads of the write log, suite headers spelled anew, each one different
// (nothing a cache could keep). The server's resident memory is read from
// /proc/<pid>/status every 250 ms. Fails (exit 1) on any 5xx or connection error, or when the
// server's peak RSS (VmHWM) passes the stated ceiling SOAK_HUGE_CEILING_MB (default 512).
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const CEILING_MB = Number(process.env.SOAK_HUGE_CEILING_MB ?? 512);
const CLIENTS = 4;

const rand = () => Math.random().toString(36).slice(2);
const qs = (o) => new URLSearchParams(o).toString();
const kinds = [
  () => ({ get: qs({ action: 'query', list: 'logevents', letitle: rand().repeat(60_000).slice(0, 500_000 + Math.floor(Math.random() * 400_000)), format: 'json' }) }),
  () => ({ get: `action=query&list=blocks&format=json&${Array.from({ length: 25_000 }, (_, i) => `${rand()}${i}=${rand()}`).join('&')}` }),
  () => ({ post: `action=query&list=blocks&format=json&${Array.from({ length: 600_000 }, (_, i) => `p${i}=${i % 7}`).join('&')}&salt=${rand()}`, type: 'application/x-www-form-urlencoded' }),
  () => {
    const b = `b${rand()}`;
    const parts = Array.from({ length: 80_000 }, (_, i) => `--${b}\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\n${rand()}\r\n`).join('');
    return { post: `--${b}\r\nContent-Disposition: form-data; name="action"\r\n\r\nquery\r\n${parts}--${b}--\r\n`, type: `multipart/form-data; boundary=${b}` };
  },
  () => ({ post: `action=query&format=json&x=${rand().repeat(800_000)}`, type: 'application/x-www-form-urlencoded' }), // over 8 MB
  () => ({ post: qs({ action: 'parse', summary: Array.from({ length: 120_000 }, (_, i) => `[[${rand()}${i}]]`).join(''), prop: '', format: 'json' }), type: 'application/x-www-form-urlencoded' }),
  () => ({ post: qs({ action: 'parse', summary: `/* ${rand()} */ `.repeat(30_000) + '[[a|'.repeat(20_000), prop: '', format: 'json' }), type: 'application/x-www-form-urlencoded' }),
  () => ({ post: qs({ action: 'spamblacklist', url: Array.from({ length: 150_000 }, (_, i) => `http://${rand()}.example/${i}`).join('|'), format: 'json' }), type: 'application/x-www-form-urlencoded' }),
  // An anonymous edit of 7 MB (kept in the write log, cut), and the write log read back (must answer 200).
  () => ({ post: qs({ action: 'edit', title: rand(), text: rand().repeat(700_000), token: '+\\', format: 'json' }), type: 'application/x-www-form-urlencoded' }),
  () => ({ path: '/_wikitape/writes' }),
  // A suite header spelled anew each time (one engine for all), and one naming a cassette that is not there (404).
  () => ({ get: qs({ action: 'query', meta: 'siteinfo', format: 'json', r: rand() }), headers: { 'x-wikitape-cassette': Array.from({ length: 1 + Math.floor(Math.random() * 500) }, () => `${' '.repeat(Math.floor(Math.random() * 3))}bundled-wiki`).join(',') } }),
  () => ({ get: qs({ action: 'query', meta: 'siteinfo', format: 'json' }), headers: { 'x-wikitape-cassette': `bundled-wiki,${rand()}` } }),
];

// SOAK_HEAP_MB: run the server with that V8 old-space limit (--max-old-space-size), as one would to bound it.
const execArgv = process.env.SOAK_HEAP_MB ? [`--max-old-space-size=${process.env.SOAK_HEAP_MB}`] : [];
const only = process.env.SOAK_KINDS ? process.env.SOAK_KINDS.split(',').map(Number) : null;
if (only) kinds.splice(0, kinds.length, ...only.map((i) => kinds[i]));
const child = fork(new URL('./server.mjs', import.meta.url), ['wikitape'], { execArgv, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
const url = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(d.toString().trim())));
const status = () => {
  const s = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
};
await fetch(`${url}?action=query&meta=siteinfo&format=json`);
const idle = status().rss;
const samples = [];
const sampler = setInterval(() => samples.push(status().rss), 250);

let requests = 0;
let errors = 0;
let fivexx = 0;
const deadline = Date.now() + SECONDS * 1000;
await Promise.all(
  Array.from({ length: CLIENTS }, async (_, w) => {
    for (let k = w; Date.now() < deadline; k++) {
      const c = kinds[k % kinds.length]();
      try {
        const r =
          c.path !== undefined ? await fetch(new URL(c.path, url)) : c.get !== undefined ? await fetch(`${url}?${c.get}`, { headers: c.headers ?? {} }) : await fetch(url, { method: 'POST', body: c.post, headers: { 'content-type': c.type } });
        await r.arrayBuffer();
        if (r.status >= 500) fivexx++;
      } catch {
        errors++;
      }
      requests++;
    }
  }),
);
clearInterval(sampler);
const { hwm, rss } = status();
child.kill();
const mb = (x) => Math.round(x);
const sorted = [...samples].sort((a, b) => a - b);
console.log(`soak of distinct huge requests: ${SECONDS} s, ${requests} requests from ${CLIENTS} clients, errors ${errors}, 5xx ${fivexx}`);
console.log(`server RSS idle ${mb(idle)} MB; under load median ${mb(sorted[Math.floor(sorted.length / 2)] ?? rss)} MB, peak (VmHWM) ${mb(hwm)} MB; at the end ${mb(rss)} MB; ceiling ${CEILING_MB} MB`);
if (errors > 0 || fivexx > 0 || hwm > CEILING_MB) process.exit(1);
