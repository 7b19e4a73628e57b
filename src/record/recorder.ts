import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { JsonObject } from '../api/result.js';
import { lacksSameOriginSecurity, seesMoreThanReaders, writtenMark, type WrittenMark } from '../api/session.js';
import { identityKey, type Interaction } from '../cassette/format.js';
import type { CassetteStore } from '../cassette/store.js';
import { refiledContinue } from '../cassette/stale-continue.js';
import { parseBody, readBody } from '../request/body.js';
import { canonicalKey, canonicalParams } from '../request/canonical.js';
import { KEY_RULES } from '../modules/index.js';
import { mergeParams, parseUrlEncoded, type ParamMap } from '../request/params.js';
import { redactJson } from '../util/secrets.js';
import { parseKeepingKeyOrder } from '../util/ordered-json.js';
import type { WikiProfile } from '../wiki/profile.js';
import { CassetteWriter } from './cassette-writer.js';
import { Forwarder, type ForwardedAnswer } from './forwarder.js';
import { SessionIdentities, cookiesAfter, sessionIds, type Asking } from './identity.js';
import { answerJson, answersAsCanonical, askCanonical, askSiteInfo, askWhoIs, headersOf } from './own-questions.js';
import { KEPT_HEADERS, changesTheWiki, recordingPlan, type RecordingPlan } from './policy.js';
import { readsContent } from '../request/after-writes.js';
import { SessionGate } from './session-gate.js';
import { sendUpstreamError } from './upstream-error.js';
import { MAX_ANSWER_BYTES, Upstream } from './upstream.js';

export { MAX_UPSTREAM_BYTES } from './forwarder.js';
export { RecordingError } from './cassette-writer.js';

export interface RecorderOptions {
  /** The live wiki's api.php URL; the only address the recorder ever talks to. */
  upstream: string;
  store: CassetteStore;
  /** Cassette name. Default `default`. */
  cassette?: string;
  /**
   * Store again what is already recorded (`record --mode all`). Default false: what the cassette
   * holds is kept, and `recorded()` finds it (`record --mode new`).
   */
  reRecord?: boolean;
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

/** A client's request as the recorder received it: its body read, and what to store for it and as whom decided once. */
export interface ReceivedRequest {
  params: ParamMap;
  body: Buffer;
  /** The query string as sent. */
  query: string;
  /** What is stored for it (record/policy.ts), and the note the log line carries. */
  plan: RecordingPlan;
  /** As whom the wiki answers it and the answer is filed (docs/decisions/0006); null when nothing is stored. */
  asking: Promise<Asking> | null;
  /**
   * Anonymous only because MediaWiki strips the credentials it carries (JSONP, `origin=*`,
   * Treat-as-Untrusted): the session stays, and a bot password's grants still narrow what the
   * anonymous caller may do, so the anonymous recording need not be this request's answer.
   */
  strippedSession: boolean;
}

/** What is stored of one answer once its parts are in: its status, headers and formatversion=2 data. */
type Stored = { status: number; headers: IncomingHttpHeaders; body: JsonObject } | null;

/**
 * Record mode: forwards each request to the upstream api.php (forwarder.ts), gives the client the
 * live answer, and stores a normalised copy (formatversion=2 data, no debuginfo, no secrets) in
 * its cassette (cassette-writer.ts), filed under the identity the wiki answered as (identity.ts).
 */
export class Recorder {
  private readonly forwarder: Forwarder;
  /** The recorder's own questions (the formatversion=2 copy, who a session is, siteinfo, ask): bounded (upstream.ts). */
  private readonly upstream: Upstream;
  private readonly cassette: CassetteWriter;
  /** Who each session belongs to (never stored: only the user names reach the cassette). */
  private readonly identities: SessionIdentities;
  /** Keeps the recorder's questions in a session from overlapping the client's (session-gate.ts). */
  private readonly gate = new SessionGate();
  /** Each user's rights, asked (and recorded) once per recorder: null when the wiki did not say. */
  private readonly userRights = new Map<string, Promise<string[] | null>>();
  private siteInfo: Promise<Partial<WikiProfile>> | null = null;
  /**
   * The latest write a client made through the recorder that the wiki did (an answer without an
   * error), null before any: from then on the wiki differs from what replay, which applies no
   * write, would show, so reads of its content are asked of the wiki and not stored
   * (request/after-writes.ts).
   */
  private wrote: WrittenMark | null = null;

