/**
 * The parts of wikimedia/ip-utils 5.0 (IPUtils) the API uses, with PHP's quirks: its patterns'
 * `$` also matches before a final "\n", ip2long is glibc's strict inet_pton, and range ends are
 * compared as PHP compares strings (numeric-looking hex strings numerically).
 */

const BYTE = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|0?[0-9]?[0-9])';
const V4 = `${BYTE}\\.${BYTE}\\.${BYTE}\\.${BYTE}`;
const V4_PREFIX = '(?:3[0-2]|[12][0-9]|[0-9])';
const W = '[0-9A-Fa-f]{1,4}';
// RE_IPV6_ADD; its PCRE conditional branch is "exactly one :: between words, 2–7 words".
const MIDDLE = [1, 2, 3, 4, 5, 6].map((a) => `${W}(?::${W}){${a - 1}}::${W}(?::${W}){0,${6 - a}}`).join('|');
const V6 = `(?::(?::|(?::${W}){1,7})|${W}(?::${W}){0,6}::|${MIDDLE}|${W}(?::${W}){7})`;
const V6_PREFIX = '(?:12[0-8]|1[01][0-9]|[1-9][0-9]|[0-9])';
const END = '\\n?$';

const RE = {
  address: new RegExp(`^(?:${V4}(?:/${V4_PREFIX})?|${V6}(?:/${V6_PREFIX})?)${END}`),
  v4: new RegExp(`^${V4}(?:/${V4_PREFIX})?${END}`),
  v6: new RegExp(`^${V6}(?:/${V6_PREFIX})?${END}`),
  validV4: new RegExp(`^${V4}${END}`),
  validV6: new RegExp(`^${V6}${END}`),
  rangeV4: new RegExp(`^(?:${V4}/${V4_PREFIX}|${V4} ?- ?${V4})${END}`),
  rangeV6: new RegExp(`^(?:${V6}/${V6_PREFIX}|${V6} ?- ?${V6})${END}`),
};

/** An IPv4 or IPv6 address, optionally with a CIDR suffix. */
export const isIPAddress = (ip: string): boolean => RE.address.test(ip);
/** IPv4, optionally with a CIDR suffix. */
export const isIPv4 = (ip: string): boolean => RE.v4.test(ip);
/** IPv6, optionally with a CIDR suffix. */
export const isIPv6 = (ip: string): boolean => RE.v6.test(ip);
const isValidIPv4 = (ip: string): boolean => RE.validV4.test(ip);
const isValidIPv6 = (ip: string): boolean => RE.validV6.test(ip);
/** A single address (no range). */
export const isValid = (ip: string): boolean => isValidIPv4(ip) || isValidIPv6(ip);
/** A CIDR range (`a.b.c.d/n`, `v6/n`) or an `a - b` range. */
export const isValidRange = (range: string): boolean => RE.rangeV4.test(range) || RE.rangeV6.test(range);

const phpTrim = (s: string): string => s.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');

/** IPUtils::sanitizeIP: trimmed; IPv4 without leading zeros; IPv6 upper-case, `::` expanded, no leading zeros. */
export function sanitizeIP(input: string): string | null {
  let ip = phpTrim(input);
  if (ip === '') return null;
  if (!isIPAddress(ip)) return ip;
  if (isIPv4(ip)) return ip.replace(/(?:^|(?<=\.))0+(?=[1-9]|0[./]|0$)/g, '');
  ip = ip.toUpperCase();
  const abbrev = ip.indexOf('::');
  if (abbrev !== -1) {
    const cidr = ip.indexOf('/');
    const addressEnd = cidr !== -1 ? cidr - 1 : ip.length - 1;
    const colons = ip.split(':').length - 1;
    const [repeat, extra, pad] = abbrev === 0 ? ['0:', ip === '::' ? '0' : '', 9] : abbrev === addressEnd - 1 ? [':0', '', 9] : [':0', ':', 8];
    ip = ip.replaceAll('::', repeat.repeat(Math.max(0, pad - colons)) + extra);
  }
  return ip.replace(new RegExp(`(^|:)0+(${W})`, 'g'), '$1$2');
}

/** PHP ip2long (glibc inet_pton): exactly four decimal parts 0–255, no leading zeros. */
function ip2long(ip: string): number | null {
  if (!/^(?:(?:0|[1-9][0-9]{0,2})\.){3}(?:0|[1-9][0-9]{0,2})$/.test(ip)) return null;
  const parts = ip.split('.').map(Number);
  return parts.some((p) => p > 255) ? null : parts.reduce((n, p) => n * 256 + p, 0);
}

