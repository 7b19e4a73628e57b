import type { Language } from './language.js';
import { OWN, fetchMessage } from './messages.js';
import { commaList, formatNum, listToText } from './numbers.js';
import { phpNumberString } from './php-number.js';
import { expandPlural } from './plural.js';
import { wikitextToHtml, type HtmlOptions } from './wikitext-html.js';

export { stripMarkup } from './strip-markup.js';

/**
 * A message parameter, as Message::params() and friends take them:
 * - a string: wikitext, substituted before PLURAL is resolved (and parsed by messageHtml);
 * - a number: inserted as PHP prints it (`(string)$n`), unformatted;
 * - `{ num }`: Message::numParam, formatted with formatNum in the message language;
 * - `{ list, type?, plaintext? }`: Message::listParam, "a, b and c" (`text`, the default) or "a, b"
 *   (`comma`); `plaintext`: each item a plaintextParam, so the list is inserted after the transform
 *   (each item HTML-escaped by messageHtml: Message::formatListParam of items all 'after');
 * - `{ plaintext }`: Message::plaintextParam, inserted after the transform (so PLURAL and the
 *   parser never see it) and HTML-escaped by messageHtml;
 * - `{ raw }`: Message::rawParam, inserted after the transform as it is (HTML in a parsed message).
 */
export type MessageParam =
  | string
  | number
  | { num: number }
  | { list: readonly string[]; type?: 'comma' | 'text'; plaintext?: boolean }
  | { plaintext: string }
  | { raw: string };

/** text(), parse() (outer paragraph stripped) or parseAsBlock(). */
type Format = 'text' | 'parse' | 'block';

/** How a message is rendered beyond its language and parameters. */
export interface MessageOptions {
  /** `{{SITENAME}}` ($wgSitename); without it the template stays as written (and is flagged). */
  siteName?: string;
  /** Links in the parse() form (the wiki's content language, its paths). */
  html?: HtmlOptions;
  /**
   * Told `i18n.<code>` when the text holds what wikitape cannot render for that language
   * (`{{GRAMMAR:…}}`, `{{GENDER:…}}` and other parser functions): the answer is then flagged.
   */
  unknown?: (what: string) => void;
}

/** Whether a text exists for the key (wikitape's own, or in the language's chain). */
export function hasMessage(lang: Language, key: string): boolean {
  return key in OWN || lang.isQqx || lang.rawMessage(key) !== null;
}

/** The templates a message's text() form expands (CoreParserFunctions), besides {{!}}. */
const RENDERED = /^(?:PLURAL:|!$)/i;

/** Tells `unknown` when the raw text holds a template wikitape does not render. */
function checkTemplates(lang: Language, raw: string, opts: MessageOptions): void {
  if (!opts.unknown || !raw.includes('{{')) return;
  for (const m of raw.matchAll(/\{\{\s*([^|}]*)/g)) {
    const name = m[1]!.trim();
    if (RENDERED.test(name) || (opts.siteName !== undefined && name === 'SITENAME')) continue;
    opts.unknown(`i18n.${lang.code}`);
    return;
  }
}

/** Message::format for `qqx`: the key and its parameters, `(key: $1, $2)`. */
const qqxText = (key: string, count: number): string =>
  `(${key}${count > 0 ? `: ${Array.from({ length: count }, (_v, i) => `$${i + 1}`).join(', ')}` : ''})`;

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);

/** Message::extractParam: when (before/after the transform) and what is substituted. */
function extractParam(lang: Language, p: MessageParam, format: Format): ['before' | 'after', string] {
  if (typeof p === 'string') return ['before', p];
  if (typeof p === 'number') return ['before', phpNumberString(p)];
  if ('num' in p) return ['before', formatNum(lang, p.num)];
  if ('raw' in p) return ['after', p.raw];
  const plain = (x: string) => (format === 'text' ? x : escapeHtml(x).replace(/\u0338/g, '&#x338;'));
  if (!('list' in p)) return ['after', plain(p.plaintext)];
  const join = (items: readonly string[]) => (p.type === 'comma' ? commaList(lang, items) : listToText(lang, items));
  // (an empty list is 'before' either way: Message::formatListParam)
  if (p.plaintext && p.list.length > 0) return ['after', join(p.list.map(plain))];
  return ['before', join(p.list)];
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
function format(lang: Language, key: string, params: readonly MessageParam[], fmt: Format, opts: MessageOptions): string {
  const fetched = fetchMessage(lang, key);
  if (fetched === null) return `⧼${escapeHtml(key)}⧽`;
  const raw = lang.isQqx ? qqxText(key, params.length) : fetched;
  checkTemplates(lang, raw, opts);
  const before = new Map<number, string>();
  const after = new Map<number, string>();
  params.forEach((p, i) => {
    const [when, value] = extractParam(lang, p, fmt);
    before.set(i + 1, when === 'before' ? value : `$'"${i + 1}`);
    if (when === 'after') after.set(i + 1, value);
  });
  let text = expandPlural(lang, substitute(raw, '$', before));
  if (opts.siteName !== undefined) text = text.replace(/\{\{\s*SITENAME\s*\}\}/g, opts.siteName);
  if (fmt !== 'text') text = wikitextToHtml(text, { lang, ...opts.html, block: fmt === 'block' });
  return after.size > 0 ? substitute(text, `$'"`, after) : text;
}

/**
 * A message in its text() form: parameters substituted, `{{PLURAL:…}}` resolved with the
 * language's rules (explicit `N=` forms first), `&#32;` turned into a space (as MessageCache
 * does); other markup is kept. `{{SITENAME}}` is filled when `opts.siteName` is given; other
 * templates are left as written (and told to `opts.unknown`).
 */
export function message(lang: Language, key: string, params: readonly MessageParam[] = [], opts: MessageOptions = {}): string {
  return format(lang, key, params, 'text', opts);
}

/**
 * The parse() form (what `errorformat=html` shows): the text run through a small wikitext
 * parser that covers these messages (inline HTML, entities, links, paragraphs), outer `<p>` stripped.
 */
export function messageHtml(lang: Language, key: string, params: readonly MessageParam[] = [], opts: MessageOptions = {}): string {
  return format(lang, key, params, 'parse', opts);
}

/** The parseAsBlock() form: as messageHtml, with the outer paragraph kept. */
export function messageBlockHtml(lang: Language, key: string, params: readonly MessageParam[] = [], opts: MessageOptions = {}): string {
  return format(lang, key, params, 'block', opts);
}
