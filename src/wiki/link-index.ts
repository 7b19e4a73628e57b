import { domainToUnicode } from 'node:url';
import { isIPv6 } from 'node:net';

/**
 * LinkFilter's reversed-host index of an external link (`http://com.example.www./path`), as
 * MediaWiki 1.39 stores it in `el_index`, and the URL a 1.41+ schema gives back.
 */

interface UrlParts {
  scheme: string; // 'http://', '//', 'mailto:' …
  host: string;
  port: string;
  path: string; // path + query + fragment
  user: string;
}

/** $wgUrlProtocols written without `//`. */
export const SLASHLESS_PROTOCOLS: readonly string[] = ['bitcoin', 'geo', 'magnet', 'mailto', 'matrix', 'news', 'sip', 'sips', 'sms', 'tel', 'urn', 'xmpp'];
const SLASHLESS = new Set(SLASHLESS_PROTOCOLS.map((p) => `${p}:`));

function splitUrl(url: string): UrlParts | null {
  const m = /^([a-z][a-z0-9+.-]*:)?(\/\/)?(.*)$/is.exec(url);
  if (!m) return null;
  const proto = m[1] ?? '';
  const slashes = m[2] ?? '';
  const rest = m[3] ?? '';
  if (!slashes) {
    // UrlUtils::parse: for a protocol without `//` (mailto:, news: …) all before `?` or `#` is the host.
    const scheme = proto.toLowerCase();
    if (!SLASHLESS.has(scheme)) return null;
    const end = rest.search(/[?#]/);
    const addr = end < 0 ? rest : rest.slice(0, end);
    const path = end < 0 ? '' : rest.slice(end);
    const at = scheme === 'mailto:' ? addr.indexOf('@') : -1;
    if (at < 0) return { scheme, host: addr, port: '', path, user: '' };
    return { scheme, user: addr.slice(0, at), host: addr.slice(at + 1), port: '', path };
  }
  const end = rest.search(/[/?#]/);
  let authority = end < 0 ? rest : rest.slice(0, end);
  const path = end < 0 ? '' : rest.slice(end);
  let user = '';
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    user = authority.slice(0, at);
    authority = authority.slice(at + 1);
  }
  const pm = /^(.*?)(:\d*)?$/.exec(authority);
  return { scheme: proto.toLowerCase() + '//', host: pm?.[1] ?? authority, port: pm?.[2] ?? '', path, user };
}

/** PHP's rawurldecode on a string's UTF-8 bytes: `%XX` becomes that byte (invalid UTF-8 stays bytes). */
function rawurldecodeBytes(s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < b.length; i++) {
    const hex = b[i] === 0x25 && i + 2 < b.length ? String.fromCharCode(b[i + 1]!, b[i + 2]!) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(b[i]!);
  }
  return Buffer.from(out);
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const IPV4_PART = '(?:0*25[0-5]|0*2[0-4][0-9]|0*1[0-9][0-9]|0*[0-9]?[0-9])';
const IPV4 = new RegExp(`^(?:${IPV4_PART}\\.){3}${IPV4_PART}$|^(?:${IPV4_PART}\\.){1,3}\\*$`);

/**
 * LinkFilter::indexifyHost (1.39): the host decoded, IDN labels turned to Unicode, lower-cased,
 * bytes outside the safe set percent-encoded (valid UTF-8 is kept as it is), then `V4.1.2.3.4.`
 * for IPv4, `V6.…` for IPv6, else the labels reversed: `www.example.com` → `com.example.www.`.
 */
export function reverseHost(host: string): string {
  let h = reversed.get(host);
  if (h === undefined) {
    // Bounded: a wiki's links name many hosts, but a page's few, and pages share them (a 50 titles'
    // answer of 250 links worked out each host once per link: an eighth of its time).
    if (reversed.size >= REVERSED_HOSTS) reversed.clear();
    reversed.set(host, (h = indexifyHost(host)));
  }
  return h;
}

/** reverseHost's memo, and how many hosts it holds at most. */
const reversed = new Map<string, string>();
const REVERSED_HOSTS = 10_000;

function indexifyHost(host: string): string {
  const bytes = rawurldecodeBytes(host);
  let text: string | null;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch {
    text = null;
  }
  // (Only for hosts idn_to_utf8 would change: the URL parser behind domainToUnicode also reads `1.2.3` as an IPv4 address.)
  if (text !== null && /[^\x00-\x7f]|xn--/i.test(text)) text = idnToUtf8(text) ?? text;
  const raw = text !== null ? Buffer.from(text, 'utf8') : bytes;
  const utf8 = text !== null;
  let h = '';
  for (const byte of raw) {
    const c = byte >= 0x41 && byte <= 0x5a ? byte + 32 : byte; // strtolower: ASCII only
    const ok = /[a-z0-9\-._~!$&'()*+,;=]/.test(String.fromCharCode(c)) && c < 0x80;
    if (ok || (utf8 && c >= 0x80 && c <= 0xf4)) h += String.fromCharCode(c);
    else h += `%${c.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  // Back to a JS string: kept bytes are UTF-8 (or, for invalid input, encoded above).
  h = Buffer.from(h, 'latin1').toString('utf8');
  const v6 = /^\[([0-9a-f:*]+)\]$/.exec(decodeURIComponentSafe(h));
  const ipv6 = v6 ? indexIPv6(v6[1]!) : null;
  if (ipv6 !== null) return ipv6;
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (IPV4.test(h)) return `V4.${h.split('.').map((v) => (v === '*' ? v : String(Number(v)))).join('.')}.`;
  return `${h.split('.').reverse().join('.')}.`;
}

/**
 * idn_to_utf8 (UTS #46, non-STD3) as PHP runs it on a whole host: xn-- labels to Unicode, the rest
 * mapped (lower case); null where it fails. A character a URL host may not hold (`/`, `:`, `?` …,
 * which a mailto: or news: address can bring) is part of its label to PHP, while Node's
 * domainToUnicode would cut the host there: such labels are mapped piece by piece, and an
 * xn-- label holding one is invalid.
 */
function idnToUtf8(text: string): string | null {
  const forbidden = /[\x00-\x20#%/:<>?@[\\\]^|]/;
  if (!forbidden.test(text)) return domainToUnicode(text) || null;
  const labels = text.split('.').map((label) => {
    if (!forbidden.test(label)) return domainToUnicode(label) || (label === '' ? '' : null);
    if (/^xn--/i.test(label)) return null;
    return label.split(/([\x00-\x20#%/:<>?@[\\\]^|])/).map((piece, i) => (i % 2 === 1 || piece === '' ? piece : domainToUnicode(piece) || piece)).join('');
  });
  return labels.some((l) => l === null) ? null : labels.join('.');
}

/**
 * indexifyHost's `[v6]` host: `V6.…`, and an address ending in `:*` as a wildcard over the rest
 * (`[2001:db8:*]` → `V6.2001.DB8.*.`; with a `::`, only the last group is wild).
 */
function indexIPv6(ip: string): string | null {
  const full = sanitizeIPv6(ip);
  if (full !== null) return `V6.${full.split(':').join('.')}.`;
  if (!ip.endsWith(':*')) return null;
  const cut = ip.slice(0, -2);
  const open = sanitizeIPv6(`${cut}::`);
  if (open !== null) return `V6.${open.split(':').slice(0, ip.split(':').length - 1).join('.')}.*.`;
  const last = sanitizeIPv6(`${cut}:1`);
  return last === null ? null : `V6.${last.split(':').join('.').slice(0, -1)}*.`;
}

/** decodeURIComponent, or the text as it is where it is not a valid encoding. */
export function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** IPUtils::sanitizeIP for a full IPv6 address: upper case, `::` expanded, leading zeros dropped; null when invalid. */
function sanitizeIPv6(ip: string): string | null {
  if (ip.includes('*') || !isIPv6(ip)) return null;
  let groups: string[];
  if (ip.includes('::')) {
    const [a, b] = ip.split('::') as [string, string];
    const left = a === '' ? [] : a.split(':');
    const right = b === '' ? [] : b.split(':');
    groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  } else groups = ip.split(':');
  return groups.map((g) => parseInt(g, 16).toString(16).toUpperCase()).join(':');
}

/** The `el_index` rows of a URL: protocol-relative links are indexed as http and https. */
export function makeIndexes(url: string): string[] {
  const p = splitUrl(url);
  if (!p) return [];
  // mailto: `domain.reversed@localpart`; an address without `@` is all local part.
  if (p.scheme === 'mailto:') return [`mailto:${p.user ? `${reverseHost(p.host)}@${p.user}` : `@${p.host}`}${p.path}`];
  if (SLASHLESS.has(p.scheme)) return [`${p.scheme}${reverseHost(p.host)}${p.path}`];
  const tail = `${p.port}${p.path || '/'}`;
  const idx = `${reverseHost(p.host)}${tail}`;
  if (p.scheme === '//') return [`http://${idx}`, `https://${idx}`];
  return [`${p.scheme}${idx}`];
}

/** The first 60 bytes of the index (`el_index_60`), cut on a UTF-8 byte boundary like MySQL's binary column. */
export function index60(index: string): string {
  const b = Buffer.from(index, 'utf8');
  if (b.length <= 60) return index;
  // A character cut in two is shown as U+FFFD (ApiResult cleans invalid UTF-8 up).
  return b.subarray(0, 60).toString('utf8');
}

/** The URL a 1.41+ schema reconstructs from domain index and path. */
export function reconstructUrl(url: string): string {
  const p = splitUrl(url);
  if (!p) return url;
  if (p.scheme === 'mailto:') return `mailto:${p.user ? p.user + '@' : ''}${p.host.toLowerCase()}${p.path}`;
  const scheme = p.scheme === '//' ? 'https://' : p.scheme;
  return `${scheme}${p.host.toLowerCase().replace(/\.$/, '')}${p.port}${p.path || '/'}`;
}
