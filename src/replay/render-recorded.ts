import type { ApiOutcome } from '../api/main.js';
import { isHtmlFormat } from '../api/printer.js';
import { pageTextsUnknown } from '../output/texts.js';
import { readPrinter } from '../api/printer.js';
import { ApiRequest } from '../api/request.js';
import { cacheModeForUselang, type CacheMode } from '../api/context.js';
import type { Interaction } from '../cassette/format.js';
import { ARRAY_VALUE, type ParamMap } from '../request/params.js';
import { ApiResult, isObject, type Json, type JsonObject } from '../api/result.js';
import { requestErrorFormatter } from '../api/main.js';
import { apiMessage } from '../api/errors.js';
import { atLeast, type WikiProfile } from '../wiki/profile.js';
import { withClientSpelling } from './recorded-titles.js';
import { userLanguage, type Language } from '../i18n/language.js';
import type { Caller } from '../api/session.js';
import { toIso } from '../util/timestamp.js';
import { generatorOrders, modulesNamed, requestedCacheMode, type ModuleRegistry } from '../api/registry.js';
import { keyRules } from '../api/key-facts.js';
import { ANONYMOUS } from '../api/session.js';
import { pageFormatName, render, type Rendered } from '../output/render.js';
import { formatLink } from '../output/html-page.js';
import type { IncomingHttpHeaders } from 'node:http';
import { requestParams } from '../request/body.js';
import { globalRequestUrl } from '../request/url.js';
import { emptyModel } from '../wiki/model.js';
import { FV1_CHECKED, formatVersion1Unknown as fv1KeysUnknown } from '../output/formatversion.js';
import { splitMulti } from '../request/canonical.js';
import { namesOutOfOrder, valuesOutOfOrder, withRequestOrder, withSiteinfoOrder } from './warning-order.js';
import { pageOrderKnown } from '../output/page-order.js';

/**
 * What the printer cannot print as the wiki does: `format=rawfm` shows ApiResult's internal
 * structure (metadata, every boolean), and XML and PHP serialization need the metadata too (tag
 * names, array types), which wikitape does not keep; it prints them as JSON. The HTML page's texts
 * in a language where one holds what wikitape cannot render (`i18n.<code>`).
 */
const UNPRINTABLE: ReadonlySet<string> = new Set(['rawfm', 'xml', 'xmlfm', 'php', 'phpfm']);

/**
 * What the printer cannot print as the wiki does for this request (see UNPRINTABLE), for
 * X-Wikitape-Unknown. The HTML page of a logged-in caller (`page.user`): its scripts hold the
 * user's name, groups, id, edit count and registration and the session's tokens (RLCONF,
 * `user.options`; read on 1.39 and 1.43), which wikitape does not know; it prints a reader's page.
 */
export function printerUnknown(params: ParamMap, profile: WikiProfile, outcome: ApiOutcome, http: { method: string; url: string }, caller: Caller = ANONYMOUS): string[] {
  const page = isHtmlFormat(outcome.printer) ? [...pageTextsUnknown(profile, outcome.userLang), ...pageUnknown(params, profile, outcome, http), ...(caller.anon ? [] : ['page.user'])] : [];
  const format = params.get('format');
  if (format !== undefined && UNPRINTABLE.has(format)) return [`format.${format}`, ...page];
  const { printer } = outcome;
  return printer.formatversion === 1 && (printer.format === 'json' || printer.format === 'jsonfm') ? [...fv1KeysUnknown(outcome.data), ...page] : page;
}

/** The class names whose message boxes' styles 1.43's skin loads when the page's HTML holds them (Skin::getDefaultModules). */
const MESSAGE_BOXES = ['mw-message-box', 'cdx-message'];

