import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isMwTimestamp, parseTimestamp, toIso, toMw } from '../../../src/util/timestamp.js';

/**
 * timestamps-php.json (`npm run generate timestamps`): [input, TS_MW or null] from wikimedia/timestamp 4.1.1 on PHP 8.2, read as
 * TimestampDef does ('now' and falsy values are the current time, here 2024-05-01T00:00:00Z).
 */
const NOW = Date.parse('2024-05-01T00:00:00Z');
const cases = JSON.parse(readFileSync(new URL('./timestamps-php.json', import.meta.url), 'utf8')) as [string, string | null][];
const mw = (v: string): string | null => {
  const ms = parseTimestamp(v, NOW);
  return ms === null ? null : toMw(ms);
};

describe('parseTimestamp', () => {
  it('agrees with ConvertibleTimestamp on every recorded input (formats, overflow, zones, garbage)', () => {
    const wrong = cases.filter(([v, want]) => mw(v) !== want).map(([v, want]) => ({ v, want, got: mw(v) }));
    expect(wrong).toEqual([]);
    expect(cases.length).toBe(400);
  });

  it('reads every listed format', () => {
    expect(mw('20240101120000')).toBe('20240101120000');
    expect(mw('2024-01-01T12:00:00Z')).toBe('20240101120000');
    expect(mw('2024-01-01 12:00:00+02:00')).toBe('20240101100000');
    expect(mw('2024-01-01T12:00:00.999-0530')).toBe('20240101173000');
    expect(mw('20240101T120000Z')).toBe('20240101120000');
    expect(mw('01-02-2024 03:04:05.123456')).toBe('20240201030405');
    expect(mw('2024-01-01 12:00:00 05')).toBe('20240101070000');
    expect(mw('2024-01-01 12:00:00 GMT')).toBe('20240101120000');
    expect(mw('2024:01:01 12:00:00')).toBe('20240101120000');
    expect(mw('Mon, 01 Jan 2024 12:00:00 GMT')).toBe('20240101120000');
    expect(mw('Monday, 01-Jan-24 12:00:00 CEST')).toBe('20240101100000');
    expect(mw('Mon Jan  1 12:00:00 2024')).toBe('20240101120000');
    expect(mw('1714521600.5')).toBe('20240501000000');
  });

  it('reads 1–13 digits as Unix seconds, so 2023 is in 1970', () => {
    expect(toIso(parseTimestamp('2023', NOW)!)).toBe('1970-01-01T00:33:43Z');
    expect(parseTimestamp('-1.5', NOW)).toBe(-1500);
    expect(parseTimestamp('-0.5', NOW)).toBe(500);
  });

  it('lets fields overflow and moves to the named weekday, as createFromFormat does', () => {
    expect(mw('20241301000000')).toBe('20250101000000');
    expect(mw('2024-02-30T24:60:60Z')).toBe('20240302010100');
    expect(mw('Tue, 01 Jan 2024 12:00:00 GMT')).toBe('20240102120000');
    expect(mw('1 Feb 99 00:00:00')).toBe('19990201000000');
  });

  it('gives now for "now" and falsy values, null for garbage and for years TS_MW cannot hold', () => {
    expect(parseTimestamp('now', NOW)).toBe(NOW);
    expect(parseTimestamp('0', NOW)).toBe(NOW);
    expect(parseTimestamp('', NOW)).toBe(NOW);
    for (const bad of ['yesterday', '2024-13', '1 jan 2024 00:00:00', '2024-01-01T12:00Z', 'Xyz, 1 Jan 2024 00:00:00']) expect(parseTimestamp(bad, NOW)).toBeNull();
    expect(parseTimestamp('9999999999999', NOW)).toBeNull();
    expect(parseTimestamp('9999-12-31T23:59:60Z', NOW)).toBeNull();
    expect(parseTimestamp('9999999999999', NOW, { anyYear: true })).toBe(9999999999999000);
    expect(mw('0000-01-01T00:00:00Z')).toBe('00000101000000');
  });
});

describe('timestamp output', () => {
  it('formats TS_MW and ISO 8601 on whole seconds', () => {
    expect(toMw(Date.parse('2024-05-01T10:20:30.999Z'))).toBe('20240501102030');
    expect(toIso(-1500)).toBe('1969-12-31T23:59:58Z');
    expect(toIso(parseTimestamp('0001-02-03T04:05:06Z', NOW)!)).toBe('0001-02-03T04:05:06Z');
    expect(isMwTimestamp('20240501102030')).toBe(true);
    expect(isMwTimestamp('2024-05-01')).toBe(false);
  });
});
