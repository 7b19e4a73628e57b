import type { IncomingHttpHeaders } from 'node:http';
import { failWith, runApi, type ApiEnvironment } from './api/main.js';
import { ApiUsageError, apiMessage, WIKITAPE_INTERNAL } from './api/errors.js';
import { ApiRequest } from './api/request.js';
import { generatorOrders } from './api/registry.js';
import { KEY_RULES, MODULES } from './modules/index.js';
import { render, type Rendered, type RenderInput } from './output/render.js';
import { requestParams } from './request/body.js';
import { parseUrlEncoded, type ParamMap } from './request/params.js';
import type { Interaction } from './cassette/format.js';
import type { JsonObject } from './api/result.js';
import type { Knowledge, WikiModel } from './wiki/model.js';
import type { IdentityView, LearnAs } from './replay/replay-model.js';
import { refusing } from './replay/refusal.js';
import type { WikiProfile } from './wiki/profile.js';
import type { Language } from './i18n/language.js';
import type { LoadedSources, Source } from './options.js';
import { canonicalKey, splitMulti } from './request/canonical.js';
import { globalRequestUrl } from './request/url.js';
import { redactQuery } from './util/secrets.js';
import type { CassetteIndex } from './replay/cassette-index.js';
import { printerUnknown, recordedOutcome } from './replay/render-recorded.js';
import { MARK_PREFIX, MARKS, makeTemplate, type HitTemplate } from './replay/hit-template.js';
import type { DebugMarks } from './output/debuginfo.js';
import { isFrozenBytes } from './output/json.js';
import { identityKey } from './cassette/format.js';
import type { OfflineSessions, RequestSession } from './replay/sessions.js';
import { apiFaultHook } from './faults/api.js';
import { describeNearMisses, nearMisses, type NearMiss } from './replay/near-miss.js';
import type { ArmedFault } from './faults/spec.js';
import { ANONYMOUS, lacksSameOriginSecurity } from './api/session.js';
import { expiredSince, expiring, visibilityUnknown } from './replay/recorded-lists.js';
import { recordingTime, walkTime } from './replay/answer-time.js';
import { explainedQuestion, type Explanation } from './replay/explained-question.js';
import { KeptTemplates } from './replay/kept-templates.js';
import { readsContent } from './request/after-writes.js';

/** One HTTP request to api.php, as the engine needs it. */
export interface HttpRequest {
  method: string;
  /** Path and query as received (`/wiki/api.php?action=…`). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** When handling started (process.hrtime.bigint()), for debuginfo `time`. */
  startedAt: bigint;
}

/** An answer and where it came from. */
export interface Answer extends Rendered {
  source: Source;
  /** The canonical key of the question (for logs). */
  key: string;
  /** What `--track-usage` records for it: the key, `list:<module>` for a synthesized page, or null. */
  usage: string | null;
  /** The language the answer was printed in (uselang). */
  userLang: Language;
  /**
   * Whether the answer follows the clock (a built-in list filters expired blocks; curtimestamp;
   * an Expires header counted from now), so that a printed copy holds only for the second.
   */
  clocked: boolean;
  /** A miss: the recordings closest to the question and how each differs (replay/near-miss.ts). */
  nearMisses?: NearMiss[];
  /**
   * The instant the answer is as of when it is its own (a recording's time or its walk's, under
   * `--clock recorded`): its `Date` and every time in it. Absent: the clock's time of the request.
   */
  at?: number;
}

const EMPTY = Buffer.alloc(0);
/** The most characters of query strings and keys the hit-key memo holds (about 16 MB as UTF-16). */
const HIT_KEYS_CHARS = 8 << 20;

/** What `--track-usage` notes for a computed answer: the lists it read (`list:<module>`, see cassettes prune). */
function usageOf(params: ParamMap): string | null {
  const lists = (params.get('list') ?? '').split('|').filter((l) => l !== '');
  return lists.length > 0 ? lists.map((l) => `list:${l}`).join(' ') : null;
}

/** The lists whose entries are `assoc`-typed (ListModule.assocEntries), for formatversion=1. */
const ASSOC_LISTS: ReadonlySet<string> = new Set(MODULES.query.list.filter((l) => l.assocEntries).map((l) => l.name));
/** The generators whose order of pages an answer shows (ListModule.generatorOrder), for formatversion=1. */
const GENERATOR_ORDERS = generatorOrders(MODULES);

