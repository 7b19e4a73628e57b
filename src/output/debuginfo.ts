import { getHeapStatistics } from 'node:v8';
import { atLeast, type WikiProfile } from '../wiki/profile.js';
import type { Language } from '../i18n/language.js';
import { formatSize, megabyteParts } from '../i18n/numbers.js';
import includes139 from './includes-1.39.json' with { type: 'json' };
import includes143 from './includes-1.43.json' with { type: 'json' };
import { frozenJson, withFrozenMembers } from '../api/frozen.js';
import { encodeJson } from './json.js';
import { newSessionId, parsePhpCookies, type SessionOutcome } from './session.js';
import { sessionLines } from './debug-session.js';
import type { CacheMode } from '../api/context.js';
import type { DebugFacts } from '../api/debug.js';

/**
 * The envelope of `debuginfo` as MWDebug::getDebugInfo builds it ($wgDebugToolbar), shaped after
 * real MediaWiki 1.39.17 and 1.43.9 answers: key order, the log entry, the debug log (request
 * line, session and cookie lines, the DB layer's lines around the queries, cache mode, gitinfo),
 * the queries, the request, memory figures and the list of included PHP files (captured per
 * module, `includes-<version>.json`). What each module does in between (its queries and its own
 * lines) is the module's: `debug` in api/query-module.ts and api/action-module.ts.
 *
 * Built per request on the hot path: everything constant (the includes list with its localized
 * sizes) is built once and cached as a frozen JSON fragment, so building takes a few µs and
 * encoding only the small per-request part.
 */
