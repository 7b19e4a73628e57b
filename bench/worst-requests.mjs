// The costliest single requests (docs/RELIABILITY.md, "Bounded cost"): each sent alone to a fresh
// wikitape replay server (its own process), timed by the client; the server's CPU time (user +
// system, /proc/<pid>/stat) and its peak RSS above the idle server (VmHWM, /proc/<pid>/status)
// are read before and after. Fails (exit 1) when a request takes more than the stated ceiling:
// CEILING_CPU_MS (default 2000) of CPU or CEILING_MB (default 256) of memory above idle; a case
// with its own `mb` is held to that (the HTML pages of a big answer are written in byte chunks,
// made in one pass: at 197-261 MB when they were whole strings, they are held to well under).
//   npm run build && node bench/worst-requests.mjs
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';

const CPU_MS = Number(process.env.CEILING_CPU_MS ?? 2000);
const MB = Number(process.env.CEILING_MB ?? 256);
const PAGE_MB = Math.min(MB, Number(process.env.CEILING_PAGE_MB ?? 176)); // the HTML pages of the 5.9 MB answer
const TICK_MS = 10; // USER_HZ 100 (sysconf(_SC_CLK_TCK) on Linux)

const qs = (o) => new URLSearchParams(o).toString();
const manyParams = (n, size) => Array.from({ length: n }, (_, i) => `p${i}=${'x'.repeat(size)}`).join('&');
const multipart = (n, size) => {
  const b = 'wikitapeboundary';
  const parts = Array.from({ length: n }, (_, i) => `--${b}\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\n${'x'.repeat(size)}\r\n`).join('');
  return { body: `${parts}--${b}--\r\n`, type: `multipart/form-data; boundary=${b}` };
};
const cyrillicLinks = (n) => Array.from({ length: n }, (_, i) => `[[Ая${i}|б]]`).join('');
const urls = (n) => Array.from({ length: n }, (_, i) => `http://spam${i}.example.com/path/${i}`).join('|');

const ONLY = process.env.WORST_ONLY ? new RegExp(process.env.WORST_ONLY) : null; // run the cases whose name matches

