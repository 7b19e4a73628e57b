import type { Lang } from '../wiki/profile.js';
import { EN, OWN, RU, fetchMessage } from './messages.js';
import { commaList, formatNum, listToText } from './numbers.js';
import { phpNumberString } from './php-number.js';
import { expandPlural } from './plural.js';
import { wikitextToHtml, type HtmlOptions } from './wikitext-html.js';

export { stripMarkup } from './strip-markup.js';
export type { HtmlOptions } from './wikitext-html.js';

/**
 * A message parameter, as Message::params() and friends take them:
 * - a string: wikitext, substituted before PLURAL is resolved (and parsed by messageHtml);
 * - a number: inserted as PHP prints it (`(string)$n`), unformatted;
 * - `{ num }`: Message::numParam, formatted with formatNum in the message language;
 * - `{ list, type? }`: Message::listParam, "a, b and c" (`text`, the default) or "a, b" (`comma`);
 * - `{ plaintext }`: Message::plaintextParam, inserted after the transform (so PLURAL and the
 *   parser never see it) and HTML-escaped by messageHtml.
 */
export type MessageParam =
  | string
  | number
  | { num: number }
  | { list: readonly string[]; type?: 'comma' | 'text' }
  | { plaintext: string };

type Format = 'text' | 'parse';

/** Whether a text exists for the key (in the language or its English fallback). */
export function hasMessage(lang: Lang, key: string): boolean {
  return key in OWN || key in EN || (lang === 'ru' && key in RU);
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);

/** Message::extractParam: when (before/after the transform) and what is substituted. */
function extractParam(lang: Lang, p: MessageParam, format: Format): ['before' | 'after', string] {
  if (typeof p === 'string') return ['before', p];
  if (typeof p === 'number') return ['before', phpNumberString(p)];
  if ('num' in p) return ['before', formatNum(lang, p.num)];
  if ('plaintext' in p) return ['after', format === 'text' ? p.plaintext : escapeHtml(p.plaintext).replace(/\u0338/g, '&#x338;')];
  return ['before', p.type === 'comma' ? commaList(lang, p.list) : listToText(lang, p.list)];
}

/** strtr($text, ['$1' => …, '$2' => …]): the longest parameter number that exists wins; others stay. */
function substitute(text: string, prefix: string, values: ReadonlyMap<number, string>): string {
  const re = new RegExp(`${prefix.replace(/[$'"]/g, (c) => (c === '$' ? '\\$' : c))}(\\d+)`, 'g');
  return text.replace(re, (m, digits: string) => {
    for (let len = digits.length; len > 0; len--) {
      const head = digits.slice(0, len);
      const value = head.startsWith('0') ? undefined : values.get(Number(head));
      if (value !== undefined) return value + digits.slice(len);
    }
    return m;
  });
}

/** Message::format: fetch, substitute 'before' params (markers for 'after' ones), transform, substitute 'after'. */
function format(lang: Lang, key: string, params: readonly MessageParam[], version: string | undefined, fmt: Format, html?: HtmlOptions): string {
  const raw = fetchMessage(lang, key, version);
  if (raw === null) return `⧼${escapeHtml(key)}⧽`;
  const before = new Map<number, string>();
  const after = new Map<number, string>();
  params.forEach((p, i) => {
    const [when, value] = extractParam(lang, p, fmt);
    before.set(i + 1, when === 'before' ? value : `$'"${i + 1}`);
    if (when === 'after') after.set(i + 1, value);
  });
  let text = expandPlural(lang, substitute(raw, '$', before));
  if (fmt === 'parse') text = wikitextToHtml(text, { lang, ...html });
  return after.size > 0 ? substitute(text, `$'"`, after) : text;
}

/**
 * A message in its text() form: parameters substituted, `{{PLURAL:…}}` resolved with the
 * language's rules (explicit `N=` forms first), `&#32;` turned into a space (as MessageCache
 * does); other markup is kept. `version` picks texts that changed after 1.39 (CHANGED).
 * `{{SITENAME}}` and other templates are left as written.
 */
export function message(lang: Lang, key: string, params: readonly MessageParam[] = [], version?: string): string {
  return format(lang, key, params, version, 'text');
}

/**
 * The parse() form (what `errorformat=html` shows): the text run through a small wikitext
 * parser that covers these messages (inline HTML, entities, links, paragraphs), outer `<p>` stripped.
 */
export function messageHtml(lang: Lang, key: string, params: readonly MessageParam[] = [], version?: string, html?: HtmlOptions): string {
  return format(lang, key, params, version, 'parse', html);
}
