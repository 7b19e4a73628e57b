/**
 * Text to UTF-8 bytes with the escapes the printers add, in one pass into one buffer of the exact
 * size. The HTML page of a big answer went through four whole-answer strings (the JSON, its `\u`
 * escapes, its indentation, its HTML escapes) and the page around them: a 5.9 MB answer of
 * Cyrillic links (bench/worst-requests.mjs) peaked at some 250 MB above the idle server. Here the
 * answer's text costs its bytes once.
 */

/** What to escape while encoding (applied in this order, as json.ts's post-pass and the page do). */
export interface TextBytesOptions {
  /**
   * The text is a string's content, to print as a JSON string as JSON.stringify does: in quotes,
   * `"` and `\` escaped, controls as `\n` or `\u00XX`, lone surrogates as `\udXXX` (lower-case hex).
   */
  jsonString?: boolean;
  /** JSON without JSON_UNESCAPED_UNICODE: every non-ASCII UTF-16 unit as `\uXXXX` (lower-case hex). */
  ascii?: boolean;
  /** JSON text: U+2028 / U+2029 as `\u2028` / `\u2029` (PHP has no JSON_UNESCAPED_LINE_TERMINATORS). */
  lineSeparators?: boolean;
  /** JSON_HEX_TAG | JSON_HEX_AMP: `<`, `>`, `&` as `\u003C`, `\u003E`, `\u0026`. */
  hexTagAmp?: boolean;
  /** Pretty JSON spliced in at this depth: 4 × indent spaces after each line break. */
  indent?: number;
  /** Html::element's text escaping, for the `<pre>` of the HTML page: `&` and `<`. */
  pre?: boolean;
}

const HEX = Buffer.from('0123456789abcdef');
const HEX_TAG_AMP: Record<number, string> = { 0x3c: '\\u003C', 0x3e: '\\u003E', 0x26: '\\u0026' };
const PRE: Record<number, string> = { 0x26: '&amp;', 0x3c: '&lt;' };
/** JSON.stringify's escapes of the controls. */
const CONTROL = Array.from({ length: 0x20 }, (_, c) => ({ 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' })[c] ?? `\\u${c.toString(16).padStart(4, '0')}`);

/** The ASCII character's replacement under `o` (with the indentation after a line break), or null. */
function asciiEscape(c: number, o: TextBytesOptions, pad: string): string | null {
  if (o.jsonString) {
    if (c < 0x20) return CONTROL[c]!;
    if (c === 0x22) return '\\"';
    if (c === 0x5c) return '\\\\';
  }
  if (c === 0x0a) return pad === '' ? null : '\n' + pad;
  if (o.hexTagAmp && (c === 0x3c || c === 0x3e || c === 0x26)) return HEX_TAG_AMP[c]!;
  if (o.pre && (c === 0x26 || c === 0x3c)) return PRE[c]!;
  return null;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Bytes of the non-ASCII unit at `i` (4 for a surrogate pair, counted on its first unit; a lone surrogate is U+FFFD, as Buffer.from writes it). */
function wideSize(s: string, i: number, c: number, o: TextBytesOptions): number {
  if (o.ascii) return 6;
  if (o.lineSeparators && (c === 0x2028 || c === 0x2029)) return 6;
  if (c < 0x800) return 2;
  if (isHigh(c) && isLow(s.charCodeAt(i + 1))) return 4;
  if (isLow(c) && i > 0 && isHigh(s.charCodeAt(i - 1))) return 0;
  return o.jsonString && c >= 0xd800 && c <= 0xdfff ? 6 : 3;
}

/**
 * `s` as UTF-8 with the escapes `o` asks for. Plain text (nothing to escape) is encoded natively,
 * without the loop.
 */
export function textBytes(s: string, o: TextBytesOptions): Buffer {
  const pad = '    '.repeat(o.indent ?? 0);
  let size = o.jsonString ? 2 : 0;
  let asciiOnly = true;
  let changed = o.jsonString === true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      const e = asciiEscape(c, o, pad);
      if (e === null) size++;
      else {
        size += e.length;
        changed = true;
      }
    } else {
      const n = wideSize(s, i, c, o);
      if (n === 6) changed = true; // a `\u` escape (a lone surrogate is U+FFFD both ways)
      asciiOnly = false;
      size += n;
    }
  }
  if (!changed) return Buffer.from(s, asciiOnly ? 'latin1' : 'utf8');
  return writeText(s, o, pad, Buffer.allocUnsafe(size));
}

/** Writes `\uXXXX` (lower-case hex, as PHP's json_encode) for the UTF-16 unit `c` at `at`; returns the offset after it. */
export function writeUnicodeEscape(out: Buffer, at: number, c: number): number {
  out[at] = 0x5c; // \
  out[at + 1] = 0x75; // u
  out[at + 2] = HEX[c >> 12]!;
  out[at + 3] = HEX[(c >> 8) & 15]!;
  out[at + 4] = HEX[(c >> 4) & 15]!;
  out[at + 5] = HEX[c & 15]!;
  return at + 6;
}

/** The second pass of textBytes: writes `s` into `out`, which has exactly the size it takes. */
function writeText(s: string, o: TextBytesOptions, pad: string, out: Buffer): Buffer {
  let at = 0;
  if (o.jsonString) out[at++] = 0x22;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      const e = asciiEscape(c, o, pad);
      if (e === null) out[at++] = c;
      else at += out.write(e, at, 'latin1');
    } else if (o.ascii || (o.lineSeparators && (c === 0x2028 || c === 0x2029)) || (o.jsonString && c >= 0xd800 && c <= 0xdfff && !(isHigh(c) && isLow(s.charCodeAt(i + 1))))) {
      at = writeUnicodeEscape(out, at, c);
    } else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 63);
    } else if (isHigh(c) && isLow(s.charCodeAt(i + 1))) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      out[at++] = 0xf0 | (cp >> 18);
      out[at++] = 0x80 | ((cp >> 12) & 63);
      out[at++] = 0x80 | ((cp >> 6) & 63);
      out[at++] = 0x80 | (cp & 63);
    } else {
      const u = c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
      out[at++] = 0xe0 | (u >> 12);
      out[at++] = 0x80 | ((u >> 6) & 63);
      out[at++] = 0x80 | (u & 63);
    }
  }
  if (o.jsonString) out[at] = 0x22;
  return out;
}