  constructor(readonly options: RecorderOptions) {
    const timeoutMs = options.timeoutMs ?? 30_000;
    this.forwarder = new Forwarder(options.upstream, { timeoutMs, ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}) });
    // Its own questions are formatversion=2 JSON, which MediaWiki caps ($wgAPIMaxResultSize, 8 MB):
    // read up to 64 MB (or maxBodyBytes, if less) before they are refused.
    this.upstream = new Upstream(options.upstream, { timeoutMs, maxBytes: Math.min(options.maxBodyBytes ?? Infinity, MAX_ANSWER_BYTES) });
    this.identities = new SessionIdentities((credentials) => this.gate.own(sessionIds(credentials['cookie']), () => askWhoIs(this.upstream, credentials)));
    this.cassette = new CassetteWriter(options.store, options.cassette ?? 'default', options.upstream, {
      ...(options.reRecord ? { reRecord: true } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      ...(options.onStored ? { onStored: options.onStored } : {}),
    });
  }

  /**
   * Resolves once the recorder holds its cassette; rejects (a CassetteError naming the other
   * recorder) when another recorder, here or in another process, records the same cassette.
   */
  ready(): Promise<void> {
    return this.cassette.ready();
  }

  /** The path the recorder answers on: the upstream's own api.php path. */
  get path(): string {
    return this.forwarder.path;
  }

  /**
   * Resolves once every recording started so far has been applied and written to the cassette;
   * rejects (a RecordingError: which file, why, how many recordings) when one could not be.
   */
  flush(): Promise<void> {
    return this.cassette.flush();
  }

  /** Reads a client's request and decides, once, what is stored for it and as whom the wiki is asked. */
  async receive(req: IncomingMessage): Promise<ReceivedRequest> {
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
    let plan = recordingPlan(params);
    // After a write, the recordings are the wiki before it: what it says now is not stored among them.
    if (this.wrote && plan.stores !== null && readsContent(plan.stores)) plan = { stores: null, note: `not recorded: asked after a write (action=${this.wrote.action} of ${JSON.stringify(this.wrote.target)}), which replay does not apply` };
    // As whom the wiki answers this request, decided once: the answer is filed under it, and every
    // question the recorder asks for it carries the same credentials (docs/decisions/0006).
    const asking = plan.stores === null ? null : this.identities.asking(params, req.headers);
    const credentialed = req.headers.cookie !== undefined || req.headers.authorization !== undefined;
    return { params, body, query, plan, asking, strippedSession: credentialed && lacksSameOriginSecurity(params, req.headers) };
  }

  /**
   * The cassette's exact recording of this request for its identity (`record --mode new`), with
   * what the cassette says of the wiki (to print it); null when the wiki is to be asked: in
   * `--mode all`, for what is never recorded (logins, writes, tokens), what the cassette lacks, and
   * a request whose session MediaWiki keeps while it strips its credentials (strippedSession).
   */
  async recorded(r: ReceivedRequest): Promise<{ interaction: Interaction; profile: Partial<WikiProfile> } | null> {
    if (this.options.reRecord || !r.asking || r.plan.stores === null || !r.plan.own || r.strippedSession) return null;
    const who = await r.asking;
    const view = 'user' in who ? await this.cassette.view() : null;
    const interaction = view && 'user' in who ? view.recording(identityKey(canonicalKey(r.plan.stores, KEY_RULES), who.user)) : undefined;
    // One an older wikitape filed without its empty `continue` answers another question (its
    // "Unrecognized parameter: continue." warning): the wiki answers this one.
    if (interaction && refiledContinue(interaction)) return null;
    return view && interaction ? { interaction, profile: view.profile } : null;
  }

  /** Asks the wiki a received request and relays its answer; what the plan says is stored. */
  forward(req: IncomingMessage, res: ServerResponse, r: ReceivedRequest): void {
    const asked = { format: r.params.get('format') ?? 'jsonfm', jsonp: r.params.has('callback') };
    // Not beside a question of the recorder's in the same session (session-gate.ts); done once the
    // wiki has answered it (or the answer failed, or the client went away).
    void this.gate.client(sessionIds(req.headers.cookie)).then((done) => {
      res.once('close', done);
      if (res.closed) return done();
      try {
        this.forwarder.forward(req, res, r.body, r.query, asked, (a) => {
          done();
          this.answered(r, req.headers, a, asked);
        });
      } catch (e) {
        // Said to the client as any failure to reach the wiki is (no rejection left unhandled).
        done();
        if (!res.headersSent) sendUpstreamError(res, e instanceof Error ? e.message : String(e));
        else res.destroy();
      }
    });
  }

