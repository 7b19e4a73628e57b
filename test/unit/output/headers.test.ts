import { describe, expect, it } from 'vitest';
import { cacheHeaders, formatHeaders, mergePhpHeaders, type CacheHeaderOptions, type HeaderList } from '../../../src/output/headers.js';
import { corsHeaders } from '../../../src/output/cors.js';
import { parsePhpCookies, sessionCookies } from '../../../src/output/session.js';

/**
 * Every expected list below is a real MediaWiki 1.39.17 response (curl -D - against the live wiki,
 * $wgCookiePrefix = wikidb), minus Date/Host/Connection/X-Powered-By, X-Content-Type-Options
 * (WebStart) and X-Request-Id (HeaderCallback); the random new session id is normalized.
 */
const NOW = Date.UTC(2026, 10, 22, 11, 38, 10); // Sun, 22 Nov 2026 11:38:10 GMT
/** A list module's `public`, as runApi gives it without `uselang` (ApiMain::setCacheMode's downgrade). */
const base: CacheHeaderOptions = {
  mode: 'anon-public-user-private',
  html: false,
  sessionPersistent: false,
  maxage: 0,
  smaxage: 0,
  isError: false,
  nowMs: NOW,
  version: '1.39.17',
};

const SID = /^wikidb_session=[0-9a-v]{32}; /;
const norm = (h: HeaderList): string[] => h.map(([n, v]) => `${n}: ${v.replace(SID, 'wikidb_session=NEWID; ')}`);

/** Session cookies, then format headers, then cache headers — the order the wiki sends them in. */
function response(opts: { format: string; cookie?: string; cache: Partial<CacheHeaderOptions> }): string[] {
  const s = sessionCookies({ cookieHeader: opts.cookie, cookiePrefix: 'wikidb', https: false });
  const html = opts.format.endsWith('fm');
  return norm(
    mergePhpHeaders(
      s.setCookie.map((c) => ['Set-Cookie', c] as [string, string]),
      formatHeaders({ format: opts.format }),
      cacheHeaders({ ...base, html, sessionPersistent: s.persistent, setsCookies: s.setCookie.length > 0, ...opts.cache }),
    ),
  );
}

const JSON_FMT = ['Content-Type: application/json; charset=utf-8', 'X-Frame-Options: DENY', 'Content-Disposition: inline; filename=api-result.json'];
const HTML_FMT = ['X-Frame-Options: DENY', 'Content-Disposition: inline; filename=api-result.html', 'Content-type: text/html; charset=UTF-8', 'Content-language: ru'];
const VARY = 'Vary: Accept-Encoding, Treat-as-Untrusted, Cookie';
const PRIVATE0 = 'Cache-Control: private, must-revalidate, max-age=0';
const DEL = 'deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly';

