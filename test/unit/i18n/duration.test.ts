import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatBlockDuration, formatDurationBetweenTimestamps, phpDateDiff } from '../../../src/i18n/duration.js';
import { lang as L } from '../../support/lang.js';

/**
 * durations-php.json (`npm run generate durations`): [startMs, endMs, en, ru] from PHP 8.2 — DateTime::diff in UTC and
 * Language::formatDurationBetweenTimestamps as in MediaWiki 1.43+ (with 1.39's messages and the
 * 1.43 duration-months text); month ends, leap days and 200+ random intervals.
 */
const cases = JSON.parse(readFileSync(new URL('./durations-php.json', import.meta.url), 'utf8')) as [number, number, string, string][];
const at = (iso: string): number => Date.parse(iso);

describe('formatDurationBetweenTimestamps', () => {
  it('agrees with PHP on every recorded interval, in both languages', () => {
    const wrong = cases.filter(([a, b, en, ru]) => formatDurationBetweenTimestamps(L('en', '1.43.9'), a, b) !== en || formatDurationBetweenTimestamps(L('ru', '1.43.9'), a, b) !== ru);
    expect(wrong).toEqual([]);
    expect(cases.length).toBe(300);
  });

  it('follows PHP month overflow (Jan 31 + 1 month = Mar 2 in 2024)', () => {
    expect(formatDurationBetweenTimestamps(L('en', '1.43.9'), at('2024-01-31T00:00:00Z'), at('2024-03-01T00:00:00Z'))).toBe('30 days');
    expect(formatDurationBetweenTimestamps(L('en', '1.43.9'), at('2024-01-31T00:00:00Z'), at('2024-03-02T00:00:00Z'))).toBe('1 month');
    expect(phpDateDiff(at('2004-02-29T00:00:00Z') / 1000, at('2005-02-28T00:00:00Z') / 1000)).toEqual({ y: 0, m: 11, d: 30, h: 0, i: 0, s: 0 });
  });

  it('speaks Russian with the right plural forms, no weeks, and either order', () => {
    const t = at('2024-01-01T00:00:00Z');
    expect(formatDurationBetweenTimestamps(L('ru', '1.43.9'), t, t + 7 * 86400e3)).toBe('7 дней');
    expect(formatDurationBetweenTimestamps(L('ru', '1.43.9'), t + 86400e3 + 7 * 3600e3, t)).toBe('1 день и 7 часов');
    expect(formatDurationBetweenTimestamps(L('ru', '1.43.9'), t, at('2024-04-01T00:00:00Z'))).toBe('3 месяца');
    expect(formatDurationBetweenTimestamps(L('ru', '1.43.9'), t, t + 999)).toBe('0 секунд');
    expect(formatDurationBetweenTimestamps(L('en', '1.43.9'), at('1000-01-01T00:00:00Z'), at('3100-01-01T00:00:00Z'))).toBe('2 millennia and 1 century');
  });
});

describe('formatBlockDuration', () => {
  it('says infinite for never-ending blocks, else the duration to the expiry', () => {
    for (const never of ['infinity', 'infinite', 'indefinite', 'never']) expect(formatBlockDuration(L('ru', '1.43.9'), '2024-01-01T00:00:00Z', never)).toBe('бессрочно');
    expect(formatBlockDuration(L('en', '1.43.9'), '2024-01-01T00:00:00Z', 'infinity')).toBe('infinite');
    expect(formatBlockDuration(L('en', '1.43.9'), '2024-01-01T12:00:00Z', '2024-01-08T12:00:00Z')).toBe('7 days');
  });
});
