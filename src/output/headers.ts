import { randomFillSync } from 'node:crypto';
import { atLeast } from '../wiki/profile.js';

/**
 * Response headers as MediaWiki 1.39 api.php sends them: format headers (ApiFormatBase::initPrinter),
 * cache headers (ApiMain::sendCacheHeaders, the HTML page's OutputPage::sendCacheControl and
 * HeaderCallback), session cookies (CookieSessionProvider + WebResponse::setCookie for a wiki
 * where no session is ever stored) and CORS (ApiMain::handleCORS).
 *
 * Header lists are `[name, value]` pairs in the order PHP emits them. PHP's `header()` *replaces*
 * an earlier header of the same name (case-insensitively) by removing it and appending the new
 * one at the end; `mergePhpHeaders` combines lists that way. The real order of a response is:
 * X-Content-Type-Options (WebStart), Set-Cookie… (session setup), MediaWiki-Login-Suppressed,
 * CORS headers, MediaWiki-API-Error, format headers, cache headers, X-Request-Id.
 */
export type HeaderList = Array<[string, string]>;

type CacheMode = 'private' | 'public' | 'anon-public-user-private';

/** Combines header lists with PHP `header()` semantics: a later header replaces (and moves) an earlier one. Set-Cookie accumulates. */
export function mergePhpHeaders(...lists: ReadonlyArray<ReadonlyArray<readonly [string, string]>>): HeaderList {
  const out: HeaderList = [];
  for (const list of lists) for (const [n, v] of list) phpHeader(out, n, v);
  return out;
}

function phpHeader(list: HeaderList, name: string, value: string): void {
  if (name.toLowerCase() !== 'set-cookie') {
    const lc = name.toLowerCase();
    for (let i = list.length - 1; i >= 0; i--) if (list[i]![0].toLowerCase() === lc) list.splice(i, 1);
  }
  list.push([name, value]);
}

// ---------------------------------------------------------------------------------------------
// Format headers

export interface FormatHeaderOptions {
  /** The format module: json, jsonfm, none, xml, xmlfm, php, phpfm, rawfm. */
  format: string;
  /** JSONP (`callback` given): text/javascript, api-result.js. */
  callback?: boolean;
  /** `wrappedhtml` on an *fm format. */
  wrappedhtml?: boolean;
  /** $wgApiFrameOptions; default `DENY`, false/'' sends none. */
  frameOptions?: string | false;
}

const MIME: Record<string, [string, string]> = {
  json: ['application/json', 'json'],
  none: ['text/plain', 'txt'],
  xml: ['text/xml', 'xml'],
  php: ['application/vnd.php.serialized', 'php'],
};

