import { randomBytes } from 'node:crypto';
import { redactParams } from '../util/secrets.js';
import { atLeast, type WikiProfile } from '../wiki/profile.js';
import { contentLanguage, type Language } from '../i18n/language.js';
import { withFrozenMembers } from '../api/frozen.js';
import { encodeJson, encodeJsonChunks } from './json.js';
import { jsonStringContentBytes, textBytes } from './text-bytes.js';
import { pageTexts, specialNames } from './texts.js';
import { phpUrlDecode, phpUrlencode, wfUrlencode } from '../util/php-url.js';

/**
 * The HTML page MediaWiki sends for `*fm` formats (and for an absent `format`, which is `jsonfm`):
 * ApiFormatBase::closePrinter → OutputPage::output with the `apioutput` skin. Reproduced from a
 * real 1.39.17 page; the ResourceLoader parts are the ones an anonymous 1.39 request shows, with
 * the per-request values (request id, debug info, backend time) filled in.
 */
export interface PrettyPageOptions {
  profile: WikiProfile;
  userLang: Language;
  /** Told `i18n.<code>` when a text of the page cannot be rendered in the user language. */
  unknown?: (what: string) => void;
  /**
   * The printed text: pretty JSON (or `/**\/cb(...)` JSONP around it), or its bytes already escaped
   * for the `<pre>` (json.ts's `pre` output: a big answer is never one string).
   */
  json: string | { pre: readonly Buffer[] };
  /** Path and query as received (REQUEST_URI). */
  requestUrl: string;
  method: 'GET' | 'POST' | string;
  /** Stored HTTP status; anything but unset/200 adds the api-pretty-status line (the response stays 200). */
  status?: number;
  /** The non-HTML twin: `json` for jsonfm. `raw` (rawfm) has no twin: the "only HTML" header. */
  formatName: 'json' | string;
  /** X-Request-Id / wgRequestId; random 24 hex digits when absent. */
  requestId?: string;
  /**
   * The debuginfo object (fv2 shape) for the debug toolbar script, when the wiki has
   * `$wgDebugToolbar`; omitted → no toolbar data (the page is otherwise the same).
   */
  debugInfo?: Record<string, unknown>;
  /** wgBackendResponseTime in ms. Default 100. */
  backendResponseTimeMs?: number;
  /** Request protocol as seen by the wiki (for the hyperlinked URL). Default: the profile server's. */
  https?: boolean;
}

/** HttpStatus::getMessage for the codes the API can store. */
const HTTP_STATUS: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

function httpStatusText(code: number): string {
  return HTTP_STATUS[code] ?? '';
}

/** Html::element text escaping: only `&` and `<`. */
export function escapePreText(s: string): string {
  let out = s;
  if (out.includes('&')) out = out.replace(/&/g, '&amp;');
  if (out.includes('<')) out = out.replace(/</g, '&lt;');
  return out;
}

function escAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// ---------------------------------------------------------------------------------------------
// PHP urlencode / query handling for the "format=json" link

/**
 * `$_GET` as PHP builds it from a query string, as ordered [key, value] pairs: a repeated key
 * keeps its first position and takes the last value; `.` and ` ` in names become `_`; `a[]`/`a[k]`
 * become array members (serialized back as `a[0]`/`a[k]`).
 */
function phpQueryPairs(query: string): Array<[string, string]> {
  const map = new Map<string, string>();
  const arrayCounters = new Map<string, number>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    let key = phpUrlDecode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : phpUrlDecode(part.slice(eq + 1));
    key = key.replace(/^ +/, '');
    if (key === '') continue;
    const br = key.indexOf('[');
    let base = br > 0 ? key.slice(0, br) : key;
    base = base.replace(/[. ]/g, '_');
    const m = br > 0 ? /^\[([^\]]*)\]/.exec(key.slice(br)) : null;
    if (m) {
      let sub = m[1]!;
      if (sub === '') {
        const n = arrayCounters.get(base) ?? 0;
        arrayCounters.set(base, n + 1);
        sub = String(n);
      }
      map.set(`${base}[${sub}]`, value);
    } else {
      map.set(br > 0 ? base + key.slice(br).replace(/[. ]/g, '_') : base, value);
    }
  }
  return [...map];
}

/**
 * The non-HTML URL of the pretty header: scheme+host+path of the request, `?`, then the query
 * parameters with `title` removed and `format` replaced in place (or appended), re-encoded with
 * PHP urlencode (WebRequest::appendQueryValue + wfArrayToCgi).
 */
