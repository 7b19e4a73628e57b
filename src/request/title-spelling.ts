import { languageUcfirst } from '../util/ucfirst.js';

/**
 * Which spellings of a title one cassette key stands for (request/canonical.ts). Two spellings
 * share a key only when the wiki's answers to them differ in nothing but `query.normalized`,
 * which replay writes for the spelling asked (replay/recorded-titles.ts). That holds for a title
 * that, on any wiki and version, is valid and in the main namespace, and that MediaWiki changes
 * only by its whitespace and the case of its first letter:
 * - no `:` (a namespace or interwiki prefix is the wiki's to read), no `#` (a fragment), no `&`
 *   (character references), no `%XX`, no character MediaWiki refuses or drops (`<>[]{}|`,
 *   controls, bidi marks, U+FFFD), nothing WebRequest changes (not NFC);
 * - no relative path (`./`, `../`), no `~~~`, at most 255 bytes, not empty.
 * An invalid title is echoed as sent, so any spelling that could be invalid keeps its own key.
 */

/** MediaWikiTitleCodec's whitespace: runs become one `_`, ends are trimmed. */
const WHITESPACE = /[ _\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
/** Characters outside $wgLegalTitleChars (and `:`, `#`, `&`), dropped ones, and `%XX`. */
const NOT_FOLDED = /[^ %!"$'()*,\-./0-9;=?@A-Z\\^_`a-z~\u0080-\uffff+]|[\ufffd\u200e\u200f\u202a-\u202e]|%[0-9A-Fa-f]{2}/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const RELATIVE = /^\.\.?(?:\/|$)|\/\.\.?(?:\/|$)/;

/**
 * The first letter as every supported MediaWiki version writes it (Language::ucfirst), or null
 * where 1.39 and 1.43 differ or the byte length changes (`ß`, `ǆ`, Georgian: the title keeps its
 * own spelling of that letter).
 */
function stableUcfirst(first: string): string | null {
  const up = languageUcfirst(first, false);
  if (up !== languageUcfirst(first, true) || Buffer.byteLength(up) !== Buffer.byteLength(first)) return null;
  return languageUcfirst(up, false) === up && languageUcfirst(up, true) === up ? up : null;
}

/**
 * The key's spelling of a title: spaces for whitespace runs, ends trimmed, the first letter
 * upper-cased where all versions agree; null for a title whose spelling matters (kept as sent).
 */
export function foldTitle(title: string): string | null {
  if (NOT_FOLDED.test(title) || LONE_SURROGATE.test(title) || title.normalize('NFC') !== title) return null;
  const t = title.replace(WHITESPACE, ' ').replace(/^ | $/g, '');
  if (t === '' || t.includes('~~~') || RELATIVE.test(t) || Buffer.byteLength(t) > 255) return null;
  const first = String.fromCodePoint(t.codePointAt(0)!);
  const up = stableUcfirst(first);
  return up === null ? t : up + t.slice(first.length);
}