/** The session replay answers a request with, for render (none: MediaWiki's handling of unknown sessions). */
function sessionOf(session: RequestSession | undefined): { session?: { setCookie: string[]; sessionId: string } } {
  if (!session || (!session.active && session.setCookie.length === 0)) return {};
  return { session: { setCookie: session.setCookie, sessionId: session.sessionId ?? '' } };
}

/**
 * Replay: answers each api.php request from the recorded cassettes when the exact question
 * was recorded, else from the built-in modules over the model (fixtures plus harvested entities).
 */
export class ReplayEngine {
  constructor(
    readonly profile: WikiProfile,
    readonly model: WikiModel,
    /** The clock ("now" in ms). */
    readonly now: () => number,
    readonly cassettes?: CassetteIndex,
    readonly onMiss: 'builtin' | 'error' = 'error',
    /** Offline sessions (logins, tokens) and the write log; none: every caller is anonymous. */
    readonly sessions?: OfflineSessions,
    /** Works out what the recordings prove (replay/knowledge.ts); none: a model of fixtures only, where everything is known. */
    private readonly learn: (() => Knowledge) | null = null,
    /** What a logged-in identity's own recordings teach it (replay/replay-model.ts identityViews); none: readers' knowledge for all. */
    private readonly learnAs: LearnAs | null = null,
  ) {
  }

  /** Each identity's view, once worked out (null: it learns what readers learn). */
  private readonly views = new Map<string, IdentityView | null>();

  /** The model and knowledge a logged-in identity's computed answers read; null: readers'. */
  private viewOf(identity: string): IdentityView | null {
    if (!this.learnAs) return null;
    let view = this.views.get(identity);
    if (view === undefined) {
      const everyone = this.knows();
      view = everyone === null ? null : this.learnAs(identity, everyone);
      this.views.set(identity, view);
    }
    return view;
  }

  /** The knowledge, once worked out (undefined: not yet asked for). */
  private knowledge: Knowledge | null | undefined;

  /**
   * What the recordings prove, handed to the modules with each computed answer: worked out on the
   * first call, which a cassette hit never makes (it reads every recorded list answer).
   */
  knows(): Knowledge | null {
    if (this.knowledge === undefined) this.knowledge = this.learn?.() ?? null;
    return this.knowledge;
  }

  /** What it was loaded from (set where it is built, app.ts loadEngine). */
  sources: LoadedSources = { cassettes: [], fixtures: [], model: false, defaultWiki: false, clock: 'real' };

  /** Keys (and `list:<module>` for synthesized answers) that answered, for `--track-usage`. */
  readonly used = new Set<string>();

  /** Whether the clock stands still (`recorded` or an ISO time): then no recorded answer ever expires. */
  clockFixed = false;

  /**
   * `--clock recorded`: each recording keeps its own time (replay/answer-time.ts). A cassette hit
   * is answered as of its `recordedAt`, an answer computed from a list as of its walk; `now` is
   * the clock of everything else (sessions, writes, answers that read no walk).
   */
  perRecording = false;

  /**
   * The rights the fixtures' lists were read with (their `seenWithRights`): with fixtures alone, a
   * caller whose rights show no more than these is answered from them, unflagged.
   */
  fixtureRights: readonly string[] = [];

  /** Notes an answer's usage (a key, or `list:<module>` words). */
  noteUsage(usage: string): void {
    for (const u of usage.split(' ')) this.used.add(u);
  }

  /** Closes the cassette files kept open for reading. */
  close(): void {
    this.cassettes?.interactions.close();
  }

  private readonly encoded = new WeakMap<Interaction, Map<string, Buffer>>();

  /**
   * The printing cache of a recorded answer: its data only changes with what the request adds to
   * it (requestid, curtimestamp, responselanginfo, the spelling of titles, the warning of a
   * `callback` that needed cleaning), so only an answer whose data is the recorded body itself is
   * kept: a request that added to it prints afresh, and leaves nothing behind for the next one.
   */
  private encodedFor(i: Interaction, params: ParamMap, data: JsonObject): { encoded?: Map<string, Buffer> } {
    if (data !== i.body || params.has('requestid') || params.has('curtimestamp') || params.has('responselanginfo') || params.has('titles')) return {};
    let m = this.encoded.get(i);
    if (!m) this.encoded.set(i, (m = new Map()));
    return { encoded: m };
  }

