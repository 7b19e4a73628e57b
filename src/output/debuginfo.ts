import { getHeapStatistics } from 'node:v8';
import { atLeast, type Lang, type WikiProfile } from '../wiki/profile.js';
import includesData from './includes-1.39.json' with { type: 'json' };
import { encodeJson, frozenJson, withFrozenMembers } from './json.js';
import { newSessionId, parsePhpCookies, type SessionOutcome } from './headers.js';
import { formatMegabytesParts, formatSizeLocal } from './texts.js';

/**
 * `debuginfo` as MWDebug::getDebugInfo builds it ($wgDebugToolbar), shaped after real MediaWiki
 * 1.39.17 answers: key order, the log entry, the debug log lines a request on that wiki writes
 * (session, DB connection, the queries, cache mode, gitinfo), the queries, the request, memory
 * figures and the list of included PHP files (from `includes-1.39.json`, captured per module).
 *
 * Built per request on the hot path: everything constant (the includes list with its localized
 * sizes) is built once and cached as a frozen JSON fragment, so building takes a few µs and
 * encoding only the small per-request part.
 */
export interface DebugQuery {
  /** SQL without the server prefix (`SELECT …`). */
  sql: string;
  /** Caller as the DB layer reports it (`ApiQueryLogEvents::execute`). */
  function: string;
  /** Seconds; rounded to 3 decimals. Default 0. */
  time?: number;
}

export interface DebugInfoInput {
  profile: WikiProfile;
  userLang: Lang;
  request: {
    method: string;
    /** Path and query as received (REQUEST_URI). */
    url: string;
    /** As received, any case, in arrival order. */
    headers: Record<string, string>;
    /** $_POST + $_GET merged (POST wins), as strings. */
    params: Record<string, string>;
    /** Client address for the "IP:" line. Default 127.0.0.1. */
    ip?: string;
  };
  elapsedSeconds: number;
  /** The queries, in execution order (see `typicalQueries` for the ones a real 1.39 runs). */
  queries: ReadonlyArray<DebugQuery>;
  /** The module: `query+logevents` or `logevents`, `blocks`, `protectedtitles`, `extlinks`, `parse`, `spamblacklist`. */
  moduleName: string;
  /** The session outcome (headers.ts sessionCookies), for the session/cookie log lines. */
  session?: SessionOutcome;
  /** Request over HTTPS (cookie `secure` flag in the cookie log lines). */
  https?: boolean;
  /** Now, for the cookie-expiry timestamps in the log. Default Date.now(). */
  nowMs?: number;
  /** Spam blacklist patterns (action=spamblacklist log lines). */
  spamBlacklist?: readonly string[];
  /** The blacklist file the wiki reads ("got from file …" line); omitted when absent. */
  spamBlacklistFile?: string;
  /** Replaces the module-specific debug log lines. */
  moduleLog?: readonly string[];
  /** The cache mode the modules asked for (ApiOutcome.requestedCacheMode); default the module's usual one. */
  cacheMode?: 'public' | 'private' | 'anon-public-user-private' | null;
  /**
   * Builds a template instead (see replay/hit-template.ts): the parts that change from one
   * request to the next are these marks, which the template fills in per request.
   */
  marks?: DebugMarks;
}

/** Stand-ins for the per-request parts of debuginfo: plain ASCII words no answer contains. */
export interface DebugMarks {
  /** `time` (a number: the mark is printed as a JSON string and the quotes are dropped later). */
  time: string;
  /** The session id of an anonymous request's session lines. */
  session: string;
  /** The number part of `memory` and `memoryPeak` (the unit is MB). */
  memory: string;
  memoryPeak: string;
  /** Now minus a year, in Unix seconds (cookie expiry in the session lines). */
  expired: string;
  /** Now as a MediaWiki timestamp (`yyyymmddhhmmss`, block expiry in the SQL). */
  nowMw: string;
  /** The HTML page's wgRequestId (not debuginfo, but as fresh per request). */
  requestId: string;
}

type ModuleKey = 'logevents' | 'blocks' | 'protectedtitles' | 'extlinks' | 'parse' | 'spamblacklist';

/** `query+logevents` → `logevents`; other query modules fall back to logevents' shape. */
function moduleKey(name: string): ModuleKey {
  const n = name.replace(/^query\+/, '');
  switch (n) {
    case 'logevents':
    case 'blocks':
    case 'protectedtitles':
    case 'extlinks':
    case 'parse':
    case 'spamblacklist':
      return n;
    default:
      return 'logevents';
  }
}

