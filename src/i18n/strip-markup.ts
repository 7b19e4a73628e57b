import { namedEntities } from '../util/html-entities.js';

/**
 * ApiErrorFormatter::stripMarkup: `<var>`, `<kbd>`, `<samp>`, `<code>` (and their closing
 * tags, exactly so written) become `"`, then Sanitizer::stripAllTags: the text is tokenized as
 * HTML (RemexHtml, no tree builder), tags and comments dropped, character references decoded,
 * block-level tags leave a space, `<script>`/`<style>` content is hidden, whitespace runs become
 * one space and the ends are trimmed.
 */
export function stripMarkup(text: string): string {
  return stripAllTags(text.replace(/<\/?(var|kbd|samp|code)>/g, '"'));
}

const BLOCK = new Set(
  'address article aside blockquote br canvas dd div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main nav noscript ol output p pre section table td tfoot th tr ul video'.split(' '),
);
const HIDDEN = new Set(['style', 'script']);
const WS = new Set(['\t', '\n', '\f', ' ']);
const LEGACY: Record<number, number> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x2c6,
  0x89: 0x2030, 0x8a: 0x160, 0x8b: 0x2039, 0x8c: 0x152, 0x8e: 0x17d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c,
  0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x2dc, 0x99: 0x2122, 0x9a: 0x161, 0x9b: 0x203a,
  0x9c: 0x153, 0x9e: 0x17e, 0x9f: 0x178,
};

function codepointChar(cp: number): string {
  if (cp === 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return '\ufffd';
  return String.fromCodePoint(LEGACY[cp] ?? cp);
}

/** RemexHtml's character reference expansion in text (data state). */
export function decodeCharRefs(text: string): string {
  if (!text.includes('&')) return text;
  const names = namedEntities();
  return text.replace(/&(?:#(?:0*(\d+)|[xX]0*([0-9A-Fa-f]+));?|(#)|([A-Za-z][A-Za-z0-9]*;?))/g, (m, dec, hex, hash, name) => {
    if (hash) return '&#';
    if (dec !== undefined) return dec.length > 7 ? '\ufffd' : codepointChar(Number(dec));
    if (hex !== undefined) return hex.length > 6 ? '\ufffd' : codepointChar(parseInt(hex, 16));
    const word = name as string;
    for (let len = word.length; len > 0; len--) {
      const hit = names.get(word.slice(0, len));
      if (hit !== undefined) return hit + word.slice(len);
    }
    return m;
  });
}

function findTagEnd(s: string, from: number): number {
  // From just after the tag name: attribute states, honouring quoted values; -1 at EOF.
  let state: 'before' | 'name' | 'after' | 'value' | 'dq' | 'sq' | 'unq' = 'before';
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    switch (state) {
      case 'dq':
        if (c === '"') state = 'before';
        continue;
      case 'sq':
        if (c === "'") state = 'before';
        continue;
      case 'unq':
        if (WS.has(c)) state = 'before';
        else if (c === '>') return i;
        continue;
      case 'value':
        if (WS.has(c)) continue;
        if (c === '>') return i;
        state = c === '"' ? 'dq' : c === "'" ? 'sq' : 'unq';
        continue;
      default:
        if (c === '>') return i;
        if (WS.has(c)) state = state === 'name' ? 'after' : state;
        else if (c === '/') state = 'before';
        else if (c === '=' && state !== 'before') state = 'value';
        else state = 'name';
    }
  }
  return -1;
}

/** Sanitizer::stripAllTags (RemexStripTagHandler + normalizeWhitespace). */
function stripAllTags(html: string): string {
  let out = '';
  let hidden = false;
  const text = (t: string): void => {
    if (!hidden) out += decodeCharRefs(t);
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      text(html.slice(i));
      break;
    }
    text(html.slice(i, lt));
    const c = html[lt + 1];
    if (c === undefined) {
      text('<');
      break;
    }
    if (/[A-Za-z]/.test(c) || (c === '/' && /[A-Za-z]/.test(html[lt + 2] ?? ''))) {
      const end = c === '/';
      const nameStart = lt + (end ? 2 : 1);
      let j = nameStart;
      while (j < html.length && !WS.has(html[j]!) && html[j] !== '/' && html[j] !== '>') j++;
      const close = findTagEnd(html, j);
      if (close < 0) break;
      const name = html.slice(nameStart, j).toLowerCase();
      if (HIDDEN.has(name)) hidden = !end;
      if (BLOCK.has(name)) out += ' ';
      i = close + 1;
    } else if (c === '!' && html.startsWith('<!--', lt)) {
      const body = lt + 4;
      if (html.startsWith('>', body) || html.startsWith('->', body)) {
        i = body + (html[body] === '>' ? 1 : 2);
        continue;
      }
      const a = html.indexOf('-->', body);
      const b = html.indexOf('--!>', body);
      const ends = [a < 0 ? Infinity : a + 3, b < 0 ? Infinity : b + 4];
      const e = Math.min(...ends);
      i = e === Infinity ? html.length : e;
    } else if (c === '!' || c === '?' || c === '/') {
      if (c === '/' && html[lt + 2] === '>') {
        i = lt + 3;
        continue;
      }
      if (c === '/' && lt + 2 >= html.length) {
        text('</');
        break;
      }
      const e = html.indexOf('>', lt + 2);
      i = e < 0 ? html.length : e + 1;
    } else {
      text('<');
      i = lt + 1;
    }
  }
  return out.replace(/[ \r\n\t]+/g, ' ').replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
}