  /** Whether a GET with this query string is answered from a cassette (the hot path's test). */
  isHit(query: string): boolean {
    return this.keyOfQuery(query) !== null;
  }

  /** Canonical keys of recorded GET query strings, remembered (tests repeat the same URLs). */
  private readonly hitKeys = new Map<string, string | null>();
  /** Characters the remembered query strings and keys hold; the memo is emptied past HIT_KEYS_CHARS. */
  private hitKeysChars = 0;

  /** The canonical key of a GET query string when the cassettes hold it, else null. */
  private keyOfQuery(query: string): string | null {
    if (!this.cassettes || this.cassettes.interactions.size === 0) return null;
    let key = this.hitKeys.get(query);
    if (key === undefined) {
      const k = canonicalKey(parseUrlEncoded(query), KEY_RULES);
      key = this.cassettes.interactions.has(k) ? k : null;
      // Bounded by size, not only by count: distinct huge query strings must not pile up.
      const chars = query.length + (key?.length ?? 0);
      if (this.hitKeysChars + chars > HIT_KEYS_CHARS || this.hitKeys.size >= 10_000) {
        this.hitKeys.clear();
        this.hitKeysChars = 0;
      }
      if (chars <= HIT_KEYS_CHARS / 64) {
        this.hitKeys.set(query, key);
        this.hitKeysChars += chars;
      }
    }
    return key;
  }

  /** Characters the hit-key memo may hold (see keyOfQuery). */
  get hitKeyMemoChars(): number {
    return this.hitKeysChars;
  }

  /** Printed answers by exact request (URL and headers), see hit-template.ts. */
  readonly templates = new KeptTemplates();

  /**
   * The template of the answer to a GET, made on first use and kept (see KeptTemplates): for good,
   * or, for an answer that follows the clock, for the second it was made in (see Answer.clocked).
   * Null for requests answered afresh every time: with cookies (they make a session).
   */
  template(url: string, headers: IncomingHttpHeaders, rawHeaders: readonly string[], now = this.now()): HitTemplate | null {
    const cacheKey = rawHeaders.length === 0 ? url : `${url}\n${rawHeaders.join('\n')}`;
    const second = Math.floor(now / 1000);
    const kept = this.templates.get(cacheKey);
    if (kept && (kept.second === null || kept.second === second)) return kept;
    if (kept) this.templates.drop(cacheKey);
    if (headers.cookie !== undefined || cacheKey.includes(MARK_PREFIX)) return null;
    // ApiSandbox's wrapped page carries the time it took in milliseconds: printed afresh each time.
    if (/[?&]wrappedhtml(?:[=&]|$)/.test(url)) return null;
    const answer = this.handle({ method: 'GET', url, headers, body: EMPTY, startedAt: process.hrtime.bigint() }, { marks: MARKS, now });
    // An answer that starts a session (a login token) is its client's alone: never printed twice.
    if (answer.headers.some(([k]) => k.toLowerCase() === 'set-cookie')) return null;
    // A miss is answered (and logged, with its near misses) by the app each time: with the answer
    // worked out here (printed without marks), not worked out again (see takeMiss).
    if (answer.source === 'miss') {
      this.lastMiss = { url, headers, answer };
      return null;
    }
    const t = makeTemplate(answer, { key: answer.key, usage: answer.usage, userLang: answer.userLang, source: answer.source, second: answer.clocked ? second : null, at: answer.at ?? null, shared: isFrozenBytes });
    this.templates.offer(cacheKey, t, answer.source === 'cassette');
    return t;
  }

  /** The miss `template` worked out last, for the app's handling of that same request (takeMiss). */
  private lastMiss: { url: string; headers: IncomingHttpHeaders; answer: Answer } | null = null;

  /**
   * The miss `template` just worked out for this very request (its headers object, its URL), taken
   * once: the app answers a miss after the template declined it, and a miss costs as much as any
   * computed answer (more: it names its near misses), so it is not worked out twice.
   */
  private takeMiss(req: HttpRequest, opts: { marks?: DebugMarks; now?: number; identity?: string | null; faults?: readonly ArmedFault[] }): Answer | null {
    const m = this.lastMiss;
    if (m === null) return null;
    this.lastMiss = null;
    const plain = opts.marks === undefined && opts.now === undefined && opts.identity === undefined && (opts.faults?.length ?? 0) === 0;
    return plain && req.method === 'GET' && req.body.length === 0 && req.headers === m.headers && req.url === m.url ? m.answer : null;
  }