/** Content-Type, X-Frame-Options and Content-Disposition (ApiFormatBase::initPrinter). */
export function formatHeaders(opts: FormatHeaderOptions): HeaderList {
  const html = opts.format.endsWith('fm');
  let mime: string;
  let filename: string;
  if (html && opts.wrappedhtml) {
    mime = 'text/mediawiki-api-prettyprint-wrapped';
    filename = 'api-result-wrapped.json';
  } else if (html) {
    mime = 'text/html';
    filename = 'api-result.html';
  } else if (opts.format === 'json' && opts.callback) {
    mime = 'text/javascript';
    filename = 'api-result.js';
  } else {
    const m = MIME[opts.format] ?? ['application/json', opts.format.toLowerCase()];
    mime = m[0];
    filename = `api-result.${m[1]}`;
  }
  const out: HeaderList = [['Content-Type', `${mime}; charset=utf-8`]];
  const frame = opts.frameOptions === undefined ? 'DENY' : opts.frameOptions;
  if (frame) out.push(['X-Frame-Options', frame]);
  out.push(['Content-Disposition', `inline; filename=${filename}`]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cache headers

export interface CacheHeaderOptions {
  /** The mode the module set (ApiMain default `private`; ApiQuery: the strictest of its submodules). */
  mode: CacheMode;
  /** `uselang` was given with a value other than `user` (else `public` is downgraded). */
  uselangGiven: boolean;
  /** An HTML (`*fm`) printer: `public` becomes anon-public-user-private (T354045). */
  html: boolean;
  /** `wrappedhtml`: HTML printer, but no OutputPage (none of the page's own headers). */
  wrappedhtml?: boolean;
  /** The global session is persistent (sessionCookies().persistent). */
  sessionPersistent: boolean;
  /** The `maxage` / `smaxage` parameters (default 0). */
  maxage: number;
  smaxage: number;
  /** Error response: forces `private`. */
  isError: boolean;
  nowMs: number;
  /** MediaWiki version (profile.version). */
  version: string;
  /** $wgContentLanguage html code for the page's `Content-language`. Default `ru`. */
  contentLanguage?: string;
  /** The response carries Set-Cookie headers (HeaderCallback then forbids public caching). */
  setsCookies?: boolean;
  /** CORS with a non-`*` origin added `Origin` to Vary. */
  varyOrigin?: boolean;
  /** $wgVaryOnXFP. */
  varyOnXfp?: boolean;
  /** A module's setCacheMaxAge(N), if any. */
  moduleMaxAge?: number;
  /**
   * Whether ApiMain had determined the module (1.39 echoes `maxage` in an error's private
   * Cache-Control only then; e.g. `action=nonexistent` gives max-age=0). Default true.
   */
  moduleResolved?: boolean;
}

/** PHP gmdate('D, d M Y H:i:s') . ' GMT' (= wfTimestamp TS_RFC2822). */
function rfc2822(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toUTCString();
}

const EXPIRES_EPOCH = 'Thu, 01 Jan 1970 00:00:00 GMT';

/**
 * The cache-related headers of an API response, in emission order: in HTML mode first the page's
 * own (Content-type text/html; charset=UTF-8 — it replaces the printer's Content-Type —,
 * Content-language, Vary: Accept-Encoding, Cookie, Expires 1970, private Cache-Control), then
 * ApiMain's (replacing Vary/Expires/Cache-Control where it sends them), then HeaderCallback's.
 */
export function cacheHeaders(opts: CacheHeaderOptions): HeaderList {
  const h: HeaderList = [];
  const set = (n: string, v: string): void => phpHeader(h, n, v);

  let mode: CacheMode = opts.isError ? 'private' : opts.mode;
  if (mode === 'public' && !opts.uselangGiven) mode = 'anon-public-user-private';
  if (mode === 'public' && opts.html) mode = 'anon-public-user-private';

  if (opts.html && !opts.wrappedhtml) {
    set('Content-type', 'text/html; charset=UTF-8');
    set('Content-language', opts.contentLanguage ?? 'ru');
    set('Vary', 'Accept-Encoding, Cookie');
    set('Expires', EXPIRES_EPOCH);
    set('Cache-Control', 'private, must-revalidate, max-age=0');
  }

  const vary = ['Accept-Encoding'];
  if (opts.varyOrigin) vary.push('Origin');
  vary.push('Treat-as-Untrusted');
  if (opts.varyOnXfp) vary.push('X-Forwarded-Proto');

  let maxage = 0;
  if (opts.moduleMaxAge !== undefined) maxage = opts.moduleMaxAge;
  else if ((opts.moduleResolved ?? true) || mode !== 'private') maxage = opts.maxage;
  if (opts.isError && atLeast({ version: opts.version }, '1.43')) maxage = 0;
  const privateCache = `private, must-revalidate, max-age=${maxage}`;

  sending: {
    if (mode === 'private') {
      set('Cache-Control', privateCache);
      break sending;
    }
    if (mode === 'anon-public-user-private') {
      vary.push('Cookie');
      set('Vary', vary.join(', '));
      if (opts.sessionPersistent) {
        set('Cache-Control', privateCache);
        break sending;
      }
    }
    // public: OutputPage::getVaryHeader always adds Cookie (the session cookies vary the cache)
    if (!vary.includes('Cookie')) vary.push('Cookie');
    set('Vary', vary.join(', '));
    const cc: Array<[string, number | true]> =
      opts.moduleMaxAge !== undefined
        ? [['max-age', opts.moduleMaxAge], ['s-maxage', opts.moduleMaxAge]]
        : [['s-maxage', opts.smaxage], ['max-age', opts.maxage]];
    const s = cc.find(([k]) => k === 's-maxage')![1] as number;
    const m = cc.find(([k]) => k === 'max-age')![1] as number;
    if (!s && !m) {
      set('Cache-Control', privateCache);
      break sending;
    }
    cc.push(['public', true]);
    const min = Math.min(s, m);
    set('Expires', min === 0 ? 'Thu, 01 Jan 1970 00:00:01 GMT' : rfc2822(Math.floor(opts.nowMs / 1000) + min));
    set('Cache-Control', cc.map(([k, v]) => (v === true ? k : `${k}=${v}`)).join(', '));
  }

  if (opts.setsCookies) {
    const cc = h.filter(([n]) => n.toLowerCase() === 'cache-control').map(([, v]) => v).join(', ');
    if (!/(?:^|,)\s*(?:private|no-cache|no-store)\s*(?:$|,)/i.test(cc)) {
      set('Expires', EXPIRES_EPOCH);
      set('Cache-Control', 'private, max-age=0, s-maxage=0');
    }
  }
  return h;
}

// ---------------------------------------------------------------------------------------------
// Session cookies

export interface SessionCookieOptions {
  /** The Cookie request header as received. */
  cookieHeader: string | undefined;
  /** $wgCookiePrefix (the session cookie is `<prefix>_session`). */
  cookiePrefix: string;
  /** The request came over HTTPS ($wgCookieSecure 'detect' → `secure` on the cookies). */
  https: boolean;
}

export interface SessionOutcome {
  /** Set-Cookie header values, in emission order. */
  setCookie: string[];
  /** The global session ends up persistent (anon-public-user-private then sends private headers). */
  persistent: boolean;
  /** The id of this request's session: the new cookie's value when persistent, else a fresh unsaved id. */
  sessionId: string;
  /** A well-formed session id the client sent (reset because it is not in the store). */
  requestedId?: string;
  /** Which of the cookies the session provider clears were sent: full names, in clearing order. */
  sentCookies: string[];
  /** The forceHTTPS cookie was sent with a true value (and a session was kept). */
  forceHTTPS: boolean;
  /** Cookie names and values as PHP's $_COOKIE holds them. */
  cookies: Map<string, string>;
}

/** `$_COOKIE` from a Cookie header, as PHP builds it: `;`-separated, names trimmed and mangled (`.`/space → `_`), values rawurldecoded, the first of duplicate names wins. */
export function parsePhpCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (let part of header.split(';')) {
    part = part.replace(/^[ \t\n\r\v\f]+/, '');
    const eq = part.indexOf('=');
    if (part === '' || eq === 0) continue;
    let name = eq === -1 ? part : part.slice(0, eq);
    const raw = eq === -1 ? '' : part.slice(eq + 1);
    // php_register_variable: leading spaces dropped, ' ' and '.' become '_' (before any '[')
    name = name.replace(/^ +/, '');
    const br = name.indexOf('[');
    name = (br === -1 ? name : name.slice(0, br)).replace(/[ .]/g, '_') + (br === -1 ? '' : name.slice(br));
    if (name === '' || out.has(name)) continue;
    out.set(name, rawUrlDecode(raw));
  }
  return out;
}

function rawUrlDecode(s: string): string {
  if (!s.includes('%')) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else for (const b of Buffer.from(s[i]!, 'utf8')) bytes.push(b);
  }
  return Buffer.from(bytes).toString('utf8');
}