/**
 * A double-underscore magic word as the header's format link can hold it. MediaWiki parses the
 * header's message with the link in it as wikitext (Message params are substituted before the
 * parse), and the parse removes every double-underscore magic word of the content language and
 * its extensions (Parser::handleDoubleUnderscore; `__notoc__` too, `__hiddencat__` not: each word
 * says whether case matters), a `__TOC__` breaking the link. The link is the question re-encoded
 * with PHP's urlencode (a POST's header has none): a word can only match there if all its
 * characters are ones urlencode leaves as they are, `__` and a name of `[A-Za-z0-9_.-]` (every
 * synonym of 1.39's and 1.43's languages is `__[A-Za-z0-9_]+__`; Russian's own,
 * `__БЕЗ_ОГЛАВЛЕНИЯ__`, is percent-encoded there and stays).
 * Which names are words, and in which cases, replay cannot know (the content language's aliases,
 * the extensions'), so any such name is taken for one.
 */
const MAGIC_WORD_IN_LINK = /__[\w.-]*[A-Za-z0-9.-][\w.-]*__/;

/**
 * What the HTML page of this answer holds that wikitape does not print as the wiki does:
 * `page.styles` on 1.43 when the page holds a message box's class name (in the answer, or in a
 * parameter, which the format link and debuginfo show): the wiki's page then loads those styles
 * too, which wikitape neither links nor serves; `page.header` when the header's format link holds
 * what may be a double-underscore magic word (MAGIC_WORD_IN_LINK), which the wiki's page leaves out.
 */
function pageUnknown(params: ParamMap, profile: WikiProfile, outcome: ApiOutcome, http: { method: string; url: string }): string[] {
  const said = [...params].flat();
  const out: string[] = [];
  if (atLeast(profile, '1.43') && (said.some(holdsMessageBox) || someText(outcome.data, holdsMessageBox))) out.push('page.styles');
  const link = outcome.printer.wrappedhtml ? null : formatLink(profile, { method: http.method, requestUrl: http.url, formatName: pageFormatName(outcome.printer) });
  if (link !== null && MAGIC_WORD_IN_LINK.test(link)) out.push('page.header');
  return out;
}

const holdsMessageBox = (s: string): boolean => MESSAGE_BOXES.some((c) => s.includes(c));

/** Whether a key or a string anywhere in `v` passes `test`. */
function someText(v: Json, test: (s: string) => boolean): boolean {
  if (typeof v === 'string') return test(v);
  if (Array.isArray(v)) return v.some((x) => someText(x, test));
  if (isObject(v)) {
    for (const k in v) if (test(k) || someText(v[k]!, test)) return true;
  }
  return false;
}

/**
 * The modules a recorded answer printed in formatversion=1 JSON holds whose form there wikitape
 * does not know (FV1_CHECKED): neither built in nor checked against a wiki, as `formatversion.<module>`.
 */
function formatVersion1Unknown(params: ParamMap, registry: ModuleRegistry): string[] {
  const action = params.get('action') ?? 'help';
  if (action !== 'query') return registry.actions.some((a) => a.name === action) || FV1_CHECKED.has(action) ? [] : [`formatversion.${action}`];
  const out: string[] = [];
  for (const group of ['prop', 'list', 'meta', 'generator'] as const) {
    for (const name of splitMulti(params.get(group) ?? '')) {
      if (name === '') continue;
      const kinds = group === 'generator' ? [...registry.query.prop, ...registry.query.list] : registry.query[group];
      const path = `query+${name}`;
      if (!kinds.some((m) => m.name === name) && !FV1_CHECKED.has(path) && !out.includes(`formatversion.${path}`)) out.push(`formatversion.${path}`);
    }
  }
  return out;
}

/**
 * `formatversion.pageorder` when the recorded answer holds more than one page with an id in an
 * order formatversion=1 prints and the formatversion=2 data does not show (a generator's: pageOrderKnown).
 */
