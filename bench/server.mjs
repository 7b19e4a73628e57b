// One benchmark server in its own process: `node bench/server.mjs <kind> [args]`:
//   bare FILE | express FILE       the response in FILE (headers, base64 body) for every request
//   wikitape [DIR]                 wikitape replay of the cassettes in DIR (default cassettes/)
//   talkback DIR                   talkback 4 replaying the tapes in DIR (recording off)
//   record UPSTREAM DIR            wikitape record mode in front of UPSTREAM, cassette DIR/bench.json
// Prints its api.php URL on stdout once it answers; answers { rss, heapUsed } to an IPC "rss" message
// and { cpu } (µs used so far) to "cpu".
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';

// BENCH_DIST: another build's dist/ folder (bench/rounds.mjs runs an older commit beside this one).
const dist = process.env.BENCH_DIST ? pathToFileURL(join(process.env.BENCH_DIST, 'index.js')).href : '../dist/index.js';
const { startServer } = await import(dist);

const [kind, file, dir] = process.argv.slice(2);
let url;
if (kind === 'bare' || kind === 'express') {
  const { headers, body } = JSON.parse(readFileSync(file, 'utf8'));
  const buf = Buffer.from(body, 'base64');
  const handler = (_req, res) => {
    res.writeHead(200, headers);
    res.end(buf);
  };
  const server = kind === 'bare' ? createServer(handler) : createServer(express().get('/wiki/api.php', handler));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${server.address().port}/wiki/api.php`;
} else if (kind === 'talkback') {
  // Replay only: a request no tape matches gets talkback's 404. Tapes match on method and URL
  // (allowHeaders [] leaves headers out, as the load generator's Host differs per run).
  const { default: talkback } = await import('talkback'); // (loaded here only: not in wikitape's startup)
  const tb = talkback({
    path: file,
    port: 0,
    host: 'http://127.0.0.1:8088', // recorded from (never contacted: recording is off)
    record: talkback.Options.RecordMode.DISABLED,
    fallbackMode: talkback.Options.FallbackMode.NOT_FOUND,
    allowHeaders: [],
    silent: true,
    summary: false,
  });
  let listening;
  const ready = new Promise((resolve) => (listening = resolve));
  const server = await tb.start(() => listening()); // loads every tape, then listens
  await ready;
  url = `http://127.0.0.1:${server.address().port}/wiki/api.php`;
} else if (kind === 'record') {
  // --mode all: every request goes to the wiki (and is stored again), so the case measures what
  // the proxy adds; with --mode new the repeated questions would be answered from the cassette.
  const s = await startServer({ mode: 'record', upstream: file, cassettes: dir, cassette: 'bench', recordMode: 'all' });
  url = s.url;
} else {
  // The real clock, as users run it (answers that follow the clock are printed afresh each second).
  const s = await startServer({ cassettes: file ?? 'cassettes' });
  url = s.url;
}
// With --expose-gc (the soak), a full collection runs first: what is left is what is kept.
// "cpu": the CPU time (user + system, µs) this process has used so far (bench/rounds.mjs).
process.on('message', (m) => {
  if (m === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: user + system });
  }
  if (m !== 'rss') return;
  globalThis.gc?.();
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  process.send({ rss, heapUsed, arrayBuffers });
});
process.stdout.write(`${url}\n`);
