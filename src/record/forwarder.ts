import { Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import httpProxy from 'http-proxy';
import { readBody } from '../request/body.js';
import { isJsonType } from './own-questions.js';
import { sendUpstreamError } from './upstream-error.js';

/** The default limit on an upstream answer: 256 MB. */
export const MAX_UPSTREAM_BYTES = 256 << 20;

/** A usable answer the wiki gave a client's request, as passed on to the client. */
export interface ForwardedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, uncompressed, as text. */
  text: string;
  /** A 200 to GET or POST: an API answer (not HEAD, a CORS preflight, or a 4xx). */
  apiAnswer: boolean;
  /** Its Content-Type is JSON. */
  jsonType: boolean;
  /**
   * Its data as `JSON.parse` read it, when it was checked to be JSON before it was passed on
   * (integer-like keys moved first: see util/ordered-json.ts); undefined when it was not checked.
   */
  checked?: unknown;
}

export interface ForwarderOptions {
  /** Upstream timeout in ms. Default 30 000. */
  timeoutMs?: number;
  /** The largest answer read (see RecorderOptions.maxBodyBytes). Default MAX_UPSTREAM_BYTES. */
  maxBodyBytes?: number;
}

function bytes(n: number): string {
  return n % (1 << 20) === 0 ? `${n >> 20} MB` : `${n} bytes`;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'proxy-connection']);

function decode(body: Buffer, encoding: string | undefined, maxOutputLength: number): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'gzip':
      return gunzipSync(body, { maxOutputLength });
    case 'deflate':
      return inflateSync(body, { maxOutputLength });
    case 'br':
      return brotliDecompressSync(body, { maxOutputLength });
    default:
      return body;
  }
}

/**
 * Passes a client's request on to the upstream api.php (http-proxy, the stack's choice) and its
 * answer back: read whole within bounds, a broken, cut-off or oversized one refused with a
 * `wikitape-upstream` 502 (nothing recorded), the rest relayed as the wiki sent it.
 */
export class Forwarder {
  private readonly proxy: httpProxy;
  private readonly agent: HttpAgent;
  private readonly target: URL;
  private readonly maxBodyBytes: number;
  /** What each request being forwarded wants told of its answer. */
  private readonly waiting = new WeakMap<IncomingMessage, { format: string; jsonp: boolean; onAnswer: (a: ForwardedAnswer) => void }>();

  constructor(upstream: string, options: ForwarderOptions = {}) {
    this.target = new URL(upstream);
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_UPSTREAM_BYTES;
    // proxyTimeout aborts a slow upstream request (an 'error' → 502); the client's socket stays open.
    // Connections to the upstream are kept open between requests (a new one costs about a millisecond).
    this.agent = this.target.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.proxy = httpProxy.createProxyServer({ selfHandleResponse: true, changeOrigin: true, proxyTimeout: options.timeoutMs ?? 30_000, agent: this.agent });
    this.proxy.on('proxyRes', (proxyRes, req, res) => {
      const w = this.waiting.get(req);
      if (!w) return;
      // A failure while relaying is the client's answer (a 502 naming it), never a hanging socket.
      this.relay(proxyRes, res as ServerResponse, w, req.method ?? 'GET').catch((e: unknown) => {
        const out = res as ServerResponse;
        if (!out.headersSent) sendUpstreamError(out, `its answer could not be relayed (${e instanceof Error ? e.message : String(e)})`);
        else out.destroy();
      });
    });
    this.proxy.on('error', (err, _req, res) => {
      // An answer already given (a refused or cut-off one included) is left alone.
      if ('writeHead' in res && !res.writableEnded) sendUpstreamError(res, err.message);
    });
  }

  /** The path the recorder answers on: the upstream's own api.php path. */
  get path(): string {
    return this.target.pathname;
  }

  /**
   * Sends the request (its `body` already read, `query` its query string) to the upstream's
   * api.php, whatever path or Host the client used. `onAnswer` sees a usable answer just before
   * the client does; `format` and `jsonp` (the request's) say whether it must be JSON.
   */
  forward(req: IncomingMessage, res: ServerResponse, body: Buffer, query: string, asked: { format: string; jsonp: boolean }, onAnswer: (a: ForwardedAnswer) => void): void {
    this.waiting.set(req, { ...asked, onAnswer });
    // Only the configured upstream: its origin and its api.php path; the client's path is ignored.
    req.url = `${this.target.pathname}${query ? `?${query}` : ''}`;
    // http-proxy 1.18 copies its options with util._extend, which Node 22 and later deprecate
    // (DEP0060, printed at its first call): a line about a dependency's code, nothing the user
    // can change. Deprecations are off for this synchronous call alone, every other still printed.
    const quiet = process.noDeprecation;
    process.noDeprecation = true;
    try {
      this.proxy.web(req, res, { target: this.target.origin, buffer: Readable.from(body) });
    } finally {
      process.noDeprecation = quiet;
    }
  }

  /** Closes the connections to the upstream. */
  close(): void {
    this.proxy.close();
    this.agent.destroy();
  }

  private async relay(proxyRes: IncomingMessage, res: ServerResponse, { format, jsonp, onAnswer }: { format: string; jsonp: boolean; onAnswer: (a: ForwardedAnswer) => void }, method: string): Promise<void> {
    // Answers are read whole (up to maxBodyBytes); a broken or cut-off one is never passed on or
    // stored. One over the limit is cut off at once: its socket is closed, nothing more is read.
    const max = this.maxBodyBytes;
    const declared = Number(proxyRes.headers['content-length'] ?? 0);
    if (declared > max) {
      sendUpstreamError(res, `its answer was larger than ${bytes(max)} (Content-Length ${declared})`);
      proxyRes.destroy();
      return;
    }
    const raw = await readBody(proxyRes, max, { destroyOnOverflow: true });
    if (raw === null) return sendUpstreamError(res, `its answer was larger than ${bytes(max)}`);
    if (!proxyRes.complete) return sendUpstreamError(res, 'the answer was cut off');
    const status = proxyRes.statusCode ?? 502;
    if (status >= 500) return sendUpstreamError(res, `it answered HTTP ${status}`);
    let text: string;
    try {
      text = decode(raw, proxyRes.headers['content-encoding'], max).toString('utf8');
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return sendUpstreamError(res, `its answer, uncompressed, was larger than ${bytes(max)}`);
      return sendUpstreamError(res, 'its compressed answer could not be read');
    }
    // A 4xx (CORS mismatch, bad method) is the wiki's own answer: passed on as it is; so are
    // answers to HEAD and OPTIONS, and those the wiki does not give as JSON even to format=json
    // (the help page, an export). A JSON answer is checked before it is passed on.
    const apiAnswer = status === 200 && (method === 'GET' || method === 'POST');
    const jsonType = isJsonType(proxyRes.headers['content-type']);
    let checked: unknown;
    if (apiAnswer && format === 'json' && !jsonp && jsonType) {
      try {
        checked = JSON.parse(text);
      } catch {
        return sendUpstreamError(res, 'its answer was not JSON');
      }
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(proxyRes.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    headers['x-wikitape-source'] = 'upstream';
    headers['content-length'] = String(raw.length);
    onAnswer({ status, headers: proxyRes.headers, text, apiAnswer, jsonType, ...(checked !== undefined ? { checked } : {}) });
    res.writeHead(status, headers);
    res.end(raw);
  }
}

