// A cheap load generator for bench/workers.mjs: keep-alive connections over raw sockets, each
// with `depth` requests in flight (HTTP/1.1 pipelining), reading only what it needs of each answer
// (the status line and Content-Length; the body is skipped, never decoded or copied), into one
// buffer per connection reused for every read. autocannon
// parses every answer with a full HTTP parser, which on a 2-core machine takes a large share of the
// cores the servers are measured on; this one costs a fraction of that (bench/RESULTS.md).
// Answers must carry Content-Length (wikitape's and the bare server's do): a chunked one would be
// misread, and the next answer counted as an error.
import { connect } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');
const LENGTH = /\r\ncontent-length: *(\d+)/i;
const READ_BUFFER = 256 * 1024;

/**
 * Loads `url` for `seconds`: `connections` sockets, `depth` requests in flight on each. `path(n)`
 * gives the n-th request's path and query (default: the URL's). Resolves with the answers counted
 * ({ total, perSecond, errors }: errors are answers other than 200 and sockets that failed).
 */
export function pipelined({ url, seconds, connections = 32, depth = 8, path }) {
  const u = new URL(url);
  const fixed = `${u.pathname}${u.search}`;
  let n = 0;
  const request = () => `GET ${path ? path(n++) : fixed} HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`;
  let total = 0;
  let errors = 0;
  let stopping = false;
  const sockets = [];
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    for (let c = 0; c < connections; c++) sockets.push(open());
    setTimeout(() => {
      stopping = true;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      for (const s of sockets) s.destroy();
      resolve({ total, perSecond: (total * 1000) / ms, errors });
    }, seconds * 1000);
  });

  function open() {
    // Read into one buffer per connection, reused for every read (net's `onread`): nothing allocated per read.
    const socket = connect({ port: Number(u.port), host: u.hostname, onread: { buffer: Buffer.allocUnsafe(READ_BUFFER), callback: (n, buf) => onData(buf.subarray(0, n)) } });
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    // bytes of the current answer's body still to skip
    let skip = 0;
    socket.on('connect', () => socket.write(Array.from({ length: depth }, request).join('')));
    socket.on('error', () => !stopping && errors++);
    function onData(chunk) {
      let at = 0;
      let answered = 0;
      while (at < chunk.length) {
        if (skip > 0) {
          const used = Math.min(skip, chunk.length - at);
          skip -= used;
          at += used;
          if (skip === 0) answered++;
          continue;
        }
        // a head: gather it (it may span chunks), then read its status and length
        pending = pending.length > 0 ? Buffer.concat([pending, chunk.subarray(at)]) : chunk.subarray(at);
        const end = pending.indexOf(HEAD_END);
        if (end < 0) {
          // the rest of the head comes with the next read, into the same buffer: keep a copy
          pending = Buffer.from(pending);
          break;
        }
        const head = pending.toString('latin1', 0, end);
        if (!head.startsWith('HTTP/1.1 200 ')) errors++;
        const length = Number(LENGTH.exec(head)?.[1] ?? 0);
        const rest = pending.subarray(end + 4);
        pending = Buffer.alloc(0);
        skip = length;
        if (skip === 0) answered++;
        // the rest of this chunk: the body, then maybe the next heads
        chunk = rest;
        at = 0;
      }
      if (answered > 0 && !stopping) {
        total += answered;
        socket.write(Array.from({ length: answered }, request).join(''));
      }
    }
    return socket;
  }
}
