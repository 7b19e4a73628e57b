import { atLeast, type Lang } from '../wiki/profile.js';
import { CHANGED, EN, OWN, RU } from './messages.js';
import { commaList, formatNum, listToText } from './numbers.js';

/**
 * A message parameter: raw text or number, a number to format (numParam), or a list
 * (listParam: "a, b and c"; with type `comma`: "a, b").
 */
export type MessageParam = string | number | { num: number } | { list: readonly string[]; type?: 'comma' | 'text' };

/** Whether a text exists for the key (in the language or its English fallback). */
export function hasMessage(lang: Lang, key: string): boolean {
  return key in OWN || key in EN || (lang === 'ru' && key in RU);
}

function rawText(lang: Lang, key: string, version: string | undefined): string {
  const own = OWN[key];
  if (own !== undefined) return own;
  const changed = CHANGED[key];
  if (changed && version !== undefined && atLeast({ version }, changed[0])) return lang === 'ru' ? changed[2] : changed[1];
  return (lang === 'ru' ? RU[key] : undefined) ?? EN[key] ?? `⧼${key}⧽`;
}

function paramText(lang: Lang, p: MessageParam): string {
  if (typeof p === 'string') return p;
  if (typeof p === 'number') return String(p);
  if ('num' in p) return formatNum(lang, p.num);
  return p.type === 'comma' ? commaList(lang, p.list) : listToText(lang, p.list);
}

/** The plural form index for a number: en one/other, ru one/few/many (CLDR). */
function pluralIndex(lang: Lang, n: number): number {
  if (lang === 'en') return n === 1 ? 0 : 1;
  if (!Number.isInteger(n)) return 3;
  const m10 = n % 10;
  const m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return 0;
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return 1;
  return 2;
}

/** {{PLURAL:n|form|form…}}: explicit `N=` forms first, then the language's rule; a short list repeats its last form. */
function plural(lang: Lang, numText: string, forms: string[]): string {
  const n = Number(numText.replace(/[\s\u00a0,]/g, (c) => (c === ',' && lang === 'ru' ? '.' : '')));
  const plain: string[] = [];
  for (const f of forms) {
    const m = /^(\d+)=(.*)$/s.exec(f);
    if (m) {
      if (Number(m[1]) === n) return m[2]!;
    } else plain.push(f);
  }
  if (plain.length === 0) return '';
  return plain[Math.min(pluralIndex(lang, n), plain.length - 1)]!;
}

/**
 * A message in its text() form: parameters substituted, PLURAL resolved, `&#32;` turned into
 * a space (as MessageCache does); other markup is kept.
 */
export function message(lang: Lang, key: string, params: readonly MessageParam[] = [], version?: string): string {
  const values = params.map((p) => paramText(lang, p));
  let text = rawText(lang, key, version).replace(/\$(\d+)/g, (m, i: string) => values[Number(i) - 1] ?? m);
  text = text.replace(/\{\{PLURAL:([^|}]*)\|([^}]*)\}\}/g, (_m, n: string, forms: string) => plural(lang, n.trim(), forms.split('|')));
  return text.replace(/&#32;/g, ' ');
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' };

/** html_entity_decode for the entities these messages use. */
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** ApiErrorFormatter::stripMarkup: var/kbd/samp/code become quotes, other tags go, entities are decoded. */
export function stripMarkup(text: string): string {
  return decodeEntities(text.replace(/<\/?(var|kbd|samp|code)>/g, '"').replace(/<[^>]*>/g, ''));
}

/** The parse() form of these plain-markup messages: the text with its inline HTML kept. */
export function messageHtml(lang: Lang, key: string, params: readonly MessageParam[] = [], version?: string): string {
  return message(lang, key, params, version);
}
