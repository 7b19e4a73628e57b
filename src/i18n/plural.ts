import type { Lang } from '../wiki/profile.js';
import { ctypeDigit, phpFloatString, phpFloatVal } from './php-number.js';

/**
 * `{{PLURAL:…}}` as MessageCache::transform expands it in a message's text() form
 * (CoreParserFunctions::plural → Language::convertPlural). Other `{{…}}` are left as written.
 */

/** Language::parseFormattedNumber: undoes the separator transform and drops grouping commas. */
function parseFormattedNumber(lang: Lang, text: string): string {
  let t = text.replaceAll('\u2212', '-');
  if (lang === 'ru') t = t.replace(/[\u00a0,]/g, (c) => (c === ',' ? '.' : ','));
  return t.replaceAll(',', '');
}

const INT64_MAX = 9223372036854775807n;

/** The count as PHP holds it after `settype(…, ctype_digit ? 'int' : 'float')`, stringified. */
function countString(lang: Lang, text: string): string {
  const t = parseFormattedNumber(lang, text);
  if (ctypeDigit(t)) {
    const n = BigInt(t);
    return (n > INT64_MAX ? INT64_MAX : n).toString();
  }
  return phpFloatString(phpFloatVal(t));
}

/** CLDR plural category index (CLDRPluralRuleEvaluator): en one/other, ru one/few/many/other. */
export function pluralIndex(lang: Lang, count: string): number {
  const m = /^-?((\d+)(?:\.(\d+))?)$/.exec(count);
  if (!m) return lang === 'en' ? 1 : 3;
  const v = m[3]?.length ?? 0;
  const digits = BigInt(m[2]!) > INT64_MAX ? INT64_MAX.toString() : m[2]!;
  const i10 = Number(digits.slice(-1));
  const i100 = Number(digits.slice(-2));
  if (lang === 'en') return BigInt(digits) === 1n && v === 0 ? 0 : 1;
  if (v !== 0) return 3;
  if (i10 === 1 && i100 !== 11) return 0;
  if (i10 >= 2 && i10 <= 4 && (i100 < 12 || i100 > 14)) return 1;
  return 2;
}

/** Language::convertPlural with handleExplicitPluralForms (`N=form`, matched on the count as PHP prints it). */
export function convertPlural(lang: Lang, countText: string, forms: readonly string[]): string {
  const count = countString(lang, countText);
  const plain: string[] = [];
  for (const form of forms) {
    if (/\d+=/.test(form)) {
      const pos = form.indexOf('=');
      if (form.slice(0, pos) === count) return form.slice(pos + 1);
    } else plain.push(form);
  }
  if (plain.length === 0) return '';
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
export function expandPlural(lang: Lang, s: string): string {
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
