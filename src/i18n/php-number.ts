/**
 * PHP's number ↔ string conversions, as MediaWiki's formatting code runs into them:
 * `(string)$float` (precision 14), `(float)$string`, `ctype_digit`, and `round()` with its
 * pre-rounding (PHP 8.2).
 */

/**
 * The value's 14 significant digits (trailing zeros dropped) and decimal exponent, rounded as
 * PHP's zend_gcvt does: to nearest, exact ties to even (JS's toExponential breaks ties upwards).
 */
function significant14(x: number): [string, number] {
  const [mant = '', expText = '0'] = x.toExponential(99).split('e');
  const all = mant.replace('.', '');
  let exp = Number(expText);
  let head = all.slice(0, 14);
  const rest = all.slice(14);
  const tie = rest[0] === '5' && !/[1-9]/.test(rest.slice(1));
  const up = tie ? Number(head.at(-1)) % 2 === 1 : rest[0]! >= '5';
  if (up) {
    const n = (BigInt(head) + 1n).toString();
    if (n.length > 14) exp += 1;
    head = n.slice(0, 14);
  }
  return [head.replace(/0+$/, '') || '0', exp];
}

/** `(string)$float` with PHP's default `precision=14`: `4.56`, `1.0E+15`, `1.0E-5`, `-0`. */
export function phpFloatString(x: number): string {
  const abs = Math.abs(x);
  // Printed without an exponent by both, and JS's shortest round trip has at most 14 significant
  // digits: rounding to 14 keeps them (the value lies within an ulp of them, far from a 14-digit
  // tie). debuginfo's memory figures take this way on every answer; toExponential(99) cost ~30 µs.
  if (abs >= 1e-4 && abs < 1e14) {
    const s = String(abs);
    if (significantDigits(s) <= 14) return x < 0 ? `-${s}` : s;
  }
  return phpFloatStringByDigits(x);
}

/** How many significant digits a plain decimal (`0.0012`, `1200`, `4.56`) is written with. */
function significantDigits(s: string): number {
  let first = 0;
  while (first < s.length && (s[first] === '0' || s[first] === '.')) first++;
  const dot = s.indexOf('.', first);
  return s.length - first - (dot >= 0 ? 1 : 0);
}

/** phpFloatString by way of the exact decimal expansion (zend_gcvt's rounding): every value. */
export function phpFloatStringByDigits(x: number): string {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x > 0 ? 'INF' : '-INF';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [digits, exp] = significant14(Math.abs(x));
  const sign = x < 0 ? '-' : '';
  if (exp < -4 || exp >= 14) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : `${digits}.0`;
    return `${sign}${m}E${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return sign + int + (frac ? `.${frac}` : '');
}

/**
 * `(string)$number` for a JS number: integral values print as PHP integers (all digits),
 * everything else as a PHP float.
 */
export function phpNumberString(x: number): string {
  if (Number.isInteger(x) && !Object.is(x, -0) && Math.abs(x) < 2 ** 63) return BigInt(x).toString();
  return phpFloatString(x);
}

/** `(float)$string`: the leading numeric part after whitespace, else 0. */
export function phpFloatVal(s: string): number {
  const m = /^[ \t\n\r\v\f]*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/.exec(s);
  return m ? Number(m[1]) : 0;
}

/** `ctype_digit($string)`: non-empty and ASCII digits only. */
export const ctypeDigit = (s: string): boolean => /^\d+$/.test(s);

const pow10 = (p: number): number => 10 ** p;
const halfUp = (v: number): number => (v >= 0 ? Math.floor(v + 0.5) : Math.ceil(v - 0.5));
const basic = (v: number, places: number): number => (places >= 0 ? v * pow10(places) : v / pow10(-places));

/** PHP 8.2 `round($value, $places)` (PHP_ROUND_HALF_UP), including its pre-rounding to 15 digits. */
export function phpRound(value: number, places = 0): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const precisionPlaces = 14 - Math.floor(Math.log10(Math.abs(value)));
  let tmp: number;
  if (precisionPlaces > places && precisionPlaces - 15 < places) {
    const usePrecision = Math.max(precisionPlaces, -60);
    tmp = halfUp(basic(value, usePrecision));
    const back = Math.max(-60, places - usePrecision);
    tmp = tmp / pow10(Math.abs(back));
  } else {
    tmp = basic(value, places);
    if (Math.abs(tmp) >= 1e15) return value;
  }
  tmp = halfUp(tmp);
  return places > 0 ? tmp / pow10(places) : tmp * pow10(-places);
}
