import { ARRAY_VALUE, type ParamMap } from './params.js';
import { foldTitle } from './title-spelling.js';

/**
 * The canonical request: the data part of an api.php request, normalised so that every
 * spelling of one question gets one cassette key. Each rule says why it is safe.
 */

/**
 * Parameters that change only how an answer is printed, never its data: wikitape renders
 * them itself, so they are not part of the key.
 */
export const RENDERING_PARAMS: ReadonlySet<string> = new Set([
  'format', // json / jsonfm / none: rendered by wikitape from the stored data
  'formatversion', // the cassette keeps formatversion=2 data and renders formatversion=1 from it
  'utf8', // escaping only
  'ascii', // escaping only
  'callback', // JSONP wrapper
  '_', // jQuery cache buster, marked used when callback is present (see readByPrinter)
  'requestid', // echoed back at render time
  'curtimestamp', // "now" at render time
  'responselanginfo', // echoed languages
  'servedby', // hidden without $wgShowHostnames
  'origin', // CORS headers only
  'maxlag', // a single-database wiki never lags, not even behind a negative maxlag (checked on 1.39)
  'maxage', // cache headers only
  'smaxage', // cache headers only
  'wrappedhtml', // HTML page wrapper (see readByPrinter)
]);

/**
 * Parameters whose presence alone an answer shows, never their value: kept in the key by name.
 * `_` and `wrappedhtml` where the printer does not read them (readByPrinter): MediaWiki warns
 * "Unrecognized parameter: _." whatever the value (jQuery's cache buster changes each time).
 * `crossorigin` (CORS, a boolean) always: MediaWiki reads it from 1.44 on, 1.39 and 1.43 warn,
 * and a key is the same for every version.
 */
const PRESENCE_ONLY: ReadonlySet<string> = new Set(['_', 'wrappedhtml', 'crossorigin']);

/** The HTML formats: ApiFormatBase takes `wrappedhtml` in them alone (jsonfm is the default). */
const HTML_FORMATS: ReadonlySet<string | undefined> = new Set([undefined, 'jsonfm', 'phpfm', 'xmlfm', 'rawfm']);

/**
 * Whether a rendering parameter is read in this request. Elsewhere MediaWiki warns
 * "Unrecognized parameter", so it is kept in the key: `_` is read only beside a `callback`
 * (ApiFormatJson marks it used, T94015; `callback[]` is no callback), `wrappedhtml` only in an
 * HTML format.
 */
function readByPrinter(name: string, params: ParamMap): boolean {
  if (name === '_') return params.has('callback') && params.get('callback') !== ARRAY_VALUE;
  if (name === 'wrappedhtml') return HTML_FORMATS.has(params.get('format'));
  return true;
}

/** Whether the key leaves this parameter out of this request: a rendering parameter MediaWiki reads here. */
export function printedOnly(name: string, params: ParamMap): boolean {
  return RENDERING_PARAMS.has(name) && readByPrinter(name, params);
}

/** The most values of a set parameter the key sorts (ten times the most a module takes, 500). */
const MAX_SORTED_VALUES = 5000;

/** How many `|` or U+001F a value holds (stops counting at MAX_SORTED_VALUES). */
function countSeparators(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length && n < MAX_SORTED_VALUES; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x7c || c === 0x1f) n++;
  }
  return n;
}

/** Multi-value parameters whose duplicates MediaWiki drops (keeping the first). */
const LIST_PARAMS: ReadonlySet<string> = new Set(['list', 'prop', 'meta', 'titles', 'pageids']);

/**
 * What the modules fold into a key: the rules that depend on which modules there are. Each module
 * declares its own (api/registry.ts keyRules); they are handed to the key functions by whoever
 * holds the registry.
 */