const B32 = '0123456789abcdefghijklmnopqrstuv';
const pool = Buffer.alloc(4096);
let poolPos = pool.length;

/** A new session id as SessionManager::generateSessionId makes them: 32 base-32 digits `[0-9a-v]`. */
export function newSessionId(): string {
  if (poolPos + 32 > pool.length) {
    randomFillSync(pool);
    poolPos = 0;
  }
  let id = '';
  for (let i = 0; i < 32; i++) id += B32[pool[poolPos++]! & 31];
  return id;
}

const DELETED = 'deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0';

/**
 * The session cookies MediaWiki 1.39 sends for a request, on a wiki where no session is ever in
 * the store (so nobody is logged in):
 * - a well-formed `<prefix>_session` id (`^[a-zA-Z0-9_-]{32,}$`) without a `<prefix>UserID` cookie is
 *   accepted as an anonymous session whose id is reset: a new session cookie is set
 *   (`<prefix>_session=<new id>; path=/; HttpOnly`), UserID/Token cookies that were sent are deleted,
 *   a true forceHTTPS cookie is set again (`forceHTTPS=true; path=/; HttpOnly`), a false one deleted;
 *   the session is persistent;
 * - anything else (no/malformed session id, any UserID cookie — its user cannot be verified —
 *   a Token or forceHTTPS cookie alone): the session is not persistent and the cookies
 *   `<prefix>_session`, `<prefix>UserID`, `<prefix>Token`, `forceHTTPS` are deleted — but only those the
 *   request carried (WebResponse::setCookie suppresses other deletions), so a request without them
 *   gets no Set-Cookie at all.
 * A cookie whose value is `deleted` counts as absent for the session lookup, yet it was sent, so
 * it is deleted (again) like the others.
 */