describe('cacheHeaders with formatHeaders, as real responses', () => {
  it('format=json, list=logevents (public → anon-public-user-private), no cookies', () => {
    expect(response({ format: 'json', cache: {} })).toEqual([...JSON_FMT, VARY, PRIVATE0]);
  });

  it('format=json, list=blocks (private)', () => {
    expect(response({ format: 'json', cache: { mode: 'private' } })).toEqual([...JSON_FMT, PRIVATE0]);
  });

  it('uselang=en keeps public: same headers without maxage', () => {
    expect(response({ format: 'json', cache: { mode: 'public' } })).toEqual([...JSON_FMT, VARY, PRIVATE0]);
  });

  it('maxage/smaxage on an anonymous request without session', () => {
    expect(response({ format: 'json', cache: { maxage: 60, smaxage: 60 } })).toEqual([
      ...JSON_FMT,
      VARY,
      'Expires: Sun, 22 Nov 2026 11:39:10 GMT',
      'Cache-Control: s-maxage=60, max-age=60, public',
    ]);
    expect(response({ format: 'json', cache: { maxage: 60, smaxage: 30 } })).toEqual([
      ...JSON_FMT,
      VARY,
      'Expires: Sun, 22 Nov 2026 11:38:40 GMT',
      'Cache-Control: s-maxage=30, max-age=60, public',
    ]);
    expect(response({ format: 'json', cache: { maxage: 60 } })).toEqual([
      ...JSON_FMT,
      VARY,
      'Expires: Thu, 01 Jan 1970 00:00:01 GMT',
      'Cache-Control: s-maxage=0, max-age=60, public',
    ]);
    expect(response({ format: 'json', cache: { smaxage: 30 } })).toEqual([
      ...JSON_FMT,
      VARY,
      'Expires: Thu, 01 Jan 1970 00:00:01 GMT',
      'Cache-Control: s-maxage=30, max-age=0, public',
    ]);
    // action=parse&summary=x&maxage=60&smaxage=60 (anon-public-user-private)
    expect(response({ format: 'json', cache: { mode: 'anon-public-user-private', maxage: 60, smaxage: 60 } })).toEqual([
      ...JSON_FMT,
      VARY,
      'Expires: Sun, 22 Nov 2026 11:39:10 GMT',
      'Cache-Control: s-maxage=60, max-age=60, public',
    ]);
  });

  it('a persistent session makes anon-public-user-private private', () => {
    expect(response({ format: 'json', cookie: 'wikidb_session=abcdefghijklmnopqrstuvwxyz012345', cache: { maxage: 60, smaxage: 60 } })).toEqual([
      'Set-Cookie: wikidb_session=NEWID; path=/; HttpOnly',
      ...JSON_FMT,
      VARY,
      'Cache-Control: private, must-revalidate, max-age=60',
    ]);
  });

  it('cookie deletions with public headers: HeaderCallback forces private (T127993)', () => {
    expect(response({ format: 'json', cookie: 'wikidb_session=abc', cache: { maxage: 60, smaxage: 60 } })).toEqual([
      `Set-Cookie: wikidb_session=${DEL}`,
      ...JSON_FMT,
      VARY,
      'Expires: Thu, 01 Jan 1970 00:00:00 GMT',
      'Cache-Control: private, max-age=0, s-maxage=0',
    ]);
  });

  it('errors are private; 1.39 echoes maxage once the module is known', () => {
    // action=query&list=logevents&lelimit=abc&maxage=60&format=json
    expect(response({ format: 'json', cache: { isError: true, maxage: 60 } })).toEqual([...JSON_FMT, 'Cache-Control: private, must-revalidate, max-age=60']);
    // action=nonexistent&maxage=60&format=json
    expect(response({ format: 'json', cache: { isError: true, maxage: 60, moduleResolved: false } })).toEqual([...JSON_FMT, PRIVATE0]);
    // 1.43+: 0 on errors
    expect(cacheHeaders({ ...base, isError: true, maxage: 60, version: '1.44.0' })).toEqual([['Cache-Control', 'private, must-revalidate, max-age=0']]);
  });

  it('HTML (jsonfm) pages: the page headers stay where ApiMain does not replace them', () => {
    // action=query&list=logevents
    expect(response({ format: 'jsonfm', cache: {} })).toEqual([...HTML_FMT, 'Expires: Thu, 01 Jan 1970 00:00:00 GMT', VARY, PRIVATE0]);
    // action=query&list=blocks, and errors (action=nonexistent)
    const priv = [...HTML_FMT, 'Vary: Accept-Encoding, Cookie', 'Expires: Thu, 01 Jan 1970 00:00:00 GMT', PRIVATE0];
    expect(response({ format: 'jsonfm', cache: { mode: 'private' } })).toEqual(priv);
    expect(response({ format: 'jsonfm', cache: { isError: true } })).toEqual(priv);
    // maxage=60&smaxage=60
    expect(response({ format: 'jsonfm', cache: { maxage: 60, smaxage: 60 } })).toEqual([
      ...HTML_FMT,
      VARY,
      'Expires: Sun, 22 Nov 2026 11:39:10 GMT',
      'Cache-Control: s-maxage=60, max-age=60, public',
    ]);
    // with a well-formed session cookie
    expect(response({ format: 'jsonfm', cookie: 'wikidb_session=abcdefghijklmnopqrstuvwxyz012345', cache: { maxage: 60, smaxage: 60 } })).toEqual([
      'Set-Cookie: wikidb_session=NEWID; path=/; HttpOnly',
      ...HTML_FMT,
      'Expires: Thu, 01 Jan 1970 00:00:00 GMT',
      VARY,
      'Cache-Control: private, must-revalidate, max-age=60',
    ]);
    // with a malformed one
    expect(response({ format: 'jsonfm', cookie: 'wikidb_session=abc', cache: { maxage: 60, smaxage: 60 } })).toEqual([
      `Set-Cookie: wikidb_session=${DEL}`,
      ...HTML_FMT,
      VARY,
      'Expires: Thu, 01 Jan 1970 00:00:00 GMT',
      'Cache-Control: private, max-age=0, s-maxage=0',
    ]);
  });

  it('wrappedhtml: HTML printer without the page headers', () => {
    expect(norm(mergePhpHeaders(formatHeaders({ format: 'jsonfm', wrappedhtml: true }), cacheHeaders({ ...base, html: true, wrappedhtml: true })))).toEqual([
      'Content-Type: text/mediawiki-api-prettyprint-wrapped; charset=utf-8',
      'X-Frame-Options: DENY',
      'Content-Disposition: inline; filename=api-result-wrapped.json',
      VARY,
      PRIVATE0,
    ]);
  });

  it('Origin in Vary (origin=<x> matching the Origin header)', () => {
    expect(norm(cacheHeaders({ ...base, varyOrigin: true, maxage: 60, smaxage: 60 }))).toEqual([
      'Vary: Accept-Encoding, Origin, Treat-as-Untrusted, Cookie',
      'Expires: Sun, 22 Nov 2026 11:39:10 GMT',
      'Cache-Control: s-maxage=60, max-age=60, public',
    ]);
  });
});

