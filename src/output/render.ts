import type { IncomingHttpHeaders } from 'node:http';
import type { ApiOutcome } from '../api/main.js';
import { isHtmlFormat, type Printer } from '../api/printer.js';
import { lacksSameOriginSecurity } from '../api/session.js';
import type { JsonObject } from '../api/result.js';
import type { GeneratorOrder } from '../api/list-module.js';
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
import { prettyPageChunks, wrappedPageChunks } from './html-page.js';
import { encodeJson, encodeJsonTailChunks, jsonBytes, jsonpCallbackName, jsonpEnds, type JsonOptions } from './json.js';
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
  /** The generators whose order of pages the answer shows (ListModule.generatorOrder; formatversion=1 keeps it). */
  generatorOrders: ReadonlyMap<string, GeneratorOrder>;
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
  const { http, now } = input;
  const cors = corsFor(input);
  // Date, like Expires and every time in the answer, follows replay's clock (docs/decisions/0008-one-clock-per-answer.md).
  const date: HeaderList = [['Date', toHttpDate(now)]];
  if (cors.end) return { status: cors.end.status, headers: mergePhpHeaders(date, [['X-Content-Type-Options', 'nosniff']], cors.headers), body: cors.end.body };
  const session = sessionFor(input, header(http.headers, 'cookie'));
  const html = isHtmlFormat(input.outcome.printer);
  const body = input.outcome.printer.format === 'none' ? '' : printBody(input, session, html);
  return { status: html ? 200 : input.outcome.status, headers: answerHeaders(input, { date, cors, session, html }), body };
}

/** ApiMain's CORS handling for the request (origin=, the Origin header, a preflight). */
function corsFor(input: RenderInput): ReturnType<typeof corsHeaders> {
  const { http } = input;
  const requestMethod = header(http.headers, 'access-control-request-method');
  const requestHeaders = header(http.headers, 'access-control-request-headers');
  return corsHeaders(http.params.get('origin'), header(http.headers, 'origin'), {
    method: http.method,
    ...(requestMethod !== undefined ? { requestMethodHeader: requestMethod } : {}),
    ...(requestHeaders !== undefined ? { requestHeadersHeader: requestHeaders } : {}),
    // The request's own `callback`, even when an error printer dropped it (ApiMain's constructor decides).
    lacksSameOriginSecurity: lacksSameOriginSecurity(http.params, http.headers),
  });
}

/** The session the answer runs in: one replay keeps, or the request's cookies as a wiki that keeps none handles them. */
function sessionFor(input: RenderInput, cookieHeader: string | undefined): SessionOutcome {
  return input.session
    ? { setCookie: input.session.setCookie, persistent: true, sessionId: input.session.sessionId, sentCookies: [], forceHTTPS: false, cookies: parsePhpCookies(cookieHeader) }
    : sessionCookies({ cookieHeader, cookiePrefix: input.profile.cookiePrefix, https: false });
}

/** The printer's output: the data encoded, debuginfo spliced in, then JSONP or the HTML page around it. */
function printBody(input: RenderInput, session: SessionOutcome, html: boolean): Buffer | string | Buffer[] {
  const { profile, outcome } = input;
  const { printer } = outcome;
  const fv = printer.formatversion;
  const opts: JsonOptions = { ascii: fv === 1 ? !printer.utf8 : printer.ascii, pretty: html };
  const json = encodedData(input, opts);
  // An error has no debuginfo; the HTML page's debug toolbar shows the request all the same.
  const debugInfo = profile.debugInfo && (!outcome.isError || html) ? debugInfoFor(input, session) : undefined;
  const tail = debugInfo && !outcome.isError ? debugInfoForFormatVersion(debugInfo, fv) : undefined;
  // Written in chunks (nothing copied, no whole-answer string): the JSON, JSONP around it, the
  // HTML page's `<pre>` text (escaped as the chunks are made).
  let chunks = tail ? encodeJsonTailChunks(json, 'debuginfo', tail, opts, html) : null;
  if (printer.callback !== null) {
    const [open, close] = jsonpEnds(jsonpCallbackName(printer.callback));
    chunks = [jsonBytes(open, html), ...(chunks ?? [jsonBytes(json, html)]), jsonBytes(close, html)];
  }
  if (!html) return chunks ?? json;
  const { http } = input;
  const pre = chunks ?? [jsonBytes(json, true)];
  if (printer.wrappedhtml) {
    return wrappedPageChunks({ status: outcome.status, pre, continuation: outcome.data['continue'], elapsedMs: Number(process.hrtime.bigint() - http.startedAt) / 1e6 });
  }
  return prettyPageChunks({
    profile,
    userLang: outcome.userLang,
    json: { pre },
    requestUrl: http.url,
    method: http.method,
    status: outcome.status,
    formatName: pageFormatName(printer),
    ...(input.marks ? { requestId: input.marks.requestId } : {}),
    ...(debugInfo ? { debugInfo } : {}),
  });
}

