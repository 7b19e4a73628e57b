// `npm run bench:same-process` (builds, then `node bench/same-process.mjs`): a bare node:http
// server writing exactly the bytes wikitape answers, wikitape from dist/ and optionally another
// build (SAME_OLD=/path/to/dist), all in ONE process, each on its own port; a load generator in a
// child process loads them in turn in short slices (SLICE_SECONDS, default 0.5; SLICES rounds,
// default 24, the order rotating), and the CPU time this process spent per answer is taken per
// slice. Other work on a shared machine then falls on all of them alike, slice by slice, which
// separate processes measured seconds apart (bench/rounds.mjs) do not get: on this 2-core machine
// at load 8 the slice-by-slice ratio moves by a few per cent where rounds move by tens.
// Prints the medians of CPU per answer and of the per-slice ratios.
//
// Env: SAME_DIR (cassettes, default the bundled ones), SAME_QUERY (default the logevents hit),
// SAME_GENERATOR (pipelined, the default: bench/pipelined.mjs, 4 in flight per connection; or
// autocannon), SAME_OLD.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const GENERATOR = process.env.SAME_GENERATOR ?? 'pipelined';

if (process.argv[2] === 'generator') {
  const { pipelined } = await import('./pipelined.mjs');
  const { default: autocannon } = await import('autocannon');
  process.on('message', async ({ url, seconds }) => {
    if (GENERATOR === 'autocannon') {
      const r = await autocannon({ url, connections: 32, duration: seconds });
      process.send({ total: r.requests.total, perSecond: r.requests.total / seconds });
    } else process.send(await pipelined({ url, seconds, connections: 32, depth: 4 }));
  });
} else {
  const dir = process.env.SAME_DIR ?? new URL('../cassettes', import.meta.url).pathname;
  const query = process.env.SAME_QUERY ?? 'action=query&list=logevents&format=json';
  const slices = Number(process.env.SLICES ?? 24);
  const seconds = Number(process.env.SLICE_SECONDS ?? 0.5);
  const serve = async (dist) => (await import(dist)).startServer({ cassettes: dir });
  const servers = { new: await serve(new URL('../dist/index.js', import.meta.url).href) };
  if (process.env.SAME_OLD) servers.old = await serve(pathToFileURL(join(resolve(process.env.SAME_OLD), 'index.js')).href);
  const res = await fetch(`${servers.new.url}?${query}`);
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)));
  const body = Buffer.from(await res.arrayBuffer());
  const bare = createServer((_req, out) => {
    out.writeHead(200, headers);
    out.end(body);
  });
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const urls = { bare: `http://127.0.0.1:${bare.address().port}/wiki/api.php?${query}`, ...Object.fromEntries(Object.entries(servers).map(([k, s]) => [k, `${s.url}?${query}`])) };
  const generator = fork(new URL(import.meta.url).pathname, ['generator'], { stdio: 'inherit' });
  const run = (url, s) => new Promise((r) => (generator.once('message', r), generator.send({ url, seconds: s })));
  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const names = Object.keys(urls);
  const per = Object.fromEntries(names.map((n) => [n, []]));
  console.log(`node ${process.version}; ${body.length} bytes (${res.headers.get('x-wikitape-source')}); ${slices} rounds of ${seconds} s slices, generator ${GENERATOR}; load before ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  for (const n of names) await run(urls[n], 1); // warm-up
  for (let i = 0; i < slices; i++) {
    for (let j = 0; j < names.length; j++) {
      const n = names[(i + j) % names.length];
      const before = cpu();
      const r = await run(urls[n], seconds);
      per[n].push({ us: (cpu() - before) / Math.max(1, r.total), rps: r.perSecond });
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const n of names) console.log(`${n}: CPU µs per answer ${median(per[n].map((x) => x.us)).toFixed(1)}, req/s ${Math.round(median(per[n].map((x) => x.rps)))} (medians)`);
  const pairs = [['new', 'bare'], ...(servers.old ? [['old', 'bare'], ['new', 'old']] : [])];
  for (const [a, b] of pairs) console.log(`${a}/${b}: CPU per answer ${median(per[a].map((x, i) => x.us / per[b][i].us)).toFixed(2)}, req/s ${median(per[a].map((x, i) => x.rps / per[b][i].rps)).toFixed(2)} (medians of the rounds' ratios)`);
  console.log(`load after ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  generator.kill();
  process.exit(0);
}