const hex = (n: bigint | number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

/** The 32 hex digits of an IPv6 address (IPUtils::IPv6ToRawHex), pieces padded as PHP does. */
function ipv6RawHex(ip: string): string | null {
  const s = sanitizeIP(ip);
  return s ? s.split(':').map((p) => p.padStart(4, '0')).join('') : null;
}

/** IPUtils::toHex: 8 hex digits for IPv4, `v6-` + 32 for IPv6; null for anything else. */
export function toHex(ip: string): string | null {
  if (isIPv6(ip)) {
    const raw = ipv6RawHex(ip);
    return raw === null ? null : `v6-${raw}`;
  }
  if (isIPv4(ip)) {
    const n = ip2long(sanitizeIP(ip) ?? '');
    return n === null ? null : hex(n, 8);
  }
  return null;
}

/** PHP's is_numeric. */
const isNumeric = (s: string): boolean => /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(s);

/** IPUtils::parseCIDR: the network (IPv4 as a number, IPv6 as a bigint) and prefix length; null if not a CIDR. */
export function parseCIDR(range: string): { network: bigint; bits: number } | null {
  if (isIPv6(range)) {
    const sanitized = sanitizeIP(range) ?? '';
    const slash = sanitized.indexOf('/');
    if (slash === -1) return null;
    const [net, bitsText] = [sanitized.slice(0, slash), sanitized.slice(slash + 1)];
    const raw = ipv6RawHex(net);
    const bits = Number(bitsText);
    if (raw === null || !isNumeric(bitsText) || !(bits >= 0 && bits <= 128)) return null;
    const binary = BigInt(`0x${raw.replace(/[^0-9A-F]/g, '') || '0'}`).toString(2).padStart(128, '0');
    return { network: BigInt(`0b${binary.slice(0, Math.trunc(bits)).padEnd(128, '0')}`), bits: Math.trunc(bits) };
  }
  const slash = range.indexOf('/');
  if (slash === -1) return null;
  const network = ip2long(range.slice(0, slash));
  const bitsText = range.slice(slash + 1);
  const bits = Number(bitsText);
  if (network === null || !isNumeric(bitsText) || !(bits >= 0 && bits <= 32)) return null;
  const mask = ~((1n << BigInt(32 - Math.trunc(bits))) - 1n);
  return { network: BigInt(network) & mask & 0xffffffffn, bits };
}

/** PHP 8 `$a > $b` for two strings: numerically if both look numeric, else byte-wise. */
const phpGreater = (a: string, b: string): boolean => (isNumeric(a) && isNumeric(b) ? Number(a) > Number(b) : a > b);

/** IPUtils::parseRange: first and last address of an address, CIDR range or `a - b` range, as hex. */
export function parseRange(range: string): { start: string; end: string } | null {
  let start: string | null;
  let end: string | null;
  if (range.includes('/')) {
    const c = parseCIDR(range);
    if (!c) return null;
    if (isIPv6(range)) {
      const last = c.network.toString(2).padStart(128, '0').slice(0, c.bits).padEnd(128, '1');
      return { start: `v6-${hex(c.network, 32)}`, end: `v6-${hex(BigInt(`0b${last}`), 32)}` };
    }
    start = hex(c.network, 8);
    end = hex(Math.trunc(Number(c.network) + 2 ** (32 - c.bits) - 1), 8);
  } else if (range.includes('-')) {
    const dash = range.indexOf('-');
    const [a, b] = [phpTrim(range.slice(0, dash)), phpTrim(range.slice(dash + 1))];
    const v6 = isIPv6(a) && isIPv6(b);
    if (!v6 && !(isIPv4(a) && isIPv4(b))) return null;
    start = toHex(a);
    end = toHex(b);
    if (start !== null && end !== null && (v6 ? start > end : phpGreater(start, end))) return null;
  } else start = end = toHex(range);
  return start === null || end === null ? null : { start, end };
}

/** PHP base_convert(…, 16, 10) of a short piece: invalid characters ignored. */
const hexPiece = (s: string): number => parseInt(s.replace(/[^0-9A-Fa-f]/g, '') || '0', 16);

/** IPUtils::formatHex: `v6-…` to an upper-case, uncompressed IPv6 without leading zeros; else a dotted quad. */
export function formatHex(value: string): string {
  if (value.startsWith('v6-')) {
    const h = value.slice(3).toUpperCase().padStart(32, '0');
    const octets = Array.from({ length: 8 }, (_, n) => h.slice(4 * n, 4 * n + 4)).join(':');
    return octets.replace(new RegExp(`(^|:)0+(${W})`, 'g'), '$1$2');
  }
  const h = value.toUpperCase().padStart(8, '0');
  return Array.from({ length: 4 }, (_, n) => String(hexPiece(h.slice(2 * n, 2 * n + 2)))).join('.');
}