export interface KeyRules {
  /**
   * Defaults made explicit, per module (by the name `list=` or `prop=` gives it): asking for them
   * or leaving them out is the same question.
   */
  readonly defaults: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /**
   * Multi-value parameters whose value order carries no meaning: MediaWiki reads them as sets
   * (`array_fill_keys`, SQL `IN`, PHP `sort`), so their values are sorted. Module lists (`list`,
   * `prop`, `meta`) and `titles` keep their order: it decides key order and fake page ids.
   */
  readonly sets: ReadonlySet<string>;
  /** Parameters that hold one title (`letitle`): normalized as `titles` are. */
  readonly titles: ReadonlySet<string>;
}

/** Splits a multi-value the way MediaWiki does (U+001F-prefixed values split on U+001F). */
export function splitMulti(value: string): string[] {
  if (value === '' || value === '\u001f') return [];
  return value.startsWith('\u001f') ? value.slice(1).split('\u001f') : value.split('|');
}

/** Joins values with `|`, or in the U+001F form when a value contains `|`. */
function joinMulti(values: readonly string[]): string {
  return values.some((v) => v.includes('|')) ? `\u001f${values.join('\u001f')}` : values.join('|');
}

export interface CanonicalOptions {
  /** Folds one title's spelling (null: kept as sent). Default: request/title-spelling.ts foldTitle. */
  normalizeTitle?: (title: string) => string | null;
}

/**
 * The canonical parameters of a request, sorted by name. Pure and stable across processes and
 * machines: the same question always gives the same key.
 */
export function canonicalParams(params: ParamMap, rules: KeyRules, options: CanonicalOptions = { normalizeTitle: foldTitle }): [string, string][] {
  const out = new Map<string, string>();
  for (const [name, raw] of params) {
    if (printedOnly(name, params)) continue;
    // PHP array syntax (`list[]=…`): MediaWiki ignores the value and warns, whatever it was; the
    // key says `list[]=`, never the parser's internal marker.
    if (raw === ARRAY_VALUE) {
      out.set(`${name}[]`, '');
      continue;
    }
    if (PRESENCE_ONLY.has(name)) {
      out.set(name, '');
      continue;
    }
    let value = raw;
    // A set of more values than any module takes (MediaWiki refuses it, whatever the order) is not
    // sorted: the key stays the same for recorder and replay, and costs no sort of a huge list.
    if (rules.sets.has(name) && countSeparators(raw) < MAX_SORTED_VALUES) value = joinMulti([...new Set(splitMulti(raw))].sort());
    else if (LIST_PARAMS.has(name)) {
      let values = splitMulti(raw);
      if (name === 'titles' && options.normalizeTitle) values = values.map((t) => options.normalizeTitle!(t) ?? t);
      value = joinMulti([...new Set(values)]);
    } else if (rules.titles.has(name) && options.normalizeTitle) value = options.normalizeTitle(raw) ?? raw;
    out.set(name, value);
  }
  // `continue=` on a first page is the same question as no `continue` (verified on 1.39), in a
  // query: ApiQuery reads it. Any other module leaves it unread, and the answer warns
  // "Unrecognized parameter: continue.".
  if (out.get('continue') === '' && (out.get('action') ?? 'help') === 'query') out.delete('continue');
  // uselang=user is the default.
  if (out.get('uselang') === 'user') out.delete('uselang');
  if (out.get('errorformat') === 'bc') out.delete('errorformat');
  if ((out.get('action') ?? 'help') === 'query') {
    const modules = [...splitMulti(out.get('list') ?? ''), ...splitMulti(out.get('prop') ?? '')];
    for (const m of modules) {
      for (const [k, v] of Object.entries(rules.defaults.get(m) ?? {})) if (!out.has(k)) out.set(k, v);
    }
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The cassette key: canonical parameters as a query string (RFC 3986 percent-encoding, sorted). */
export function canonicalKey(params: ParamMap, rules: KeyRules, options: CanonicalOptions = { normalizeTitle: foldTitle }): string {
  return canonicalParams(params, rules, options)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
}
