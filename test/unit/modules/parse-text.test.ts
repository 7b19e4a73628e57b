import { describe, expect, it } from 'vitest';
import { displayTitle, emptyParseText } from '../../../src/modules/parse-text.js';
import { makeProfile } from '../../../src/wiki/profile.js';
import { parseTitle, type Title } from '../../../src/wiki/title.js';

const P139 = makeProfile({ version: '1.39.17' });
const P144 = makeProfile({ version: '1.44.0' });
const NOW = Date.UTC(2026, 10, 22, 13, 47, 3);

/** `text` of `action=parse&summary=x&format=json&formatversion=2` on MediaWiki 1.39.17. */
const REAL_139 =
  '<div class="mw-parser-output">\n<!-- \nNewPP limit report\nCached time: 20261122134703\nCache expiry: 86400\nReduced expiry: false\nComplications: []\n' +
  'CPU time usage: 0.002 seconds\nReal time usage: 0.002 seconds\nPreprocessor visited node count: 0/1000000\nPost‐expand include size: 0/2097152 bytes\n' +
  'Template argument size: 0/2097152 bytes\nHighest expansion depth: 0/100\nExpensive parser function count: 0/100\nUnstrip recursion depth: 0/20\n' +
  'Unstrip post‐expand size: 0/5000000 bytes\n-->\n<!--\nTransclusion expansion time report (%,ms,calls,template)\n100.00%    0.000      1 -total\n-->\n</div>';

const title = (t: string): Title => {
  const r = parseTitle(t, { lang: 'ru', metaNamespace: 'Тестовая_вики', version: '1.39.17' });
  if (!r.ok) throw new Error(t);
  return r.title;
};

describe('emptyParseText', () => {
  it('matches 1.39 byte for byte (U+2010 in the report, space after <!--)', () => {
    expect(emptyParseText(P139, NOW, 0.002, 0.002)).toBe(REAL_139);
    expect(REAL_139).toContain('Post\u2010expand');
  });
  it('wraps with lang and dir in 1.43+', () => {
    expect(emptyParseText(P144, NOW, 0.002, 0.002)).toBe(
      REAL_139.replace('<div class="mw-parser-output">', '<div class="mw-content-ltr mw-parser-output" lang="ru" dir="ltr">'),
    );
    expect(emptyParseText(makeProfile({ version: '1.44.0', language: 'en' }), NOW, 0, 0, false)).toBe(
      '<div class="mw-content-ltr mw-parser-output" lang="en" dir="ltr"></div>',
    );
  });
  it('says "second" only for 1.000', () => {
    expect(emptyParseText(P139, NOW, 1, 0.9996)).toContain('CPU time usage: 1.000 second\nReal time usage: 1.000 second\n');
    expect(emptyParseText(P139, NOW, 1.0006, 0)).toContain('CPU time usage: 1.001 seconds\nReal time usage: 0.000 seconds\n');
  });
  it('disablelimitreport and wrapoutputclass (recorded)', () => {
    expect(emptyParseText(P139, NOW, 0, 0, false)).toBe('<div class="mw-parser-output"></div>');
    expect(emptyParseText(P139, NOW, 0.001, 0.001, { wrapClass: '' })).toBe(
      REAL_139.replace('<div class="mw-parser-output">', '').replace('</div>', '').replace(/0\.002/g, '0.001'),
    );
    expect(emptyParseText(P139, NOW, 0.002, 0.002, { wrapClass: 'a b"c' })).toBe(REAL_139.replace('mw-parser-output', 'a b&quot;c'));
  });
});

describe('displayTitle (recorded)', () => {
  it.each([
    ['API', '<span class="mw-page-title-main">API</span>'],
    [
      'Участник:Foo/Bar',
      '<span class="mw-page-title-namespace">Участник</span><span class="mw-page-title-separator">:</span><span class="mw-page-title-main">Foo/Bar</span>',
    ],
    [
      'Special:Version',
      '<span class="mw-page-title-namespace">Служебная</span><span class="mw-page-title-separator">:</span><span class="mw-page-title-main">Version</span>',
    ],
    ['Foo#bar', '<span class="mw-page-title-main">Foo</span>'],
    [
      'Media:X.png',
      '<span class="mw-page-title-namespace">Медиа</span><span class="mw-page-title-separator">:</span><span class="mw-page-title-main">X.png</span>',
    ],
    [`A&b"c'd`, '<span class="mw-page-title-main">A&amp;b&quot;c&#039;d</span>'],
    [
      'Обсуждение:A&amp;b',
      '<span class="mw-page-title-namespace">Обсуждение</span><span class="mw-page-title-separator">:</span><span class="mw-page-title-main">A&amp;b</span>',
    ],
  ])('%s', (t, expected) => expect(displayTitle(title(t))).toBe(expected));
});
