import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as ip from '../../../src/util/ip.js';

/**
 * ip-php.json (`npm run generate ip`): wikimedia/ip-utils 5.0.0 on PHP 8.2 for each input: [input, isIPAddress, isIPv4,
 * isIPv6, isValid, isValidRange, sanitizeIP, toHex, parseCIDR [network, bits] | null,
 * parseRange [start, end] | null, formatHex of both ends | null].
 */
type Row = [string, boolean, boolean, boolean, boolean, boolean, string | null, string | null, [string, number] | null, [string, string] | null, [string, string] | null];
const rows = JSON.parse(readFileSync(new URL('./ip-php.json', import.meta.url), 'utf8')) as Row[];

const actual = (v: string): unknown[] => {
  const c = ip.parseCIDR(v);
  const r = ip.parseRange(v);
  return [
    v, ip.isIPAddress(v), ip.isIPv4(v), ip.isIPv6(v), ip.isValid(v), ip.isValidRange(v), ip.sanitizeIP(v), ip.toHex(v),
    c ? [c.network.toString(), Math.trunc(c.bits)] : null,
    r ? [r.start, r.end] : null,
    r ? [ip.formatHex(r.start), ip.formatHex(r.end)] : null,
  ];
};

describe('IPUtils', () => {
  it('agrees with wikimedia/ip-utils on every recorded input', () => {
    const wrong = rows.filter((row) => JSON.stringify(actual(row[0])) !== JSON.stringify(row)).map((row) => ({ want: row, got: actual(row[0]) }));
    expect(wrong).toEqual([]);
    expect(rows.length).toBeGreaterThan(400);
  });

  it('tells addresses from ranges', () => {
    expect(ip.isValid('192.0.2.15')).toBe(true);
    expect(ip.isValid('2001:db8::1')).toBe(true);
    expect(ip.isValid('198.51.100.0/24')).toBe(false);
    expect(ip.isValidRange('198.51.100.0/24')).toBe(true);
    expect(ip.isValidRange('2001:db8::/64')).toBe(true);
    expect(ip.isValidRange('1.2.3.4 - 1.2.3.9')).toBe(true);
    expect(ip.isIPv6('1:2:3:4:5:6:7::8')).toBe(false);
    expect(ip.isValid('Вандал')).toBe(false);
    expect(ip.isValid('1.2.3.4\n')).toBe(true); // PCRE's $ before a final newline
  });

  it('sanitises like IPUtils: IPv4 without leading zeros, IPv6 upper-case and expanded', () => {
    expect(ip.sanitizeIP('2001:db8::/64')).toBe('2001:DB8:0:0:0:0:0:0/64');
    expect(ip.sanitizeIP('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(ip.sanitizeIP('192.000.002.015')).toBe('192.0.2.15');
    expect(ip.sanitizeIP('  ')).toBeNull();
    expect(ip.sanitizeIP('Foo')).toBe('Foo');
  });

  it('gives ranges as hex bounds and formats them back', () => {
    const r = ip.parseRange('198.51.100.0/24')!;
    expect(r).toEqual({ start: 'C6336400', end: 'C63364FF' });
    expect(ip.formatHex(r.end)).toBe('198.51.100.255');
    expect(ip.parseRange('2001:db8::/64')).toEqual({ start: 'v6-20010DB8000000000000000000000000', end: 'v6-20010DB800000000FFFFFFFFFFFFFFFF' });
    expect(ip.formatHex(ip.parseRange('2001:db8::/64')!.end)).toBe('2001:DB8:0:0:FFFF:FFFF:FFFF:FFFF');
    expect(ip.formatHex('')).toBe('0.0.0.0');
    expect(ip.parseRange('010.0.0.0/8')).toBeNull(); // ip2long rejects the leading zero
    expect(ip.toHex('1.2.3.4')).toBe('01020304');
  });

  it('extracts the CIDR prefix for the cidrtoobroad check', () => {
    expect(ip.parseCIDR('10.0.0.0/8')).toEqual({ network: 0x0a000000n, bits: 8 });
    expect(ip.parseCIDR('2001:db8::/19')?.bits).toBe(19);
    expect(ip.parseCIDR('10.0.0.1')).toBeNull();
  });
});
