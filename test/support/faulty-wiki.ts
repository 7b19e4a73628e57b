import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { MAX_UPSTREAM_BYTES } from '../../src/record/recorder.js';

/**
 * A small stand-in for a wiki's api.php that misbehaves on request (test/integration/record-faults.test.ts):
 * the fault is named by the `fault` parameter (in the query, or in the body of a POST).
 */
export const MB = 1 << 20;
/** How many bytes the upstream had handed to its socket when each streamed answer's connection closed. */
export const streamed = new Map<string, number>();
/** Answers served by fault "counter" (each says its own number). */
export let served = 0;

/**
 * Streams an answer of `total` bytes (`head`, then spaces) in 1 MB writes, waiting for the socket
 * to drain, so a body of hundreds of MB is never held; notes how far it got when the connection closed.
 */
function streamBody(res: ServerResponse, name: string, total: number, head: string): void {
  const fill = Buffer.alloc(MB, 0x20);
  let sent = 0;
  res.on('close', () => streamed.set(name, sent));
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      const chunk = sent === 0 ? Buffer.from(head) : fill.subarray(0, Math.min(MB, total - sent));
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** A small upstream that misbehaves on request: the fault is named by the `fault` parameter. */
export function faultyWiki(elsewhere: () => string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    // A POST (the recorder's own formatversion=2 question) names its fault in the body.
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString())) query.set(k, v);
    }
    const fault = query.get('fault');
    const size = Number(query.get('size') ?? 0);
    const ok = JSON.stringify({ batchcomplete: true, query: { logevents: [{ logid: 1, ns: 0, title: 'A', pageid: 1, logpage: 1, params: {}, type: 'create', action: 'create', user: 'U', timestamp: '2024-01-01T00:00:00Z', comment: '' }] } });
    switch (fault) {
      case '500':
        res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal error</h1>');
        return;
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
        return;
      case 'cut':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write(ok.slice(0, 20));
        setTimeout(() => res.destroy(), 20);
        return;
      case 'slow':
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(ok), 2000);
        return;
      case 'gzip':
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' }).end(gzipSync(ok));
        return;
      case 'huge':
        // Larger than the default limit (256 MB), streamed without a Content-Length.
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        streamBody(res, 'huge', MAX_UPSTREAM_BYTES + 32 * MB, ok);
        return;
      case 'sized':
        // JSON padded with spaces to exactly `size` bytes, streamed without a Content-Length.
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        streamBody(res, `sized-${size}`, size, ok);
        return;
      case 'gzip-sized':
        // A small compressed answer that expands to `size` bytes.
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' }).end(gzipSync(ok + ' '.repeat(size - ok.length)));
        return;
      case 'declared-huge-cut':
      case 'declared-cut':
        // Announces 10 GB (over the limit) or 200 MB (under it), sends 1 MB, then breaks off.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': fault === 'declared-cut' ? String(200 * MB) : String(10 * 1024 * MB) });
        res.write(ok + ' '.repeat(MB - ok.length));
        setTimeout(() => res.destroy(), 20);
        return;
      case 'redirect-canonical':
        // The client's question is answered; the recorder's formatversion=2 question (a POST) is
        // sent to another host.
        if (req.method === 'POST') res.writeHead(307, { location: `${elsewhere()}/w/api.php` }).end();
        else res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(ok);
        return;
      case 'counter':
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ batchcomplete: true, query: { logevents: [], served: ++served } }));
        return;
      default:
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(ok);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/w/api.php`, server })));
}
