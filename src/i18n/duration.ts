import type { Lang } from '../wiki/profile.js';
import { message } from './message.js';
import { listToText } from './numbers.js';

/** Expiry spellings MediaWiki reads as "never" (ExpiryDef / wfIsInfinity). */
const INFINITE = new Set(['infinite', 'indefinite', 'infinity', 'never']);

/** PHP's `DateTime::modify('+n months')`: the day overflows into the next month (Jan 31 + 1 month = Mar 3). */
function addMonths(d: Date, n: number): Date {
  const r = new Date(d.getTime());
  r.setUTCMonth(r.getUTCMonth() + n);
  return r;
}

/**
 * Language::formatDurationBetweenTimestamps (1.43+): PHP's DateTime::diff between the two
 * instants in UTC, units from millennia down to seconds (no weeks), zeros skipped, joined with
 * listToText; nothing at all is "0 seconds".
 */
export function formatDurationBetweenTimestamps(lang: Lang, startMs: number, endMs: number): string {
  const start = new Date(Math.min(startMs, endMs));
  const end = new Date(Math.max(startMs, endMs));
  let years = end.getUTCFullYear() - start.getUTCFullYear();
  while (years > 0 && addMonths(start, years * 12) > end) years--;
  let months = 0;
  while (addMonths(start, years * 12 + months + 1) <= end) months++;
  let rest = Math.floor((end.getTime() - addMonths(start, years * 12 + months).getTime()) / 1000);
  const days = Math.floor(rest / 86400);
  rest -= days * 86400;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const parts: [string, number][] = [
    ['millennia', Math.floor(years / 1000)],
    ['centuries', Math.floor((years % 1000) / 100)],
    ['decades', Math.floor((years % 100) / 10)],
    ['years', years % 10],
    ['months', months],
    ['days', days],
    ['hours', hours],
    ['minutes', minutes],
    ['seconds', seconds],
  ];
  const texts = parts.filter(([, n]) => n > 0).map(([unit, n]) => message(lang, `duration-${unit}`, [{ num: n }]));
  return texts.length > 0 ? listToText(lang, texts) : message(lang, 'duration-seconds', [{ num: 0 }]);
}

/** A block's `duration-l10n`: `infiniteblock` for a never-ending block, else the duration from start to expiry. */
export function formatBlockDuration(lang: Lang, startIso: string, expiry: string): string {
  if (INFINITE.has(expiry)) return message(lang, 'infiniteblock');
  return formatDurationBetweenTimestamps(lang, Date.parse(startIso), Date.parse(expiry));
}