export function nonHtmlUrl(profile: WikiProfile, requestUrl: string, lcformat: string, https?: boolean): string {
  const q = requestUrl.indexOf('?');
  const path = q === -1 ? requestUrl : requestUrl.slice(0, q);
  const query = q === -1 ? '' : requestUrl.slice(q + 1);
  const pairs = phpQueryPairs(query).filter(([k]) => k !== 'title');
  const i = pairs.findIndex(([k]) => k === 'format');
  if (i === -1) pairs.push(['format', lcformat]);
  else pairs[i] = ['format', lcformat];
  let server = profile.server;
  if (https !== undefined) server = server.replace(/^https?:/, https ? 'https:' : 'http:');
  // A secret in the query is written as the marker (util/secrets.ts), not echoed into the page.
  return `${server}${path}?${redactParams(pairs).map(([k, v]) => `${phpUrlencode(k)}=${phpUrlencode(v)}`).join('&')}`;
}

/** Whether a format has a non-HTML twin the header tells of (ApiFormatBase::initPrinter: the module manager defines it). */
const hasPlainTwin = (formatName: string): boolean => formatName === 'json' || formatName === 'xml' || formatName === 'php';

/**
 * The link of the page's header to the same question in the non-HTML format (the `$3` of
 * api-format-prettyprint-header-hyperlinked), or null where the header has none: a POST, or a
 * format with no non-HTML twin (`rawfm`). MediaWiki parses the message with the link in it as
 * wikitext, so the page shows what that parse leaves of it (render-recorded.ts pageUnknown).
 */
export function formatLink(profile: WikiProfile, page: { method: string; requestUrl: string; formatName: string; https?: boolean | undefined }): string | null {
  if (!hasPlainTwin(page.formatName) || page.method.toUpperCase() === 'POST') return null;
  return nonHtmlUrl(profile, page.requestUrl, page.formatName, page.https);
}

// ---------------------------------------------------------------------------------------------

const DEPRECATION_WARN_139 =
  'mw.log.warn("This page is using the deprecated ResourceLoader module \\"mediawiki.skinning.interface\\".\\n[1.37] The use of the `content` feature with ResourceLoaderSkinModule is deprecated. Use `content-media` instead. [1.37] The use of the `legacy` feature with ResourceLoaderSkinModule is deprecated(T89981) and is a NOOP since 1.39 (T304325). This should be urgently omited to retain compatibility with future MediaWiki versionsMore information can be found at [[mw:Manual:ResourceLoaderSkinModule]]. ");';

const DEPRECATION_WARN_143 =
  'mw.log.warn("This page is using the deprecated ResourceLoader module \\"mediawiki.skinning.interface\\".\\n[1.43] The use of the `interface-message-box` feature with SkinModule is deprecated in favor of CodexModule. Please remove this feature.More information can be found at [[mw:Manual:ResourceLoaderSkinModule]]. ");';

/** ResourceLoader::encodeJsonForScript's flags. */
const SCRIPT_JSON = { ascii: false, pretty: false, hexTagAmp: true } as const;
const scriptJson = (v: unknown): string => encodeJson(v, SCRIPT_JSON);
const scriptJsonPlain = (v: unknown): string => encodeJson(v, { ascii: false, pretty: false });

/**
 * Statements of an inline script as JavaScriptMinifier joins them (one per line in the source): on
 * one line, except that a line already longer than 1000 bytes with the next statement's first
 * token breaks before it.
 */
function minifiedStatements(statements: readonly string[]): string {
  let out = '';
  let line = 0;
  for (const s of statements) {
    const first = Buffer.byteLength(/^[\w.$]+/.exec(s)?.[0] ?? s);
    if (out !== '' && line + first > 1000) {
      out += '\n';
      line = 0;
    }
    out += s;
    line += Buffer.byteLength(s);
  }
  return out;
}

/** Strings and byte chunks as byte chunks: adjacent strings joined into one, the chunks as they are. */
function pageChunks(parts: ReadonlyArray<string | readonly Buffer[]>): Buffer[] {
  const out: Buffer[] = [];
  let text = '';
  for (const p of parts) {
    if (typeof p === 'string') text += p;
    else {
      if (text !== '') out.push(Buffer.from(text, 'utf8'));
      text = '';
      out.push(...p);
    }
  }
  if (text !== '') out.push(Buffer.from(text, 'utf8'));
  return out;
}

/**
 * The whole page, as OutputPage::output prints it, as byte chunks to write in turn: the printed
 * text and the debug toolbar's data are never joined into one string (a 17 MB page was a 34 MB
 * UTF-16 string, then its bytes).
 */