  /**
   * A fault asked for that fires on this request (faults/api.ts): the error answer MediaWiki gives,
   * raised where it raises it; null when none fires (the request is answered as usual).
   */
  private fault(
    faults: readonly ArmedFault[],
    req: HttpRequest,
    params: ParamMap,
    get: ParamMap,
    lossy: Set<string>,
    now: number,
    session: RequestSession | undefined,
    http: RenderInput['http'],
  ): Omit<Answer, 'key'> | null {
    const hook = apiFaultHook(faults, params);
    if (!hook) return null;
    const request = new ApiRequest(params, lossy, httpFacts(req, get));
    const outcome = runApi(request, { ...this.envFor(this.model, this.knows(), now, session), fault: hook, faultProbe: true });
    if (outcome.fault === undefined) return null;
    const rendered = render({ profile: this.profile, model: this.model, assocLists: ASSOC_LISTS, generatorOrders: GENERATOR_ORDERS, knows: this.knows(), outcome, http, now, ...sessionOf(session) });
    rendered.headers.push(['X-Wikitape-Fault', outcome.fault]);
    // A fault's text in a language wikitape cannot render is flagged as any answer's.
    const texts = outcome.unknown.filter((u) => u.startsWith('i18n.'));
    if (texts.length > 0) rendered.headers.push(['X-Wikitape-Unknown', texts.join(', ')]);
    return { ...rendered, source: 'fault', usage: null, userLang: outcome.userLang, clocked: true };
  }

  /** What the API modules run with: this wiki, the model and knowledge asked from, the clock, the caller's session. */
  private envFor(model: WikiModel, knows: Knowledge | null, now: number, session: RequestSession | undefined): ApiEnvironment {
    return { profile: this.profile, model, knows, now, actions: MODULES.actions, ...(session ? { session } : {}) };
  }

  /**
   * How replay would answer a question (a query string, as a GET) without serving it: where the
   * answer comes from, what it needed that the recordings do not show, the HTTP status and error
   * code, and, unless a recording answers it, the recorded questions closest to it. `identity`
   * (`Admin`, `Admin@bot`) asks it in a session logged in as that account; the logs' form
   * (`<query> @Admin%40bot`, the identity after ` @`, URL-encoded) names it as well.
   */
  explain(query: string, options: { identity?: string } = {}): Explanation {
    const { q, identity } = explainedQuestion(query, options.identity);
    // A session logged in as the identity, for this question only: its recordings, its rights.
    const session = identity !== null && this.sessions ? this.sessions.create(identity)[0] : null;
    const headers = session !== null ? { cookie: `${this.sessions!.prefix}_session=${session}` } : {};
    // A signed session of its own: nothing to end afterwards (its cookie never leaves this call).
    const answer = this.handle({ method: 'GET', url: `${this.profile.scriptPath}/api.php?${q}`, headers, body: EMPTY, startedAt: process.hrtime.bigint() }, session === null && identity !== null ? { identity } : {});
    const header = (name: string) => answer.headers.find(([k]) => k.toLowerCase() === name)?.[1] ?? null;
    const unknown = header('x-wikitape-unknown');
    const near = answer.nearMisses ?? (answer.source === 'cassette' || !this.cassettes ? [] : nearMisses(answer.key, this.cassettes.interactions));
    return {
      key: answer.key,
      source: answer.source,
      status: answer.status,
      error: header('mediawiki-api-error'),
      used: answer.source === 'cassette' ? `the recording ${answer.key}` : answer.usage?.startsWith('list:') ? `the recordings of list=${answer.usage.slice(5)} (a page computed from what they hold)` : answer.source === 'synthesized' ? 'what the recordings hold' : 'the built-in modules and fixtures',
      unknown: unknown === null ? [] : unknown.split(', '),
      nearMisses: near,
    };
  }

