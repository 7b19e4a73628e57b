import { rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { readUsage } from './cassette/commands.js';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createWikitape } from './app.js';
import type { ReplayEngine } from './engine.js';
import { DEFAULTS, type LoadedSources, type WikitapeOptions } from './options.js';
import { sendBody } from './output/send.js';
import { fillHoles, templateChunks, templateLength } from './replay/hit-template.js';
import { toHttpDate } from './util/timestamp.js';
import type { WriteEntry } from './api/session.js';
import type { WikiProfile } from './wiki/profile.js';

/** A running wikitape server. */
export interface RunningServer {
  /** api.php URL, e.g. `http://127.0.0.1:40123/wiki/api.php`. */
  url: string;
  port: number;
  close(): Promise<void>;
  /** Record mode: resolves when every recording made so far is on disk. */
  flush(): Promise<void>;
  /** Replay: the writes clients made (edits, moves, blocks …), oldest first; never applied to recordings. */
  writes(): WriteEntry[];
  /** Replay: empties the write log. */
  clearWrites(): void;
  /** Replay: the wiki it serves, as its answers show it (version, language, site name …). */
  profile?: WikiProfile;
  /**
   * Replay: what it loaded at start: the cassette files (each with its interactions), the fixture
   * files (each with its entries), whether a model was given, and the clock. Only what the options
   * name is read (docs/decisions/0011-what-replay-reads.md).
   */
  sources?: LoadedSources;
  /**
   * Replay: the URLs of its suites' api.php at start (`/<cassette>/wiki/api.php` for each cassette
   * of its folder, and each prefix of the `suites` option); empty without a cassettes folder.
   */
  suites?: string[];
}

function answerHit(engine: ReplayEngine, req: IncomingMessage, res: ServerResponse, log?: WikitapeOptions['onRequest']): void {
  const startedAt = process.hrtime.bigint();
  const out = engine.handle({ method: 'GET', url: req.url ?? '/', headers: req.headers, body: EMPTY, startedAt });
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of out.headers) {
    const prev = headers[k];
    headers[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  headers['X-Wikitape-Source'] = out.source;
  res.statusCode = out.status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  sendBody(res, out.body);
  log?.({ method: 'GET', key: out.key, source: out.source, status: out.status, ms: Number(process.hrtime.bigint() - startedAt) / 1e6 });
}

const EMPTY = Buffer.alloc(0);

/** Answers a GET from its hit template; false when the template cannot print this request. */
function answerFromTemplate(engine: ReplayEngine, req: IncomingMessage, res: ServerResponse, log?: WikitapeOptions['onRequest']): boolean {
  const startedAt = process.hrtime.bigint();
  // One instant for the template's second, its holes and its Date header.
  const now = engine.now();
  const t = engine.template(req.url!, req.headers, req.rawHeaders, now);
  if (!t) return false;
  // An answer as of its own time (a recording's, under --clock recorded) keeps it in Date and its holes.
  const at = t.at ?? now;
  const values = fillHoles(t, startedAt, at);
  if (!values) return false;
  res.writeHead(t.status, ['Date', toHttpDate(at), ...t.headers, 'Content-Length', String(templateLength(t, values))]);
  // The first chunk is text: Node sends it in one piece with the status line and headers.
  const chunks = templateChunks(t, values);
  const last = chunks.length - 1;
  for (let i = 0; i < last; i++) res.write(chunks[i]!, 'latin1');
  res.end(chunks[last], 'latin1');
  if (t.usage && !t.usageNoted) {
    engine.noteUsage(t.usage);
    t.usageNoted = true;
  }
  log?.({ method: 'GET', key: t.key, source: t.source, status: t.status, ms: Number(process.hrtime.bigint() - startedAt) / 1e6 });
  return true;
}

/** The status line Node's own clientError handler answers each parser error with (lib/_http_server.js). */
const REFUSALS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/** How long a refused request's remaining bytes are read and dropped before the socket is destroyed. */
const LINGER_MS = 5_000;

/**
 * Answers a request Node's HTTP parser refused (headers over the limit, a malformed request line)
 * as Node does, but closes gracefully: the answer, then FIN, then the rest of the request read and
 * dropped until the client closes (or LINGER_MS). Node's own handler destroys the socket while
 * the client is still sending; the kernel then resets the connection (unread data at close), and
 * a client on libuv 1.52 (Node 24) reads that reset instead of the answer: `read ECONNRESET` where
 * Node 20 and 22 printed 431 (libuv 1.51 turned a hang-up after a short read into end-of-file
 * without reading again). Web servers linger for the same reason (Apache's lingering close).
 */
function refuseGracefully(err: NodeJS.ErrnoException, socket: Duplex): void {
  // The parser repeats its error for every later chunk: the first answer stands.
  if (socket.writableEnded) return;
  const inFlight = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) return void socket.destroy();
  socket.end(`HTTP/1.1 ${REFUSALS[err.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * The node:http server wikitape listens with, around any listener (the app, or a recorder's
 * handler in tests): URLs and headers up to 1 MiB reach the API (and get its errors) instead of
 * Node's 431 at 16 KiB; a request past that gets Node's answer without a reset (refuseGracefully).
 */
export function createApiServer(listener: RequestListener): Server {
  const server = createServer({ maxHeaderSize: 1 << 20 }, listener);
  server.on('clientError', refuseGracefully);
  return server;
}

/** Adds this run's usage to the usage file (sorted JSON list; written whole, then renamed). */
async function writeUsage(file: string, used: ReadonlySet<string>): Promise<void> {
  const all = new Set([...(await readUsage(file)), ...used]);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify([...all].sort(), null, 2)}\n`);
  await rename(tmp, file);
}

