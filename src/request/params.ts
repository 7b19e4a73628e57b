/**
 * Turning an HTTP request into the parameter map MediaWiki's WebRequest sees:
 * query string and form body merged (`$_POST + $_GET`, the body wins), names mangled as PHP
 * does, values percent-decoded byte-wise and invalid UTF-8 replaced (UtfNormal::cleanUp).
 */
import { decodeChecked, phpUrlDecode } from '../util/php-url.js';

/** Ordered parameter map: insertion order is the order the wiki would report them in. */
export type ParamMap = Map<string, string>;

/**
 * PHP's request-variable name mangling: cut at a NUL, leading spaces dropped, ` ` and `.` become `_`,
 * and a name with `[` is an array (`a[]=x`): MediaWiki then sees a non-string value. We keep
 * the base name and mark the value so validation can reject it the way the wiki does.
 */
function phpParamName(raw: string): { name: string; isArray: boolean } {
  // PHP reads the name as a C string: it ends at the first NUL (`meta%00x` is `meta`).
  const nul = raw.indexOf('\0');
  let name = (nul < 0 ? raw : raw.slice(0, nul)).replace(/^ +/, '');
  const bracket = name.indexOf('[');
  let isArray = false;
  if (bracket > 0 && name.indexOf(']', bracket) > bracket) {
    isArray = true;
    name = name.slice(0, bracket);
  }
  // PHP replaces the first `[` only when it is unmatched; `.` and space always.
  name = name.replace(/[ .]/g, '_');
  if (!isArray) name = name.replace(/\[/, '_');
  return { name, isArray };
}

/** Marker value for `name[]=…` parameters; MediaWiki rejects them where a string is required. */
export const ARRAY_VALUE = '\u0000array';

/**
 * PHP's max_input_vars (default 1,000): variables past it are dropped, in $_GET and $_POST each.
 * PHP 8.2 checks $_GET and multipart bodies before a variable is added (1,000 kept) and urlencoded
 * bodies after (1,001 kept): `POST_URLENCODED_VARS` (checked under php -S).
 */
export const MAX_INPUT_VARS = 1000;
export const POST_URLENCODED_VARS = MAX_INPUT_VARS + 1;

/**
 * Parses an `application/x-www-form-urlencoded` string into `into` (later duplicates win, as in
 * PHP); names whose value was not valid UTF-8 are added to `lossy`. As PHP, it reads at most
 * `maxVars` variables (checked against a live MediaWiki: the rest is not seen).
 */
export function parseUrlEncoded(qs: string, into: ParamMap = new Map(), lossy?: Set<string>, maxVars = MAX_INPUT_VARS): ParamMap {
  if (!qs) return into;
  let vars = 0;
  let from = 0;
  while (from <= qs.length) {
    let to = qs.indexOf('&', from);
    if (to < 0) to = qs.length;
    const part = qs.slice(from, to);
    from = to + 1;
    if (part === '') continue;
    if (++vars > maxVars) break;
    const eq = part.indexOf('=');
    const rawName = phpUrlDecode(eq < 0 ? part : part.slice(0, eq));
    if (rawName === '' || rawName.startsWith('[')) continue;
    const [value, valueLossy] = eq < 0 ? ['', false] : decodeChecked(part.slice(eq + 1));
    const { name, isArray } = phpParamName(rawName);
    if (name === '') continue;
    // A repeated name keeps its first position and takes the last value, as a PHP array does.
    into.set(name, isArray ? ARRAY_VALUE : value);
    if (valueLossy) lossy?.add(name);
    else lossy?.delete(name);
  }
  return into;
}

/** `$_POST + $_GET`: POST values win, GET-only names follow in their order. */
export function mergeParams(get: ParamMap, post: ParamMap): ParamMap {
  if (post.size === 0) return get;
  const out: ParamMap = new Map(post);
  for (const [k, v] of get) if (!out.has(k)) out.set(k, v);
  return out;
}