describe('formatHeaders', () => {
  const f = (o: Parameters<typeof formatHeaders>[0]): string[] => norm(formatHeaders(o)).filter((h) => !h.startsWith('X-Frame'));
  it('per format, as the real wiki sends them', () => {
    expect(f({ format: 'json' })).toEqual(['Content-Type: application/json; charset=utf-8', 'Content-Disposition: inline; filename=api-result.json']);
    expect(f({ format: 'json', callback: true })).toEqual(['Content-Type: text/javascript; charset=utf-8', 'Content-Disposition: inline; filename=api-result.js']);
    expect(f({ format: 'none' })).toEqual(['Content-Type: text/plain; charset=utf-8', 'Content-Disposition: inline; filename=api-result.txt']);
    expect(f({ format: 'xml' })).toEqual(['Content-Type: text/xml; charset=utf-8', 'Content-Disposition: inline; filename=api-result.xml']);
    expect(f({ format: 'php' })).toEqual(['Content-Type: application/vnd.php.serialized; charset=utf-8', 'Content-Disposition: inline; filename=api-result.php']);
    expect(f({ format: 'jsonfm' })).toEqual(['Content-Type: text/html; charset=utf-8', 'Content-Disposition: inline; filename=api-result.html']);
    expect(formatHeaders({ format: 'json' })[1]).toEqual(['X-Frame-Options', 'DENY']);
  });
});

