import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultFileUrl, escapeHtmlAllowEntities, formatSummary, sectionAnchor, type SummaryContext } from '../../../src/modules/parse-summary.js';
import { doQuotes, stripSectionName, summaryForParse } from '../../../src/modules/section-summary.js';
import { makeProfile, type Lang } from '../../../src/wiki/profile.js';
import { parseTitle, type Title } from '../../../src/wiki/title.js';
import { lang as L } from '../../support/lang.js';

/*
 * parse-summary-real.json (`npm run generate parse-summary`): summaries rendered by a real MediaWiki 1.39.17 (content language ru,
 * site "Тестовая вики", $wgScriptPath /wiki) holding the pages, the redirect and the files below.
 */
const PAGES = new Set([
  'Alpha', 'Beta', 'Delta', 'Epsilon', 'Gamma', 'Theta', 'Zeta', 'Екатеринбург', 'Заглавная страница', 'Зета', 'Казань', 'Москва',
  'Нижний Новгород', 'Новосибирск', 'Санкт-Петербург', 'Список ссылок', 'Участник:Admin', 'Тестовая вики:О проекте',
  'Файл:Образец 1.png', 'Файл:Образец 2.png', 'Файл:Образец 3.png', 'Файл:Образец 4.png', 'Файл:Образец 5.png', 'Файл:Образец 6.png',
  'Шаблон:Инфобокс', 'Справка:Справка', 'Категория:Города',
]);
const REDIRECTS = new Set(['Zeta']);
const FILES = new Set(['Образец_1.png', 'Образец_2.png', 'Образец_3.png', 'Образец_4.png', 'Образец_5.png', 'Образец_6.png']);
/** Default messages the cases link to (MediaWiki:Mainpage, MediaWiki:Red-link-title). */
const MESSAGES = new Set(['Mainpage', 'Red-link-title']);

const TITLES = { lang: 'ru' as Lang, metaNamespace: 'Тестовая_вики', version: '1.39.17' };

function title(text: string): Title {
  const r = parseTitle(text, TITLES);
  if (!r.ok) throw new Error(`bad title ${text}`);
  return r.title;
}

function ctx(version = '1.39.17', selfTitle = 'API', samePage = false, language: Lang = 'ru'): SummaryContext {
  return {
    profile: makeProfile({ version, language }),
    userLang: L('ru', version),
    selfTitle: title(selfTitle),
    samePage,
    pageExists: (t) => PAGES.has(t.prefixedText),
    isRedirect: (t) => REDIRECTS.has(t.prefixedText),
    fileUrl: (t) => (FILES.has(t.dbkey) ? defaultFileUrl('/wiki', t.dbkey) : null),
    isKnownMessage: (t) => MESSAGES.has(t.dbkey),
  };
}

interface Group {
  title: string;
  mode: 'plain' | 'samePage' | 'newSection';
  cases: [string, string][];
}
const REAL = JSON.parse(readFileSync(new URL('./parse-summary-real.json', import.meta.url), 'utf8')) as { groups: Group[] };

describe('formatSummary (1.39, recorded from a real wiki)', () => {
  for (const g of REAL.groups) {
    describe(`${g.title} ${g.mode}`, () => {
      const c = ctx('1.39.17', g.title, g.mode !== 'plain');
      it.each(g.cases)('%j', (input, expected) => {
        const summary = g.mode === 'newSection' ? summaryForParse(L('ru'), input, null, true) : input;
        expect(formatSummary(summary, c)).toBe(expected);
      });
    });
  }
});

