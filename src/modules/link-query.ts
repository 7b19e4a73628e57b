import { isValid as isValidIp } from '../util/ip.js';
import { rawurldecode } from '../util/php-url.js';
import { reverseHost } from '../wiki/link-index.js';

/**
 * `elquery` as ApiQueryExternalLinks reads it: Parser::normalizeLinkUrl, then
 * LinkFilter::makeLikeArray and ::getQueryConditions (with `oneWildcard`), for 1.39 (one
 * `el_index` column) and 1.43 (`el_to_domain_index` and `el_to_path`). A query LinkFilter cannot
 * use (a `*` anywhere but at the start of the host, a URL PHP's parse_url refuses) gives null:
 * the module answers `badquery`.
 */

/** What PHP's parse_url returns (keys present only when the URL has them). */
export interface PhpUrl {
  scheme: string;
  host?: string;
  port?: number;
  user?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

/** PHP's parse_url for `scheme:…` URLs (what LinkFilter is given); null where PHP returns false. */
export function phpParseUrl(url: string): PhpUrl | null {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(url);
  if (!m) return null;
  const out: PhpUrl = { scheme: m[1]! };
  let rest = m[2]!;
  if (rest.startsWith('//')) {
    const end = rest.slice(2).search(/[/?#]/);
    let authority = end < 0 ? rest.slice(2) : rest.slice(2, 2 + end);
    rest = end < 0 ? '' : rest.slice(2 + end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      out.user = authority.slice(0, at).split(':')[0]!;
      authority = authority.slice(at + 1);
    }
    // The port follows the last `:` (after an `[IPv6]` host's bracket).
    const close = authority.startsWith('[') ? authority.indexOf(']') : -1;
    const colon = authority.lastIndexOf(':') > close ? authority.lastIndexOf(':') : -1;
    const host = colon < 0 ? authority : authority.slice(0, colon);
    if (colon >= 0) {
      const portText = authority.slice(colon + 1);
      const digits = /^\d+/.exec(portText);
      if (portText !== '' && !digits) return null;
      if (digits) {
        const port = Number(digits[0]);
        if (port > 65535) return null;
        out.port = port;
      }
    }
    if (host === '') return null;
    out.host = host;
  }
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    out.fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  const q = rest.indexOf('?');
  if (q >= 0) {
    out.query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (rest !== '') out.path = rest;
  return out;
}

/** $wgUrlProtocols of a default install, as UrlUtils reads them. */
const URL_PROTOCOLS = new Set(['bitcoin:', 'ftp://', 'ftps://', 'geo:', 'git://', 'gopher://', 'http://', 'https://', 'irc://', 'ircs://', 'magnet:', 'mailto:', 'matrix:', 'mms://', 'news:', 'nntp://', 'redis://', 'sftp://', 'sip:', 'sips:', 'sms:', 'ssh://', 'svn://', 'tel:', 'telnet://', 'urn:', 'worldwind://', 'xmpp:', '//']);

/** UrlUtils::parse: parse_url's parts with a known protocol and its delimiter; `mailto:` and `news:` keep the address as host in 1.39. */
interface UrlBits {
  scheme: string;
  delimiter: string;
  host: string;
  port?: number;
  path?: string;
  query?: string;
  fragment?: string;
}

function urlUtilsParse(url: string, modern: boolean): UrlBits | null {
  const relative = url.startsWith('//');
  const bits = phpParseUrl(relative ? `http:${url}` : url);
  if (!bits) return null;
  const scheme = bits.scheme.toLowerCase();
  const out: UrlBits = { ...bits, scheme, delimiter: '', host: bits.host ?? '' };
  let hasHost = bits.host !== undefined;
  if (URL_PROTOCOLS.has(`${scheme}://`)) out.delimiter = '://';
  else if (URL_PROTOCOLS.has(`${scheme}:`)) {
    out.delimiter = ':';
    // 1.39: parse_url reads a mailto:/news: address as the path; the host it is.
    if (!modern && out.path !== undefined) {
      out.host = out.path;
      out.path = '';
      hasHost = true;
    }
  } else return null;
  // 1.39: no host (file:///…) is an empty one, and the path then starts with `/`.
  if (!modern && !hasHost) out.path = out.path === undefined ? '' : out.path.startsWith('/') ? out.path : `/${out.path}`;
  if (relative) {
    out.scheme = '';
    out.delimiter = '//';
  }
  return out;
}

/** The LIKE wildcard (`$db->anyString()`). */
const ANY = Symbol('any');
type Like = Array<string | typeof ANY>;

/** The parts of a LIKE array up to its first wildcard, as one prefix (LinkFilter::keepOneWildcard, the wildcard dropped). */
function prefixOf(like: Like): string {
  const end = like.indexOf(ANY);
  return (end < 0 ? like : like.slice(0, end)).join('');
}

/** The host part of a LIKE array: a mail address as `domain.reversed@local`, `*.` at the start of a host for its subdomains. */
function likeHost(bits: UrlBits): { host: string; subdomains: boolean } {
  const at = bits.scheme === 'mailto' ? bits.host.indexOf('@') : -1;
  // PHP's strpos: an `@` first (position 0) is false, so no address.
  if (at > 0) {
    const local = bits.host.slice(0, at);
    const domain = reverseHost(bits.host.slice(at + 1));
    return local === '*' ? { host: `${domain}@`, subdomains: true } : { host: `${domain}@${local}`, subdomains: false };
  }
  const host = reverseHost(bits.host);
  return host.endsWith('.*.') ? { host: host.slice(0, -2), subdomains: true } : { host, subdomains: false };
}

/** Any `*` outside a wildcard: LinkFilter refuses the query. */
const stray = (parts: Like): boolean => parts.some((p) => p !== ANY && p.includes('*'));

/** LinkFilter::makeLikeArray (1.39): one array for `el_index`. */
function likeArray139(target: string): Like | null {
  const bits = urlUtilsParse(target, false);
  if (!bits) return null;
  const { host, subdomains } = likeHost(bits);
  const like: Like = [bits.scheme + bits.delimiter + host];
  if (subdomains) like.push(ANY);
  if (bits.port !== undefined) like.push(`:${bits.port}`);
  if (bits.path !== undefined) like.push(bits.path);
  else if (!subdomains) like.push('/');
  if (bits.query !== undefined) like.push(`?${bits.query}`);
  if (bits.fragment !== undefined) like.push(`#${bits.fragment}`);
  if (stray(like)) return null;
  if (like[like.length - 1] !== ANY) like.push(ANY);
  return like;
}

/** LinkFilter::makeLikeArray (1.43): the domain and the path arrays. */
function likeArrays143(target: string): { domain: Like; path: Like } | null {
  const bits = urlUtilsParse(target, true);
  if (!bits) return null;
  if (bits.scheme === 'mailto' || bits.scheme === 'news') {
    if (bits.path !== undefined) bits.host = bits.path;
    bits.path = '';
  }
  const { host, subdomains } = likeHost(bits);
  const domain: Like = [bits.scheme + bits.delimiter + host];
  if (subdomains) domain.push(ANY);
  if (bits.port !== undefined) domain.push(`:${bits.port}`);
  const path: Like = [bits.path ?? '/'];
  if (bits.query !== undefined) path.push(`?${bits.query}`);
  if (bits.fragment !== undefined) path.push(`#${bits.fragment}`);
  path.push(ANY);
  if (stray(domain) || stray(path)) return null;
  return { domain, path };
}

/** A link's rows as the query conditions read them: its `el_index` (1.39), or its domain index and path (1.43). */
export interface LinkRow {
  index: string;
  domain: string;
  path: string;
}

/** LinkFilter::getQueryConditions with `oneWildcard`: which rows a query selects; null for `badquery`. */
export function linkQuery(query: string, protocol: string | null, modern: boolean): ((row: LinkRow) => boolean) | null {
  if (!modern) {
    // 1.39: the protocol (http:// unless elprotocol says) is part of the query.
    const like = likeArray139(normalizeLinkUrl(`${protocol ?? 'http://'}${query}`, false));
    if (!like) return null;
    const prefix = prefixOf(like);
    return (row) => row.index.startsWith(prefix);
  }
  const normalized = normalizeLinkUrl(query, true);
  const domains: Array<(domain: string) => boolean> = [];
  let path: Like | null = null;
  for (const p of protocol === null ? ['http://', 'https://'] : [protocol]) {
    const like = likeArrays143(p + normalized);
    if (!like) continue;
    const index1 = prefixOf(like.domain);
    // A path other than `/` pins the domain exactly (PHP compares the first path part to '/').
    domains.push(like.path[0] !== '/' ? (d) => d === index1 : (d) => d.startsWith(index1));
    path = like.path;
  }
  if (path === null) return null;
  const index2 = prefixOf(path);
  return (row) => domains.some((d) => d(row.domain)) && row.path.startsWith(index2);
}

/** LinkFilter::makeIndexes (1.43): a link's domain index and path. */
export function rowOf143(url: string): { domain: string; path: string } | null {
  const bits = urlUtilsParse(url, true);
  if (!bits) return null;
  if (bits.scheme === 'mailto' || bits.scheme === 'news') {
    if (bits.path !== undefined) bits.host = bits.path;
    bits.path = '';
  }
  let host: string;
  if (bits.scheme === 'mailto') {
    const at = bits.host.indexOf('@');
    host = at < 0 ? `@${bits.host}` : `${reverseHost(bits.host.slice(at + 1))}@${bits.host.slice(0, at)}`;
  } else host = reverseHost(bits.host);
  let domain = bits.scheme + bits.delimiter + host;
  if (bits.port !== undefined) domain += `:${bits.port}`;
  let path = bits.path ?? '/';
  if (bits.query !== undefined) path += `?${bits.query}`;
  if (bits.fragment !== undefined) path += `#${bits.fragment}`;
  return { domain: bits.scheme === '' ? `https:${domain}` : domain, path };
}

// ---------------------------------------------------------------------------------------------
// Parser::normalizeLinkUrl

/** Bytes PHP's normalizeLinkUrl always percent-encodes (controls, space, `"<>[\]^`{|}`, DEL, non-ASCII). */
const UNSAFE_BYTE = (b: number): boolean => b <= 0x20 || b >= 0x7f || '"<>[\\]^`{|}'.includes(String.fromCharCode(b));

function encodeUnsafe(url: string): string {
  let out = '';
  for (const b of Buffer.from(url, 'utf8')) out += UNSAFE_BYTE(b) ? `%${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b);
  return out;
}

/** Parser::normalizeUrlComponent: `%XX` of a printable ASCII character not in `unsafe` is decoded, others upper-cased. */
function normalizeComponent(component: string, unsafe: string): string {
  return component.replace(/%[0-9A-Fa-f]{2}/g, (m) => {
    const c = parseInt(m.slice(1), 16);
    const ch = String.fromCharCode(c);
    return c > 32 && c < 127 && !unsafe.includes(ch) ? ch : m.toUpperCase();
  });
}

/** UrlUtils::removeDotSegments (RFC 3986 5.2.4). */
function removeDotSegments(path: string): string {
  let input = path;
  let output = '';
  while (input !== '') {
    if (input.startsWith('../')) input = input.slice(3);
    else if (input.startsWith('./')) input = input.slice(2);
    else if (input.startsWith('/./')) input = input.slice(2);
    else if (input === '/.') input = '/';
    else if (input.startsWith('/../') || input === '/..') {
      input = input === '/..' ? '/' : input.slice(3);
      output = output.slice(0, Math.max(0, output.lastIndexOf('/')));
    } else if (input === '.' || input === '..') input = '';
    else {
      const next = input.indexOf('/', input.startsWith('/') ? 1 : 0);
      const seg = next < 0 ? input : input.slice(0, next);
      output += seg;
      input = input.slice(seg.length);
    }
  }
  return output;
}

const UNSAFE_FRAGMENT = '"#%<>[\\]^`{|}';
const UNSAFE_QUERY = '"#%<>[\\]^`{|}&=+;';
const UNSAFE_PATH = '"#%<>[\\]^`{|}/?';

const SCHEME = '[a-z][a-z0-9+.-]*:';
const USERINFO = "(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*";
const IPV6_HOST = new RegExp(`^(?:${SCHEME})?//(?:${USERINFO}@)?\\[((?:[0-9a-f:]|%3[0-A]|%[46][1-6])+)\\](?:[:/?#].*|)$`, 'is');

/**
 * Parser::normalizeLinkUrl: unsafe bytes percent-encoded, needless escapes decoded per part
 * (fragment, query, then the rest; 1.43 also the path on its own, with dot segments removed), and
 * the brackets of an IPv6 host put back.
 */
export function normalizeLinkUrl(url: string, modern: boolean): string {
  const v6 = IPV6_HOST.exec(url);
  const ipv6 = v6 && isValidIp(rawurldecode(v6[1]!)) ? rawurldecode(v6[1]!) : null;
  const normalized = normalizeParts(encodeUnsafe(url), modern);
  if (ipv6 === null) return normalized;
  const escaped = ipv6.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return normalized.replace(new RegExp(`^((?:${SCHEME})?//(?:${USERINFO}@)?)%5B(${escaped})%5D(?=[:/?#]|$)`, 'i'), '$1[$2]');
}

function normalizeParts(s: string, modern: boolean): string {
  let ret = '';
  let end = s.length;
  const hash = s.indexOf('#');
  if (hash >= 0) {
    ret = normalizeComponent(s.slice(hash, end), UNSAFE_FRAGMENT) + ret;
    end = hash;
  }
  const q = s.indexOf('?');
  if (q >= 0 && q < end) {
    ret = normalizeComponent(s.slice(q, end), UNSAFE_QUERY) + ret;
    end = q;
  }
  if (modern) {
    const slashes = s.indexOf('//');
    const start = s.indexOf('/', slashes < 0 ? 0 : slashes + 2);
    if (start >= 0 && start < end) {
      ret = removeDotSegments(normalizeComponent(s.slice(start, end), UNSAFE_PATH)) + ret;
      end = start;
    }
  }
  return normalizeComponent(s.slice(0, end), UNSAFE_PATH) + ret;
}
