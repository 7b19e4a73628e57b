/**
 * The one way wikitape's own tools talk to a wiki: the recorder's own questions (the
 * formatversion=2 copy it stores, who a session is, the wiki's siteinfo), `wikitape snapshot` and
 * `cassettes diff`. (Record mode passes a client's own request on through http-proxy, with its
 * own limits: record/recorder.ts.) A wiki can be slow, lagged, misconfigured or hostile, so every
 * question is bounded: it goes to the configured api.php only, a redirect is never followed (off
 * the upstream or not), the answer is read up to a size and a time, and a wait the wiki asks for
 * (Retry-After) is taken only up to a limit. Past any bound the question fails with an
 * UpstreamError that says which bound and what the wiki did.
 */

/** The default limit on an answer to wikitape's own questions: 64 MB (MediaWiki caps results at $wgAPIMaxResultSize, 8 MB). */
export const MAX_ANSWER_BYTES = 64 << 20;
/** The default time a question may take, answer read included: 30 s. */
const UPSTREAM_TIMEOUT_MS = 30_000;
/** The longest Retry-After wikitape waits: 120 s (MediaWiki's maxlag answers ask for 5 s or so). */
const MAX_RETRY_AFTER_SECONDS = 120;

/** How a question to the wiki failed: not reached, too slow, redirected, too large, asking too long a wait, or not answered in JSON. */
export type UpstreamFailure = 'unreachable' | 'timeout' | 'redirect' | 'too-large' | 'retry-after' | 'not-json';

/** A question to the wiki that failed or passed a bound: `why` says what the wiki did. */
export class UpstreamError extends Error {
  readonly code = 'WIKITAPE_UPSTREAM';
  constructor(
    readonly upstream: string,
    readonly kind: UpstreamFailure,
    readonly why: string,
  ) {
    super(`wikitape: ${upstream} ${why}`);
    this.name = 'UpstreamError';
  }
}

export interface UpstreamOptions {
  /** Time per question, answer read included, in ms. Default 30 000. */
  timeoutMs?: number;
  /** The largest answer read (after decompression), in bytes. Default 64 MB (MAX_ANSWER_BYTES). */
  maxBytes?: number;
  /** The longest Retry-After taken, in seconds. Default 120. */
  maxRetryAfterSeconds?: number;
  /** The User-Agent sent. Default none (the runtime's). */
  userAgent?: string;
}

/** What the wiki answered: status, headers, and the body as text (read whole, within the bounds). */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** One question's own settings: headers (a session's cookies), its time, and what the error texts call its answer. */
export interface AskOptions {
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  /** How error texts name the answer: default `its answer`. */
  what?: string;
}

function size(n: number): string {
  return n % (1 << 20) === 0 ? `${n >> 20} MB` : `${n} bytes`;
}

/** A bounded client for one wiki's api.php (see the file's comment). */
export class Upstream {
  readonly url: URL;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRetryAfter: number;

  constructor(
    apiUrl: string,
    private readonly options: UpstreamOptions = {},
  ) {
    this.url = new URL(apiUrl);
    this.url.search = '';
    this.url.hash = '';
    this.timeoutMs = options.timeoutMs ?? UPSTREAM_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
    this.maxRetryAfter = options.maxRetryAfterSeconds ?? MAX_RETRY_AFTER_SECONDS;
  }

  /** GET api.php with these parameters (and nothing else in the URL). */
  get(params: Iterable<[string, string]> | Record<string, string>, ask: AskOptions = {}): Promise<UpstreamAnswer> {
    const q = new URLSearchParams(Symbol.iterator in params ? [...(params as Iterable<[string, string]>)] : (params as Record<string, string>));
    return this.request(`${this.url.href}?${q}`, { method: 'GET' }, ask);
  }

  /** POST a form to api.php. */
  post(form: URLSearchParams, ask: AskOptions = {}): Promise<UpstreamAnswer> {
    return this.request(this.url.href, { method: 'POST', body: form }, ask);
  }

  /**
   * The seconds an answer asks to wait (its Retry-After; `fallback` when it gives none that can be
   * read). Throws an UpstreamError past the limit: a wiki asking for days is not waited for (and
   * a timer past 2^31 ms would fire at once).
   */
  retryAfter(answer: UpstreamAnswer, fallback = 5): number {
    const raw = answer.headers.get('retry-after');
    const seconds = raw === null || raw.trim() === '' ? fallback : Number(raw);
    if (!Number.isFinite(seconds) || seconds < 0) return fallback;
    if (seconds > this.maxRetryAfter) {
      throw new UpstreamError(this.url.href, 'retry-after', `asked to wait ${raw} s before asking again (Retry-After), more than the ${this.maxRetryAfter} s wikitape waits; try again later`);
    }
    return seconds;
  }

  private async request(href: string, init: RequestInit, ask: AskOptions): Promise<UpstreamAnswer> {
    const what = ask.what ?? 'its answer';
    const ms = ask.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, ms);
    const headers: Record<string, string> = { ...(this.options.userAgent ? { 'user-agent': this.options.userAgent } : {}), ...ask.headers };
    try {
      const r = await fetch(href, { ...init, headers, redirect: 'manual', signal: controller.signal });
      if (r.status >= 300 && r.status < 400) {
        controller.abort();
        const to = r.headers.get('location');
        let where = '';
        try {
          if (to) where = ` to ${new URL(to, href).origin}`;
        } catch {
          // a Location that is no URL is named by nothing
        }
        throw new UpstreamError(this.url.href, 'redirect', `${what} was a redirect (HTTP ${r.status}), which is not followed: only ${this.url.origin} is asked (it pointed${where || ' elsewhere'})`);
      }
      const body = await this.read(r, controller, what);
      return { status: r.status, headers: r.headers, text: body.toString('utf8') };
    } catch (e) {
      if (e instanceof UpstreamError) throw e;
      if (timedOut) throw new UpstreamError(this.url.href, 'timeout', `did not give ${what} within ${ms / 1000} s`);
      // Said with the cause ("fetch failed" alone names nothing).
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new UpstreamError(this.url.href, 'unreachable', `could not be asked: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The whole body, read as it streams in; past the limit the connection is dropped at once. */
  private async read(r: Response, controller: AbortController, what: string): Promise<Buffer> {
    const max = this.maxBytes;
    const declared = Number(r.headers.get('content-length') ?? 0);
    const tooLarge = (detail: string) => {
      controller.abort();
      return new UpstreamError(this.url.href, 'too-large', `${what} was larger than ${size(max)}${detail}; not read further`);
    };
    // (Content-Length counts compressed bytes; what is read below counts them uncompressed.)
    if (!r.headers.get('content-encoding') && declared > max) throw tooLarge(` (Content-Length ${declared})`);
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = r.body?.getReader();
    for (;;) {
      const next = reader ? await reader.read() : { done: true as const };
      if (next.done) break;
      total += next.value.length;
      if (total > max) {
        void reader!.cancel().catch(() => undefined);
        throw tooLarge('');
      }
      chunks.push(next.value);
    }
    return Buffer.concat(chunks, total);
  }
}