function pageOrderUnknown(params: ParamMap, body: JsonObject, registry: ModuleRegistry): string[] {
  if (pageOrderKnown(params, generatorOrders(registry))) return [];
  const query = body['query'];
  const pages = isObject(query) && Array.isArray(query['pages']) ? query['pages'] : [];
  return pages.filter((p) => isObject(p) && p['pageid'] !== undefined && p['missing'] !== true).length > 1 ? ['formatversion.pageorder'] : [];
}

/** Keys ApiResult puts on top; requestid and curtimestamp were appended before all others. */
const ON_TOP = new Set(['batchcomplete', 'continue', 'query-continue', 'warnings', 'errors', 'error']);

/**
 * Puts `requestid`, `curtimestamp` and `responselanginfo`'s `uselang` and `errorlang` where
 * MediaWiki writes them (ApiMain::setupExecuteAction, in that order): after the on-top keys. The
 * languages are the request's (`langs`: the user language's code and the error formatter's).
 */
function withRequestedFields(body: JsonObject, params: ParamMap, now: number, langs: () => { uselang: string; errorlang: string }): JsonObject {
  const requestid = params.get('requestid');
  const cur = params.has('curtimestamp');
  const langinfo = params.has('responselanginfo');
  if (requestid === undefined && !cur && !langinfo) return body;
  const out: JsonObject = {};
  const entries = Object.entries(body);
  let i = 0;
  for (; i < entries.length && ON_TOP.has(entries[i]![0]); i++) out[entries[i]![0]] = entries[i]![1];
  if (requestid !== undefined) out['requestid'] = requestid;
  if (cur) out['curtimestamp'] = toIso(now);
  if (langinfo) {
    const { uselang, errorlang } = langs();
    out['uselang'] = uselang;
    out['errorlang'] = errorlang;
  }
  for (; i < entries.length; i++) out[entries[i]![0]] = entries[i]![1];
  return out;
}

/**
 * The recorded data with the warning MediaWiki adds when the printer reads `callback`: one that
 * needed cleaning (apiwarn-badutf8, the format's), or an array (`callback[]=x`: apiwarn-unsupportedarray, main's).
 */
function withCallbackWarning(data: JsonObject, format: string, params: ParamMap, profile: WikiProfile, userLang: Language, unknown: string[]): JsonObject {
  const result = new ApiResult();
  result.data = { ...data };
  const warning = params.get('callback') === ARRAY_VALUE ? { ...apiMessage('unsupportedarray', 'apiwarn-unsupportedarray', ['callback']), module: 'main' } : { ...apiMessage('badutf8', 'apiwarn-badutf8', ['callback']), module: format };
  requestErrorFormatter(params, profile, userLang, (what) => void unknown.push(what)).addWarning(result, warning);
  return result.data;
}

const setsByRegistry = new WeakMap<ModuleRegistry, ReadonlySet<string>>();
/** The multi-value parameters the cassette key sorts (keyRules' sets), once per registry. */
function setsOf(registry: ModuleRegistry): ReadonlySet<string> {
  let sets = setsByRegistry.get(registry);
  if (!sets) setsByRegistry.set(registry, (sets = keyRules(registry).sets));
  return sets;
}

/**
 * The outcome of a recorded interaction, ready for the same printer as built-in answers: the
 * stored formatversion=2 data, the error codes and the cache mode the wiki had set. The key holds
 * `uselang` and `errorlang`, so the recorded texts are in the languages asked; what wikitape
 * prints around them (the HTML page, debuginfo) follows the same user language as a computed answer.
 */
