import type { HeaderList } from './headers.js';

/** CORS and same-origin security as ApiMain::handleCORS decides them, for `origin=` and the Origin header. */
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
      // The ApiMain constructor's Login-Suppressed header (JSONP) was sent before handleCORS ends the request.
      return {
        headers: [...headers, ['Cache-Control', 'no-cache'], ['Content-type', 'text/html; charset=UTF-8']],
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