/** The cache mode each module asks for (before ApiMain::setCacheMode's uselang downgrade). */
const MODULE_CACHE_MODE: Record<ModuleKey, 'public' | 'private' | 'anon-public-user-private' | null> = {
  logevents: 'public',
  protectedtitles: 'public',
  extlinks: 'public',
  blocks: 'private',
  parse: 'anon-public-user-private',
  spamblacklist: null,
};

// ---------------------------------------------------------------------------------------------
// includes

interface IncludesData {
  paths: string[];
  sizes: number[];
  lists: Record<string, number[]>;
}
const INCLUDES = includesData as unknown as IncludesData;
const includesCache = new Map<string, ReadonlyArray<{ name: string; size: string }>>();

/**
 * The included files for a module and user language, with localized sizes (built once, frozen).
 * `variant` `links`: action=parse with a wiki link in the summary (loads the Linker classes too).
 */
export function debugIncludes(
  profile: WikiProfile,
  userLang: Lang,
  moduleName: string,
  variant?: 'links',
): ReadonlyArray<{ name: string; size: string }> {
  let mod: string = moduleKey(moduleName);
  if (mod === 'parse' && variant === 'links') mod = 'parselinks';
  const key = `${mod}:${userLang}:${profile.installPath}`;
  let list = includesCache.get(key);
  if (!list) {
    const runs = INCLUDES.lists[`${mod}:${userLang}`] ?? INCLUDES.lists[`${mod}:ru`]!;
    const base = profile.installPath.replace(/\/+$/, '');
    const out: Array<{ name: string; size: string }> = [];
    for (let r = 0; r < runs.length; r += 2) {
      const start = runs[r]!;
      const len = runs[r + 1]!;
      for (let i = start; i < start + len; i++) {
        const p = INCLUDES.paths[i]!;
        out.push({ name: p.startsWith('/') ? p : `${base}/${p}`, size: formatSizeLocal(userLang, INCLUDES.sizes[i]!) });
      }
    }
    list = frozenJson(Object.freeze(out));
    includesCache.set(key, list);
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// debug log

const SESSION_DIRTY_TRACE =
  'MediaWiki\\Session\\SessionManager->getSessionForRequest/MediaWiki\\Session\\SessionManager->getInitialSession/MediaWiki\\Session\\Session->getToken/MediaWiki\\Session\\Session->set/MediaWiki\\Session\\SessionBackend->dirty';

function cookieLine(kind: 'setcookie' | 'already deleted' | 'already set', name: string, value: string, expire: string, secure: boolean): string {
  const prefix = kind === 'setcookie' ? 'setcookie' : `${kind} setcookie`;
  return `[cookie] ${prefix}: "${name}", "${value}", "${expire}", "/", "", "${secure ? '1' : ''}", "1", ""`;
}

function sessionLines(input: DebugInfoInput, session: SessionOutcome, nowMs: number): string[] {
  const p = input.profile.cookiePrefix;
  const names = [`${p}_session`, `${p}UserID`, `${p}Token`, 'forceHTTPS'];
  const secure = input.https ?? false;
  const expired = input.marks?.expired ?? String(Math.floor(nowMs / 1000) - 365 * 86400);
  const sid = session.sessionId;
  const out: string[] = [];
  const sent = new Set(session.sentCookies);
  if (session.persistent && session.requestedId !== undefined) {
    const old = session.requestedId;
    out.push(
      `[session] Session "${old}" requested without UserID cookie`,
      `[session] SessionBackend "${old}" is unsaved, marking dirty in constructor`,
      `[session] SessionBackend "${sid}" metadata dirty due to ID reset (formerly "${old}")`,
      `[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=1 forcePersist=0`,
      '[session] Persisting session due to no pre-existing stored session',
    );
    const deleted = new Set<string>();
    for (let round = 0; round < 3; round++) {
      if (round === 1) out.push(`[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=1 forcePersist=0`);
      out.push(cookieLine(round === 0 ? 'setcookie' : 'already set', names[0]!, sid, '0', secure));
      for (const n of names.slice(1)) {
        if (n === 'forceHTTPS' && session.forceHTTPS) {
          out.push(cookieLine(round === 0 ? 'setcookie' : 'already set', n, 'true', '0', false));
          continue;
        }
        const first = sent.has(n) && !deleted.has(n);
        if (first) deleted.add(n);
        out.push(cookieLine(first ? 'setcookie' : 'already deleted', n, '', expired, n === 'forceHTTPS' ? false : secure));
      }
    }
    out.push(`[session] SessionBackend "${sid}" Taking over PHP session`);
    return out;
  }
  out.push(
    `[session] SessionBackend "${sid}" is unsaved, marking dirty in constructor`,
    `[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=1 forcePersist=0`,
  );
  for (const n of names) {
    out.push(cookieLine(sent.has(n) ? 'setcookie' : 'already deleted', n, '', expired, n === 'forceHTTPS' ? false : secure));
  }
  out.push(
    `[session] SessionBackend "${sid}" data dirty due to dirty(): ${SESSION_DIRTY_TRACE}`,
    `[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=0 forcePersist=0`,
  );
  return out;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lc = name.toLowerCase();
  for (const k in headers) if (k.toLowerCase() === lc) return headers[k];
  return undefined;
}

function connectionLines(input: DebugInfoInput): string[] {
  const h = input.request.headers;
  const pos = parseInt(input.request.params['cpPosIndex'] ?? '', 10);
  const info = {
    IPAddress: input.request.ip ?? '127.0.0.1',
    UserAgent: headerValue(h, 'User-Agent') ?? false,
    ChronologyProtection: headerValue(h, 'MediaWiki-Chronology-Protection') ?? false,
    ChronologyPositionIndex: Number.isFinite(pos) ? pos : 0,
    ChronologyClientId: false,
  };
  // LegacyLogger interpolates arrays with plain json_encode(JSON_PRETTY_PRINT): slashes and non-ASCII escaped
  const json = encodeJson(info, { ascii: true, pretty: true }).replace(/\//g, '\\/');
  return [
    '[DBReplication] Cannot use ChronologyProtector with EmptyBagOStuff',
    `[DBReplication] Wikimedia\\Rdbms\\LBFactory::getChronologyProtector: request info ${json}`,
    '[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::lazyLoadReplicationPositions: executed chronology callback.',
    '[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: opened new connection for local/0',
  ];
}

const REUSED = '[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: reused a connection for local/0';

function roundTime(t: number | undefined): number {
  return t === undefined ? 0 : Math.round(t * 1000) / 1000;
}

/** The query lines with the DB connection and MessageCache lines a real request shows around them. */
function queryLines(input: DebugInfoInput, server: string): string[] {
  const out: string[] = [];
  const qs = input.queries;
  const isOpen = (f: string): boolean => /::open$/.test(f);
  const mcLang = (f: string): string | undefined => /MessageCache::loadFromDB\(([^)]+)\)-big/.exec(f)?.[1];
  const firstReal = qs.find((q) => !isOpen(q.function));
  let mcStarted = false;
  const mcPreamble = (lang: string): void => {
    if (!mcStarted) out.push('[MessageCache] MessageCache using store SqlBagOStuff');
    mcStarted = true;
    out.push(
      `[SQLBagOStuff] SqlBagOStuff debug: SqlBagOStuff::fetchBlobs: retrieved ${input.profile.cookiePrefix}:messages:${lang}; expiry time is 99991231235959`,
    );
  };
  // MessageCache loading first (spamblacklist): its preamble precedes the connection
  const earlyLang = firstReal ? mcLang(firstReal.function) : undefined;
  if (earlyLang) mcPreamble(earlyLang);
  let connected = false;
  let lastWasQuery = false;
  const doneLangs = new Set<string>();
  if (earlyLang) doneLangs.add(earlyLang);
  for (let i = 0; i < qs.length; i++) {
    const q = qs[i]!;
    if (!isOpen(q.function) && !connected) {
      out.push(...connectionLines(input));
      connected = true;
      lastWasQuery = false;
    } else if (!isOpen(q.function)) {
      const lang = mcLang(q.function);
      if (lang && !doneLangs.has(lang) && !q.function.startsWith('Wikimedia\\Rdbms\\Database::begin')) {
        mcPreamble(lang);
        doneLangs.add(lang);
        lastWasQuery = false;
      }
      if (!lastWasQuery && !q.function.includes('-small')) out.push(REUSED);
    }
    out.push(`[DBQuery] ${q.function} [${roundTime(q.time)}s] ${server}: ${q.sql}`.trimEnd());
    lastWasQuery = true;
    const small = /MessageCache::loadFromDB\(([^)]+)\)-small/.exec(q.function);
    if (small) {
      out.push(`[MessageCache] MessageCache::loadUnguarded: Loading ${small[1]}... local cache is empty, global cache is expired/volatile, loading from DB`);
      lastWasQuery = false;
    }
    if (q.function === 'WikiPage::pageData' && input.request.params['uselang'] === undefined) {
      out.push('Unstubbing $wgLang on call of $wgLang::unstub from ContentHandler->getPageLanguage');
      lastWasQuery = false;
    }
  }
  return out;
}

function cacheModeLines(mode: 'public' | 'private' | 'anon-public-user-private' | null, params: Record<string, string>): string[] {
  if (mode === null) return [];
  const uselang = params['uselang'];
  if (mode === 'public' && (uselang === undefined || uselang === 'user')) {
    return [
      "ApiMain::setCacheMode: downgrading cache mode 'public' to 'anon-public-user-private' due to uselang=user",
      'ApiMain::setCacheMode: setting cache mode anon-public-user-private',
    ];
  }
  return [`ApiMain::setCacheMode: setting cache mode ${mode}`];
}

function spamLines(input: DebugInfoInput): string[] {
  const urls = (input.request.params['url'] ?? '').split('|').filter((u) => u !== '');
  const pfx = input.profile.cookiePrefix;
  const patterns = input.spamBlacklist ?? [];
  const out = [
    `[objectcache] fetchOrRegenerate(${pfx}:spamblacklist:spam:blacklist-regex): miss, new value computed`,
    '[SpamBlacklist] Loading spam regex...',
    '[SpamBlacklist] Constructing spam blacklist',
    ...(input.spamBlacklistFile ? [`[SpamBlacklist] got from file ${input.spamBlacklistFile}`] : []),
    `[objectcache] fetchOrRegenerate(${pfx}:spamblacklist:spam:shared-blacklist-regex): miss, new value computed`,
    `[objectcache] fetchOrRegenerate(${pfx}:spamblacklist:spam:whitelist-regex): miss, new value computed`,
    '[SpamBlacklist] Old URLs:',
    `[SpamBlacklist] New URLs: ${urls.join(', ')}`,
    `[SpamBlacklist] Added URLs: ${urls.join(', ')}`,
    '[SpamBlacklist] Excluding whitelisted URLs from 0 regexes:',
  ];
  if (patterns.length > 0) {
    out.push(`[SpamBlacklist] Checking text against 1 regexes: /(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(${patterns.join('|')})/Sim`);
  }
  return out;
}

const PARSE_PRE = [
  'ParserFactory: using default preprocessor',
  '[ContentHandler] Registered handler for wikitext: WikitextContentHandler',
  '[ContentHandler] Registered handler for javascript: JavaScriptContentHandler',
  '[ContentHandler] Registered handler for json: JsonContentHandler',
  '[ContentHandler] Registered handler for css: CssContentHandler',
  '[ContentHandler] Registered handler for text: TextContentHandler',
  '[ContentHandler] Registered handler for unknown: FallbackContentHandler',
];

/** The `\n\nStart request …` entry (Setup.php): request line, IP, headers with upper-cased names. */
export function startRequestLine(method: string, url: string, headers: Record<string, string>, ip = '127.0.0.1'): string {
  let s = `\n\nStart request ${method} ${url}\nIP: ${ip}\nHTTP HEADERS:\n`;
  for (const k in headers) s += `${k.toUpperCase()}: ${headers[k]}\n`;
  return s + '(end headers)';
}

function debugLog(input: DebugInfoInput, mod: ModuleKey, nowMs: number): string[] {
  const { profile, request } = input;
  const server = profile.dbServer;
  const session = input.session ?? {
    setCookie: [],
    persistent: false,
    sessionId: newSessionId(),
    sentCookies: [],
    forceHTTPS: false,
    cookies: parsePhpCookies(undefined),
  };
  const log: string[] = [
    startRequestLine(request.method, request.url, request.headers, request.ip),
    '[session] SessionManager using store SqlBagOStuff',
    '[localisation] LocalisationCache using store LCStoreCDB',
    '[objectcache] MainWANObjectCache using store EmptyBagOStuff',
    ...sessionLines(input, session, nowMs),
  ];
  const mode = input.cacheMode !== undefined ? input.cacheMode : MODULE_CACHE_MODE[mod];
  if (input.moduleLog) {
    log.push(...queryLines(input, server), ...input.moduleLog);
  } else if (mod === 'parse') {
    log.push(...PARSE_PRE, ...cacheModeLines(mode, request.params), ...queryLines(input, server));
  } else {
    log.push(...queryLines(input, server));
    if (mod === 'logevents' || mod === 'blocks') log.push(REUSED);
    if (mod === 'spamblacklist') log.push(...spamLines(input));
    log.push(...cacheModeLines(mode, request.params));
  }
  const root = profile.installPath.replace(/\/+$/, '');
  log.push(`[gitinfo] Candidate cacheFile=${root}/gitinfo.json for ${root}`, `[gitinfo] Cache incomplete for ${root}`);
  return log;
}

// ---------------------------------------------------------------------------------------------

let peakHeap = 0;
let heapAt = 0;
let heapSeen = 0;

/** V8's heap in use (read at most once a millisecond: it costs a µs) and the peak seen so far. */
export function heapInUse(): number {
  const t = performance.now();
  if (t - heapAt >= 1) {
    heapAt = t;
    heapSeen = getHeapStatistics().used_heap_size;
    if (heapSeen > peakHeap) peakHeap = heapSeen;
  }
  return heapSeen;
}

/** The highest heap in use seen so far. */
export function peakHeapInUse(): number {
  return peakHeap;
}

/**
 * The debuginfo object, in MWDebug::getDebugInfo's key order (fv2 shape: `git*` are `false`; use
 * `debugInfoForFormatVersion` for fv1). The `includes` member is a shared frozen fragment:
 * do not mutate it.
 */
export function buildDebugInfo(input: DebugInfoInput): Record<string, unknown> {
  const { profile, userLang, request } = input;
  const mod = moduleKey(input.moduleName);
  const nowMs = input.nowMs ?? Date.now();
  const server = profile.dbServer;
  const heap = heapInUse();
  const marks = input.marks;
  const mb = marks ? formatMegabytesParts(userLang, heap) : null;
  const headers: Record<string, string> = {};
  for (const k in request.headers) headers[k.toUpperCase()] = request.headers[k]!;
  const caller = atLeast(profile, '1.43') ? 'MediaWiki\\Debug\\MWDebug::appendDebugInfoToApiResult' : 'MWDebug::appendDebugInfoToApiResult';
  return withFrozenMembers({
    mwVersion: profile.version,
    phpEngine: profile.runtimeName,
    phpVersion: profile.runtimeVersion,
    gitRevision: false,
    gitBranch: false,
    gitViewUrl: false,
    time: marks ? marks.time : input.elapsedSeconds,
    log: [{ msg: 'MWDebug output complete', type: 'log', caller }],
    debugLog: debugLog(input, mod, nowMs),
    queries: input.queries.map((q) => ({ sql: `${server}: ${q.sql}`, function: q.function, time: roundTime(q.time) })),
    request: { method: request.method, url: request.url, headers, params: { ...request.params } },
    memory: marks && mb ? `${marks.memory} ${mb.unit}` : formatSizeLocal(userLang, heap),
    memoryPeak: marks && mb ? `${marks.memoryPeak} ${mb.unit}` : formatSizeLocal(userLang, peakHeap),
    includes: debugIncludes(profile, userLang, input.moduleName, mod === 'parse' && /\[\[/.test(request.params['summary'] ?? '') ? 'links' : undefined),
  });
}

/** formatversion=1 drops the `false` git keys (ApiResult BC transform); everything else is unchanged (shallow copy). */
export function debugInfoForFormatVersion(info: Record<string, unknown>, formatversion: 1 | 2): Record<string, unknown> {
  if (formatversion === 2) return info;
  const out: Record<string, unknown> = {};
  for (const k in info) if (info[k] !== false) out[k] = info[k] === true ? '' : info[k];
  return withFrozenMembers(out);
}

// ---------------------------------------------------------------------------------------------
// Typical queries (what a real 1.39 on SQLite runs), for callers without their own

function sqlQuote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function tsMw(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

const MC_SMALL_COLS =
  'rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS "rev_comment_text",comment_rev_comment.comment_data AS "rev_comment_data",comment_rev_comment.comment_id AS "rev_comment_cid",actor_rev_user.actor_user AS "rev_user",actor_rev_user.actor_name AS "rev_user_text",rev_actor,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len';

function messageCacheQueries(lang: string, content: boolean): DebugQuery[] {
  const like = content ? "(page_title NOT LIKE '%/%' ESCAPE '`' )" : `(page_title LIKE '%/${lang}' ESCAPE '\`' )`;
  return [
    {
      sql: `SELECT  page_title,page_latest  FROM "page"    WHERE page_is_redirect = 0 AND page_namespace = 8 AND ${like} AND (page_len > 10000)  `,
      function: `MessageCache::loadFromDB(${lang})-big`,
    },
    {
      sql: `SELECT  /*! STRAIGHT_JOIN */ ${MC_SMALL_COLS}  FROM "page" JOIN "revision" ON ((page_id = rev_page)) JOIN "revision_comment_temp" "temp_rev_comment" ON ((temp_rev_comment.revcomment_rev = rev_id)) JOIN "comment" "comment_rev_comment" ON ((comment_rev_comment.comment_id = temp_rev_comment.revcomment_comment_id)) JOIN "actor" "actor_rev_user" ON ((actor_rev_user.actor_id = rev_actor))   WHERE page_is_redirect = 0 AND page_namespace = 8 AND ${like} AND (page_len <= 10000) AND (page_latest = rev_id)  `,
      function: `MessageCache::loadFromDB(${lang})-small`,
    },
  ];
}

function limitOf(params: Record<string, string>, name: string): number {
  const v = params[name];
  if (v === 'max') return 501;
  const n = parseInt(v ?? '', 10);
  return (Number.isFinite(n) && n > 0 ? Math.min(n, 500) : 10) + 1;
}

function continueCond(params: Record<string, string>, name: string, tsCol: string, idCol: string): string | null {
  const m = /^(\d{14})\|(\d+)$/.exec(params[name] ?? '');
  if (!m) return null;
  return `(${tsCol} < '${m[1]}' OR (${tsCol} = '${m[1]}' AND ${idCol} <= ${m[2]}))`;
}

/**
 * The queries a real MediaWiki 1.39.17 on SQLite logs for the default form of each module's
 * request (the connection's PRAGMAs, the implicit BEGIN, the module's SELECT), with the
 * parameters that change the SQL (limit, continuation, titles) applied. The lines belong to a
 * SQLite wiki (PRAGMAs); with `profile.dbServer` they are prefixed like the real ones.
 */
export function typicalQueries(
  moduleName: string,
  params: Record<string, string>,
  profile: WikiProfile,
  nowMs = Date.now(),
  method = 'GET',
  nowMw = tsMw(nowMs),
): DebugQuery[] {
  const mod = moduleKey(moduleName);
  const open: DebugQuery[] = [
    { sql: 'PRAGMA case_sensitive_like = 1', function: 'Wikimedia\\Rdbms\\DatabaseSqlite::open' },
    { sql: 'PRAGMA temp_store = MEMORY', function: 'Wikimedia\\Rdbms\\DatabaseSqlite::open' },
  ];
  // SQLite opens write-capable (IMMEDIATE) transactions for POSTs
  const mode = method.toUpperCase() === 'POST' ? 'IMMEDIATE' : 'DEFERRED';
  const begin = (fn: string): DebugQuery => ({ sql: `BEGIN ${mode}`, function: `Wikimedia\\Rdbms\\Database::beginIfImplied (${fn})` });
  switch (mod) {
    case 'logevents': {
      const cont = continueCond(params, 'lecontinue', 'log_timestamp', 'log_id');
      const fn = 'ApiQueryLogEvents::execute';
      return [
        ...open,
        begin(fn),
        {
          sql: `SELECT  /*! STRAIGHT_JOIN */ log_id,log_type,log_action,log_timestamp,log_deleted,page_id,log_page,actor_name,actor_user,log_namespace,log_title,log_params,comment_log_comment.comment_text AS "log_comment_text",comment_log_comment.comment_data AS "log_comment_data",comment_log_comment.comment_id AS "log_comment_cid"  FROM "logging" JOIN "actor" ON ((actor_id=log_actor)) LEFT JOIN "page" ON ((log_namespace=page_namespace) AND (log_title=page_title)) JOIN "comment" "comment_log_comment" ON ((comment_log_comment.comment_id = log_comment_id))   WHERE (log_type NOT IN ('spamblacklist','suppress'))${cont ? ` AND ${cont}` : ''}  ORDER BY log_timestamp DESC,log_id DESC LIMIT ${limitOf(params, 'lelimit')}  `,
          function: fn,
          time: 0.001,
        },
      ];
    }
    case 'blocks': {
      const cont = continueCond(params, 'bkcontinue', 'ipb_timestamp', 'ipb_id');
      const fn = 'ApiQueryBlocks::execute';
      return [
        ...open,
        begin(fn),
        {
          sql: `SELECT  ipb_auto,ipb_id,ipb_timestamp,ipb_address,ipb_user,actor_user,actor_name,ipb_expiry,ipb_anon_only,ipb_create_account,ipb_enable_autoblock,ipb_block_email,ipb_deleted,ipb_allow_usertalk,ipb_sitewide,comment_ipb_reason.comment_text AS "ipb_reason_text",comment_ipb_reason.comment_data AS "ipb_reason_data",comment_ipb_reason.comment_id AS "ipb_reason_cid"  FROM "ipblocks" JOIN "actor" ON ((actor_id=ipb_by_actor)) JOIN "comment" "comment_ipb_reason" ON ((comment_ipb_reason.comment_id = ipb_reason_id))   WHERE ${cont ? `${cont} AND ` : ''}ipb_deleted = 0 AND (ipb_expiry > '${nowMw}')  ORDER BY ipb_timestamp DESC,ipb_id DESC LIMIT ${limitOf(params, 'bklimit')}  `,
          function: fn,
          time: 0.001,
        },
      ];
    }
    case 'protectedtitles': {
      const fn = 'ApiQueryProtectedTitles::run';
      return [
        ...open,
        begin(fn),
        {
          sql: `SELECT  pt_namespace,pt_title,pt_timestamp,pt_create_perm  FROM "protected_titles"     ORDER BY pt_timestamp DESC,pt_namespace DESC,pt_title DESC LIMIT ${limitOf(params, 'ptlimit')}  `,
          function: fn,
          time: 0.001,
        },
      ];
    }
    case 'extlinks': {
      const fn = 'ApiPageSet::initFromTitles';
      const titles = (params['titles'] ?? '').split('|').filter((t) => t !== '').map((t) => {
        const k = t.replace(/ /g, '_');
        return k.charAt(0).toUpperCase() + k.slice(1);
      });
      const where =
        titles.length === 1 ? `page_title = ${sqlQuote(titles[0]!)}` : `page_title IN (${titles.map(sqlQuote).join(',')}) `;
      return [
        ...open,
        begin(fn),
        {
          sql: `SELECT  page_namespace,page_title,page_id,page_content_model,page_is_redirect,page_is_new,page_latest,page_touched,page_len  FROM "page"    WHERE ((page_namespace = 0 AND ${where}))  `,
          function: fn,
          time: 0.001,
        },
      ];
    }
    case 'parse': {
      const out: DebugQuery[] = [
        ...open,
        begin('WikiPage::pageData'),
        {
          sql: `SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_random,page_touched,page_links_updated,page_latest,page_len,page_content_model  FROM "page"    WHERE page_namespace = 0 AND page_title = 'API'  LIMIT 1  `,
          function: 'WikiPage::pageData',
          time: 0.001,
        },
        ...messageCacheQueries('en', profile.language === 'en'),
      ];
      const links = [...(params['summary'] ?? '').matchAll(/\[\[:?([^[\]|#]+)(?:[|#][^\]]*)?\]\]/g)].map((m) => {
        const k = m[1]!.trim().replace(/ /g, '_');
        return k.charAt(0).toUpperCase() + k.slice(1);
      });
      if (links.length > 0) {
        const uniq = [...new Set(links)];
        out.push({
          sql: `SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_latest,page_touched,page_len,page_content_model  FROM "page"    WHERE ${uniq.length === 1 ? `(page_namespace = 0 AND page_title = ${sqlQuote(uniq[0]!)})` : `(page_namespace = 0 AND page_title IN (${uniq.map(sqlQuote).join(',')}) )`}  `,
          function: 'LinkBatch::doQuery (for MediaWiki\\CommentFormatter\\CommentParser::addPageLink)',
        });
        if (profile.language !== 'en') out.push(...messageCacheQueries(profile.language, true));
      }
      return out;
    }
    case 'spamblacklist': {
      const mc = messageCacheQueries(profile.language, true);
      return [...open, begin(mc[0]!.function), { ...mc[0]!, time: 0.001 }, mc[1]!];
    }
  }
}