const CASES = [
  { name: 'GET, a 900 KB query string (one value)', get: qs({ action: 'query', list: 'logevents', letitle: 'x'.repeat(900_000), format: 'json' }) },
  { name: 'GET, 30,000 parameters (600 KB)', get: `action=query&list=blocks&format=json&${manyParams(30_000, 10)}` },
  { name: 'POST urlencoded, 7.6 MB: 900,000 parameters', post: `action=query&list=blocks&format=json&${manyParams(900_000, 1).slice(0, 7_600_000)}`, type: 'application/x-www-form-urlencoded' },
  { name: 'POST urlencoded, 7.9 MB in one value', post: qs({ action: 'parse', summary: 'x'.repeat(7_900_000), prop: '', format: 'json' }), type: 'application/x-www-form-urlencoded' },
  { name: 'POST multipart, 7.5 MB: 100,000 parts', ...(() => { const m = multipart(100_000, 10); return { post: `--wikitapeboundary\r\nContent-Disposition: form-data; name="action"\r\n\r\nquery\r\n${m.body}`, type: m.type }; })() },
  { name: 'POST, over 8 MB (9 MB)', post: `action=query&format=json&x=${'y'.repeat(9_000_000)}`, type: 'application/x-www-form-urlencoded' },
  { name: 'parse summary: [[a| × 25,600', post: qs({ action: 'parse', summary: '[[a|'.repeat(25_600), prop: '', format: 'json' }), type: 'application/x-www-form-urlencoded' },
  { name: 'parse summary: /* × 34,000', post: qs({ action: 'parse', summary: '/* '.repeat(34_000), prop: '', format: 'json' }), type: 'application/x-www-form-urlencoded' },
  { name: 'parse summary: [[a]] × 200,000 (1.2 MB of links)', post: qs({ action: 'parse', summary: '[[a]]'.repeat(200_000), prop: '', format: 'json' }), type: 'application/x-www-form-urlencoded' },
  { name: 'parse summary: 180,000 distinct links [[a1]][[a2]]… (1.6 MB)', post: qs({ action: 'parse', summary: Array.from({ length: 180_000 }, (_, i) => `[[a${i}]]`).join(''), prop: '', format: 'json' }), type: 'application/x-www-form-urlencoded' },
  { name: 'parse summary: 150,000 Cyrillic piped links [[Ая1|б]]… (5.9 MB), the HTML page', mb: PAGE_MB, post: qs({ action: 'parse', summary: cyrillicLinks(150_000), prop: '' }), type: 'application/x-www-form-urlencoded' },
  { name: 'parse summary: 150,000 Cyrillic piped links, jsonfm', mb: PAGE_MB, post: qs({ action: 'parse', summary: cyrillicLinks(150_000), prop: '', format: 'jsonfm', formatversion: '2' }), type: 'application/x-www-form-urlencoded' },
  { name: 'spamblacklist, 400,000 URLs in the query string (16 MB, over the 1 MB header limit)', get: qs({ action: 'spamblacklist', url: urls(400_000), format: 'json' }) },
  { name: 'spamblacklist, 150,000 URLs (7.5 MB POST)', post: qs({ action: 'spamblacklist', url: urls(150_000), format: 'json' }), type: 'application/x-www-form-urlencoded' },
  { name: 'spamblacklist, 500 URLs (over the 50 an anonymous caller may send)', post: qs({ action: 'spamblacklist', url: urls(500), format: 'json' }), type: 'application/x-www-form-urlencoded' },
  { name: 'logevents, limit max, every prop, HTML page', get: qs({ action: 'query', list: 'logevents', lelimit: 'max', leprop: 'ids|title|type|user|userid|timestamp|comment|parsedcomment|details|tags' }) },
  { name: 'extlinks of 50 titles, limit max', get: qs({ action: 'query', prop: 'extlinks', titles: Array.from({ length: 50 }, (_, i) => `Title ${i}`).join('|'), ellimit: 'max', format: 'json' }) },
];

function procStats(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { cpuMs, hwmMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}

const rows = [];
let failed = false;
for (const c of CASES.filter((x) => !ONLY || ONLY.test(x.name))) {
  const child = fork(new URL('./server.mjs', import.meta.url), ['wikitape'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const url = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(d.toString().trim())));
  await fetch(`${url}?action=query&meta=siteinfo&format=json`); // warm: first-request set-up is not the case's cost
  await new Promise((r) => setTimeout(r, 200));
  const before = procStats(child.pid);
  const t0 = performance.now();
  const r = c.get !== undefined ? await fetch(`${url}?${c.get}`) : await fetch(url, { method: 'POST', body: c.post, headers: { 'content-type': c.type } });
  const text = await r.text();
  const ms = performance.now() - t0;
  const after = procStats(child.pid);
  child.kill();
  const cpu = after.cpuMs - before.cpuMs;
  const mem = after.hwmMb - before.rssMb;
  const code = /"code":"([^"]+)"/.exec(text)?.[1] ?? (r.status === 200 ? 'answer' : `HTTP ${r.status}`);
  const over = cpu > CPU_MS || mem > (c.mb ?? MB);
  failed ||= over || r.status >= 500;
  rows.push(`| ${c.name} | ${r.status} ${code} | ${ms.toFixed(0)} ms | ${cpu} ms | ${mem.toFixed(0)} MB${c.mb ? ` (ceiling ${c.mb} MB)` : ''} |${over ? ' OVER THE CEILING' : ''}`);
}
console.log(`| request | answer | time (client) | server CPU | server memory above idle (peak) |\n|---|---|---|---|---|\n${rows.join('\n')}`);
console.log(`ceiling: ${CPU_MS} ms CPU, ${MB} MB above the idle server, per request`);
if (failed) process.exit(1);