describe('formatSummary (1.39, notable cases)', () => {
  const c = ctx();
  const cases: [string, string][] = [
    // Red link: content-language title, fragment dropped, /index.php?title=…&action=edit&redlink=1.
    ['[[Foo#sec|t]]', '<a href="/wiki/index.php?title=Foo&amp;action=edit&amp;redlink=1" class="new" title="Foo (страница не существует)">t</a>'],
    // Known link and link trail (lower-case Latin and Cyrillic incl. ё).
    ['[[москва]]и', '<a href="/wiki/index.php/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0" title="Москва">москваи</a>'],
    ['[[Кот]]Ы', '<a href="/wiki/index.php?title=%D0%9A%D0%BE%D1%82&amp;action=edit&amp;redlink=1" class="new" title="Кот (страница не существует)">Кот</a>Ы'],
    ['[[Zeta#x y|z]]', '<a href="/wiki/index.php/Zeta#x_y" class="mw-redirect" title="Zeta">z</a>'],
    // Autocomment: LRM after the arrow, colon-separator ": " (MessageCache turns &#32; into a space), span closed at the end.
    [
      '/* Раздел 1 */ текст',
      '<span dir="auto"><span class="autocomment"><a href="/wiki/index.php/API#Раздел_1" title="API">→\u200eРаздел 1</a>: </span> текст</span>',
    ],
    ['a /**/ b', 'a <span dir="auto"><span class="autocomment">: </span> b</span>'],
    // The anchor is escaped twice: %41 → %2541 → %252541.
    ['/* a%41b */', '<span dir="auto"><span class="autocomment"><a href="/wiki/index.php/API#a%252541b" title="API">→\u200ea%41b</a></span></span>'],
    // T406664: brackets in an autocomment are entities, so no link inside.
    [
      '/* [[Foo]] bar */ baz',
      '<span dir="auto"><span class="autocomment"><a href="/wiki/index.php/API#Foo_bar" title="API">→\u200e&#91;&#91;Foo&#93;&#93; bar</a>: </span> baz</span>',
    ],
    // Interwiki (legacy fragment escaping), special page aliases, media links.
    ['[[wikipedia:Foo bar#é ü]]', '<a href="https://en.wikipedia.org/wiki/Foo_bar#.C3.A9_.C3.BC" class="extiw" title="wikipedia:Foo bar">wikipedia:Foo bar#é ü</a>'],
    [
      '[[special:recentchanges]]',
      '<a href="/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%A1%D0%B2%D0%B5%D0%B6%D0%B8%D0%B5_%D0%BF%D1%80%D0%B0%D0%B2%D0%BA%D0%B8" title="Служебная:Свежие правки">special:recentchanges</a>',
    ],
    [
      '[[Media:Foo.jpg|x]]',
      '<a href="/wiki/index.php?title=%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%97%D0%B0%D0%B3%D1%80%D1%83%D0%B7%D0%BA%D0%B0&amp;wpDestFile=Foo.jpg" class="new" title="Foo.jpg">x</a>',
    ],
    [
      '[[Медиа:Образец 1.png]]',
      '<a href="/wiki/images/8/80/%D0%9E%D0%B1%D1%80%D0%B0%D0%B7%D0%B5%D1%86_1.png" class="internal" title="Образец 1.png">Медиа:Образец 1.png</a>',
    ],
    // PCRE /i without /u: "медиа:" is no media prefix, it is the Media namespace of a page link.
    [
      '[[медиа:Foo.jpg]]',
      '<a href="/wiki/index.php?title=%D0%9C%D0%B5%D0%B4%D0%B8%D0%B0:Foo.jpg&amp;action=edit&amp;redlink=1" class="new" title="Медиа:Foo.jpg (страница не существует)">медиа:Foo.jpg</a>',
    ],
    // Fragment-only links go to the page itself (API does not exist: red, fragment dropped).
    ['[[#sec]]', '<a href="/wiki/index.php?title=API&amp;action=edit&amp;redlink=1" class="new" title="API (страница не существует)">#sec</a>'],
    // 1.39 hands HTML of always-known links to preg_replace as replacement: $0 is the whole match.
    [
      '[[Special:Version|a$0b]]',
      '<a href="/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%92%D0%B5%D1%80%D1%81%D0%B8%D1%8F" title="Служебная:Версия">a[[Special:Version|a$0b]]b</a>',
    ],
    ['[[mw:Foo$1]]', '<a href="https://www.mediawiki.org/wiki/Foomw:Foo$1" class="extiw" title="mw:Foomw:Foo$1">mw:Foomw:Foo$1</a>'],
    // … but not of links it resolves later.
    [
      '[[Special:Foo$1]]',
      '<a href="/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:Foo$1" class="new" title="Служебная:Foo$1 (страница не существует)">Special:Foo$1</a>',
    ],
    // Malformed targets stay text; % is decoded first.
    ['[[Foo%3Cb%3E]]', '[[Foo%3Cb%3E]]'],
    ['[[Talk:File:X]]', '[[Talk:File:X]]'],
    ['[[Foo%20bar]]', '<a href="/wiki/index.php?title=Foo_bar&amp;action=edit&amp;redlink=1" class="new" title="Foo bar (страница не существует)">Foo bar</a>'],
    // Entities are decoded and the text escaped again; U+0338 stays a reference.
    ['&#0; &#x110000; &bogus; &amp', '\ufffd \ufffd &amp;bogus; &amp;amp'],
    ['a\u0338b', 'a&#x338;b'],
    // ApiResult normalises to NFC, the URL keeps the decomposed title.
    ['[[A&#x301;]]', '<a href="/wiki/index.php?title=A%CC%81&amp;action=edit&amp;redlink=1" class="new" title="Á (страница не существует)">Á</a>'],
  ];
  it.each(cases)('%j', (input, expected) => expect(formatSummary(input, c)).toBe(expected));

  it('points section links at the same page with samePage', () => {
    expect(formatSummary('/* ##foo */', ctx('1.39.17', 'API', true))).toBe(
      '<span dir="auto"><span class="autocomment"><a href="##foo">→\u200e##foo</a></span></span>',
    );
    expect(formatSummary('[[#x]]', ctx('1.39.17', 'API', true))).toBe('<a href="#x">#x</a>');
  });

  it('resolves subpage links against the page', () => {
    const c2 = ctx('1.39.17', 'Участник:Admin/A/B');
    expect(formatSummary('[[../../X]]', c2)).toBe(
      '<a href="/wiki/index.php?title=%D0%A3%D1%87%D0%B0%D1%81%D1%82%D0%BD%D0%B8%D0%BA:Admin/X&amp;action=edit&amp;redlink=1" class="new" title="Участник:Admin/X (страница не существует)">../../X</a>',
    );
    expect(formatSummary('[[../Sib]]', ctx('1.39.17', 'Москва/A'))).toBe('[[../Sib]]');
  });
});

