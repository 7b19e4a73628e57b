import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatBlockDuration, formatDurationBetweenTimestamps } from '../../../src/i18n/duration.js';
import { message, stripMarkup } from '../../../src/i18n/message.js';
import { formatNum, listToText } from '../../../src/i18n/numbers.js';
import { lang as L } from '../../support/lang.js';

describe('formatDurationBetweenTimestamps', () => {
  const cases = JSON.parse(readFileSync(new URL('./durations-php.json', import.meta.url), 'utf8')) as [number, number, string][];

  it('agrees with PHP DateTime::diff on 300 random intervals', () => {
    const wrong = cases.filter(([a, b, text]) => formatDurationBetweenTimestamps(L('en', '1.43.9'), a, b) !== text);
    expect(wrong).toEqual([]);
  });

  it('follows PHP month overflow: Jan 31 + 1 month is Mar 2, so Jan 31 → Mar 1 is 30 days', () => {
    expect(formatDurationBetweenTimestamps(L('en', '1.43.9'), Date.parse('2024-01-31T00:00:00Z'), Date.parse('2024-03-01T00:00:00Z'))).toBe('30 days');
  });

  it('speaks Russian with the right plural forms and no weeks', () => {
    const t = Date.parse('2024-01-01T00:00:00Z');
    expect(formatDurationBetweenTimestamps(L('ru', '1.43.9'), t, t + 7 * 86400e3)).toBe('7 дней');
    expect(formatDurationBetweenTimestamps(L('ru', '1.43.9'), t, t + 86400e3 + 7 * 3600e3)).toBe('1 день и 7 часов');
    expect(formatDurationBetweenTimestamps(L('ru', '1.43.9'), t, Date.parse('2024-04-01T00:00:00Z'))).toBe('3 месяца');
    expect(formatDurationBetweenTimestamps(L('ru', '1.43.9'), t, t)).toBe('0 секунд');
    expect(formatBlockDuration(L('ru', '1.43.9'), '2024-01-01T00:00:00Z', 'infinity')).toBe('бессрочно');
  });
});

describe('message', () => {
  it('substitutes parameters and resolves PLURAL for ru (one/few/many) and en', () => {
    expect(message(L('en', '1.43.9'), 'apierror-unrecognizedparams', [{ list: ['foo'], type: 'comma' }, 1])).toBe('Unrecognized parameter: foo.');
    expect(message(L('en', '1.43.9'), 'apierror-unrecognizedparams', [{ list: ['foo', 'bar'], type: 'comma' }, 2])).toBe('Unrecognized parameters: foo, bar.');
    expect(message(L('ru', '1.43.9'), 'duration-days', [{ num: 21 }])).toBe('21 день');
    expect(message(L('ru', '1.43.9'), 'duration-days', [{ num: 22 }])).toBe('22 дня');
    expect(message(L('ru', '1.43.9'), 'duration-days', [{ num: 11 }])).toBe('11 дней');
  });

  it('lists with "and" and the comma only from three items', () => {
    expect(listToText(L('en', '1.43.9'), ['a', 'b'])).toBe('a and b');
    expect(listToText(L('ru', '1.43.9'), ['a', 'b', 'c'])).toBe('a, b и c');
  });

  it('formats numbers: ru groups from five digits with a no-break space', () => {
    expect(formatNum(L('ru', '1.43.9'), 5000)).toBe('5000');
    expect(formatNum(L('ru', '1.43.9'), 50000)).toBe('50\u00a0000');
    expect(formatNum(L('en', '1.43.9'), 5000)).toBe('5,000');
  });

  it('picks the text of the profile version where it changed', () => {
    expect(message(L('en', '1.39.17'), 'title-invalid-empty', [])).toBe('The requested page title is empty or contains only the name of a namespace.');
    expect(message(L('en', '1.43.9'), 'title-invalid-empty', [])).toBe('The requested page title is empty or contains only a namespace prefix.');
  });

  it('strips markup as ApiErrorFormatter does', () => {
    expect(stripMarkup('The <var>lelimit</var> &lt;x&gt; <b>bold</b>')).toBe('The "lelimit" <x> bold');
  });
});
