import type { Language } from './language.js';
import { message, type MessageOptions } from './message.js';
import { listToText } from './numbers.js';

/** Expiry spellings MediaWiki reads as "never" (wfIsInfinity / ExpiryDef). */
const INFINITE = new Set(['infinite', 'indefinite', 'infinity', 'never']);

/** `start` plus `n` months the way PHP adds them: the day overflows (Jan 31 + 1 month = Mar 2 or 3). */
function addMonths(start: Date, n: number): number {
  const d = new Date(start.getTime());
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.getTime();
}

/**
 * PHP's `DateTime::diff` in UTC (earlier → later): whole years, then months (each the largest
 * count that does not pass the end, months added with PHP's day overflow), then days, hours,
 * minutes and seconds of what is left.
 */
export function phpDateDiff(fromSec: number, toSec: number): { y: number; m: number; d: number; h: number; i: number; s: number } {
  const start = new Date(fromSec * 1000);
  const end = toSec * 1000;
  const e = new Date(end);
  let months = (e.getUTCFullYear() - start.getUTCFullYear()) * 12 + e.getUTCMonth() - start.getUTCMonth() + 1;
  while (months > 0 && addMonths(start, months) > end) months--;
  let rest = Math.round((end - addMonths(start, months)) / 1000);
  const d = Math.floor(rest / 86400);
  rest -= d * 86400;
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const i = Math.floor(rest / 60);
  return { y: Math.floor(months / 12), m: months % 12, d, h, i, s: rest - i * 60 };
}

/**
 * Language::formatDurationBetweenTimestamps (MediaWiki 1.43+), on whole seconds as the API
 * passes them (TS_UNIX): the DateTime::diff of the two instants in UTC, shown as millennia,
 * centuries, decades, years, months, days, hours, minutes and seconds (no weeks), zeros
 * skipped, joined with listToText; no difference at all is "0 seconds".
 */
export function formatDurationBetweenTimestamps(lang: Language, startMs: number, endMs: number, opts: MessageOptions = {}): string {
  const [a, b] = [Math.floor(startMs / 1000), Math.floor(endMs / 1000)].sort((x, y) => x - y) as [number, number];
  const diff = phpDateDiff(a, b);
  const units: [string, number][] = [
    ['millennia', Math.floor(diff.y / 1000)],
    ['centuries', Math.floor((diff.y % 1000) / 100)],
    ['decades', Math.floor((diff.y % 100) / 10)],
    ['years', diff.y % 10],
    ['months', diff.m],
    ['days', diff.d],
    ['hours', diff.h],
    ['minutes', diff.i],
    ['seconds', diff.s],
  ];
  const parts = units.filter(([, n]) => n !== 0).map(([unit, n]) => message(lang, `duration-${unit}`, [{ num: n }], opts));
  return parts.length > 0 ? listToText(lang, parts) : message(lang, 'duration-seconds', [{ num: 0 }], opts);
}

/** Whether an expiry value means "never expires". */
const isInfinity = (expiry: string): boolean => INFINITE.has(expiry);

/**
 * A block's `duration-l10n` (ApiQueryBlocks, 1.44+): the `infiniteblock` message for a block
 * that never expires, else the duration from the block timestamp to its expiry. `startIso` and
 * `expiry` are ISO 8601 (as the API prints them) or anything Date.parse reads.
 */
export function formatBlockDuration(lang: Language, startIso: string, expiry: string, opts: MessageOptions = {}): string {
  if (isInfinity(expiry)) return message(lang, 'infiniteblock', [], opts);
  return formatDurationBetweenTimestamps(lang, Date.parse(startIso), Date.parse(expiry), opts);
}