  /** Proxies one request (always asking the wiki); resolves to its parameters once the body is read. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<ParamMap> {
    const r = await this.receive(req);
    this.forward(req, res, r);
    return r.params;
  }

  /**
   * Asks the upstream one question itself (GET, formatversion=2 JSON) and stores the answer as
   * record mode stores a client's: for callers in this process (`wikitape snapshot`, `cassettes
   * diff --update`), with no client and no HTTP server in between. Resolves to the status and the
   * answer's data. Asked `as` a session the caller logged in (`cassettes diff`), the answer is filed
   * under its user, as a client's answer in that session would be; the cookie is never stored.
   */
  async ask(query: Record<string, string>, as: { user: string; cookie: string } | null = null): Promise<{ status: number; body: JsonObject }> {
    const params: ParamMap = new Map(Object.entries({ ...query, format: 'json', formatversion: '2' }));
    const asking: Asking = as ? { user: as.user, credentials: { cookie: as.cookie } } : { user: null, credentials: {} };
    const r = await this.upstream.get(params, { headers: asking.credentials });
    const body = answerJson(this.upstream, r);
    const plan = recordingPlan(params);
    if (r.status === 200 && plan.stores !== null && plan.own) this.store(params, Promise.resolve({ status: r.status, headers: headersOf(r), body }), Promise.resolve(asking));
    return { status: r.status, body };
  }

  /** Closes the connections and lets the cassette go (call flush() first to have everything written). */
  close(): void {
    this.forwarder.close();
    this.cassette.close();
  }

  /** A client's answer, just before the client gets it: whose sessions it sets, and what of it is stored. */
  private answered(r: ReceivedRequest, reqHeaders: IncomingHttpHeaders, a: ForwardedAnswer, asked: { format: string; jsonp: boolean }): void {
    if (a.status === 200 && changesTheWiki(r.params) && a.headers['mediawiki-api-error'] === undefined) {
      const sent = Object.fromEntries([...r.params].filter(([k]) => k !== 'action'));
      this.wrote = writtenMark({ action: r.params.get('action') ?? '', params: sent });
    }
    if (a.status === 200) {
      const loggedIn = this.identities.noteAnswer(r.params, a.text, a.headers['set-cookie'], reqHeaders);
      // A login names an account replay can log in offline: its groups and rights are recorded now.
      if (loggedIn !== null) void this.rightsOf(loggedIn, cookiesAfter(reqHeaders.cookie, a.headers['set-cookie']));
    }
    const { plan, asking } = r;
    // Not stored: a 4xx, HEAD, OPTIONS, and what the wiki does not give as JSON even to format=json.
    if (!a.apiAnswer || !(a.jsonType || asked.format !== 'json') || plan.stores === null || !asking) return;
    const stores = plan.stores;
    const fv2 = r.params.get('formatversion') === '2' || r.params.get('formatversion') === 'latest';
    // The client's answer is stored when it is the canonical question's (formatversion=2 JSON, no requestid, curtimestamp, maxage …).
    const plain = answersAsCanonical(r.params);
    const own = plan.own && asked.format === 'json' && !asked.jsonp && a.jsonType && fv2 && plain ? a.text : null;
    const key = canonicalKey(stores, KEY_RULES);
    const answer = asking.then(async (who): Promise<Stored> => {
      if ('refused' in who) return null;
      // Already recorded (`--mode new`; a question without its tokens asked again): not asked again.
      const view = this.options.reRecord ? null : await this.cassette.view();
      if (view?.recording(identityKey(key, who.user))) return null;
      // The client's answer when it is already the canonical form and the client asked with exactly
      // the credentials the identity is asked with; else the question is asked again with those.
      if (own !== null && askedWith(reqHeaders, who.credentials)) return readLater(own, a.checked).then((body) => ({ status: a.status, headers: a.headers, body }));
      const asked = await this.gate.own(sessionIds(who.credentials['cookie']), () => askCanonical(this.upstream, stores, who.credentials));
      // A question without its secret part is another question: its answer's status and headers are its own.
      // Its headers are the client's only when the client asked the canonical question (maxage writes Cache-Control).
      return asked && { status: plan.own ? a.status : 200, headers: plan.own && plain ? a.headers : asked.headers, body: asked.body };
    });
    this.store(stores, answer, asking);
  }

