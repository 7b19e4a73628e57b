import type { IncomingHttpHeaders } from 'node:http';
import type { ApiOutcome } from '../api/main.js';
import { isHtmlFormat } from '../api/printer.js';
import { lacksSameOriginSecurity } from '../api/session.js';
import type { JsonObject } from '../api/result.js';
import type { ParamMap } from '../request/params.js';
import type { WikiProfile } from '../wiki/profile.js';
import { contentLanguage } from '../i18n/language.js';
import { buildDebugInfo, debugInfoForFormatVersion, type DebugMarks } from './debuginfo.js';
import type { DebugFacts } from '../api/debug.js';
import type { Knowledge, WikiModel } from '../wiki/model.js';
import { toHttpDate, toMw } from '../util/timestamp.js';
import { toFormatVersion1 } from './formatversion.js';
import { titleContext } from '../wiki/site-tables.js';
import { cacheHeaders, formatHeaders, mergePhpHeaders, type HeaderList } from './headers.js';
import { corsHeaders } from './cors.js';
import { parsePhpCookies, sessionCookies, type SessionOutcome } from './session.js';
import { renderPrettyPage, renderWrappedPage } from './html-page.js';
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
  /** What the wiki holds (modules' debuginfo traces read it). */
  model: WikiModel;
  /**
   * What the recordings prove, for an answer computed from them (the engine worked it out); a
   * recorded answer is printed without it: its titles are all among its pages, normalized titles,
   * redirects and interwiki titles, so the order of a formatversion=1 `pages` needs no recorded
   * site table.
   */
  knows?: Knowledge | null;
  /** The lists whose entries are `assoc`-typed (ListModule.assocEntries; formatversion=1 prints `{}` for one with only false flags). */
  assocLists: ReadonlySet<string>;
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
  /**
   * A session replay keeps (a login's, or one a login token started): its id and the cookies this
   * answer sets. Absent: the request's cookies are handled as a wiki that keeps no session does.
   */
  session?: { setCookie: string[]; sessionId: string };
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

/** The existing pages of the answer (`query.pages` with an id), for the modules' traces. */
function answerPages(data: JsonObject): Array<{ id: number; title: string }> {
  const q = data['query'];
  const pages = q && typeof q === 'object' && !Array.isArray(q) ? (q as JsonObject)['pages'] : undefined;
  const list = Array.isArray(pages) ? pages : pages && typeof pages === 'object' ? Object.values(pages) : [];
  const out: Array<{ id: number; title: string }> = [];
  for (const p of list) {
    if (p && typeof p === 'object' && !Array.isArray(p) && typeof p['pageid'] === 'number' && p['pageid'] > 0) out.push({ id: p['pageid'], title: String(p['title']) });
  }
  return out;
}

