import { namedEntities } from '../util/html-entities.js';
import { decodeCharRefs } from './strip-markup.js';

/**
 * The Sanitizer steps of the parser for interface messages (after MediaWiki 1.39's
 * Sanitizer::removeHTMLtags and normalizeCharReferences), and Parser::doQuotes.
 */

const PAIRED =
  'b bdi del i ins u font big small sub sup h1 h2 h3 h4 h5 h6 cite code em s strike strong tt var div center blockquote ol ul dl table caption pre ruby rb rp rt rtc p span abbr dfn kbd samp data time mark q bdo tr td th li dt dd';
const ALLOWED_TAGS = new Set([...PAIRED.split(' '), 'br', 'wbr', 'hr']);
export const VOID_TAGS = new Set(['br', 'wbr', 'hr']);
const SAFE_ATTRS = /^(?:id|class|style|lang|dir|title|role|data-[a-z0-9_.-]+|aria-[a-z]+)$/;

export const escapeAttr = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const validCodepoint = (c: number): boolean =>
  c === 9 || c === 10 || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

/** Sanitizer::normalizeCharReferences: valid references in canonical form, every other `&` as `&amp;`. */
export function normalizeCharRefs(text: string): string {
  return text.replace(/&([A-Za-z0-9\x80-\uffff]+;)|&#([0-9]+);|&#[xX]([0-9A-Fa-f]+);|&/g, (m, name, dec, hex) => {
    if (name !== undefined) {
      if (['lt;', 'gt;', 'amp;', 'quot;'].includes(name)) return `&${name}`;
      const chars = namedEntities().get(name);
      return chars === undefined ? `&amp;${name}` : [...chars].map((c) => `&#${c.codePointAt(0)};`).join('');
    }
    if (dec !== undefined) return validCodepoint(Number(dec)) ? `&#${Number(dec)};` : escapeAttr(m);
    if (hex !== undefined) return validCodepoint(parseInt(hex, 16)) ? `&#x${parseInt(hex, 16).toString(16)};` : escapeAttr(m);
    return '&amp;';
  });
}

/** Sanitizer::removeHTMLtags: allowed tags rebuilt with their safe attributes, every other `<`/`>` escaped. */
export function sanitizeTags(text: string): string {
  const bits = text.split('<');
  let out = bits.shift()!.replaceAll('>', '&gt;');
  for (const bit of bits) {
    const m = /^(\/?)([A-Za-z][^\t\n\v />\0]*)([^>]*?)(\/?>)([^<]*)$/s.exec(bit);
    const name = m?.[2]!.toLowerCase() ?? '';
    const end = Boolean(m?.[1]);
    if (!m || !ALLOWED_TAGS.has(name) || (end && VOID_TAGS.has(name) && name !== 'br')) {
      out += `&lt;${bit.replaceAll('>', '&gt;')}`;
      continue;
    }
    const attrs: string[] = [];
    if (!end) {
      for (const a of m[3]!.matchAll(/([^\s/>=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g)) {
        const key = a[1]!.toLowerCase();
        if (SAFE_ATTRS.test(key)) attrs.push(` ${key}="${escapeAttr(decodeCharRefs(a[2] ?? a[3] ?? a[4] ?? ''))}"`);
      }
    }
    const close = end && name !== 'br' ? '/' : '';
    out += `<${close}${name}${attrs.join('')}${VOID_TAGS.has(name) ? ' /' : ''}>${m[5]!.replaceAll('>', '&gt;')}`;
  }
  return out;
}

type Quote = '' | 'i' | 'b' | 'bi' | 'ib';
const CLOSE: Record<Quote, string> = { '': '', i: '</i>', b: '</b>', bi: '</i></b>', ib: '</b></i>' };
/** [state][run length 2|3|5] → [html, next state]. */
const STEP: Record<Quote, Record<2 | 3 | 5, [string, Quote]>> = {
  '': { 2: ['<i>', 'i'], 3: ['<b>', 'b'], 5: ['<i><b>', 'ib'] },
  i: { 2: ['</i>', ''], 3: ['<b>', 'ib'], 5: ['</i><b>', 'b'] },
  b: { 2: ['<i>', 'bi'], 3: ['</b>', ''], 5: ['</b><i>', 'i'] },
  bi: { 2: ['</i>', 'b'], 3: ['</i></b><i>', 'i'], 5: ['</i></b>', ''] },
  ib: { 2: ['</b></i><b>', 'b'], 3: ['</b>', 'i'], 5: ['</b></i>', ''] },
};

/** Parser::doQuotes for one line (the common cases): `''` italic, `'''` bold, `'''''` both. */
export function quotes(line: string): string {
  const parts = line.split(/('{2,})/);
  if (parts.length === 1) return line;
  let out = '';
  let state: Quote = '';
  parts.forEach((p, k) => {
    if (k % 2 === 0) {
      out += p;
      return;
    }
    let run = p.length;
    if (run === 4) {
      out += "'";
      run = 3;
    } else if (run > 5) {
      out += "'".repeat(run - 5);
      run = 5;
    }
    const [html, next] = STEP[state][run as 2 | 3 | 5];
    out += html;
    state = next;
  });
  return out + CLOSE[state];
}
