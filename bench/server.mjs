// One benchmark server in its own process: `node bench/server.mjs <kind> [file]`.
// Prints its base URL on stdout; answers { rss, heapUsed } to an IPC "rss" message.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import express from 'express';
import { startServer } from '../dist/index.js';

const [kind, file] = process.argv.slice(2);
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
} else {
  const s = await startServer({ cassettes: file ?? 'cassettes', clock: 'recorded' });
  url = s.url;
}
// With --expose-gc (the soak), a full collection runs first: what is left is what is kept.
process.on('message', (m) => {
  if (m !== 'rss') return;
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.send({ rss, heapUsed });
});
process.stdout.write(`${url}\n`);
