import { phpStrtr } from '../util/strtr.js';
import type { Language } from './language.js';
import { fetchMessage } from './messages.js';
import { expandPlural } from './plural.js';
import { phpFloatString, phpNumberString, phpRound } from './php-number.js';

/**
 * Language::formatNum, formatSize, listToText and commaList for every language: the separator
 * and digit tables of the language's Messages file, its minimumGroupingDigits, and the symbols
 * and grouping of the ICU NumberFormatter MediaWiki builds for the code (l10n/languages.json).
 */

/** Message::text() of a parameterless message (Language::getMessageFromDB): PLURAL sees the literal "$1"; qqx gives `(key)`. */
function plainText(lang: Language, key: string): string {
  if (lang.isQqx) return `(${key})`;
  return expandPlural(lang, fetchMessage(lang, key) ?? `⧼${key}⧽`);
}

/** Message::escaped(): the text() form, HTML-escaped without touching references (double_encode false). */
function escapedText(lang: Language, key: string): string {
  return plainText(lang, key).replace(/&(?![A-Za-z][A-Za-z0-9]*;|#[0-9]+;|#[xX][0-9A-Fa-f]+;)|[<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#039;',
  );
}

/** A float PHP prints in exponent form, as ICU's default pattern (#,##0.###) prints its digits. */
const exponentDigits = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3, useGrouping: false, roundingMode: 'halfEven' } as Intl.NumberFormatOptions);

/** Groups integer digits as ICU does: the primary size from the right, then the secondary. */
function group(int: string, lang: Language, separator: string): string {
  const { g1, g2, min2 } = lang.icu;
  if (g1 <= 0 || int.length <= g1 || (min2 && int.length < g1 + 2)) return int;
  const parts = [int.slice(-g1)];
  const size = g2 > 0 ? g2 : g1;
  for (let end = int.length - g1; end > 0; end -= size) parts.unshift(int.slice(Math.max(0, end - size), end));
  return parts.join(separator);
}

/** The numbering system's digits for ASCII ones (ICU prints in the locale's numbering system). */
function localDigits(s: string, zero: string): string {
  if (zero === '0') return s;
  const base = zero.codePointAt(0)!;
  return s.replace(/[0-9]/g, (d) => String.fromCodePoint(base + Number(d)));
}

/**
 * NumberFormatter::format of `(float)$number` with the integer and fraction digits kept
 * (MIN_INTEGER_DIGITS, FRACTION_DIGITS, DECIMAL_ALWAYS_SHOWN) and the decimal and grouping
 * symbols MediaWiki sets from the separator table.
 */
function icuFormat(lang: Language, number: string): string {
  const table = lang.record.separators;
  const dec = table ? (table['.'] ?? '.') : lang.icu.dec;
  const sep = table ? (table[','] ?? ',') : lang.icu.group;
  const m = /^(-?)(\d*)(?:(\.)(\d*))?$/.exec(number);
  const [sign, int, point, frac] = m ? [m[1]!, m[2]!, m[3], m[4] ?? ''] : ((): [string, string, string | undefined, string] => {
    const [i = '', f] = exponentDigits.format(Math.abs(Number(number))).split('.');
    return [number.startsWith('-') ? '-' : '', i, f === undefined ? undefined : '.', f ?? ''];
  })();
  const body = group(int, lang, sep) + (point !== undefined ? dec + frac : '');
  return (sign ? lang.icu.minus : '') + localDigits(body, lang.icu.zero);
}

/** Language::formatNumInternal on the number as PHP prints it (`(string)$number`). */
function formatNumString(lang: Language, number: string): string {
  if (number === 'NAN') return plainText(lang, 'formatnum-nan');
  if (number === 'INF') return '∞';
  if (number === '-INF') return '\u2212∞';
  let out = number;
  // LanguageKm and LanguageMy print numbers without separators (formatNumNoSeparators).
  if (!lang.has('formatnum-noseparators')) {
    const table = lang.record.separators ?? {};
    const minGroup = lang.record.minimumGroupingDigits ?? 0;
    // 1.43 groups from minimumGroupingDigits 2 only; 1.39 from any set value
    const applies = lang.release === '1.43' ? minGroup > 1 : minGroup > 0;
    if (applies && !new RegExp(`^-?\\d{${minGroup + lang.icu.g1}}`).test(number)) out = phpStrtr(number, table);
    else if (number === '-0') out = phpStrtr(number, table);
    else out = icuFormat(lang, number);
  }
  if (lang.record.digits) out = phpStrtr(out, lang.record.digits);
  return out.replaceAll('-', '\u2212').replace(/[\u200e\u200f\u061c]/g, '');
}

/** Language::formatNum for a JS number (integral values are taken as PHP integers). */
export function formatNum(lang: Language, n: number): string {
  return formatNumString(lang, phpNumberString(n));
}

const SIZE_PREFIXES = ['', 'kilo', 'mega', 'giga', 'tera', 'peta', 'exa', 'zetta', 'yotta', 'ronna', 'quetta'];

/**
 * Language::formatSize (formatComputingNumbers, base 1024): bytes and KB without decimals,
 * MB and up with two (PHP round). The unit message is fetched without parameters, so its
 * `{{PLURAL:$1|…}}` always sees "$1" (ru always says "байт", en always "bytes").
 */
export function formatSize(lang: Language, bytes: number): string {
  if (bytes <= 0) return plainText(lang, 'size-bytes').replaceAll('$1', formatNum(lang, bytes));
  let index = 0;
  let size = bytes;
  while (size >= 1024 && index < SIZE_PREFIXES.length - 1) {
    index++;
    size /= 1024;
  }
  const rounded = phpRound(size, index > 1 ? 2 : 0);
  return plainText(lang, `size-${SIZE_PREFIXES[index]}bytes`).replaceAll('$1', formatNumString(lang, phpFloatString(rounded)));
}

/**
 * formatSize split for a template: the number of a size in the megabyte range and the text it
 * goes into (`$1 MB`); null outside [1 MB, 1000 MB) (another unit, or a separator), when the
 * unit text has no `$1` (qqx), or when the number is not plain ASCII (a template's holes are).
 */
export function megabyteParts(lang: Language, bytes: number): { num: string; text: string } | null {
  if (bytes < 1048576 || bytes >= 1000 * 1048576) return null;
  // debuginfo prints two figures per answer (the hot path); the heap moves in a small range
  const rounded = phpRound(bytes / 1048576, 2);
  const key = `${lang.release}\u0000${lang.code}\u0000${rounded}`;
  let parts = megabytes.get(key);
  if (parts === undefined) {
    const text = plainText(lang, 'size-megabytes');
    const num = formatNumString(lang, phpFloatString(rounded));
    parts = text.includes('$1') && /^[0-9.,]+$/.test(num) ? { num, text } : null;
    if (megabytes.size >= 4096) megabytes.clear();
    megabytes.set(key, parts);
  }
  return parts;
}
const megabytes = new Map<string, { num: string; text: string } | null>();

/** Language::listToText: "a, b and c" ("a and b"; the comma only from three items). */
export function listToText(lang: Language, items: readonly string[]): string {
  if (items.length === 0) return '';
  const last = items[items.length - 1]!;
  if (items.length === 1) return last;
  const comma = items.length > 2 ? escapedText(lang, 'comma-separator') : '';
  return `${items.slice(0, -1).join(comma)}${escapedText(lang, 'and')}${escapedText(lang, 'word-separator')}${last}`;
}

/** Language::commaList: items joined with the comma separator. */
export function commaList(lang: Language, items: readonly string[]): string {
  return items.join(escapedText(lang, 'comma-separator'));
}