export function sessionCookies(opts: SessionCookieOptions): SessionOutcome {
  const cookies = parsePhpCookies(opts.cookieHeader);
  const p = opts.cookiePrefix;
  const sessionName = `${p}_session`;
  const names = [sessionName, `${p}UserID`, `${p}Token`, 'forceHTTPS'];
  const sentCookies = names.filter((n) => cookies.has(n));
  const get = (n: string): string | null => {
    const v = cookies.get(n);
    return v === undefined || v === 'deleted' ? null : v;
  };
  const secure = opts.https ? '; secure' : '';
  const attrs = `; path=/${secure}; HttpOnly`;
  const deletion = (n: string): string => `${n}=${DELETED}; path=/${n === 'forceHTTPS' ? '' : secure}; HttpOnly`;

  const sid = get(sessionName);
  const userId = get(`${p}UserID`);
  const validSid = sid !== null && /^[a-zA-Z0-9_-]{32,}$/.test(sid);

  if (validSid && userId === null) {
    const fh = get('forceHTTPS');
    const forceHTTPS = fh !== null && fh !== '' && fh !== '0';
    const sessionId = newSessionId();
    const setCookie = [`${sessionName}=${sessionId}${attrs}`];
    for (const n of [`${p}UserID`, `${p}Token`]) if (cookies.has(n)) setCookie.push(deletion(n));
    if (forceHTTPS) setCookie.push('forceHTTPS=true; path=/; HttpOnly');
    else if (cookies.has('forceHTTPS')) setCookie.push(deletion('forceHTTPS'));
    return { setCookie, persistent: true, sessionId, requestedId: sid, sentCookies, forceHTTPS, cookies };
  }
  return {
    setCookie: sentCookies.map(deletion),
    persistent: false,
    sessionId: newSessionId(),
    sentCookies,
    forceHTTPS: false,
    cookies,
  };
}

// ---------------------------------------------------------------------------------------------
// CORS and same-origin security

/** $wgAllowedCorsHeaders default. */
const ALLOWED_CORS_HEADERS = [
  'Accept', 'Accept-Language', 'Content-Language', 'Content-Type', 'Accept-Encoding', 'DNT', 'Origin',
  'User-Agent', 'Api-User-Agent', 'Access-Control-Max-Age', 'Authorization',
] as const;

export interface CorsOptions {
  /** Request method (OPTIONS + Access-Control-Request-Method = preflight). */
  method?: string;
  /** Access-Control-Request-Method header. */
  requestMethodHeader?: string;
  /** Access-Control-Request-Headers header. */
  requestHeadersHeader?: string;
  /** Origins allowed for credentialed CORS ($wgCrossSiteAJAXdomains, exact or `*.x` wildcards). Default none. */
  allowedOrigins?: readonly string[];
  /**
   * The request lacks same-origin security (ApiMain::lacksSameOriginSecurity: `callback` given,
   * `origin=*`, or a Treat-as-Untrusted header): `MediaWiki-Login-Suppressed: true` is sent
   * first. Default: `origin === '*'`.
   */
  lacksSameOriginSecurity?: boolean;
}

