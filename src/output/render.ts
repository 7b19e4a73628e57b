import type { IncomingHttpHeaders } from 'node:http';
import type { ApiOutcome } from '../api/main.js';
import { isHtmlFormat } from '../api/printer.js';
import type { JsonObject } from '../api/result.js';
import type { ParamMap } from '../request/params.js';
import type { WikiProfile } from '../wiki/profile.js';
import { buildDebugInfo, debugInfoForFormatVersion, typicalQueries, type DebugMarks } from './debuginfo.js';
import { toFormatVersion1 } from './formatversion.js';
import { cacheHeaders, corsHeaders, formatHeaders, mergePhpHeaders, sessionCookies, type HeaderList } from './headers.js';
import { renderPrettyPage } from './html-page.js';
import { encodeJson, encodeJsonTailBytes, encodeJsonTailChunks, jsonpCallbackName, wrapJsonp, type JsonOptions } from './json.js';
import { encodeWithOrder } from './ordered.js';
import { stripKeyMarks } from '../util/ordered-json.js';

/** A response ready to send; a body in chunks is written chunk by chunk (nothing copied). */
export interface Rendered {
  status: number;
  headers: HeaderList;
  body: Buffer | string | Buffer[];
}

export interface RenderInput {
  profile: WikiProfile;
  outcome: ApiOutcome;
  http: { method: string; url: string; headers: IncomingHttpHeaders; params: ParamMap; startedAt: bigint };
  now: number;
  /**
   * Encoded data (without debuginfo) by printing variant, kept between requests for an answer
   * whose data never changes (a cassette hit): the hot path then only builds debuginfo.
   */
  encoded?: Map<string, Buffer>;
  /** Render a template: debuginfo's per-request parts are these marks (replay/hit-template.ts). */
  marks?: DebugMarks;
}

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Request headers as PHP's getallheaders() would give them (`Name: value`, arrival order). */
function flatHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The module path debuginfo describes: `query+logevents` for queries, else the action. */
function debugModule(outcome: ApiOutcome, params: ParamMap): string {
  if (outcome.action !== 'query') return outcome.action;
  const first = (params.get('list') ?? params.get('prop') ?? '').split('|')[0];
  return `query+${first ?? ''}`;
}

/**
 * Prints an API outcome as MediaWiki's printer and ApiMain would: formatversion, format
 * (json, JSONP, the HTML page, none), fresh debuginfo, cache, session and CORS headers.
 */
export function render(input: RenderInput): Rendered {
  const { profile, outcome, http, now } = input;
  const { printer } = outcome;
  const params = http.params;
  const callback = printer.callback;
  const origin = params.get('origin');
  const cors = corsHeaders(origin, header(http.headers, 'origin'), {
    method: http.method,
    ...(header(http.headers, 'access-control-request-method') !== undefined ? { requestMethodHeader: header(http.headers, 'access-control-request-method')! } : {}),
    ...(header(http.headers, 'access-control-request-headers') !== undefined ? { requestHeadersHeader: header(http.headers, 'access-control-request-headers')! } : {}),
    lacksSameOriginSecurity: callback !== null || origin === '*' || header(http.headers, 'treat-as-untrusted') !== undefined,
  });
  if (cors.end) return { status: cors.end.status, headers: mergePhpHeaders([['X-Content-Type-Options', 'nosniff']], cors.headers), body: cors.end.body };

  const session = sessionCookies({ cookieHeader: header(http.headers, 'cookie'), cookiePrefix: profile.cookiePrefix, https: false });
  const html = isHtmlFormat(printer);
  const fv = printer.formatversion;
  const opts: JsonOptions = { ascii: fv === 1 ? !printer.utf8 : printer.ascii, pretty: html };
  const variant = `${fv}|${opts.ascii}|${opts.pretty}`;

  let debugInfo: Record<string, unknown> | undefined;
  let text: Buffer | string | Buffer[] = '';
  if (printer.format !== 'none') {
    let json: Buffer | string | undefined = input.encoded?.get(variant);
    if (json === undefined) {
      const data: JsonObject = fv === 1 ? toFormatVersion1(outcome.data) : outcome.data;
      json = stripKeyMarks(encodeWithOrder(data, (v) => encodeJson(v, opts), opts.pretty));
      // Kept as bytes: the debuginfo tail is spliced onto bytes without re-encoding the body.
      if (input.encoded) input.encoded.set(variant, (json = Buffer.from(json)));
    }
    if (profile.debugInfo && !outcome.isError) {
      const plain = Object.fromEntries(params);
      const marks = input.marks;
      debugInfo = buildDebugInfo({
        profile,
        userLang: outcome.userLang,
        request: { method: http.method, url: http.url, headers: flatHeaders(http.headers), params: plain },
        elapsedSeconds: Number(process.hrtime.bigint() - http.startedAt) / 1e9,
        queries: typicalQueries(debugModule(outcome, params), plain, profile, now, http.method, marks?.nowMw),
        moduleName: debugModule(outcome, params),
        ...(outcome.requestedCacheMode ? { cacheMode: outcome.requestedCacheMode } : {}),
        session: marks ? { ...session, sessionId: marks.session } : session,
        nowMs: now,
        ...(marks ? { marks } : {}),
      });
      const tail = debugInfoForFormatVersion(debugInfo, fv);
      // Plain JSON is written in chunks (nothing copied); JSONP and the HTML page need the text.
      if (callback === null && !html) text = encodeJsonTailChunks(json, 'debuginfo', tail, opts);
      else json = encodeJsonTailBytes(json, 'debuginfo', tail, opts);
    }
    if (text === '') {
      if (callback !== null) json = wrapJsonp(jsonpCallbackName(callback), json.toString());
      text = html
        ? renderPrettyPage({
            profile,
            userLang: outcome.userLang,
            json: json.toString(),
            requestUrl: http.url,
            method: http.method,
            status: outcome.status,
            formatName: printer.format === 'rawfm' ? 'raw' : 'json',
            ...(input.marks ? { requestId: input.marks.requestId } : {}),
            ...(debugInfo ? { debugInfo } : {}),
          })
        : json;
    }
  }

  const cookies: HeaderList = session.setCookie.map((c) => ['Set-Cookie', c]);
  const errorHeaders: HeaderList = outcome.isError ? [['MediaWiki-API-Error', outcome.errorCodes.join(', ')]] : [];
  const extra: HeaderList = Object.entries(outcome.headers);
  const headers = mergePhpHeaders(
    [['X-Content-Type-Options', 'nosniff']],
    cookies,
    cors.headers,
    extra,
    errorHeaders,
    formatHeaders({ format: printer.format, callback: callback !== null, wrappedhtml: printer.wrappedhtml }),
    cacheHeaders({
      mode: outcome.cacheMode,
      uselangGiven: outcome.uselangGiven && params.get('uselang') !== 'user',
      html,
      wrappedhtml: printer.wrappedhtml,
      sessionPersistent: session.persistent,
      maxage: outcome.maxage,
      smaxage: outcome.smaxage,
      isError: outcome.isError,
      nowMs: now,
      version: profile.version,
      contentLanguage: profile.language,
      setsCookies: cookies.length > 0,
      varyOrigin: cors.varyOrigin,
      moduleResolved: outcome.action !== 'main',
    }),
  );
  return { status: html ? 200 : outcome.status, headers, body: text };
}