describe('formatSummary (1.43+)', () => {
  const c = ctx('1.44.0');
  it('uses bdi and no dir=auto wrapper', () => {
    expect(formatSummary('/* Раздел 1 */ текст', c)).toBe(
      '<span class="autocomment"><a href="/wiki/index.php/API#Раздел_1" title="API">→<bdi dir="ltr">Раздел 1</bdi></a>: </span> текст',
    );
    expect(formatSummary('x /* a */ y /* b */ z', c)).toBe(
      'x <span class="autocomment"><a href="/wiki/index.php/API#a" title="API">→<bdi dir="ltr">a</bdi></a>: </span> y <span class="autocomment"><a href="/wiki/index.php/API#b" title="API">→<bdi dir="ltr">b</bdi></a>: </span> z',
    );
    expect(formatSummary('/* [[Foo]] */', c)).toBe(
      '<span class="autocomment"><a href="/wiki/index.php/API#Foo" title="API">→<bdi dir="ltr">&#91;&#91;Foo&#93;&#93;</bdi></a></span>',
    );
    expect(formatSummary('a /**/ b', c)).toBe('a <span class="autocomment">: </span> b');
  });
  it('does not read $ in link HTML as a group reference', () => {
    expect(formatSummary('[[mw:Foo$1]]', c)).toBe('<a href="https://www.mediawiki.org/wiki/Foo$1" class="extiw" title="mw:Foo$1">mw:Foo$1</a>');
  });
  it('renders links as 1.39 does', () => {
    expect(formatSummary('[[Foo]]', c)).toBe('<a href="/wiki/index.php?title=Foo&amp;action=edit&amp;redlink=1" class="new" title="Foo (страница не существует)">Foo</a>');
  });
});

describe('formatSummary (content language en)', () => {
  const c: SummaryContext = { ...ctx('1.39.17', 'API', false, 'en') };
  it('uses English texts, canonical names and the en link trail', () => {
    expect(formatSummary('[[Кот]]ы [[Foo]]bar /* s */ x', c)).toBe(
      '<a href="/wiki/index.php?title=%D0%9A%D0%BE%D1%82&amp;action=edit&amp;redlink=1" class="new" title="Кот (page does not exist)">Кот</a>ы ' +
        '<a href="/wiki/index.php?title=Foo&amp;action=edit&amp;redlink=1" class="new" title="Foo (page does not exist)">Foobar</a> ' +
        '<span dir="auto"><span class="autocomment"><a href="/wiki/index.php/API#s" title="API">→\u200es</a>: </span> x</span>',
    );
    expect(formatSummary('[[Special:Version]] [[Media:X.png]]', c)).toBe(
      '<a href="/wiki/index.php/Special:Version" title="Special:Version">Special:Version</a> ' +
        '<a href="/wiki/index.php?title=Special:Upload&amp;wpDestFile=X.png" class="new" title="X.png">Media:X.png</a>',
    );
  });
});

describe('helpers', () => {
  it('escapeHtmlAllowEntities', () => {
    expect(escapeHtmlAllowEntities(`a&mdash;b <b> '"& &amp;lt;`)).toBe('a—b &lt;b&gt; &#039;&quot;&amp; &amp;lt;');
  });
  it('sectionAnchor (Parser::guessSectionNameFromStrippedText)', () => {
    const ns = { lang: 'ru' as Lang, metaNamespace: 'Тестовая_вики' };
    expect(sectionAnchor(' a__b ', ns)).toBe('a_b');
    expect(sectionAnchor('a&amp;b', ns)).toBe('a&b');
    expect(sectionAnchor('\u2028a', ns)).toBe('_a');
    expect(sectionAnchor('a\u200eb', ns)).toBe('ab');
    expect(sectionAnchor('%41', ns)).toBe('%2541');
  });
  it('doQuotes and stripSectionName', () => {
    expect(doQuotes("l'''x''' ''y")).toBe("l<b>x</b> <i>y</i>");
    expect(doQuotes("''''d''''")).toBe("'<b>d'</b>");
    expect(stripSectionName("''[[A|b]]'' [http://x.org y z] <b>t</b>")).toBe('b y z t');
  });
  it('summaryForParse (section=new)', () => {
    expect(summaryForParse(L('ru'), "''a''", null, true)).toBe('/* a */ новая тема');
    expect(summaryForParse(L('en'), 'x', 'T', true)).toBe('x');
    expect(summaryForParse(L('en'), '', 'T', true)).toBe('/* T */ new section');
    expect(summaryForParse(L('ru'), '', null, true)).toBe('');
    expect(summaryForParse(L('ru'), 'x', null, false)).toBe('x');
  });
  it('defaultFileUrl (hashed upload directories)', () => {
    expect(defaultFileUrl('/wiki', 'Образец_1.png')).toBe('/wiki/images/8/80/%D0%9E%D0%B1%D1%80%D0%B0%D0%B7%D0%B5%D1%86_1.png');
  });
});
