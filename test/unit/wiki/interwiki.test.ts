import { describe, expect, it } from 'vitest';
import { INTERWIKI, defaultInterwikiMap, interwikiMapFromSiteinfo, interwikiUrl } from '../../../src/wiki/interwiki.js';

describe('the interwiki table', () => {
  it('of a default 1.39 install has the 66 prefixes of its maintenance/interwiki.list', () => {
    expect(INTERWIKI.size).toBe(66);
    expect(defaultInterwikiMap('1.39.17')).toBe(INTERWIKI);
    expect(INTERWIKI.get('mw')).toBe('https://www.mediawiki.org/wiki/$1');
    expect(INTERWIKI.has('wiki')).toBe(true);
  });

  it('of a default 1.43 install has the 50 of its own (the live 1.43 lists them: no `wiki`, a `c2`)', () => {
    const map = defaultInterwikiMap('1.43.9');
    expect(map.size).toBe(50);
    expect(map.has('wiki')).toBe(false);
    expect(map.get('c2')).toBe('https://wiki.c2.com/?$1');
    expect(map.get('wikipedia')).toBe('https://en.wikipedia.org/wiki/$1');
  });

  it('is read from a recorded siteinfo interwikimap, prefixes lower-cased; anything else is no table', () => {
    const map = interwikiMapFromSiteinfo([{ prefix: 'Foo', url: 'https://foo.example/$1', protorel: false }]);
    expect([...map!]).toEqual([['foo', 'https://foo.example/$1']]);
    expect(interwikiMapFromSiteinfo({})).toBeNull();
    expect(interwikiMapFromSiteinfo([{ prefix: 1 }])).toBeNull();
  });
});

describe('interwikiUrl (Title::getFullURL of an interwiki title)', () => {
  it('puts the wfUrlencoded rest where $1 is (`:` and `/` kept), as the live wikis print iwurl', () => {
    expect(interwikiUrl(INTERWIKI, 'wikipedia', 'Foo_bar', 'http://x')).toBe('https://en.wikipedia.org/wiki/Foo_bar');
    expect(interwikiUrl(INTERWIKI, 'wikipedia', 'Участник:x', 'http://x')).toBe('https://en.wikipedia.org/wiki/%D0%A3%D1%87%D0%B0%D1%81%D1%82%D0%BD%D0%B8%D0%BA:x');
    expect(interwikiUrl(INTERWIKI, 'wikipedia', '', 'http://x')).toBe('https://en.wikipedia.org/wiki/');
    expect(interwikiUrl(INTERWIKI, 'nope', 'x', 'http://x')).toBeNull();
  });

  it('leaves `$&` in the rest alone and gives a protocol-relative URL the wiki’s protocol', () => {
    const map = new Map([['p', '//p.example/$1?a=$1']]);
    expect(interwikiUrl(map, 'p', '$&', 'https://w.example')).toBe('https://p.example/$%26?a=$%26');
  });
});
