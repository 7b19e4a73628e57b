import { atLeast } from '../wiki/profile.js';
import type { CacheMode } from '../api/context.js';
import { toHttpDate } from '../util/timestamp.js';

/**
 * Response headers as MediaWiki 1.39 api.php sends them: format headers (ApiFormatBase::initPrinter)
 * and cache headers (ApiMain::sendCacheHeaders, the HTML page's OutputPage::sendCacheControl and
 * HeaderCallback); session cookies are in session.ts, CORS in cors.ts.
 *
 * Header lists are `[name, value]` pairs in the order PHP emits them. PHP's `header()` *replaces*
 * an earlier header of the same name (case-insensitively) by removing it and appending the new
 * one at the end; `mergePhpHeaders` combines lists that way. The real order of a response is:
 * X-Content-Type-Options (WebStart), Set-Cookie… (session setup), MediaWiki-Login-Suppressed,
 * CORS headers, MediaWiki-API-Error, format headers, cache headers, X-Request-Id.
 */
export type HeaderList = Array<[string, string]>;



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
  /**
   * The mode the module set (ApiMain default `private`; ApiQuery: the strictest of its
   * submodules), after ApiMain::setCacheMode's `uselang` downgrade (api/context.ts).
   */
  mode: CacheMode;
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
    set('Expires', min === 0 ? 'Thu, 01 Jan 1970 00:00:01 GMT' : toHttpDate(opts.nowMs + min * 1000));
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