  /**
   * Answers one request. `marks` prints a template instead (see `template`); `now` is the clock's
   * time to answer at (default: read it).
   */
  handle(req: HttpRequest, opts: { marks?: DebugMarks; now?: number; identity?: string | null; faults?: readonly ArmedFault[] } = {}): Answer {
    const taken = this.takeMiss(req, opts);
    if (taken) return taken;
    const { marks } = opts;
    const { query, get, post, params, lossy } = requestParams(req.method, req.url, req.headers['content-type'], req.body);
    const clockNow = opts.now ?? this.now();
    // Record mode's `--mode new` names the identity itself (the session is the wiki's): cookies are left alone.
    // Credentials are stripped where the same-origin policy does not hold (JSONP, origin=*,
    // Treat-as-Untrusted): the caller is anonymous, its session kept as MediaWiki keeps it.
    const cookie = typeof req.headers.cookie === 'string' ? req.headers.cookie : undefined;
    const session = opts.identity !== undefined ? undefined : this.sessions?.open(cookie, clockNow, lacksSameOriginSecurity(params, req.headers));
    const identity = opts.identity !== undefined ? opts.identity : (session?.caller.identity ?? null);
    const keepCookies = opts.identity !== undefined ? { session: { setCookie: [], sessionId: '' } } : {};
    // A logged-in session's question is looked up among its user's recordings only; anonymous
    // questions never see those (docs/decisions/0006-sessions-are-identities.md).
    const key = identity === null ? ((post.size === 0 ? this.keyOfQuery(query) : null) ?? canonicalKey(params, KEY_RULES)) : identityKey(canonicalKey(params, KEY_RULES), identity);
    const found = this.cassettes?.interactions.get(key);
    // A recorded list of blocks the clock has since expired is computed instead, so that a hit and
    // the computed pages of the same list agree under any clock.
    // Nobody in a bot-password session asking meta=userinfo: the anonymous recording shows `*`'s
    // rights, the session allows only the grants' (the built-in module narrows them).
    const asksUserinfo = splitMulti(params.get('meta') ?? '').includes('userinfo');
    const narrowed = session?.caller.allowedRights !== undefined && asksUserinfo;
    // `uiprop=acceptlang` shows the caller's own Accept-Language: a recording shows the recorder's.
    const perCaller = asksUserinfo && splitMulti(params.get('uiprop') ?? '').some((p) => p === 'acceptlang' || p === '*');
    // Under --clock recorded a recording is replayed as of its own time, so a later one changes it not.
    const own = this.perRecording && found ? recordingTime(found) : null;
    const recorded = found && !expiredSince(found, own ?? clockNow) && !narrowed && !perCaller ? found : undefined;
    const http = { ...req, url: globalRequestUrl(req.url), params };
    const faulted = opts.faults ? this.fault(opts.faults, req, params, get, lossy, clockNow, session, http) : null;
    if (faulted) return { ...faulted, key: redactQuery(key) };
    // Replay applies no write: after one, what was recorded is the wiki before it (request/after-writes.ts).
    const written = readsContent(params) ? (this.sessions?.state.lastWrite() ?? null) : null;
    const afterWrite = written ? ['writes.applied'] : [];
    // A refusal of what replay holds but cannot answer as the wiki would: `wikitape-miss` with the
    // message `why`, what it does not know in X-Wikitape-Unknown.
    const refuse = (now: number, why: string, args: string[], unknown: string[]) => {
      const request = new ApiRequest(params, lossy, httpFacts(req, get));
      const env = this.envFor(this.model, this.knows(), now, session);
      const failed = failWith(request, env, new ApiUsageError(apiMessage('wikitape-miss', why, [redactQuery(key), ...args])));
      const rendered = render({ profile: this.profile, model: this.model, assocLists: ASSOC_LISTS, generatorOrders: GENERATOR_ORDERS, knows: env.knows, outcome: failed, http, now, ...sessionOf(session), ...keepCookies });
      rendered.headers.push(['X-Wikitape-Unknown', unknown.join(', ')]);
      return { ...rendered, source: 'miss' as const, key: redactQuery(key), usage: null, userLang: failed.userLang, clocked: true };
    };
    if (written && this.onMiss === 'error') return refuse(clockNow, 'wikitape-miss-written', [written.action, written.target], afterWrite);
    if (recorded) {
      const now = own ?? clockNow;
      const outcome = recordedOutcome(recorded, params, this.profile, now, MODULES, session?.caller ?? ANONYMOUS, lossy);
      const printed = [...outcome.unknown, ...printerUnknown(params, this.profile, outcome, http, session?.caller)];
      // A recording that cannot be printed as the wiki prints it in the form asked (XML, PHP, the
      // formatversion=1 form of a module wikitape does not know) is refused as any answer is.
      if (this.onMiss === 'error' && refusing(outcome, printed).length > 0) {
        // The order of a warning's parameter names is all it cannot know, or the form asked.
        const why = printed.every((u) => u === 'warnings.order') ? 'wikitape-miss-order' : 'wikitape-miss-unprintable';
        return refuse(now, why, [printed.join(', ')], printed);
      }
      this.used.add(key);
      const rendered = render({ profile: this.profile, model: this.model, assocLists: ASSOC_LISTS, generatorOrders: GENERATOR_ORDERS, outcome, http, now, ...(marks ? { marks } : {}), ...this.encodedFor(recorded, params, outcome.data), ...sessionOf(session), ...keepCookies });
      // curtimestamp, and an Expires counted from now (maxage and smaxage), follow the clock
      const clocked = params.has('curtimestamp') || outcome.maxage > 0 || outcome.smaxage > 0 || (!this.clockFixed && expiring(recorded));
      if (printed.length + afterWrite.length > 0) rendered.headers.push(['X-Wikitape-Unknown', [...printed, ...afterWrite].join(', ')]);
      return { ...rendered, source: 'cassette', key, usage: key, userLang: outcome.userLang, clocked, ...(own !== null ? { at: own } : {}) };
    }
    // What the recordings prove, worked out before any module reads the entities (replay/knowledge.ts).
    // A logged-in identity that sees more than readers reads what its own recordings taught (decision 0006).
    const view = identity === null ? null : this.viewOf(identity);
    const knows = view?.knows ?? this.knows();
    const model = view?.model ?? this.model;
    // A computed answer is as of the walk it comes from (a later walk of another list changes it not).
    const walked = this.perRecording ? walkTime(params, knows, MODULES.query.list) : null;
    const now = walked ?? clockNow;
    const env = this.envFor(model, knows, now, session);
    const request = new ApiRequest(params, lossy, httpFacts(req, get));
    let outcome = runApi(request, env);
    let unknown = [...outcome.unknown, ...printerUnknown(params, this.profile, outcome, http, session?.caller), ...(view ? [] : visibilityUnknown(session?.caller, outcome.modules, knows === null ? this.fixtureRights : [])), ...afterWrite];
    const miss = this.onMiss === 'error' && refusing(outcome, unknown).length > 0;
    // A miss stands instead of a crash that followed from what the recordings lack: it names what
    // to record, and wikitape's own failure is not among that (recording the question mends it).
    if (miss) unknown = unknown.filter((u) => u !== WIKITAPE_INTERNAL);
    // A miss names the recordings closest to the question, and how each differs.
    const near = miss && this.cassettes ? nearMisses(key, this.cassettes.interactions) : [];
    if (miss) {
      const params = [redactQuery(key), this.cassettes?.upstream ?? 'URL', unknown.join(', '), describeNearMisses(near)];
      const message = near.length > 0 ? apiMessage('wikitape-miss', 'wikitape-miss-near', params, { nearmisses: near }) : apiMessage('wikitape-miss', 'wikitape-miss', params);
      outcome = failWith(request, env, new ApiUsageError(message));
    }
    // Computed from recordings: `synthesized`; from fixtures or the built-in rules: `builtin`. Only an
    // answer that needed nothing unknown may be called exact.
    const computed = knows !== null && !outcome.isError && unknown.length === 0 && outcome.action === 'query';
    const source: Source = miss ? 'miss' : computed ? 'synthesized' : 'builtin';
    const usage = source === 'synthesized' ? usageOf(params) : null;
    if (usage) this.noteUsage(usage);
    // A miss is never a template: printed as the app sends it (template keeps it for the app).
    const rendered = render({ profile: this.profile, model, assocLists: ASSOC_LISTS, generatorOrders: GENERATOR_ORDERS, knows, outcome, http, now, ...(marks && !miss ? { marks } : {}), ...sessionOf(session) });
    if (unknown.length > 0) rendered.headers.push(['X-Wikitape-Unknown', unknown.join(', ')]);
    // The key is what logs and onRequest show of the question: secrets never reach them.
    return { ...rendered, source, key: redactQuery(key), usage, userLang: outcome.userLang, clocked: true, ...(near.length > 0 ? { nearMisses: near } : {}), ...(walked !== null ? { at: walked } : {}) };
  }
}

/** What ApiRequest keeps of how a request came (see ApiRequest.http). */
function httpFacts(req: HttpRequest, get: ParamMap): ApiRequest['http'] {
  const lang = req.headers['accept-language'];
  return { posted: req.method === 'POST', queryNames: new Set(get.keys()), ...(typeof lang === 'string' ? { acceptLanguage: lang } : {}) };
}
