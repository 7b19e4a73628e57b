// Over 400 lines: proxying, identity and storing still share this class; a later change splits it
// along those seams (its own questions to the wiki already went to upstream.ts).
import { Agent as HttpAgent, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import httpProxy from 'http-proxy';
import type { Low } from 'lowdb';
import type { JsonObject } from '../api/result.js';
import { identityKey, sortedKeys, type Cassette, type Interaction } from '../cassette/format.js';
import { checkName, type CassetteStore } from '../cassette/store.js';
import { RENDERING_PARAMS, canonicalKey, canonicalParams } from '../request/canonical.js';
import { KEY_RULES } from '../modules/index.js';
import { parseBody, readBody } from '../request/body.js';
import { ARRAY_VALUE, mergeParams, parseUrlEncoded, type ParamMap } from '../request/params.js';
import { harvest } from './harvest.js';
import { isSorted, learnProfile, lowerBound } from './cassette-keeping.js';
import { redactJson, redactQuery } from '../util/secrets.js';
import { parseKeepingKeyOrder } from '../util/ordered-json.js';
import { KEPT_HEADERS, notRecordable } from './policy.js';
import { sendUpstreamError } from './upstream-error.js';
import { MAX_ANSWER_BYTES, Upstream, UpstreamError, type UpstreamAnswer } from './upstream.js';
import { SessionIdentities, cookiesAfter, type Asking } from './identity.js';
import { seesMoreThanReaders } from '../api/session.js';
import type { WikiProfile } from '../wiki/profile.js';

export interface RecorderOptions {
  /** The live wiki's api.php URL; the only address the recorder ever talks to. */
  upstream: string;
  store: CassetteStore;
  /** Cassette name. Default `default`. */
  cassette?: string;
  /** Store again what is already recorded. Default false. */
  reRecord?: boolean;
  /**
   * Answers questions already recorded instead of asking the wiki (`record --mode new`): `has`
   * says whether a stored key (see identityKey) is recorded, `answer` answers the request from it.
   * Questions it does not have are asked of the wiki and recorded. Default none: every question is asked.
   */
  recorded?: Promise<{
    has(key: string): boolean;
    answer(req: IncomingMessage, res: ServerResponse, body: Buffer, user: string | null): void;
  }>;
  /** Called with each interaction once it is in the cassette (in memory). */
  onStored?: (interaction: Interaction) => void;
  /** Upstream timeout in ms. Default 30 000. */
  timeoutMs?: number;
  /**
   * The largest upstream answer read, in bytes as sent (compressed or not), and the most a
   * compressed answer may expand to. A larger answer (or one whose Content-Length says it is
   * larger) is refused with a `wikitape-upstream` 502 and not recorded; its connection is closed
   * as soon as the limit is passed. Default 256 MB (`MAX_UPSTREAM_BYTES`). The recorder's own
   * questions (the formatversion=2 copy, who a session is, siteinfo) read at most 64 MB
   * (`MAX_ANSWER_BYTES`, or this limit if less): record/upstream.ts.
   */
  maxBodyBytes?: number;
  /**
   * Called with a line for each recording that could not be stored (which cassette file, why).
   * Default: written to stderr. `flush()` and `close()` reject as well.
   */
  onError?: (message: string) => void;
}

/** A recording that could not be stored: which file, and why. */
export class RecordingError extends Error {
  readonly code = 'WIKITAPE_RECORDING';
  constructor(
    readonly file: string,
    readonly why: string,
    readonly lost: number,
  ) {
    super(`wikitape: could not store ${lost} recording(s) in ${file}: ${why}`);
    this.name = 'RecordingError';
  }
}

/** An error's own words, without a stack: `EACCES: permission denied, open '…'`. */
function reason(e: unknown): string {
  return e instanceof Error ? e.message.replace(/^wikitape: /, '') : String(e);
}

/** The default limit on an upstream answer: 256 MB. */
export const MAX_UPSTREAM_BYTES = 256 << 20;

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
 * Record mode: forwards each request to the upstream api.php (http-proxy), gives the client the
 * live answer, and stores a normalised copy (formatversion=2 data, no debuginfo, no secrets).
 */
export class Recorder {
  private readonly proxy: httpProxy;
  private readonly agent: HttpAgent;
  private readonly target: URL;
  /** The recorder's own questions (the formatversion=2 copy, whoIs, siteinfo, ask): bounded (upstream.ts). */
  private readonly upstream: Upstream;
  private readonly db: Promise<Low<Cassette>>;
  /** Each request being proxied: its parameters and as whom the recorder asks for it (decided once, in handle). */
  private readonly pending = new WeakMap<IncomingMessage, { params: ParamMap; asking: Promise<Asking> | null }>();
  private readonly maxBodyBytes: number;
  /** Recordings still waiting for their answer (or the cassette) before they are applied. */
  private readonly storing = new Set<Promise<void>>();
  /** Changes applied to the cassette in memory, and how many of them a finished write covers. */
  private applied = 0;
  private saved = 0;
  /** The cassette write under way (one at a time), or null. */
  private writer: Promise<void> | null = null;
  private checkedOrder = false;
  /** Recordings lost before they reached the cassette (not yet reported by flush), and the last reason. */
  private dropped = 0;
  private lastWhy: string | null = null;
  private readonly file: string;
  private siteInfo: Promise<Partial<WikiProfile>> | null = null;
  /** The cassette's lock (resolves to its release), or the reason another recorder holds it. */
  private readonly locked: Promise<() => void>;
  /** Who each session belongs to (never stored: only the user names reach the cassette). */
  private readonly identities: SessionIdentities;
  /** Each user's rights, asked (and recorded) once per recorder: null when the wiki did not say. */
  private readonly userRights = new Map<string, Promise<string[] | null>>();

  constructor(readonly options: RecorderOptions) {
    this.target = new URL(options.upstream);
    const timeout = options.timeoutMs ?? 30_000;
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_UPSTREAM_BYTES;
    // Its own questions are formatversion=2 JSON, which MediaWiki caps ($wgAPIMaxResultSize, 8 MB):
    // read up to 64 MB (or maxBodyBytes, if less) before they are refused.
    this.upstream = new Upstream(options.upstream, { timeoutMs: timeout, maxBytes: Math.min(this.maxBodyBytes, MAX_ANSWER_BYTES) });
    // proxyTimeout aborts a slow upstream request (an 'error' → 502); the client's socket stays open.
    // Connections to the upstream are kept open between requests (a new one costs about a millisecond).
    this.agent = this.target.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.identities = new SessionIdentities((credentials) => this.whoIs(credentials));
    this.proxy = httpProxy.createProxyServer({ selfHandleResponse: true, changeOrigin: true, proxyTimeout: timeout, agent: this.agent });
    this.proxy.on('proxyRes', (proxyRes, req, res) => {
      const pending = this.pending.get(req);
      if (pending) void this.relay(proxyRes, res as ServerResponse, pending, req.headers, req.method ?? 'GET');
    });
    this.proxy.on('error', (err, _req, res) => {
      // An answer already given (a refused or cut-off one included) is left alone.
      if ('writeHead' in res && !res.writableEnded) sendUpstreamError(res, err.message);
    });
    const name = checkName(options.cassette ?? 'default');
    this.file = options.store.locate?.(name) ?? `cassette ${name}`;
    // One recorder per cassette: the store's lock first (a second recorder is refused, see ready()).
    this.locked = options.store.lock ? options.store.lock(name) : Promise.resolve(() => undefined);
    this.locked.catch(() => undefined);
    this.db = this.locked.then(() => options.store.open(name, options.upstream));
    // A cassette that cannot be opened fails each store (and is reported there), never the process.
    this.db.catch(() => undefined);
  }

  /**
   * Resolves once the recorder holds its cassette; rejects (a CassetteError naming the other
   * recorder) when another recorder, here or in another process, records the same cassette.
   */
  async ready(): Promise<void> {
    await this.locked;
  }

  /** The path the recorder answers on: the upstream's own api.php path. */
  get path(): string {
    return this.target.pathname;
  }

  /**
   * Resolves once every recording started so far has been applied and written to the cassette;
   * rejects (a RecordingError: which file, why, how many recordings) when one could not be.
   * A write that failed is tried again here, so what flush() calls saved is on disk.
   */
  async flush(): Promise<void> {
    await Promise.all([...this.storing]);
    const target = this.applied;
    const dropped = this.dropped;
    const droppedWhy = this.lastWhy;
    this.dropped = 0;
    this.lastWhy = null;
    while (this.saved < target) {
      if (!this.writer) this.write(await this.db);
      await this.writer;
      if (this.saved < target && this.lastWhy !== null) break;
    }
    if (dropped > 0 || this.saved < target) {
      throw new RecordingError(this.file, this.lastWhy ?? droppedWhy ?? 'the write failed', dropped + (this.applied - this.saved));
    }
  }

  /** Notes a recording that could not be stored, and says so at once. */
  private fail(why: string, lost: number, key?: string): void {
    this.lastWhy = why;
    const what = key !== undefined ? `the recording of ${redactQuery(key)}` : lost === 1 ? 'a recording' : `${lost} recordings`;
    const line = `wikitape: could not store ${what} in ${this.file}: ${why}`;
    if (this.options.onError) this.options.onError(line);
    else process.stderr.write(`${line}\n`);
  }

  /** Proxies one request; resolves to its parameters once the body is read (for the log line). */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<ParamMap> {
    const read = await readBody(req);
    const body = read ?? Buffer.alloc(0);
    if (read === null) {
      // Over PHP's post_max_size (8 MB): PHP drops the body and the wiki answers from the query
      // string alone; the wiki is asked that way (an empty body, said so), never left waiting.
      req.headers['content-length'] = '0';
      delete req.headers['transfer-encoding'];
    }
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const query = q < 0 ? '' : url.slice(q + 1);
    const params = mergeParams(parseUrlEncoded(query), parseBody(req.method ?? 'GET', req.headers['content-type'], body));
    // As whom the wiki answers this request, decided once: the answer is filed under it, and every
    // question the recorder asks for it carries the same credentials (docs/decisions/0006).
    const asking = notRecordable(params) === null ? this.identities.asking(params, req.headers) : null;
    this.pending.set(req, { params, asking });
    const recorded = await this.options.recorded;
    if (recorded && asking) {
      const who = await asking;
      if ('user' in who && recorded.has(identityKey(canonicalKey(params, KEY_RULES), who.user))) {
        this.pending.delete(req);
        recorded.answer(req, res, body, who.user);
        return params;
      }
    }
    // Only the configured upstream: its origin and its api.php path; the client's path is ignored.
    req.url = `${this.target.pathname}${query ? `?${query}` : ''}`;
    this.proxy.web(req, res, { target: this.target.origin, buffer: Readable.from(body) });
    return params;
  }

  /**
   * Asks the upstream one question itself (GET, formatversion=2 JSON) and stores the answer as
   * record mode stores a client's: for callers in this process (`wikitape snapshot`), with no
   * client and no HTTP server in between. Resolves to the status and the answer's data. Asked
   * `as` a session the caller logged in (`cassettes diff`), the answer is filed under its user, as
   * a client's answer in that session would be; the cookie is never stored.
   */
  async ask(query: Record<string, string>, as: { user: string; cookie: string } | null = null): Promise<{ status: number; body: JsonObject }> {
    const params: ParamMap = new Map(Object.entries({ ...query, format: 'json', formatversion: '2' }));
    const asking: Asking & { credentials: Readonly<Record<string, string>> } = as ? { user: as.user, credentials: { cookie: as.cookie } } : { user: null, credentials: {} };
    const r = await this.upstream.get(params, { headers: asking.credentials });
    let body: JsonObject;
    try {
      body = parseKeepingKeyOrder(r.text) as JsonObject;
    } catch {
      throw new Error(`wikitape: ${this.options.upstream} answered HTTP ${r.status} with something that is not JSON`);
    }
    if (r.status === 200 && notRecordable(params) === null) {
      const headers: IncomingMessage['headers'] = {};
      r.headers.forEach((v, k) => (headers[k] = v));
      this.store(params, r.status, headers, Promise.resolve(body), Promise.resolve(asking));
    }
    return { status: r.status, body };
  }

  private async relay(proxyRes: IncomingMessage, res: ServerResponse, { params, asking }: { params: ParamMap; asking: Promise<Asking> | null }, reqHeaders: IncomingMessage['headers'], method: string): Promise<void> {
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
    const format = params.get('format') ?? 'jsonfm';
    let text: string;
    try {
      text = decode(raw, proxyRes.headers['content-encoding'], max).toString('utf8');
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return sendUpstreamError(res, `its answer, uncompressed, was larger than ${bytes(max)}`);
      return sendUpstreamError(res, 'its compressed answer could not be read');
    }
    // A 4xx (CORS mismatch, bad method) is the wiki's own answer: passed on as it is, never stored;
    // so are answers to HEAD and OPTIONS, and those the wiki does not give as JSON even to
    // format=json (the help page, an export). A JSON answer is checked before it is passed on; it is
    // read for the cassette (keeping the order of integer-like keys) only after the client has it.
    const apiAnswer = status === 200 && (method === 'GET' || method === 'POST');
    const jsonType = isJsonType(proxyRes.headers['content-type']);
    const isJson = apiAnswer && format === 'json' && !params.has('callback') && jsonType;
    if (isJson) {
      try {
        JSON.parse(text);
      } catch {
        return sendUpstreamError(res, 'its answer was not JSON');
      }
    }
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(proxyRes.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
    headers['x-wikitape-source'] = 'upstream';
    headers['content-length'] = String(raw.length);
    // Whose sessions the answer sets (a login's are its user's), before the client can use them.
    if (status === 200) {
      const loggedIn = this.identities.noteAnswer(params, text, proxyRes.headers['set-cookie'], reqHeaders);
      // A login names an account replay can log in offline: its groups and rights are recorded now.
      if (loggedIn !== null) void this.rightsOf(loggedIn, cookiesAfter(reqHeaders.cookie, proxyRes.headers['set-cookie']));
    }
    res.writeHead(status, headers);
    res.end(raw);
    if (apiAnswer && (jsonType || format !== 'json') && asking) {
      const fv2 = params.get('formatversion') === '2' || params.get('formatversion') === 'latest';
      const own = isJson && fv2 ? text : null;
      // Stored from the client's answer when it is already the canonical form and the client asked
      // with exactly the credentials the identity is asked with; else asked again with those.
      const data = asking.then((a) => ('refused' in a ? null : own !== null && askedWith(reqHeaders, a.credentials) ? readLater(own) : this.fetchCanonical(params, a.credentials)));
      this.store(params, status, proxyRes.headers, data, asking);
    }
  }

  /** Who these credentials (Cookie, Authorization) log in as, asked of the wiki. */
  private async whoIs(credentials: Record<string, string>): Promise<{ id: number; name: string }> {
    const r = await this.upstream.get({ action: 'query', meta: 'userinfo', format: 'json', formatversion: '2' }, { headers: credentials, what: 'its meta=userinfo answer' });
    const info = (JSON.parse(r.text) as { query?: { userinfo?: { id?: unknown; name?: unknown } } }).query?.userinfo;
    if (typeof info?.id !== 'number' || typeof info.name !== 'string') throw new Error(`meta=userinfo answered HTTP ${r.status} without a user`);
    return { id: info.id, name: info.name };
  }

  /**
   * A user's rights, asked once with their session (`meta=userinfo&uiprop=groups|rights`) and
   * recorded, so that replay knows what the account may do once it logs in offline.
   */
  private rightsOf(user: string, cookie: string): Promise<string[] | null> {
    let p = this.userRights.get(user);
    if (!p) {
      const params: ParamMap = new Map([['action', 'query'], ['meta', 'userinfo'], ['uiprop', 'groups|rights']]);
      const credentials = { cookie };
      const answer = this.fetchCanonical(params, credentials);
      this.store(params, 200, {}, answer, Promise.resolve({ user, credentials }));
      p = answer.then(
        (a) => {
          const rights = (a?.['query'] as { userinfo?: { rights?: unknown } } | undefined)?.userinfo?.rights;
          return Array.isArray(rights) ? (rights as string[]) : null;
        },
        () => null,
      );
      this.userRights.set(user, p);
    }
    return p;
  }

  /**
   * Asks the upstream the canonical question (formatversion=2 JSON) for storage. Rejects (the
   * recording is then reported lost, by its question) when the wiki does not answer it with 200
   * and JSON; a redirect is never followed: only the configured upstream is ever recorded.
   */
  private async fetchCanonical(params: ParamMap, credentials: Readonly<Record<string, string>>): Promise<JsonObject | null> {
    const form = new URLSearchParams();
    for (const [k, v] of params) {
      if (['format', 'formatversion', 'callback', 'utf8', 'ascii'].includes(k)) continue;
      // A parameter sent as a PHP array (`list[]=x`) is asked as one, so the wiki reads it as it did;
      // a printing one (`origin[]=*`) is left out: replay prints its warning, not the data.
      if (v === ARRAY_VALUE) {
        if (!RENDERING_PARAMS.has(k)) form.append(`${k}[]`, '');
      } else form.append(k, v);
    }
    form.set('format', 'json');
    form.set('formatversion', '2');
    // Asked as the identity the answer is filed under: the user's session, or no credentials at all.
    let r: UpstreamAnswer;
    try {
      r = await this.upstream.post(form, { headers: credentials, what: 'its formatversion=2 answer' });
    } catch (e) {
      // Said as what went wrong with this recording (the line names the cassette file).
      throw e instanceof UpstreamError ? new Error(e.why) : e;
    }
    if (r.status !== 200) throw new Error(`it answered the formatversion=2 question with HTTP ${r.status}`);
    // Not an API answer in JSON (the help page, an export): nothing to record, and nothing lost.
    if (!isJsonType(r.headers.get('content-type') ?? undefined)) return null;
    try {
      return parseKeepingKeyOrder(r.text) as JsonObject;
    } catch {
      throw new Error('its formatversion=2 answer was not JSON');
    }
  }

  /**
   * Applies a recording to the cassette in memory, then has it written. Lookup and insertion are
   * binary searches in the key-sorted interactions; writes are coalesced: while one is under way,
   * what is applied meanwhile is written together by the next (lowdb writes atomically: a temp
   * file, then a rename).
   */
  private store(params: ParamMap, status: number, headers: IncomingMessage['headers'], answer: Promise<JsonObject | null>, who: Promise<Asking> = Promise.resolve({ user: null, credentials: {} })): void {
    let key = canonicalKey(params, KEY_RULES);
    const task = (async () => {
      const [db, data, identity] = await Promise.all([this.db, answer, who]);
      if ('refused' in identity) throw new Error(identity.refused);
      const user = identity.user;
      key = identityKey(key, user);
      // A user who sees the lists as readers do teaches replay the wiki's entities as readers' answers do.
      const cookie = identity.credentials['cookie'];
      const readerView = user === null || (cookie !== undefined && !seesMoreThanReaders(await this.rightsOf(user, cookie)));
      if (!data) return;
      const site = await this.learnSiteInfo();
      // From here on nothing awaits: finding and inserting cannot interleave with another recording.
      // A secret an answer hands out (a token among user options, say) is stored as the marker.
      const { debuginfo, ...body } = redactJson(data);
      const c = db.data;
      if (!this.checkedOrder) {
        // Written files are sorted by key; one edited by hand is sorted once, as every write did before.
        if (!isSorted(c.interactions)) c.interactions.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        this.checkedOrder = true;
      }
      const at = lowerBound(c.interactions, key);
      const existing = c.interactions[at]?.key === key;
      if (existing && !this.options.reRecord) return;
      const kept: Record<string, string> = {};
      for (const h of KEPT_HEADERS) {
        const v = headers[h];
        if (typeof v === 'string') kept[h] = v;
      }
      const interaction: Interaction = { key, request: Object.fromEntries(canonicalParams(params, KEY_RULES)), status, headers: kept, body, recordedAt: new Date().toISOString(), ...(user !== null ? { user } : {}) };
      if (existing) c.interactions[at] = interaction;
      else c.interactions.splice(at, 0, interaction);
      // A user with rights to see what readers may not (hidden log entry parts, suppressed blocks)
      // teaches replay nothing: their answers answer that user alone.
      if (readerView) harvest(c.entities, body, interaction.request);
      this.options.onStored?.(interaction);
      learnProfile(c, debuginfo, site);
      c.meta = sortedKeys({ ...c.meta, recordedAt: new Date().toISOString() });
      this.applied++;
      this.write(db);
    })().catch((e: unknown) => {
      this.dropped++;
      this.fail(reason(e), 1, key);
    });
    this.storing.add(task);
    void task.then(() => this.storing.delete(task));
  }

  /** Starts a cassette write unless one is under way; that one writes again when it is done. */
  private write(db: Low<Cassette>): void {
    if (this.writer) return;
    this.writer = (async () => {
      do {
        // Recordings whose answers came in the same turn of the event loop go into this write too.
        await new Promise((resolve) => setImmediate(resolve));
        const upTo = this.applied;
        try {
          // lowdb serialises the document when write() is called, so it holds every change up to `upTo`.
          await db.write();
        } catch (e) {
          // The document stays in memory and the next write (or flush) tries it all again; nothing
          // is called saved that is not on disk.
          this.fail(reason(e), upTo - this.saved);
          break;
        }
        this.saved = upTo;
      } while (this.saved < this.applied);
      this.writer = null;
    })();
  }

  /** The wiki's names and languages, asked once from meta=siteinfo (anonymously); nothing when it does not answer that. */
  private learnSiteInfo(): Promise<Partial<WikiProfile>> {
    this.siteInfo ??= (async () => {
      try {
        // Through the bounded client: a redirect (to another host or not) is not followed, so
        // nothing but the upstream's own answer reaches the cassette's profile.
        const r = await this.upstream.get({ action: 'query', meta: 'siteinfo', siprop: 'general', format: 'json', formatversion: '2' }, { timeoutMs: 10_000 });
        const g = (JSON.parse(r.text) as { query?: { general?: Record<string, string> } }).query?.general ?? {};
        const p: Partial<WikiProfile> = {};
        if (g['generator']) p.version = g['generator'].replace(/^MediaWiki /, '');
        if (g['lang']) p.language = g['lang'];
        if (g['sitename']) p.siteName = g['sitename'];
        if (g['server']) p.server = g['server'];
        if (g['scriptpath'] !== undefined) p.scriptPath = g['scriptpath'];
        if (g['phpversion']) p.runtimeVersion = g['phpversion'];
        return p;
      } catch {
        return {};
      }
    })();
    return this.siteInfo;
  }

  /** Closes the connections and lets the cassette go (call flush() first to have everything written). */
  close(): void {
    this.proxy.close();
    this.agent.destroy();
    void this.locked.then(
      (release) => release(),
      () => undefined,
    );
  }
}

/** Whether the client's own request carried exactly these credentials (its answer is then the identity's). */
function askedWith(headers: IncomingMessage['headers'], credentials: Readonly<Record<string, string>>): boolean {
  return headers.authorization === undefined && (headers.cookie || undefined) === credentials['cookie'];
}

/** Whether a Content-Type is JSON (MediaWiki sends `application/json; charset=utf-8` for format=json). */
function isJsonType(contentType: string | undefined): boolean {
  return /^\s*application\/json\b/i.test(contentType ?? '');
}

/** The answer's data, read on a later turn of the event loop (after the client has been served). */
function readLater(text: string): Promise<JsonObject | null> {
  return new Promise((resolve) =>
    setImmediate(() => {
      try {
        resolve(parseKeepingKeyOrder(text) as JsonObject);
      } catch {
        resolve(null);
      }
    }),
  );
}
