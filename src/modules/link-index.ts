/**
 * LinkFilter's reversed-host index of an external link (`http://com.example.www./path`), as
 * MediaWiki 1.39 stores it in `el_index`, and the URL a 1.41+ schema gives back.
 */

export interface UrlParts {
  scheme: string; // 'http://', '//', 'mailto:' …
  host: string;
  port: string;
  path: string; // path + query + fragment
  user: string;
}

export function splitUrl(url: string): UrlParts | null {
  const m = /^([a-z][a-z0-9+.-]*:)?(\/\/)?(.*)$/is.exec(url);
  if (!m) return null;
  const proto = m[1] ?? '';
  const slashes = m[2] ?? '';
  const rest = m[3] ?? '';
  if (!slashes) {
    if (proto.toLowerCase() !== 'mailto:') return null;
    const at = rest.indexOf('@');
    const end = rest.search(/[?#]/);
    const addr = end < 0 ? rest : rest.slice(0, end);
    if (at < 0) return { scheme: 'mailto:', host: addr, port: '', path: end < 0 ? '' : rest.slice(end), user: '' };
    return { scheme: 'mailto:', user: addr.slice(0, at), host: addr.slice(at + 1), port: '', path: end < 0 ? '' : rest.slice(end) };
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

/** LinkFilter::reverseDomain: `www.example.com` → `com.example.www.`; IPs are kept in order. */
export function reverseHost(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (/^\d+\.\d+\.\d+\.\d+$/.test(h) || h.startsWith('[')) return `${h}.`;
  return `${h.split('.').reverse().join('.')}.`;
}

/** The `el_index` rows of a URL: protocol-relative links are indexed as http and https. */
export function makeIndexes(url: string): string[] {
  const p = splitUrl(url);
  if (!p) return [];
  const tail = `${p.port}${p.path || (p.scheme === 'mailto:' ? '' : '/')}`;
  if (p.scheme === 'mailto:') return [`mailto:${reverseHost(p.host)}${p.user ? '@' + p.user : ''}${p.path}`];
  const idx = `${reverseHost(p.host)}${tail}`;
  if (p.scheme === '//') return [`http://${idx}`, `https://${idx}`];
  return [`${p.scheme}${idx}`];
}

/** The first 60 bytes of the index (`el_index_60`), cut on a UTF-8 byte boundary like MySQL's binary column. */
export function index60(index: string): string {
  const b = Buffer.from(index, 'utf8');
  if (b.length <= 60) return index;
  return b.subarray(0, 60).toString('latin1');
}

/** The URL a 1.41+ schema reconstructs from domain index and path. */
export function reconstructUrl(url: string): string {
  const p = splitUrl(url);
  if (!p) return url;
  if (p.scheme === 'mailto:') return `mailto:${p.user ? p.user + '@' : ''}${p.host.toLowerCase()}${p.path}`;
  const scheme = p.scheme === '//' ? 'https://' : p.scheme;
  return `${scheme}${p.host.toLowerCase().replace(/\.$/, '')}${p.port}${p.path || '/'}`;
}
