/**
 * PHP's `strtr($string, $pairs)`: at each position the longest key that matches is replaced, and
 * replaced text is never looked at again. Empty keys are ignored, as PHP does.
 */
export function phpStrtr(s: string, pairs: Readonly<Record<string, string>>): string {
  const keys = Object.keys(pairs).filter((k) => k !== '');
  if (keys.length === 0 || s === '') return s;
  const lengths = [...new Set(keys.map((k) => k.length))].sort((a, b) => b - a);
  let out = '';
  let i = 0;
  outer: while (i < s.length) {
    for (const len of lengths) {
      const piece = s.slice(i, i + len);
      if (piece.length === len && Object.hasOwn(pairs, piece)) {
        out += pairs[piece];
        i += len;
        continue outer;
      }
    }
    out += s[i];
    i++;
  }
  return out;
}
