import { describe, expect, it } from 'vitest';
import { formatHex, isValid, isValidRange, parseRange, sanitizeIP } from '../../../src/util/ip.js';
import { parseTimestamp, toIso, toMw } from '../../../src/util/timestamp.js';

const now = Date.parse('2024-05-01T00:00:00Z');

describe('parseTimestamp', () => {
  it('reads the forms ConvertibleTimestamp accepts', () => {
    expect(toIso(parseTimestamp('20240101120000', now)!)).toBe('2024-01-01T12:00:00Z');
    expect(toIso(parseTimestamp('2024-01-01T12:00:00Z', now)!)).toBe('2024-01-01T12:00:00Z');
    expect(toIso(parseTimestamp('2024-01-01 12:00:00+02:00', now)!)).toBe('2024-01-01T10:00:00Z');
    expect(toIso(parseTimestamp('20240101T120000Z', now)!)).toBe('2024-01-01T12:00:00Z');
    expect(toIso(parseTimestamp('Mon, 01 Jan 2024 12:00:00 GMT', now)!)).toBe('2024-01-01T12:00:00Z');
    expect(toIso(parseTimestamp('2024:01:01 12:00:00', now)!)).toBe('2024-01-01T12:00:00Z');
  });

  it('reads 1–13 digits as Unix seconds, so 2023 is in 1970', () => {
    expect(toIso(parseTimestamp('2023', now)!)).toBe('1970-01-01T00:33:43Z');
  });

  it('gives now for "now" and null for garbage', () => {
    expect(parseTimestamp('now', now)).toBe(now);
    expect(parseTimestamp('yesterday', now)).toBeNull();
    expect(parseTimestamp('2024-13', now)).toBeNull();
    expect(toMw(now)).toBe('20240501000000');
  });
});

describe('IP utilities', () => {
  it('tells addresses from ranges', () => {
    expect(isValid('192.0.2.15')).toBe(true);
    expect(isValid('2001:db8::1')).toBe(true);
    expect(isValid('198.51.100.0/24')).toBe(false);
    expect(isValidRange('198.51.100.0/24')).toBe(true);
    expect(isValidRange('2001:db8::/64')).toBe(true);
    expect(isValid('Вандал')).toBe(false);
  });

  it('sanitises like IPUtils: IPv6 upper-case and expanded', () => {
    expect(sanitizeIP('2001:db8::/64')).toBe('2001:DB8:0:0:0:0:0:0/64');
    expect(sanitizeIP('192.000.002.015')).toBe('192.0.2.15');
  });

  it('parses ranges to hex bounds and formats them back', () => {
    const r = parseRange('198.51.100.0/24')!;
    expect(r).toEqual({ start: 'C6336400', end: 'C63364FF' });
    expect(formatHex(r.end)).toBe('198.51.100.255');
    expect(formatHex(parseRange('2001:db8::/64')!.end)).toBe('2001:DB8:0:0:FFFF:FFFF:FFFF:FFFF');
  });
});