export interface DebugInfoInput {
  profile: WikiProfile;
  userLang: Language;
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
  /** The traces of the modules that ran, in order (their `debug`; see api/debug.ts). */
  facts: readonly DebugFacts[];
  /** Seconds each query took, by position in `queries` (default: the module's figure, else 0). */
  queryTime?: (index: number) => number | undefined;
  /** The session outcome (headers.ts sessionCookies), for the session/cookie log lines. */
  session?: SessionOutcome;
  /** Request over HTTPS (cookie `secure` flag in the cookie log lines). */
  https?: boolean;
  /** Now, for the cookie-expiry timestamps in the log. Default Date.now(). */
  nowMs?: number;
  /** The cache mode the modules asked for (ApiOutcome.requestedCacheMode); null: none, nothing logged. */
  cacheMode: CacheMode | null;
  /**
   * The call failed: MWDebug::appendDebugInfoToApiResult never ran (an error has no debuginfo),
   * but the HTML page's debug toolbar still shows the request (MWDebug::getDebugHTML).
   */
  failed?: boolean;
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

// ---------------------------------------------------------------------------------------------
// includes

interface IncludesData {
  paths: string[];
  sizes: number[];
  lists: Record<string, number[]>;
}
/** The lists of each version (scripts/generate/includes.mjs); 1.43 and newer take 1.43's. */
function includesOf(profile: WikiProfile): IncludesData {
  return (atLeast(profile, '1.43') ? includes143 : includes139) as unknown as IncludesData;
}
const includesCache = new Map<string, ReadonlyArray<{ name: string; size: string }>>();

/**
 * The included files for a module (its key in the includes lists, see DebugFacts.includes) and
 * user language, with localized sizes (built once, frozen).
 */
export function debugIncludes(profile: WikiProfile, userLang: Language, module: string, files?: DebugFacts['includeFiles']): ReadonlyArray<{ name: string; size: string }> {
  const v143 = atLeast(profile, '1.43');
  const key = `${module}:${userLang.code}:${profile.installPath}:${v143}`;
  const base = profile.installPath.replace(/\/+$/, '');
  const entry = (p: string, size: number) => ({ name: p.startsWith('/') ? p : `${base}/${p}`, size: formatSize(userLang, size) });
  // A composed list is made per request: its keys are as many as the requests' combinations.
  if (files) return Object.freeze(files().map(([p, size]) => entry(p, size)));
  let list = includesCache.get(key);
  if (!list) {
    const INCLUDES = includesOf(profile);
    const runs = INCLUDES.lists[`${module}:${userLang.code}`] ?? INCLUDES.lists[`${module}:ru`] ?? INCLUDES.lists['logevents:ru']!;
    const out: Array<{ name: string; size: string }> = [];
    for (let r = 0; r < runs.length; r += 2) {
      for (let i = runs[r]!; i < runs[r]! + runs[r + 1]!; i++) out.push(entry(INCLUDES.paths[i]!, INCLUDES.sizes[i]!));
    }
    list = frozenJson(Object.freeze(out));
    // One list per module, version and language asked: bounded, as any code may be asked for.
    if (includesCache.size >= 256) includesCache.clear();
    includesCache.set(key, list);
  }
  return list;
}

// ---------------------------------------------------------------------------------------------
// debug log

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

function roundTime(t: number | undefined): number {
  return t === undefined ? 0 : Math.round(t * 1000) / 1000;
}

/**
 * How each version prints the DB layer's work. 1.39: `[DBQuery] fn [0.001s] server: sql`, the
 * chronology protector's lines when the connection opens; 1.43: `[rdbms] fn [0.913ms] server: sql`,
 * the load balancer's and the read-only check's lines.
 */
interface DbStyle {
  query(fn: string, seconds: number, server: string, sql: string): string;
  /** Lines after the open PRAGMAs. */
  opened(input: DebugInfoInput): string[];
  reuse: string;
  /** The seconds listed in `queries`: rounded to ms in 1.39, as measured in 1.43. */
  listed(seconds: number): number;
}

const DB_139: DbStyle = {
  query: (fn, t, server, sql) => `[DBQuery] ${fn} [${roundTime(t)}s] ${server}: ${sql}`.trimEnd(),
  opened: connectionLines,
  reuse: '[DBConnection] Wikimedia\\Rdbms\\LoadBalancer::getLocalConnection: reused a connection for local/0',
  listed: roundTime,
};

const DB_143: DbStyle = {
  query: (fn, t, server, sql) => `[rdbms] ${fn} [${Math.round(t * 1e6) / 1000}ms] ${server}: ${sql}`.trimEnd(),
  opened: (input) => [
    `[rdbms] Wikimedia\\Rdbms\\LoadBalancer::reallyOpenConnection: opened new connection for 0/${input.profile.cookiePrefix}`,
    `[objectcache] fetchOrRegenerate(global:rdbms-server-readonly:${input.profile.dbServer}): miss, new value computed`,
  ],
  reuse: '',
  listed: (t) => t,
};

function dbStyle(profile: WikiProfile): DbStyle {
  return atLeast(profile, '1.43') ? { ...DB_143, reuse: `[rdbms] Wikimedia\\Rdbms\\LoadBalancer::reuseOrOpenConnectionForNewRef: reusing connection for 0/${profile.cookiePrefix}` } : DB_139;
}

/** Services built once per request: 1.43 logs their store lines at first use only. */
const ONCE = /using store |ParserFactory: using default preprocessor$/;

/**
 * The modules' traces printed as the wiki's version does: log lines, the queries (the open
 * PRAGMAs and the implied BEGIN before the first), connection lines, the cache-mode lines where a
 * module puts them (else after all). Returns the log lines and the `queries` list.
 */
function renderTraces(input: DebugInfoInput, server: string): { lines: string[]; queries: Array<{ sql: string; function: string; time: number }>; cacheModePlaced: boolean } {
  const style = dbStyle(input.profile);
  const v143 = atLeast(input.profile, '1.43');
  const lines: string[] = [];
  const queries: Array<{ sql: string; function: string; time: number }> = [];
  let connected = false;
  let begun = false;
  let cacheModePlaced = false;
  const seen = new Set<string>();
  const addQuery = (fn: string, sql: string, t: number | undefined): void => {
    const secs = input.queryTime?.(queries.length) ?? t ?? 0;
    lines.push(style.query(fn, secs, server, sql));
    queries.push({ sql: `${server}: ${sql}`, function: fn, time: style.listed(secs) });
  };
  const connect = (): void => {
    if (connected) return;
    connected = true;
    addQuery('Wikimedia\\Rdbms\\DatabaseSqlite::open', 'PRAGMA case_sensitive_like = 1', 0);
    addQuery('Wikimedia\\Rdbms\\DatabaseSqlite::open', 'PRAGMA temp_store = MEMORY', 0);
    lines.push(...style.opened(input));
  };
  // ApiQuery builds every module before any runs (1.43 logs the services they are given).
  const setup = input.facts.flatMap((f) => f.setup ?? []);
  for (const facts of [{ includes: '', entries: setup }, ...input.facts]) {
    for (const e of facts.entries) {
      if (typeof e === 'string') {
        if (v143 && ONCE.test(e)) {
          if (seen.has(e)) continue;
          seen.add(e);
        }
        lines.push(e);
      } else if ('connect' in e) connect();
      else if ('reuse' in e) lines.push(style.reuse);
      else if ('cacheMode' in e) {
        lines.push(...cacheModeLines(input));
        cacheModePlaced = true;
      } else {
        connect();
        if (!begun) {
          begun = true;
          // SQLite opens write-capable (IMMEDIATE) transactions for POSTs
          const mode = input.request.method.toUpperCase() === 'POST' ? 'IMMEDIATE' : 'DEFERRED';
          addQuery(`Wikimedia\\Rdbms\\Database::beginIfImplied (${e.query.function})`, `BEGIN ${mode}`, 0);
        }
        addQuery(e.query.function, e.query.sql, e.query.time);
      }
    }
  }
  return { lines, queries, cacheModePlaced };
}

function cacheModeLines(input: DebugInfoInput): string[] {
  const mode = input.cacheMode;
  if (mode === null) return [];
  const who = atLeast(input.profile, '1.43') ? 'MediaWiki\\Api\\ApiMain::setCacheMode' : 'ApiMain::setCacheMode';
  const uselang = input.request.params['uselang'];
  if (mode === 'public' && (uselang === undefined || uselang === 'user')) {
    return [`${who}: downgrading cache mode 'public' to 'anon-public-user-private' due to uselang=user`, `${who}: setting cache mode anon-public-user-private`];
  }
  return [`${who}: setting cache mode ${mode}`];
}

/** The `\n\nStart request …` entry (Setup.php): request line, IP, headers with upper-cased names. */
export function startRequestLine(method: string, url: string, headers: Record<string, string>, ip = '127.0.0.1'): string {
  let s = `\n\nStart request ${method} ${url}\nIP: ${ip}\nHTTP HEADERS:\n`;
  for (const k in headers) s += `${k.toUpperCase()}: ${headers[k]}\n`;
  return s + '(end headers)';
}

function debugLog(input: DebugInfoInput, nowMs: number, traces: ReturnType<typeof renderTraces>): string[] {
  const { profile, request } = input;
  const v143 = atLeast(profile, '1.43');
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
    // 1.43 (these wikis) rebuilds the content language's localisation on every request
    ...(v143 ? [`[localisation] LocalisationCache::loadCoreData: got localisation for ${profile.language} from source`] : []),
    `[objectcache] MainWANObjectCache using store ${v143 ? 'Wikimedia\\ObjectCache\\' : ''}EmptyBagOStuff`,
    ...sessionLines(input.profile.cookiePrefix, input.https ?? false, input.marks?.expired, session, nowMs),
    ...traces.lines,
  ];
  if (!traces.cacheModePlaced) log.push(...cacheModeLines(input));
  // GitInfo is looked up for the toolbar; 1.43 keeps it for the process once a module looked.
  const root = profile.installPath.replace(/\/+$/, '');
  const candidate = `[gitinfo] Candidate cacheFile=${root}/gitinfo.json for ${root}`;
  if (!v143 || !traces.lines.includes(candidate)) log.push(candidate, `[gitinfo] Cache incomplete for ${root}`);
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
  const nowMs = input.nowMs ?? Date.now();
  const traces = renderTraces(input, profile.dbServer);
  const includesFact = input.facts.find((f) => f.includes !== '');
  const heap = heapInUse();
  const marks = input.marks;
  const mb = marks ? megabyteParts(userLang, heap) : null;
  const headers: Record<string, string> = {};
  for (const k in request.headers) headers[k.toUpperCase()] = request.headers[k]!;
  const caller = atLeast(profile, '1.43') ? 'MediaWiki\\Debug\\MWDebug::appendDebugInfoToApiResult' : 'MWDebug::appendDebugInfoToApiResult';
  return withFrozenMembers({
    [profile.versionKey]: profile.version,
    phpEngine: profile.runtimeName,
    phpVersion: profile.runtimeVersion,
    gitRevision: false,
    gitBranch: false,
    gitViewUrl: false,
    time: marks ? marks.time : input.elapsedSeconds,
    log: input.failed ? [] : [{ msg: 'MWDebug output complete', type: 'log', caller }],
    debugLog: debugLog(input, nowMs, traces),
    queries: traces.queries,
    request: { method: request.method, url: request.url, headers, params: { ...request.params } },
    memory: marks && mb ? mb.text.replace('$1', marks.memory) : formatSize(userLang, heap),
    memoryPeak: marks && mb ? mb.text.replace('$1', marks.memoryPeak) : formatSize(userLang, peakHeap),
    includes: debugIncludes(profile, userLang, includesFact?.includes ?? 'logevents', includesFact?.includeFiles),
  });
}

/** formatversion=1 drops the `false` git keys (ApiResult BC transform); everything else is unchanged (shallow copy). */
export function debugInfoForFormatVersion(info: Record<string, unknown>, formatversion: 1 | 2): Record<string, unknown> {
  if (formatversion === 2) return info;
  const out: Record<string, unknown> = {};
  for (const k in info) if (info[k] !== false) out[k] = info[k] === true ? '' : info[k];
  return withFrozenMembers(out);
}
