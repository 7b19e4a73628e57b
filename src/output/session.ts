import { randomFillSync } from 'node:crypto';
import { rawurldecode } from '../util/php-url.js';

/**
 * Session cookies as a wiki where no session is ever stored sends them (CookieSessionProvider and
 * WebResponse::setCookie): `$_COOKIE` as PHP builds it, new session ids, and the Set-Cookie
 * headers and session state of one request.
 */
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
    out.set(name, rawurldecode(raw));
  }
  return out;
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