describe('sessionCookies (no session is ever in the store)', () => {
  const set = (cookie: string | undefined, https = false): string[] =>
    sessionCookies({ cookieHeader: cookie, cookiePrefix: 'wikidb', https }).setCookie.map((c) => c.replace(SID, 'wikidb_session=NEWID; '));
  const V = 'abcdefghijklmnopqrstuvwxyz012345';

  it('no cookies, or unrelated ones: nothing', () => {
    expect(set(undefined)).toEqual([]);
    expect(set('other=1')).toEqual([]);
    expect(set('wikidbUserName=Admin')).toEqual([]);
  });

  it('a well-formed id not in the store: a new session cookie, persistent', () => {
    const s = sessionCookies({ cookieHeader: `wikidb_session=${V}`, cookiePrefix: 'wikidb', https: false });
    expect(s.persistent).toBe(true);
    expect(s.requestedId).toBe(V);
    expect(s.setCookie).toEqual([`wikidb_session=${s.sessionId}; path=/; HttpOnly`]);
    expect(s.sessionId).toMatch(/^[0-9a-v]{32}$/);
    expect(set(`wikidb_session=${V}xyz-_`)).toEqual(['wikidb_session=NEWID; path=/; HttpOnly']);
    expect(set(`wikidb_session=${V}; wikidbUserName=Admin`)).toEqual(['wikidb_session=NEWID; path=/; HttpOnly']);
  });

  it('persistent anonymous session: UserID/Token sent are deleted, forceHTTPS re-set or deleted', () => {
    expect(set(`wikidb_session=${V}; wikidbToken=x`)).toEqual(['wikidb_session=NEWID; path=/; HttpOnly', `wikidbToken=${DEL}`]);
    expect(set(`wikidb_session=${V}; forceHTTPS=1`)).toEqual(['wikidb_session=NEWID; path=/; HttpOnly', 'forceHTTPS=true; path=/; HttpOnly']);
    expect(set(`wikidb_session=${V}; forceHTTPS=0`)).toEqual(['wikidb_session=NEWID; path=/; HttpOnly', `forceHTTPS=${DEL}`]);
    expect(set(`wikidb_session=${V}; wikidbUserID=deleted`)).toEqual(['wikidb_session=NEWID; path=/; HttpOnly', `wikidbUserID=${DEL}`]);
    expect(set(`wikidb_session=${V}; forceHTTPS=1; wikidbToken=x`)).toEqual([
      'wikidb_session=NEWID; path=/; HttpOnly',
      `wikidbToken=${DEL}`,
      'forceHTTPS=true; path=/; HttpOnly',
    ]);
  });

  it('malformed ids and unverifiable users: deletions for the cookies that were sent', () => {
    for (const c of ['wikidb_session=abcdefghijklmnopqrstuvwxyz01234', 'wikidb_session=abc', 'wikidb_session=bad!bad', 'wikidb_session=', 'wikidb_session=deleted', 'wikidb.session=abc']) {
      expect(set(c)).toEqual([`wikidb_session=${DEL}`]);
    }
    expect(set('wikidbUserID=1')).toEqual([`wikidbUserID=${DEL}`]);
    expect(set('wikidbUserID=abc')).toEqual([`wikidbUserID=${DEL}`]);
    expect(set('wikidbUserID=1; wikidbToken=abc')).toEqual([`wikidbUserID=${DEL}`, `wikidbToken=${DEL}`]);
    expect(set('wikidbToken=abc')).toEqual([`wikidbToken=${DEL}`]);
    expect(set('forceHTTPS=true')).toEqual([`forceHTTPS=${DEL}`]);
    expect(set('forceHTTPS=0')).toEqual([`forceHTTPS=${DEL}`]);
    expect(set('wikidb_session=deleted; wikidbUserID=1')).toEqual([`wikidb_session=${DEL}`, `wikidbUserID=${DEL}`]);
    expect(set(`wikidb_session=${V}; wikidbUserID=1`)).toEqual([`wikidb_session=${DEL}`, `wikidbUserID=${DEL}`]);
    expect(set(`wikidb_session=${V}; wikidbUserID=1; wikidbUserName=Admin`)).toEqual([`wikidb_session=${DEL}`, `wikidbUserID=${DEL}`]);
    expect(set(`wikidb_session=${V}; wikidbUserID=1; wikidbToken=x`)).toEqual([`wikidb_session=${DEL}`, `wikidbUserID=${DEL}`, `wikidbToken=${DEL}`]);
    expect(set('wikidb_session=abc; wikidbUserID=1; wikidbToken=x; forceHTTPS=1')).toEqual([
      `wikidb_session=${DEL}`,
      `wikidbUserID=${DEL}`,
      `wikidbToken=${DEL}`,
      `forceHTTPS=${DEL}`,
    ]);
    expect(sessionCookies({ cookieHeader: 'wikidb_session=abc', cookiePrefix: 'wikidb', https: false }).persistent).toBe(false);
  });

  it('duplicate names: the first one wins (PHP $_COOKIE)', () => {
    expect(set(`wikidb_session=${V}; wikidb_session=abc`)).toEqual(['wikidb_session=NEWID; path=/; HttpOnly']);
    expect(set(`wikidb_session=abc; wikidb_session=${V}`)).toEqual([`wikidb_session=${DEL}`]);
    expect(parsePhpCookies(' a.b=1;c d=%41+;a_b=2')).toEqual(new Map([['a_b', '1'], ['c_d', 'A+']]));
  });

  it('https adds secure (not to forceHTTPS)', () => {
    expect(set(`wikidb_session=${V}`, true)).toEqual(['wikidb_session=NEWID; path=/; secure; HttpOnly']);
    expect(set('wikidb_session=abc; forceHTTPS=1', true)).toEqual([
      'wikidb_session=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; secure; HttpOnly',
      `forceHTTPS=${DEL}`,
    ]);
  });
});

