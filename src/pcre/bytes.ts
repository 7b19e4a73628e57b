/**
 * PCRE's non-UTF mode works on bytes: patterns and subjects are handled here as "byte strings"
 * (one JS char per byte, latin1), and PCRE's character types and classes as sets of bytes that
 * are printed as explicit JS character classes.
 */

/** A UTF-8 string as a byte string (one char per byte). */
export const toBytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
/** A byte string back to the UTF-8 text it holds. */
export const fromBytes = (s: string) => Buffer.from(s, 'latin1').toString('utf8');

export type ByteSet = Uint8Array<ArrayBuffer>;
export const newSet = () => new Uint8Array(256);
export function setOf(...ranges: [number, number][]): ByteSet {
  const s = newSet();
  for (const [lo, hi] of ranges) for (let c = lo; c <= hi; c++) s[c] = 1;
  return s;
}
export const complement = (s: ByteSet) => s.map((v) => (v ? 0 : 1));
export function addAll(to: ByteSet, from: ByteSet): void {
  for (let c = 0; c < 256; c++) if (from[c]) to[c] = 1;
}
export function caseClose(s: ByteSet): ByteSet {
  const out = Uint8Array.from(s);
  for (let c = 0x41; c <= 0x5a; c++) {
    if (s[c] || s[c + 0x20]) out[c] = out[c + 0x20] = 1;
  }
  return out;
}

const DIGIT = setOf([0x30, 0x39]);
const WORD = setOf([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]);
/** PCRE2 `\s` without UCP: HT LF VT FF CR space. */
const SPACE = setOf([0x09, 0x0d], [0x20, 0x20]);
/** `\h` in non-UTF mode: HT, space, NBSP. */
const HSPACE = setOf([0x09, 0x09], [0x20, 0x20], [0xa0, 0xa0]);
/** `\v` in non-UTF mode: LF VT FF CR NEL. */
const VSPACE = setOf([0x0a, 0x0d], [0x85, 0x85]);
/** The escapes that stand for a byte set, the same inside and outside a class. */
export const CLASS_ESCAPES: Readonly<Record<string, ByteSet>> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
  h: HSPACE,
  H: complement(HSPACE),
  v: VSPACE,
  V: complement(VSPACE),
};
export const POSIX: Readonly<Record<string, ByteSet>> = {
  alpha: setOf([0x41, 0x5a], [0x61, 0x7a]),
  digit: DIGIT,
  alnum: setOf([0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]),
  upper: setOf([0x41, 0x5a]),
  lower: setOf([0x61, 0x7a]),
  space: SPACE,
  blank: setOf([0x09, 0x09], [0x20, 0x20]),
  punct: setOf([0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]),
  xdigit: setOf([0x30, 0x39], [0x41, 0x46], [0x61, 0x66]),
  word: WORD,
  cntrl: setOf([0x00, 0x1f], [0x7f, 0x7f]),
  print: setOf([0x20, 0x7e]),
  graph: setOf([0x21, 0x7e]),
  ascii: setOf([0x00, 0x7f]),
};

const hex2 = (c: number) => c.toString(16).padStart(2, '0');

export function emitSet(s: ByteSet): string {
  let count = 0;
  for (let c = 0; c < 256; c++) count += s[c]!;
  if (count === 256) return '[\\s\\S]';
  if (count === 0) return '[^\\s\\S]';
  let out = '';
  for (let c = 0; c < 256; c++) {
    if (!s[c]) continue;
    let e = c;
    while (e + 1 < 256 && s[e + 1]) e++;
    out += e === c ? `\\x${hex2(c)}` : `\\x${hex2(c)}-\\x${hex2(e)}`;
    c = e;
  }
  return `[${out}]`;
}