/** Starts wikitape on `options.port` (0, the default here, picks a free port) and resolves once it answers. */
export async function startServer(options: WikitapeOptions = {}): Promise<RunningServer> {
  const { app, state } = createWikitape(options);
  const hot = state.mode === 'replay' ? await state.ready : null;
  const recorder = state.mode === 'record' ? state.recorder : undefined;
  // A cassette another recorder records is refused here, before anything listens.
  if (recorder) {
    try {
      await recorder.ready();
    } catch (e) {
      recorder.close();
      throw e;
    }
  }
  const scriptPath = hot ? hot.profile.scriptPath : state.mode === 'record' ? state.scriptPath : '';
  const apiPath = `${scriptPath}/api.php`;
  // With faults asked for, every request goes to the app, which serves them.
  const faulty = (options.faults ?? []).length > 0;
  // GETs without cookies are answered here from templates (replay/hit-template.ts), and other
  // cassette hits directly, without Express's per-request cost; everything else goes to the app.
  const server = createApiServer((req, res) => {
    // After a write, reads are refused (request/after-writes.ts): the app answers them, not a printed hit.
    const written = hot?.sessions?.state.lastWrite() ?? null;
    if (hot && !faulty && written === null && req.method === 'GET' && req.url && req.headers['x-wikitape-cassette'] === undefined && req.headers['x-wikitape-fault'] === undefined) {
      const q = req.url.indexOf('?');
      if ((q < 0 ? req.url : req.url.slice(0, q)) === apiPath) {
        try {
          if (answerFromTemplate(hot, req, res, options.onRequest)) return;
          if (hot.isHit(q < 0 ? '' : req.url.slice(q + 1))) {
            answerHit(hot, req, res, options.onRequest);
            return;
          }
        } catch {
          // nothing written yet: the app answers, and reports a failure in MediaWiki's shape
          if (res.headersSent) return void res.destroy();
        }
      }
    }
    app(req, res);
  });
  const host = options.host ?? DEFAULTS.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const suites = state.mode === 'replay' ? (await state.suitePaths(scriptPath)).map((p) => `http://${shownHost}:${port}${p}`) : undefined;
  return {
    url: `http://${shownHost}:${port}${scriptPath}/api.php`,
    port,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      // Recordings still being written are finished before close resolves; one that could not be
      // stored makes close reject (after everything is closed).
      try {
        await recorder?.flush();
      } finally {
        recorder?.close();
      }
      if (hot && options.trackUsage) await writeUsage(options.trackUsage, hot.used);
      hot?.close();
      if (state.mode === 'replay') state.close();
    },
    flush: async () => recorder?.flush(),
    writes: () => hot?.sessions?.writes() ?? [],
    clearWrites: () => hot?.sessions?.clearWrites(),
    ...(hot ? { profile: hot.profile, sources: hot.sources } : {}),
    ...(suites ? { suites } : {}),
  };
}