export interface CorsResult {
  /** Headers to send (before the format headers). */
  headers: HeaderList;
  /** Origin must be added to Vary (cacheHeaders varyOrigin). */
  varyOrigin: boolean;
  /**
   * Set when the request ends here: 403 for an `origin` that does not match the Origin header
   * (text/html, `Cache-Control: no-cache`, the text below), or 200 with an empty body for OPTIONS.
   */
  end?: { status: number; body: string };
}

function originMatches(origin: string, allowed: readonly string[]): boolean {
  return allowed.some((a) => {
    const re = new RegExp('^' + a.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*') + '$', 'i');
    return re.test(origin.replace(/^[a-z]+:\/\//i, '')) || re.test(origin);
  });
}

/** ApiMain::handleCORS (plus the Login-Suppressed header of the ApiMain constructor). */
export function corsHeaders(originParam: string | undefined, originHeader: string | undefined, opts: CorsOptions = {}): CorsResult {
  const headers: HeaderList = [];
  if (opts.lacksSameOriginSecurity ?? originParam === '*') headers.push(['MediaWiki-Login-Suppressed', 'true']);
  const method = (opts.method ?? 'GET').toUpperCase();
  const optionsEnd = method === 'OPTIONS' ? { status: 200, body: '' } : undefined;
  const withEnd = (r: CorsResult): CorsResult => {
    if (r.end) r.headers.push(['Content-type', 'text/html; charset=UTF-8']);
    return r;
  };
  if (originParam === undefined) return withEnd({ headers, varyOrigin: false, ...(optionsEnd ? { end: optionsEnd } : {}) });

  let allowOrigin: string;
  let allowCredentials: string;
  let allowTiming: string | false = false;
  let matched: boolean;
  let varyOrigin = true;
  if (originParam === '*') {
    matched = true;
    allowOrigin = '*';
    allowCredentials = 'false';
    varyOrigin = false;
  } else {
    const trimmed = originHeader === undefined ? undefined : originHeader.trim();
    const origins = trimmed === undefined ? [] : trimmed.split(/\s+/);
    if (!origins.includes(originParam)) {
      return {
        headers: [['Cache-Control', 'no-cache'], ['Content-type', 'text/html; charset=UTF-8']],
        varyOrigin: false,
        end: { status: 403, body: "'origin' parameter does not match Origin header\n" },
      };
    }
    matched = origins.every((o) => originMatches(o, opts.allowedOrigins ?? []));
    allowOrigin = trimmed!;
    allowCredentials = 'true';
    allowTiming = trimmed!;
  }

  if (matched) {
    const preflight = method === 'OPTIONS' && opts.requestMethodHeader !== undefined;
    if (preflight) {
      const requested = opts.requestHeadersHeader;
      if (requested !== undefined) {
        const allowed = new Set(ALLOWED_CORS_HEADERS.map((x) => x.toLowerCase()));
        const ok = requested.trim() === '' || requested.split(',').every((x) => allowed.has(x.trim().toLowerCase()));
        if (!ok) {
          headers.push(['MediaWiki-CORS-Rejection', 'Unsupported header requested in preflight']);
          return withEnd({ headers, varyOrigin, ...(optionsEnd ? { end: optionsEnd } : {}) });
        }
        headers.push(['Access-Control-Allow-Headers', requested]);
      }
      headers.push(['Access-Control-Allow-Methods', 'POST, GET, HEAD']);
    }
    headers.push(['Access-Control-Allow-Origin', allowOrigin]);
    headers.push(['Access-Control-Allow-Credentials', allowCredentials]);
    if (allowTiming !== false) headers.push(['Timing-Allow-Origin', allowTiming]);
    if (!preflight) {
      headers.push(['Access-Control-Expose-Headers', 'MediaWiki-API-Error, Retry-After, X-Database-Lag, MediaWiki-Login-Suppressed']);
    }
  } else {
    headers.push(['MediaWiki-CORS-Rejection', 'Origin mismatch']);
  }
  return withEnd({ headers, varyOrigin, ...(optionsEnd ? { end: optionsEnd } : {}) });
}
