import type { Lang } from '../wiki/profile.js';
import { fetchMessage } from './messages.js';
import { expandPlural } from './plural.js';
import { phpFloatString, phpNumberString, phpRound } from './php-number.js';

/** A message's text() form without parameters (what Language::msg(…)->text()/escaped() gives these plain texts). */
function plainText(lang: Lang, key: string): string {
  return expandPlural(lang, fetchMessage(lang, key) ?? `⧼${key}⧽`);
}

/** ru's separatorTransformTable (`,` → NBSP, `.` → `,`), applied at once as strtr does. */
const ruSeparators = (s: string): string => s.replace(/[.,]/g, (c) => (c === '.' ? ',' : '\u00a0'));

const enFallback = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3, roundingMode: 'halfEven' } as Intl.NumberFormatOptions);

/**
 * Language::formatNum on the number as PHP prints it (`(string)$number`). en groups thousands
 * with `,` from four digits; ru groups with a no-break space from five integer digits
 * (minimumGroupingDigits = 2) and uses `,` for decimals; a minus sign becomes U+2212.
 */
function formatNumString(lang: Lang, number: string): string {
  if (number === 'INF') return '∞';
  if (number === '-INF') return '\u2212∞';
  let out: string;
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(number);
  if (lang === 'ru' && !/^-?\d{5}/.test(number)) out = ruSeparators(number);
  else if (number === '-0') out = number;
  else if (m) {
    const [, sign = '', int = '', frac] = m;
    const group = lang === 'ru' ? '\u00a0' : ',';
    const grouped = int.replace(/\B(?=(\d{3})+$)/g, group);
    out = sign + grouped + (frac !== undefined ? (lang === 'ru' ? ',' : '.') + frac : '');
  } else {
    // A float PHP prints in exponent form: ICU's default pattern (#,##0.###) formats the value.
    out = enFallback.format(Number(number));
  }
  return out.replaceAll('-', '\u2212');
}

/** Language::formatNum for a JS number (integral values are taken as PHP integers). */
export function formatNum(lang: Lang, n: number): string {
  return formatNumString(lang, phpNumberString(n));
}

const SIZE_PREFIXES = ['', 'kilo', 'mega', 'giga', 'tera', 'peta', 'exa', 'zetta', 'yotta', 'ronna', 'quetta'];

/**
 * Language::formatSize (formatComputingNumbers, base 1024): bytes and KB without decimals,
 * MB and up with two (PHP round). The unit message is fetched without parameters, so its
 * `{{PLURAL:$1|…}}` always sees "$1" (= 0): ru always says "байт", en always "bytes".
 */
export function formatSize(lang: Lang, bytes: number): string {
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

/** Language::listToText: "a, b and c" ("a and b"; the comma only from three items). */
export function listToText(lang: Lang, items: readonly string[]): string {
  if (items.length === 0) return '';
  const last = items[items.length - 1]!;
  if (items.length === 1) return last;
  const comma = items.length > 2 ? plainText(lang, 'comma-separator') : '';
  return `${items.slice(0, -1).join(comma)}${plainText(lang, 'and')}${plainText(lang, 'word-separator')}${last}`;
}

/** Language::commaList: items joined with the comma separator. */
export function commaList(lang: Lang, items: readonly string[]): string {
  return items.join(plainText(lang, 'comma-separator'));
}