export function prettyPageChunks(opts: PrettyPageOptions): Buffer[] {
  const { profile, userLang } = opts;
  const t = pageTexts(profile, userLang, opts.unknown);
  const contentLang = profile.language;
  const siteLang = contentLanguage(profile);
  const names = specialNames(profile);
  const modern = atLeast(profile, '1.43');
  const requestId = opts.requestId ?? randomBytes(12).toString('hex');
  const site = escAttr(profile.siteName);
  const sp = escAttr(profile.scriptPath);
  const fmt = opts.formatName.toUpperCase();
  const pageName = `${names.special}:ApiHelp`;

  // --- header paragraphs
  let header: string;
  if (hasPlainTwin(opts.formatName)) {
    header = t.prettyHeader(fmt, opts.formatName, formatLink(profile, opts));
  } else {
    header = t.prettyHeaderOnlyHtml(fmt);
  }
  let content = `<div class="api-pretty-header">${header}</div>`;
  if (opts.status !== undefined && opts.status !== 0 && opts.status !== 200) {
    content += `<div class="api-pretty-header api-pretty-status">${t.prettyStatus(opts.status, httpStatusText(opts.status))}</div>`;
  }
  const pre = typeof opts.json === 'string' ? [textBytes(opts.json, { pre: true })] : opts.json.pre;

  // --- head (1.43 as the real 1.43.9 prints it: HTML5 void tags, the page in safe mode without
  // the site and user modules, the user language as the view language)
  const rlconf = scriptJson({
    wgBreakFrames: false,
    wgSeparatorTransformTable: t.separatorTransformTable,
    wgDigitTransformTable: t.digitTransformTable,
    wgDefaultDateFormat: t.dateFormat,
    wgMonthNames: t.monthNames,
    wgRequestId: requestId,
    ...(modern ? {} : { wgCSPNonce: false }),
    wgCanonicalNamespace: 'Special',
    wgCanonicalSpecialPageName: 'ApiHelp',
    wgNamespaceNumber: -1,
    wgPageName: pageName,
    wgTitle: 'ApiHelp',
    wgCurRevisionId: 0,
    wgRevisionId: 0,
    wgArticleId: 0,
    wgIsArticle: false,
    wgIsRedirect: false,
    wgAction: 'view',
    wgUserName: null,
    wgUserGroups: ['*'],
    wgCategories: [],
    ...(modern ? { wgPageViewLanguage: userLang.code } : {}),
    wgPageContentLanguage: userLang.code,
    wgPageContentModel: 'wikitext',
    wgRelevantPageName: pageName,
    wgRelevantArticleId: 0,
    wgIsProbablyEditable: false,
    wgRelevantPageIsProbablyEditable: false,
  });
  const end = modern ? '>' : '/>';
  const pageModules = profile.debugInfo ? '["site","mediawiki.page.ready","mediawiki.debug"]' : '["site","mediawiki.page.ready"]';
  const statements = modern
    ? ['document.documentElement.className="client-js";', `RLCONF=${rlconf};`, 'RLSTATE={"mediawiki.apipretty":"ready","mediawiki.skinning.interface":"ready"};']
    : ['document.documentElement.className="client-js";', `RLCONF=${rlconf};`, 'RLSTATE={"site.styles":"ready","user.styles":"ready","user":"ready","user.options":"loading","mediawiki.apipretty":"ready","mediawiki.skinning.interface":"ready"};', `RLPAGEMODULES=${pageModules};`];
  const rlScripts =
    `<script>${minifiedStatements(statements)}</script>\n` +
    (modern ? '' : '<script>(RLQ=window.RLQ||[]).push(function(){mw.loader.implement("user.options@12s5i",function($,jQuery,require,module){mw.user.tokens.set({"patrolToken":"+\\\\","watchToken":"+\\\\","csrfToken":"+\\\\"});});});</script>\n');
  // ResourceLoader leaves out its default language (qqx) from load.php URLs.
  const langParam = userLang.isQqx ? '' : `lang=${escAttr(phpUrlencode(userLang.code))}&amp;`;
  const rcTitle = wfUrlencode(`${names.special}:${names.recentChanges}`);
  const head =
    `<!DOCTYPE html>\n<html class="client-nojs" lang="${escAttr(userLang.htmlCode)}" dir="${userLang.dir}">\n<head>\n<meta charset="UTF-8"${end}\n` +
    `<title>${escAttr(t.pageTitle)}</title>\n` +
    rlScripts +
    `<link rel="stylesheet" href="${sp}/load.php?${langParam}modules=mediawiki.apipretty%7Cmediawiki.skinning.interface&amp;only=styles&amp;skin=apioutput"${end}\n` +
    `<script async="" src="${sp}/load.php?${langParam}modules=startup&amp;only=scripts&amp;raw=1${modern ? '&amp;safemode=1' : ''}&amp;skin=apioutput"></script>\n` +
    `<meta name="generator" content="MediaWiki ${escAttr(profile.version)}"${end}\n` +
    `<meta name="robots" content="${modern ? 'noindex,nofollow,max-image-preview:standard' : 'noindex,nofollow'}"${end}\n` +
    `<meta name="format-detection" content="telephone=no"${end}\n` +
    `<meta name="viewport" content="width=${modern ? 1120 : 1000}"${end}\n` +
    (modern ? '' : `<link rel="icon" href="/favicon.ico"${end}\n`) +
    `<link rel="search" type="application/opensearchdescription+xml" href="${sp}/${modern ? 'rest.php/v1/search' : 'opensearch_desc.php'}" title="${site} (${contentLang})"${end}\n` +
    `<link rel="EditURI" type="application/rsd+xml" href="${escAttr(profile.server)}${sp}/api.php?action=rsd"${end}\n` +
    `<link rel="alternate" type="application/atom+xml" title="${escAttr(t.atomFeed)}" href="${sp}/index.php?title=${rcTitle}&amp;feed=atom"${end}\n` +
    `</head>\n` +
    `<body class="mediawiki ${userLang.dir} sitedir-${siteLang.dir} mw-hide-empty-elt ns--1 ns-special mw-special-ApiHelp page-${escAttr(names.special)}_ApiHelp rootpage-${escAttr(names.special)}_ApiHelp skin-apioutput action-view">`;

  // --- body
  const canonical = `${profile.server}${profile.scriptPath}/index.php/${pageName}`;
  const footerLink = `<a dir="ltr" href="${escAttr(canonical)}">${escapePreText(canonical)}</a>`;
  const body =
    `<div class="mw-body" role="main">\n` +
    `\t<h1 id="firstHeading">${escapePreText(t.apiFormatTitle)}</h1>\n` +
    `\t<div class="mw-body-content">\n` +
    `\t\t<div id="mw-content-text" class="mw-body-content">${content}<pre class="api-pretty-content">`;
  const bodyEnd =
    `</pre>\n` +
    `<div class="printfooter" data-nosnippet=""${modern && userLang.code !== contentLang ? ` lang="${escAttr(userLang.htmlCode)}" dir="${userLang.dir}"` : ''}>${t.retrievedFrom(footerLink)}</div></div>\n` +
    `\t</div>\n` +
    `</div>\n`;

  // --- tail
  const toolbar = profile.debugInfo && opts.debugInfo ? toolbarData(opts.debugInfo, modern) : null;
  const rlq = (modern ? DEPRECATION_WARN_143 : DEPRECATION_WARN_139) + `mw.config.set({"wgBackendResponseTime":${Math.round(opts.backendResponseTimeMs ?? 100)}});`;
  const script = '<script>(RLQ=window.RLQ||[]).push(function(){';
  const tail = `${rlq}});</script>\n</body>\n</html>`;
  return pageChunks([head, body, pre, bodyEnd, script, ...(toolbar ? ['mw.config.set(', toolbar, ');'] : []), tail]);
}