/** The format the HTML page's header names as its non-HTML twin: `raw` for rawfm (none), else `json` (xmlfm and phpfm are printed as jsonfm, flagged). */
export function pageFormatName(printer: Printer): string {
  return printer.format === 'rawfm' ? 'raw' : 'json';
}

/** The answer's data in the printing variant (formatversion, ascii, pretty), reused from `input.encoded` when kept. */
function encodedData(input: RenderInput, opts: JsonOptions): Buffer | string {
  const { outcome, profile } = input;
  const fv = outcome.printer.formatversion;
  const variant = `${fv}|${opts.ascii}|${opts.pretty}`;
  const kept = input.encoded?.get(variant);
  if (kept !== undefined) return kept;
  const data: JsonObject = fv === 1 ? toFormatVersion1(outcome.data, input.assocLists, { params: input.http.params, titles: titleContext(profile, input.model, input.knows ?? null), generatorOrders: input.generatorOrders }) : outcome.data;
  const json = stripKeyMarks(encodeWithOrder(data, (v) => encodeJson(v, opts), opts.pretty));
  if (!input.encoded) return json;
  // Kept as bytes: the debuginfo tail is spliced onto bytes without re-encoding the body.
  const bytes = Buffer.from(json);
  input.encoded.set(variant, bytes);
  return bytes;
}

/** A fresh debuginfo for this request (ApiMain's debug log, the modules' traces, the request's own facts). */
function debugInfoFor(input: RenderInput, session: SessionOutcome): Record<string, unknown> {
  const { profile, outcome, http, marks } = input;
  const plain = Object.fromEntries(http.params);
  return buildDebugInfo({
    profile,
    userLang: outcome.userLang,
    request: { method: http.method, url: http.url, headers: flatHeaders(http.headers), params: plain },
    elapsedSeconds: Number(process.hrtime.bigint() - http.startedAt) / 1e9,
    facts: moduleTraces(input, plain),
    cacheMode: outcome.requestedCacheMode,
    session: marks ? { ...session, sessionId: marks.session } : session,
    nowMs: input.now,
    ...(marks ? { marks } : {}),
    ...(outcome.isError ? { failed: true } : {}),
  });
}

/** The answer's headers in PHP's order: date, nosniff, cookies, CORS, the module's, the error code, format and cache headers. */
function answerHeaders(
  input: RenderInput,
  parts: { date: HeaderList; cors: ReturnType<typeof corsHeaders>; session: SessionOutcome; html: boolean },
): HeaderList {
  const { outcome, profile, now } = input;
  const { printer } = outcome;
  const { session, html } = parts;
  const cookies: HeaderList = session.setCookie.map((c) => ['Set-Cookie', c]);
  const errorHeaders: HeaderList = outcome.isError ? [['MediaWiki-API-Error', outcome.errorCodes.join(', ')]] : [];
  return mergePhpHeaders(
    parts.date,
    [['X-Content-Type-Options', 'nosniff']],
    cookies,
    parts.cors.headers,
    Object.entries(outcome.headers),
    errorHeaders,
    formatHeaders({ format: printer.format, callback: printer.callback !== null, wrappedhtml: printer.wrappedhtml }),
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
      varyOrigin: parts.cors.varyOrigin,
      moduleResolved: outcome.action !== 'main',
    }),
  );
}
