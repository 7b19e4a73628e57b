import { isObject, type Json, type JsonObject } from '../api/result.js';
import type { ParamMap } from '../request/params.js';
import { splitMulti } from '../request/canonical.js';
import { htmlspecialchars } from '../util/escape.js';

/**
 * Whether a recorded answer names the request's parameters in another order than this request
 * sends them. ApiMain's "Unrecognized parameters: zz, aa." lists them in the order the request
 * sent them (array_diff over WebRequest::getValueNames), while the cassette key sorts parameters:
 * the recording of `zz=1&aa=1` is also the one of `aa=1&zz=1`, whose warning says "aa, zz". The
 * recording keeps no order but its text's: the names are looked for in each of the main module's
 * warnings (any error format and language), and one that shows two of them in another order than
 * this request's is not this request's answer.
 */
export function namesOutOfOrder(body: JsonObject, params: ParamMap): boolean {
  const texts = mainWarnings(body['warnings']);
  if (texts.length === 0) return false;
  const names = [...params.keys()].map((n) => new RegExp(`(?<![\\w-])${escapeRegExp(n)}(?![\\w-])`));
  return texts.some((text) => {
    const at = names.map((re) => text.search(re)).filter((i) => i >= 0);
    return at.some((p, k) => k > 0 && p < at[k - 1]!);
  });
}

/** Each of the main module's warnings as a text: the lines of `warnings.main` (bc), or the texts of an entry of module `main` (the other error formats). */
function mainWarnings(warnings: Json | undefined): string[] {
  if (Array.isArray(warnings)) return warnings.filter((w) => isObject(w) && w['module'] === 'main').map((w) => texts(w).join('\n'));
  if (!isObject(warnings) || !isObject(warnings['main'])) return [];
  return texts(warnings['main']).flatMap((t) => t.split('\n'));
}

/** The strings a value holds (not its member names). */
function texts(v: Json): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(texts);
  return isObject(v) ? Object.values(v).flatMap(texts) : [];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The recorded answer with `errorformat=raw`'s list of unrecognized parameters as this request
 * makes it: the names in the order it sends them, and on 1.39 (`keyed`) under their places among
 * its parameters, as Message::listParam keeps array_diff's keys (a list when they are 0, 1, …).
 * A list naming a parameter the request does not send is left as recorded.
 */
export function withRequestOrder(body: JsonObject, params: ParamMap, keyed: boolean): JsonObject {
  const warnings = body['warnings'];
  if (!Array.isArray(warnings)) return body;
  const names = [...params.keys()];
  let changed = false;
  const out = warnings.map((w) => {
    if (!isObject(w) || w['code'] !== 'unrecognizedparams' || w['module'] !== 'main' || !Array.isArray(w['params'])) return w;
    const [first, ...rest] = w['params'];
    const recorded = isObject(first) ? first['list'] : undefined;
    if (!isObject(first) || !(Array.isArray(recorded) || isObject(recorded))) return w;
    const listed = Object.values(recorded).map(String);
    const at = listed.map((n) => names.indexOf(n)).sort((a, b) => a - b);
    if (at.some((i) => i < 0)) return w;
    const ordered = at.map((i) => names[i]!);
    const list = keyed && at.some((p, k) => p !== k) ? Object.fromEntries(at.map((p, k) => [String(p), ordered[k]!])) : ordered;
    changed = true;
    return { ...w, params: [{ ...first, list }, ...rest] };
  });
  return changed ? { ...body, warnings: out } : body;
}

/**
 * Whether a recorded warning or error may name a set parameter's values in another order than this
 * request sends them. The cassette key sorts the values of a set (`uiprop`, `bkusers`): the
 * recording of `uiprop=zz|aa` is also the one of `uiprop=aa|zz`, and the recording keeps no order
 * of its own. "Unrecognized values for parameter "uiprop": zz, aa" lists them in the order sent,
 * and an error names the first bad value in that order (`bkusers=A<>|B[]`: "A<>", checked on
 * MediaWiki 1.39 and 1.43). So a text that names two of the values in another order, or an error
 * that names one after another value of the same parameter, may not be this request's answer.
 */
export function valuesOutOfOrder(body: JsonObject, params: ParamMap, sets: ReadonlySet<string>): boolean {
  // (an error's docref, `*` in the bc form, is the same text for every request)
  const own = (e: Json | undefined): Json => (isObject(e) ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== 'docref' && k !== '*')) : Array.isArray(e) ? e.map(own) : (e ?? null));
  const said = [...texts(body['warnings'] ?? null), ...texts(own(body['error'])), ...texts(own(body['errors']))].join('\n');
  if (said === '') return false;
  const isError = body['error'] !== undefined || body['errors'] !== undefined;
  for (const [name, value] of params) {
    if (!sets.has(name)) continue;
    const values = [...new Set(splitMulti(value))];
    if (values.length < 2) continue;
    const at = values.map((v) => Math.min(...[v, htmlspecialchars(v)].map((form) => said.search(new RegExp(`(?<![\\w-])${escapeRegExp(form)}(?![\\w-])`))).map((i) => (i < 0 ? Infinity : i))));
    const named = at.filter((i) => i !== Infinity);
    if (named.some((p, k) => k > 0 && p < named[k - 1]!)) return true;
    if (isError && named.length > 0 && at[0] === Infinity) return true;
  }
  return false;
}

/**
 * The recorded answer with meta=siteinfo's parts in the order this request's `siprop` names them
 * (ApiQuerySiteinfo adds them as it reads the list, which the cassette key sorts).
 */
export function withSiteinfoOrder(body: JsonObject, params: ParamMap): JsonObject {
  const query = body['query'];
  if (!isObject(query) || !splitMulti(params.get('meta') ?? '').includes('siteinfo')) return body;
  const sections = [...new Set(splitMulti(params.get('siprop') ?? ''))].filter((p) => Object.hasOwn(query, p));
  const keys = Object.keys(query);
  const slots = keys.filter((k) => sections.includes(k));
  if (slots.every((k, i) => k === sections[i])) return body;
  let n = 0;
  const out: JsonObject = {};
  for (const k of keys) {
    const name = sections.includes(k) ? sections[n++]! : k;
    out[name] = query[name]!;
  }
  return { ...body, query: out };
}