/**
 * The debug toolbar's data (MWDebug::getDebugHTML: the debuginfo with its last log line), as
 * ResourceLoader's inline script JSON, in byte chunks.
 */
function toolbarData(debugInfo: Record<string, unknown>, modern: boolean): Buffer[] {
  const log = Array.isArray(debugInfo['log']) ? (debugInfo['log'] as unknown[]) : [];
  const caller = modern ? 'MediaWiki\\Debug\\MWDebug::getDebugHTML' : 'MWDebug::getDebugHTML';
  const info = withFrozenMembers({ ...debugInfo, log: [...log, { msg: 'MWDebug output complete', type: 'log', caller }] });
  return encodeJsonChunks(withFrozenMembers({ debugInfo: info }), SCRIPT_JSON);
}

/**
 * `wrappedhtml` (ApiSandbox's mode): the page's content alone, as JSON, with the status, the
 * ResourceLoader modules it needs, the result's `continue` and the time taken in milliseconds
 * (ApiFormatBase::closePrinter, printed with FormatJson's ALL_OK). `pre` is the printed text
 * escaped for the `<pre>`; it is written into the `html` string chunk by chunk.
 */
export function wrappedPageChunks(opts: { status: number; pre: readonly Buffer[]; continuation: unknown; elapsedMs: number }): Buffer[] {
  const status = opts.status || 200;
  const around = scriptJsonPlain({
    status,
    statustext: httpStatusText(status),
    html: '',
    modules: ['mediawiki.apipretty'],
    continue: opts.continuation ?? null,
    time: Math.round(opts.elapsedMs),
  });
  // the first `"html":""`: only status and statustext (a fixed table's text) come before it
  const at = around.indexOf('"html":""') + '"html":"'.length;
  const open = around.slice(0, at) + '<pre class=\\"api-pretty-content\\">';
  return pageChunks([open, opts.pre.map(jsonStringContentBytes), '</pre>' + around.slice(at)]);
}