describe('corsHeaders', () => {
  it('origin=*: anonymous CORS (and Login-Suppressed)', () => {
    expect(corsHeaders('*', undefined)).toEqual({
      headers: [
        ['MediaWiki-Login-Suppressed', 'true'],
        ['Access-Control-Allow-Origin', '*'],
        ['Access-Control-Allow-Credentials', 'false'],
        ['Access-Control-Expose-Headers', 'MediaWiki-API-Error, Retry-After, X-Database-Lag, MediaWiki-Login-Suppressed'],
      ],
      varyOrigin: false,
    });
  });

  it('origin not matching the Origin header: 403 text', () => {
    for (const header of [undefined, 'http://y.example']) {
      expect(corsHeaders('http://x.example', header)).toEqual({
        headers: [['Cache-Control', 'no-cache'], ['Content-type', 'text/html; charset=UTF-8']],
        varyOrigin: false,
        end: { status: 403, body: "'origin' parameter does not match Origin header\n" },
      });
    }
  });

  it('matching origin not in $wgCrossSiteAJAXdomains: rejection header, Vary Origin', () => {
    expect(corsHeaders('http://x.example', 'http://x.example')).toEqual({
      headers: [['MediaWiki-CORS-Rejection', 'Origin mismatch']],
      varyOrigin: true,
    });
  });

  it('OPTIONS preflights end the request with an empty body', () => {
    const opt = { method: 'OPTIONS', requestMethodHeader: 'GET' };
    expect(corsHeaders('*', 'http://x.example', { ...opt, requestHeadersHeader: 'Api-User-Agent' })).toEqual({
      headers: [
        ['MediaWiki-Login-Suppressed', 'true'],
        ['Access-Control-Allow-Headers', 'Api-User-Agent'],
        ['Access-Control-Allow-Methods', 'POST, GET, HEAD'],
        ['Access-Control-Allow-Origin', '*'],
        ['Access-Control-Allow-Credentials', 'false'],
        ['Content-type', 'text/html; charset=UTF-8'],
      ],
      varyOrigin: false,
      end: { status: 200, body: '' },
    });
    expect(corsHeaders('*', 'http://x.example', { ...opt, requestHeadersHeader: 'Api-User-Agent, X-Foo' }).headers).toEqual([
      ['MediaWiki-Login-Suppressed', 'true'],
      ['MediaWiki-CORS-Rejection', 'Unsupported header requested in preflight'],
      ['Content-type', 'text/html; charset=UTF-8'],
    ]);
    expect(corsHeaders('*', undefined, { method: 'OPTIONS' }).headers).toEqual([
      ['MediaWiki-Login-Suppressed', 'true'],
      ['Access-Control-Allow-Origin', '*'],
      ['Access-Control-Allow-Credentials', 'false'],
      ['Access-Control-Expose-Headers', 'MediaWiki-API-Error, Retry-After, X-Database-Lag, MediaWiki-Login-Suppressed'],
      ['Content-type', 'text/html; charset=UTF-8'],
    ]);
  });

  it('no origin parameter: nothing (JSONP still suppresses the login)', () => {
    expect(corsHeaders(undefined, 'http://x.example')).toEqual({ headers: [], varyOrigin: false });
    expect(corsHeaders(undefined, undefined, { lacksSameOriginSecurity: true }).headers).toEqual([['MediaWiki-Login-Suppressed', 'true']]);
  });
});
