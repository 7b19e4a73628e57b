import type { Lang } from '../wiki/profile.js';
import { message } from './message.js';

/**
 * Language::formatNum: en groups thousands with `,` from four digits; ru uses a no-break space
 * and `,` for decimals, grouping only from five integer digits (minimumGroupingDigits = 2).
 */
export function formatNum(lang: Lang, n: number): string {
  const [int = '0', frac] = String(Math.abs(n)).split('.');
  const sign = n < 0 ? '-' : '';
  const groupFrom = lang === 'ru' ? 5 : 4;
  const sep = lang === 'ru' ? '\u00a0' : ',';
  const grouped = int.length >= groupFrom ? int.replace(/\B(?=(\d{3})+$)/g, sep) : int;
  const dec = lang === 'ru' ? ',' : '.';
  return sign + grouped + (frac !== undefined ? dec + frac : '');
}

/** Language::listToText: "a, b and c" (the comma only with three or more items). */
export function listToText(lang: Lang, items: readonly string[]): string {
  if (items.length === 0) return '';
  if (items.length === 1) return items[0]!;
  const last = items[items.length - 1]!;
  const comma = items.length > 2 ? message(lang, 'comma-separator') : '';
  return `${items.slice(0, -1).join(comma)}${message(lang, 'and')}${message(lang, 'word-separator')}${last}`;
}

/** Message::commaListParam: items joined with the comma separator. */
export function commaList(lang: Lang, items: readonly string[]): string {
  return items.join(message(lang, 'comma-separator'));
}
