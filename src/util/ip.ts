/**
 * The parts of wikimedia/ip-utils (IPUtils) the API uses: validity, sanitising, ranges as hex.
 */
const BYTE = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|0?[1-9]\\d|0?0?\\d)';
const V4 = new RegExp(`^${BYTE}\\.${BYTE}\\.${BYTE}\\.${BYTE}$`);
const V4_RANGE = new RegExp(`^${BYTE}\\.${BYTE}\\.${BYTE}\\.${BYTE}/(3[0-2]|[12]?\\d)$`);

function parseV6(s: string): number[] | null {
  if (!/^[0-9a-f:]+$/i.test(s) || s.includes(':::')) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => g.length === 0 || g.length > 4)) return null;
  return groups.map((g) => parseInt(g, 16));
}

export const isIPv4 = (s: string): boolean => V4.test(s) || V4_RANGE.test(s);
export const isIPv6 = (s: string): boolean => parseV6(s.split('/')[0] ?? '') !== null && /^[^/]+(\/(12[0-8]|1[01]\d|[1-9]?\d))?$/.test(s);

/** A single IPv4 or IPv6 address (no range). */
export function isValid(s: string): boolean {
  return V4.test(s) || (!s.includes('/') && parseV6(s) !== null);
}

/** A CIDR range (`a.b.c.d/n`, `v6/n`). */
export function isValidRange(s: string): boolean {
  return V4_RANGE.test(s) || (s.includes('/') && isIPv6(s));
}

export function isIPAddress(s: string): boolean {
  return isValid(s) || isValidRange(s);
}

/** IPUtils::sanitizeIP: IPv4 without leading zeros, IPv6 upper-case and expanded; others unchanged (null if empty). */
export function sanitizeIP(s: string): string | null {
  const ip = s.trim();
  if (ip === '') return null;
  const [addr = '', bits] = ip.split('/');
  if (V4.test(addr)) return addr.split('.').map((b) => String(Number(b))).join('.') + (bits !== undefined ? `/${bits}` : '');
  const v6 = parseV6(addr);
  if (!v6) return ip;
  return v6.map((g) => g.toString(16).toUpperCase()).join(':') + (bits !== undefined ? `/${bits}` : '');
}

/** IPUtils::toHex: 8 hex digits for IPv4, `v6-` + 32 for IPv6. */
export function toHex(ip: string): string | null {
  if (V4.test(ip)) return ip.split('.').map((b) => Number(b).toString(16).toUpperCase().padStart(2, '0')).join('');
  const v6 = parseV6(ip);
  return v6 ? `v6-${v6.map((g) => g.toString(16).toUpperCase().padStart(4, '0')).join('')}` : null;
}

/** IPUtils::parseRange: the first and last address of an IP or range, as hex. */
export function parseRange(s: string): { start: string; end: string } | null {
  const [addr = '', bitsText] = s.split('/');
  const hex = toHex(addr);
  if (hex === null) return null;
  const v6 = hex.startsWith('v6-');
  const digits = v6 ? hex.slice(3) : hex;
  const total = digits.length * 4;
  const bits = bitsText === undefined ? total : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > total) return null;
  const bin = BigInt(`0x${digits}`);
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(total - bits);
  const all = (1n << BigInt(total)) - 1n;
  const start = bin & mask;
  const end = start | (all ^ mask);
  const fmt = (n: bigint) => (v6 ? 'v6-' : '') + n.toString(16).toUpperCase().padStart(digits.length, '0');
  return { start: fmt(start), end: fmt(end) };
}

/** IPUtils::formatHex: hex back to an address (IPv6 upper-case, uncompressed, no leading zeros). */
export function formatHex(hex: string): string {
  if (hex.startsWith('v6-')) {
    const d = hex.slice(3);
    return Array.from({ length: 8 }, (_, i) => parseInt(d.slice(i * 4, i * 4 + 4), 16).toString(16).toUpperCase()).join(':');
  }
  return Array.from({ length: 4 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
}
