import { describe, expect, it } from 'vitest';
import { escapeIdForExternalInterwiki, escapeIdForLink, fragmentForUrl, linkUrl, localUrl, wfAppendQuery } from '../../../src/wiki/url.js';
import { phpUrlencode, wfUrlencode } from '../../../src/util/php-url.js';
import { makeTitle, parseTitle, type Title } from '../../../src/wiki/title.js';
import { makeProfile } from '../../../src/wiki/profile.js';

const RU = { lang: 'ru' as const, metaNamespace: 'Тестовая_вики', version: '1.39.17' };
const t = (s: string): Title => {
  const r = parseTitle(s, RU);
  if (!r.ok) throw new Error(s);
  return r.title;
};

describe('wfUrlencode', () => {
  it('encodes like PHP urlencode and keeps ; @ $ ! * ( ) , / ~ :', () => {
    expect(wfUrlencode("Служебная:Вклад/a b;@$!*(),~'\"&?=+%#")).toBe(
      "%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%92%D0%BA%D0%BB%D0%B0%D0%B4/a+b;@$!*(),~%27%22%26%3F%3D%2B%25%23",
    );
    expect(phpUrlencode('a-_.~ ')).toBe('a-_.%7E+');
    expect(wfUrlencode('Foo%ZZ')).toBe('Foo%25ZZ');
  });
});

describe('URLs (recorded on MediaWiki 1.39.17 under php -S: $wgArticlePath is /wiki/index.php/$1)', () => {
  const p = makeProfile();
  it('article path and query URLs', () => {
    expect(localUrl(p, t('Москва'))).toBe('/wiki/index.php/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0');
    expect(localUrl('/wiki', t('Foo bar'), 'action=edit&redlink=1')).toBe('/wiki/index.php?title=Foo_bar&action=edit&redlink=1');
    expect(localUrl('/w', t("foo'bar\""), 'action=edit')).toBe('/w/index.php?title=Foo%27bar%22&action=edit');
  });
  it('fragments (html5 mode) and interwikis (legacy fragment mode)', () => {
    expect(linkUrl(p, t('Zeta#x y'))).toBe('/wiki/index.php/Zeta#x_y');
    expect(linkUrl(p, makeTitle(0, '', RU, 'a%41'))).toBe('#a%2541');
    expect(linkUrl(p, t('mw:foo bar#x y'))).toBe('https://www.mediawiki.org/wiki/foo_bar#x_y');
    expect(linkUrl(p, t('wikipedia:Foo bar#é ü'))).toBe('https://en.wikipedia.org/wiki/Foo_bar#.C3.A9_.C3.BC');
    expect(linkUrl(p, t('commons:Файл:X.png'))).toBe('https://commons.wikimedia.org/wiki/%D0%A4%D0%B0%D0%B9%D0%BB:X.png');
    expect(fragmentForUrl(t('Foo'))).toBe('');
    expect(localUrl(p, t('acronym:ab'), 'x=1')).toBe('https://www.acronymfinder.com/~/search/af.aspx?string=exact&Acronym=ab&x=1');
  });
  it('escapeIdForLink / escapeIdForExternalInterwiki', () => {
    expect(escapeIdForLink('Раздел 1\t%41%zz')).toBe('Раздел_1_%2541%zz');
    expect(escapeIdForLink('x'.repeat(1030))).toHaveLength(1024);
    expect(escapeIdForExternalInterwiki('a b:c%d/é')).toBe('a_b:c.25d.2F.C3.A9');
    expect(wfAppendQuery('http://x/y#f', 'a=1')).toBe('http://x/y?a=1#f');
  });
});