export function recordedOutcome(i: Interaction, params: ParamMap, profile: WikiProfile, now: number, registry: ModuleRegistry, caller: Caller, lossy: ReadonlySet<string> = new Set()): ApiOutcome {
  // `lossy`: the names whose bytes were not UTF-8 (a `callback` cleaned so warns, as it does computed).
  const request = new ApiRequest(params, lossy);
  const errorHeader = i.headers['mediawiki-api-error'];
  const uselang = params.get('uselang');
  const userLang = userLanguage(uselang, profile);
  const unknown: string[] = [];
  const num = (name: string) => {
    const v = Number.parseInt(params.get(name) ?? '0', 10);
    return Number.isFinite(v) ? v : 0;
  };
  // The wiki sends Vary only outside cache mode private.
  // Which modules ran matters only to debuginfo: not looked up for a wiki without it (the hot path).
  const modules = errorHeader || !profile.debugInfo ? [] : modulesNamed(registry, params, profile);
  const recordedMode: CacheMode = errorHeader ? 'private' : i.headers['vary'] ? (/public/.test(i.headers['cache-control'] ?? '') ? 'public' : 'anon-public-user-private') : 'private';
  const cacheMode = cacheModeForUselang(recordedMode, uselang);
  const printer = readPrinter(request);
  if (!errorHeader && printer.formatversion === 1 && (printer.format === 'json' || printer.format === 'jsonfm')) unknown.push(...formatVersion1Unknown(params, registry), ...pageOrderUnknown(params, i.body, registry));
  const langs = () => ({ uselang: userLang.code, errorlang: requestErrorFormatter(params, profile, userLang).lang.code });
  // errorformat=raw lists the parameters the wiki did not know as the request sends them; any other
  // form says them in a text, which a request sending them in another order is not answered with.
  const ordered = withSiteinfoOrder(withRequestOrder(i.body, params, !atLeast(profile, '1.43')), params);
  if (namesOutOfOrder(ordered, params) || valuesOutOfOrder(ordered, params, setsOf(registry))) unknown.push('warnings.order');
  let data = withRequestedFields(withClientSpelling(ordered, params, atLeast(profile, '1.43')), params, now, langs);
  // The printer reads `callback` through ApiBase::getParameter: a value that needed cleaning warns.
  const arrayCallback = params.get('callback') === ARRAY_VALUE && printer.format !== 'none';
  if (!errorHeader && ((printer.callback !== null && request.wasNormalized('callback')) || arrayCallback)) data = withCallbackWarning(data, printer.format, params, profile, userLang, unknown);
  return {
    data,
    isError: errorHeader !== undefined,
    errorCodes: errorHeader ? errorHeader.split(/,\s*/) : [],
    status: i.status,
    headers: {},
    cacheMode,
    // What the modules asked for is not recorded: their getCacheMode decides it again from the request.
    requestedCacheMode: modules.length === 0 ? null : requestedCacheMode(registry, modules, params, caller),
    printer,
    userLang,
    action: params.get('action') ?? 'help',
    maxage: num('maxage'),
    smaxage: num('smaxage'),
    unknown,
    said: [],
    modules,
  };
}

/**
 * A recording printed as it was recorded, for the client's format and nothing else: no session
 * opened, no cookie set or cleared (the client's session is the wiki's, record mode's `--mode
 * new`), no clock applied to what it holds (an expired block shows as recorded). The engine's own
 * hits add sessions, the clock's expiry and the rest of replay around this. Null when it cannot be
 * printed as the wiki prints it in the form asked (what replay would flag: XML, an unchecked
 * module's formatversion=1, a text in a language wikitape cannot render): the wiki is asked instead.
 */
export function printRecorded(i: Interaction, req: { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer; startedAt: bigint }, profile: WikiProfile, now: number, registry: ModuleRegistry): Rendered | null {
  const { params, lossy } = requestParams(req.method, req.url, req.headers['content-type'], req.body);
  const outcome = recordedOutcome(i, params, profile, now, registry, ANONYMOUS, lossy);
  const http = { ...req, url: globalRequestUrl(req.url), params };
  if (outcome.unknown.length > 0 || printerUnknown(params, profile, outcome, http).length > 0) return null;
  const assocLists = new Set(registry.query.list.filter((l) => l.assocEntries).map((l) => l.name));
  return render({ profile, model: emptyModel(), assocLists, generatorOrders: generatorOrders(registry), outcome, http, now, session: { setCookie: [], sessionId: '' } });
}