/** The traces of the modules that ran (their `debug`), in order. */
function moduleTraces(input: RenderInput, plain: Record<string, string>): DebugFacts[] {
  const { outcome, profile, http } = input;
  const debugInput = {
    profile,
    params: plain,
    method: http.method,
    nowMw: input.marks?.nowMw ?? toMw(input.now),
    userLang: outcome.userLang,
    answer: outcome.data,
    pages: answerPages(outcome.data),
    model: input.model,
  };
  const out: DebugFacts[] = [];
  for (const m of outcome.modules) if (m.debug) out.push(m.debug({ ...debugInput, values: m.values, ...(m.fetched ? { fetched: m.fetched } : {}) }));
  return out;
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
    // The request's own `callback`, even when an error printer dropped it (ApiMain's constructor decides).
    lacksSameOriginSecurity: lacksSameOriginSecurity(params, http.headers),
  });
  // Date, like Expires and every time in the answer, follows replay's clock (docs/decisions/0008-one-clock-per-answer.md).
  const date: HeaderList = [['Date', toHttpDate(now)]];
  if (cors.end) return { status: cors.end.status, headers: mergePhpHeaders(date, [['X-Content-Type-Options', 'nosniff']], cors.headers), body: cors.end.body };

  const cookieHeader = header(http.headers, 'cookie');
  const session: SessionOutcome = input.session
    ? { setCookie: input.session.setCookie, persistent: true, sessionId: input.session.sessionId, sentCookies: [], forceHTTPS: false, cookies: parsePhpCookies(cookieHeader) }
    : sessionCookies({ cookieHeader, cookiePrefix: profile.cookiePrefix, https: false });
  const html = isHtmlFormat(printer);
  const fv = printer.formatversion;
  const opts: JsonOptions = { ascii: fv === 1 ? !printer.utf8 : printer.ascii, pretty: html };
  const variant = `${fv}|${opts.ascii}|${opts.pretty}`;

  let debugInfo: Record<string, unknown> | undefined;
  let text: Buffer | string | Buffer[] = '';
  if (printer.format !== 'none') {
    let json: Buffer | string | undefined = input.encoded?.get(variant);
    if (json === undefined) {
      const data: JsonObject = fv === 1 ? toFormatVersion1(outcome.data, input.assocLists, { params: input.http.params, titles: titleContext(profile, input.model, input.knows ?? null) }) : outcome.data;
      json = stripKeyMarks(encodeWithOrder(data, (v) => encodeJson(v, opts), opts.pretty));
      // Kept as bytes: the debuginfo tail is spliced onto bytes without re-encoding the body.
      if (input.encoded) input.encoded.set(variant, (json = Buffer.from(json)));
    }
    // An error has no debuginfo; the HTML page's debug toolbar shows the request all the same.
    if (profile.debugInfo && (!outcome.isError || html)) {
      const plain = Object.fromEntries(params);
      const marks = input.marks;
      debugInfo = buildDebugInfo({
        profile,
        userLang: outcome.userLang,
        request: { method: http.method, url: http.url, headers: flatHeaders(http.headers), params: plain },
        elapsedSeconds: Number(process.hrtime.bigint() - http.startedAt) / 1e9,
        facts: moduleTraces(input, plain),
        cacheMode: outcome.requestedCacheMode,
        session: marks ? { ...session, sessionId: marks.session } : session,
        nowMs: now,
        ...(marks ? { marks } : {}),
        ...(outcome.isError ? { failed: true } : {}),
      });
      const tail = debugInfoForFormatVersion(debugInfo, fv);
      // Plain JSON is written in chunks (nothing copied); JSONP and the HTML page need the text.
      if (!outcome.isError) {
        if (callback === null && !html) text = encodeJsonTailChunks(json, 'debuginfo', tail, opts);
        else json = encodeJsonTailBytes(json, 'debuginfo', tail, opts);
      }
    }
    if (text === '') {
      if (callback !== null) json = wrapJsonp(jsonpCallbackName(callback), json.toString());
      text = html && printer.wrappedhtml
        ? renderWrappedPage({ status: outcome.status, json: json.toString(), continuation: outcome.data['continue'], elapsedMs: Number(process.hrtime.bigint() - http.startedAt) / 1e6 })
        : html
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
    date,
    [['X-Content-Type-Options', 'nosniff']],
    cookies,
    cors.headers,
    extra,
    errorHeaders,
    formatHeaders({ format: printer.format, callback: callback !== null, wrappedhtml: printer.wrappedhtml }),
    cacheHeaders({
      mode: outcome.cacheMode,
      html,
      wrappedhtml: printer.wrappedhtml,
      sessionPersistent: session.persistent,
      maxage: outcome.maxage,
      smaxage: outcome.smaxage,
      isError: outcome.isError,
      nowMs: now,
      version: profile.version,
      contentLanguage: contentLanguage(profile).htmlCode,
      setsCookies: cookies.length > 0,
      varyOrigin: cors.varyOrigin,
      moduleResolved: outcome.action !== 'main',
    }),
  );
  return { status: html ? 200 : outcome.status, headers, body: text };
}