/**
 * UTF-8 bytes with Html::element's text escaping (`&`, `<`). The same buffer when it has neither
 * (a cached fragment stays shared); both are single bytes that never occur inside a multi-byte
 * character, so bytes can be escaped as they are.
 */
export function escapePreBytes(b: Buffer): Buffer {
  let extra = 0;
  for (let i = b.indexOf(0x26); i !== -1; i = b.indexOf(0x26, i + 1)) extra += 4;
  for (let i = b.indexOf(0x3c); i !== -1; i = b.indexOf(0x3c, i + 1)) extra += 3;
  if (extra === 0) return b;
  const out = Buffer.allocUnsafe(b.length + extra);
  let at = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x26) at += out.write('&amp;', at, 'latin1');
    else if (c === 0x3c) at += out.write('&lt;', at, 'latin1');
    else out[at++] = c;
  }
  return out;
}

/**
 * UTF-8 bytes as the content of a JSON string (the quotes not included): `"`, `\` and the controls
 * escaped as JSON.stringify escapes them; everything else as it is. For JSON text printed by json.ts
 * (the wrapped page's `html`): it never holds a raw U+2028/U+2029 nor a lone surrogate, so no
 * character beyond ASCII needs an escape. The same buffer when nothing does.
 */
export function jsonStringContentBytes(b: Buffer): Buffer {
  let extra = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x22 || c === 0x5c) extra += 1;
    else if (c < 0x20) extra += CONTROL[c]!.length - 1;
  }
  if (extra === 0) return b;
  const out = Buffer.allocUnsafe(b.length + extra);
  let at = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x22 || c === 0x5c) {
      out[at++] = 0x5c;
      out[at++] = c;
    } else if (c < 0x20) at += out.write(CONTROL[c]!, at, 'latin1');
    else out[at++] = c;
  }
  return out;
}
