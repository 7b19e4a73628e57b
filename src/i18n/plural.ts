import { phpStrtr } from '../util/strtr.js';
import type { Language } from './language.js';
import { ctypeDigit, phpFloatString, phpFloatVal } from './php-number.js';

/**
 * `{{PLURAL:…}}` as MessageCache::transform expands it in a message's text() form
 * (CoreParserFunctions::plural → Language::convertPlural, the CLDR rules of the message's
 * language). Other `{{…}}` are left as written.
 */

/** array_flip(array_filter($table)): PHP's filter drops '' and '0'. */
function flipped(table: Readonly<Record<string, string>> | null): Record<string, string> | null {
  if (!table) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(table)) if (v !== '' && v !== '0') out[v] = k;
  return out;
}

/** Language::parseFormattedNumber: digits and separators back to ASCII, grouping commas dropped. */
function parseFormattedNumber(lang: Language, text: string): string {
  if (text === '∞') return 'INF';
  let t = text.replaceAll('\u2212', '-');
  if (t === '-∞') return '-INF';
  const digits = flipped(lang.record.digits);
  if (digits) t = phpStrtr(t, digits);
  const separators = flipped(lang.record.separators);
  if (separators) t = phpStrtr(t, separators);
  return t.replaceAll(',', '');
}

const INT64_MAX = 9223372036854775807n;

/** The count as PHP holds it after `settype(…, ctype_digit ? 'int' : 'float')`, stringified. */
function countString(lang: Language, text: string): string {
  const t = parseFormattedNumber(lang, text);
  if (ctypeDigit(t)) {
    const n = BigInt(t);
    return (n > INT64_MAX ? INT64_MAX : n).toString();
  }
  return phpFloatString(phpFloatVal(t));
}

/** PHP's intval of a digit string: saturated at PHP_INT_MAX, then as a double (fmod and == see it so). */
const intval = (digits: string): number => Number(BigInt(digits) > INT64_MAX ? INT64_MAX : BigInt(digits));

type Operand = number | Range;
/** CLDRPluralRuleParser\Range: single values and [start, end] pairs. */
class Range {
  constructor(readonly parts: Array<number | [number, number]>) {}
  has(n: number, integerOnly: boolean): boolean {
    return this.parts.some((p) => (Array.isArray(p) ? (!integerOnly || Math.floor(n) === n) && n >= p[0] && n <= p[1] : n === p));
  }
}
const range = (v: Operand): Range => (v instanceof Range ? v : new Range([v]));

/** Evaluator::doOperation. */
function operate(token: string, left: Operand, right: Operand): Operand {
  const num = (v: Operand) => (v instanceof Range ? NaN : v);
  switch (token) {
    case 'or':
      return num(left) || num(right) ? 1 : 0;
    case 'and':
      return num(left) && num(right) ? 1 : 0;
    case 'is':
      return num(left) === num(right) ? 1 : 0;
    case 'is-not':
      return num(left) !== num(right) ? 1 : 0;
    case 'in':
    case 'not-in':
    case 'within':
    case 'not-within': {
      const r = range(right).has(num(left), !token.endsWith('within'));
      return r !== token.startsWith('not-') ? 1 : 0;
    }
    case 'mod':
      return num(left) % num(right);
    case ',':
      return new Range([...range(left).parts, ...range(right).parts]);
    case '..':
      return new Range([[num(left), num(right)]]);
    default:
      throw new Error(`plural: invalid RPN token ${token}`);
  }
}

/** Evaluator::evaluateCompiled: the index of the first rule the count matches, else `other`'s. */
export function pluralIndex(lang: Language, count: string): number {
  const rules = lang.record.plural;
  const m = /^-?((\d+)(?:\.(\d+))?)$/.exec(count);
  if (!m) return rules.length;
  const frac = m[3];
  const trimmed = frac?.replace(/0+$/, '') ?? '';
  const operands: Record<string, number> = frac === undefined
    ? { n: intval(m[1]!), i: intval(m[1]!), v: 0, w: 0, f: 0, t: 0 }
    : { n: Number(m[1]), i: intval(m[2]!), v: frac.length, w: trimmed.length, f: intval(frac), t: trimmed === '' ? 0 : intval(trimmed) };
  for (let i = 0; i < rules.length; i++) {
    const stack: Operand[] = [];
    for (const token of rules[i]!.split(' ')) {
      if (token in operands) stack.push(operands[token]!);
      else if (token[0]! >= '0' && token[0]! <= '9') stack.push(parseInt(token, 10));
      else {
        const right = stack.pop()!;
        stack.push(operate(token, stack.pop()!, right));
      }
    }
    if (stack[0] !== 0) return i;
  }
  return rules.length;
}

/** Language::convertPlural with handleExplicitPluralForms (`N=form`, matched on the count as PHP prints it). */
export function convertPlural(lang: Language, countText: string, forms: readonly string[]): string {
  const count = countString(lang, countText);
  const plain: string[] = [];
  for (const form of forms) {
    if (/\d+=/.test(form)) {
      const pos = form.indexOf('=');
      if (form.slice(0, pos) === count) return form.slice(pos + 1);
    } else plain.push(form);
  }
  if (plain.length === 0) return '';
  // LanguageKsh::convertPlural: one for 1, the third form for 0, the second otherwise
  if (lang.has('plural-ksh')) {
    const padded = [...plain, ...Array<string>(Math.max(0, 3 - plain.length)).fill(plain.at(-1)!)];
    return Number(count) === 1 ? padded[0]! : Number(count) === 0 ? padded[2]! : padded[1]!;
  }
  return plain[Math.min(pluralIndex(lang, count), plain.length - 1)]!;
}

/** Splits `{{a|b|c}}` starting after the braces: top-level `|` only (not inside `{{…}}`/`[[…]]`). */
function splitTemplate(s: string, start: number): { args: string[]; end: number } | null {
  const args: string[] = [];
  let braces = 0;
  let links = 0;
  let from = start;
  for (let i = start; i < s.length; i++) {
    const two = s.slice(i, i + 2);
    if (two === '{{') {
      braces++;
      i++;
    } else if (two === '[[') {
      links++;
      i++;
    } else if (two === ']]' && links > 0) {
      links--;
      i++;
    } else if (two === '}}') {
      if (braces === 0) {
        args.push(s.slice(from, i));
        return { args, end: i + 2 };
      }
      braces--;
      i++;
    } else if (s[i] === '|' && braces === 0 && links === 0) {
      args.push(s.slice(from, i));
      from = i + 1;
    }
  }
  return null;
}

/** Expands every `{{PLURAL:n|…}}` (case-insensitive, nested ones first) and `{{!}}`; other templates stay. */
export function expandPlural(lang: Language, s: string): string {
  if (!s.includes('{{')) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    const open = s.indexOf('{{', i);
    if (open < 0) break;
    const t = splitTemplate(s, open + 2);
    if (!t) break;
    out += s.slice(i, open);
    const args = t.args.map((a) => expandPlural(lang, a));
    const head = args[0]!;
    const colon = head.indexOf(':');
    if (colon > 0 && head.slice(0, colon).trim().toUpperCase() === 'PLURAL') {
      out += convertPlural(lang, head.slice(colon + 1).trim(), args.slice(1).map((f) => f.trim()));
    } else if (args.length === 1 && head.trim() === '!') out += '|';
    else out += `{{${args.join('|')}}}`;
    i = t.end;
  }
  return out + s.slice(i);
}