  /**
   * What the wiki says of itself (version, language, names), asked once; a failure is said once
   * (onError) and asked again with the next recording, which meanwhile keeps the profile it has.
   */
  private async site(): Promise<Partial<WikiProfile>> {
    this.siteInfo ??= askSiteInfo(this.upstream).catch((e: unknown) => {
      this.siteInfo = null;
      this.options.onError?.(`wikitape: the wiki's meta=siteinfo could not be read (${e instanceof Error ? e.message : String(e)}); the cassette's profile is kept as it is until it answers`);
      return {};
    });
    return this.siteInfo;
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
      const answer = this.gate.own(sessionIds(cookie), () => askCanonical(this.upstream, params, credentials)).then((a) => a && { status: 200, headers: {}, body: a.body });
      this.store(params, answer, Promise.resolve({ user, credentials }));
      p = answer.then(
        (a) => {
          const rights = (a?.body['query'] as { userinfo?: { rights?: unknown } } | undefined)?.userinfo?.rights;
          return Array.isArray(rights) ? (rights as string[]) : null;
        },
        () => null,
      );
      this.userRights.set(user, p);
    }
    return p;
  }

  /** Has a recording applied to the cassette once its answer, its identity and what it teaches are known. */
  private store(params: ParamMap, answer: Promise<Stored>, who: Promise<Asking> = Promise.resolve({ user: null, credentials: {} })): void {
    let key = canonicalKey(params, KEY_RULES);
    const parts = (async () => {
      const [data, identity] = await Promise.all([answer, who]);
      if ('refused' in identity) throw new Error(identity.refused);
      const user = identity.user;
      key = identityKey(key, user);
      // A user who sees the lists as readers do teaches replay the wiki's entities as readers' answers do.
      const cookie = identity.credentials['cookie'];
      const readerView = user === null || (cookie !== undefined && !seesMoreThanReaders(await this.rightsOf(user, cookie)));
      if (!data) return null;
      const site = await this.site();
      // A secret an answer hands out (a token among user options, say) is stored as the marker.
      // (debuginfo is not stored: the profile alone is read from it, by learnProfile)
      const { debuginfo, ...rest } = data.body;
      const body = redactJson(rest);
      const kept: Record<string, string> = {};
      for (const h of KEPT_HEADERS) {
        const v = data.headers[h];
        if (typeof v === 'string') kept[h] = v;
      }
      const interaction: Interaction = { key, request: Object.fromEntries(canonicalParams(params, KEY_RULES)), status: data.status, headers: kept, body, recordedAt: new Date().toISOString(), ...(user !== null ? { user } : {}) };
      return { interaction, debuginfo, readerView, site };
    })();
    this.cassette.add(parts, () => key);
  }
}

/** Whether the client's own request carried exactly these credentials (its answer is then the identity's). */
function askedWith(headers: IncomingHttpHeaders, credentials: Readonly<Record<string, string>>): boolean {
  return headers.authorization === undefined && (headers.cookie || undefined) === credentials['cookie'];
}

/**
 * The answer's data, read on a later turn of the event loop (after the client has been served).
 * With $wgDebugToolbar most of an answer's bytes are its debuginfo, which is not stored (store()
 * reads only the profile from it, where key order does not matter): the forwarder's plain parse
 * (`checked`) gives it, and only the rest is parsed again keeping key order (storedData). JSON
 * that is not an object (a bare `null`, a list) cannot be a recording: it rejects, and the
 * rejection is said, naming the question (cassette-writer.ts), never dropped in silence.
 */
function readLater(text: string, checked: unknown): Promise<JsonObject> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(storedData(text, dataObject(checked)));
      } catch (e) {
        reject(e as Error);
      }
    }),
  );
}

/** The forwarder's reading of an answer when it is an object; else the error that says what it is. */
function dataObject(data: unknown): JsonObject {
  if (isObject(data)) return data;
  throw new Error(`the wiki answered with JSON that is not an object (${Array.isArray(data) ? 'a list' : data === null ? 'null' : typeof data})`);
}

/** Whether a value is a JSON object (not an array). */
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An answer's data keeping key order, its debuginfo taken from `checked` (its plain parse). MediaWiki
 * appends debuginfo last (ApiMain, MWDebug::appendDebugInfoToApiResult), so the text up to its
 * key, closed, is the rest of the answer; anything else (a `"debuginfo"` key deeper down, members
 * after it) fails to parse or lacks members, and the whole text is parsed instead.
 */
function storedData(text: string, checked: unknown): JsonObject {
  const debuginfo = isObject(checked) ? checked['debuginfo'] : undefined;
  const cut = debuginfo === undefined ? -1 : text.lastIndexOf(',"debuginfo":');
  if (cut > 0 && isObject(checked)) {
    let rest: unknown;
    try {
      rest = parseKeepingKeyOrder(`${text.slice(0, cut)}}`);
    } catch {
      rest = undefined;
    }
    if (isObject(rest) && Object.keys(rest).length === Object.keys(checked).length - 1) return { ...rest, debuginfo: debuginfo as JsonObject[string] };
  }
  return parseKeepingKeyOrder(text) as JsonObject;
}
