import { describe, expect, it } from 'vitest';
import { makeIndexes } from '../../../src/wiki/link-index.js';
import { linkQuery, normalizeLinkUrl, phpParseUrl, rowOf143 } from '../../../src/modules/link-query.js';

/** PHP 8.2's parse_url for these URLs (run with `php -r`). */
const PARSE_URL: Array<[string, unknown]> = [
  ['http://a?', { scheme: 'http', host: 'a', query: '' }],
  ['http://a/b?c#d', { scheme: 'http', host: 'a', path: '/b', query: 'c', fragment: 'd' }],
  ['http://a:8a0/x', { scheme: 'http', host: 'a', port: 8, path: '/x' }],
  ['http://[::1]:80/x', { scheme: 'http', host: '[::1]', port: 80, path: '/x' }],
  ['http://%5B::1%5D', { scheme: 'http', host: '%5B:', port: 1 }],
  ['mailto:x@y?subject=1#f', { scheme: 'mailto', path: 'x@y', query: 'subject=1', fragment: 'f' }],
  ['http://user:pw@a:1/', { scheme: 'http', host: 'a', port: 1, user: 'user', path: '/' }],
  ['http://https://example.org', { scheme: 'http', host: 'https', path: '//example.org' }],
  ['http://*.example.org:*', null],
  ['http://example.org:65536/', null],
  ['http://', null],
];

describe('phpParseUrl', () => {
  it.each(PARSE_URL)('%s', (url, expected) => {
    expect(phpParseUrl(url)).toEqual(expected);
  });
});

describe('Parser::normalizeLinkUrl', () => {
  it('encodes non-ASCII and unsafe bytes, decodes needless escapes, keeps an IPv6 host in brackets', () => {
    expect(normalizeLinkUrl('http://пример.рф/a b', false)).toBe('http://%D0%BF%D1%80%D0%B8%D0%BC%D0%B5%D1%80.%D1%80%D1%84/a%20b');
    expect(normalizeLinkUrl('http://example.org/%41%2f?%3d=1#%23', false)).toBe('http://example.org/A%2F?%3D=1#%23');
    expect(normalizeLinkUrl('http://[::1]/x', false)).toBe('http://[::1]/x');
  });

  it('removes dot segments of the path in 1.43 only', () => {
    expect(normalizeLinkUrl('http://example.org/a/../b/./c', true)).toBe('http://example.org/b/c');
    expect(normalizeLinkUrl('http://example.org/a/../b/./c', false)).toBe('http://example.org/a/../b/./c');
  });
});

const row139 = (url: string) => ({ index: makeIndexes(url)[0]!, domain: '', path: '' });
const row143 = (url: string) => ({ index: '', ...rowOf143(url)! });

describe('elquery (LinkFilter::getQueryConditions with oneWildcard)', () => {
  it.each(['example.org/*', '*.example.org/a*', 'exa*mple.org', 'example.org?q=*', 'example.org#x*', '*', 'example.org:*'])('refuses a * anywhere but at the start of the host: %s', (q) => {
    expect(linkQuery(q, null, false)).toBeNull();
    expect(linkQuery(q, null, true)).toBeNull();
  });

  it('accepts an IPv4 or IPv6 wildcard and a subdomain wildcard', () => {
    for (const q of ['1.2.3.*', '*.example.org', '*.example.org/page']) {
      expect(linkQuery(q, null, false)).not.toBeNull();
      expect(linkQuery(q, null, true)).not.toBeNull();
    }
    expect(linkQuery('[2001:db8::*]', 'mailto:', false)).not.toBeNull();
  });

  it('1.39: http:// unless elprotocol says, and a subdomain wildcard ignores the path', () => {
    const m = linkQuery('*.example.org/page', null, false)!;
    expect(m(row139('http://www.example.org/other'))).toBe(true);
    expect(m(row139('https://www.example.org/page'))).toBe(false);
    expect(linkQuery('example.org/page', 'https://', false)!(row139('https://example.org/page/x'))).toBe(true);
  });

  it('1.43: http and https, and a path other than / pins the domain exactly', () => {
    const m = linkQuery('*.example.org/page', null, true)!;
    expect(m(row143('https://example.org/page/x'))).toBe(true);
    expect(m(row143('https://www.example.org/page/x'))).toBe(false);
    const bare = linkQuery('*.example.org', null, true)!;
    expect(bare(row143('http://www.example.org/other'))).toBe(true);
  });

  it('matches mail addresses by domain and local part', () => {
    expect(linkQuery('info1@example.org', 'mailto:', true)!(row143('mailto:info1@example.org'))).toBe(true);
    expect(linkQuery('info1@example.org', 'mailto:', false)!(row139('mailto:info1@example.org'))).toBe(true);
    expect(linkQuery('*@example.org', 'mailto:', false)!(row139('mailto:info2@example.org'))).toBe(true);
  });
});
