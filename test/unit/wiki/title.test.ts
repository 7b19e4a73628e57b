import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { message } from '../../../src/i18n/message.js';
import { lang as L } from '../../support/lang.js';
import { decodeCharReferences, fixSpecialName, makeTitle, makeTitleSafe, namespaceName, parseTitle, type TitleContext } from '../../../src/wiki/title.js';

const RU: TitleContext = { lang: 'ru', metaNamespace: 'Тестовая_вики', version: '1.39.17' };
const EN: TitleContext = { lang: 'en', metaNamespace: 'Test_wiki', version: '1.39.17' };

type Real = { interwiki: string; title: string } | { ns: number; title: string } | { invalid: string; ru: string; en: string };
/** titles-real.json (`npm run generate titles`): how the live 1.39 reads each title. */
const REAL = JSON.parse(readFileSync(new URL('./titles-real.json', import.meta.url), 'utf8')) as { cases: [string, Real][] };

describe('parseTitle = MediaWikiTitleCodec of MediaWiki 1.39.17 (action=query&titles=, recorded)', () => {
  it.each(REAL.cases)('%j', (input, real) => {
    const r = parseTitle(input, RU);
    if ('invalid' in real) {
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.reason).toBe(real.invalid);
      // errorformat=plaintext parses the text (<nowiki> gone, a tab becomes a space); the
      // message text (what the BC format shows) keeps both.
      const plain = (s: string) => s.replace(/<\/?nowiki>/g, '').replace(/\t/g, ' ');
      expect(plain(message(L('ru'), r.reason, r.params))).toBe(real.ru);
      expect(plain(message(L('en'), r.reason, r.params))).toBe(real.en);
      return;
    }
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    if ('interwiki' in real) {
      expect([r.title.interwiki, r.title.prefixedText]).toEqual([real.interwiki, real.title]);
    } else {
      // ApiPageSet shows special pages under their local names (Title::fixSpecialName).
      const t = fixSpecialName(r.title, RU);
      expect([t.ns, t.prefixedText]).toEqual([real.ns, real.title]);
    }
  });
});

describe('parseTitle details', () => {
  it('fills every field', () => {
    expect(parseTitle('обсуждение участницы:foo_bar#Раз_дел', RU)).toEqual({
      ok: true,
      title: {
        ns: 3,
        dbkey: 'Foo_bar',
        text: 'Foo bar',
        prefixedText: 'Обсуждение участника:Foo bar',
        prefixedDbKey: 'Обсуждение_участника:Foo_bar',
        fragment: 'Раз дел',
        interwiki: '',
      },
      checkedInterwiki: false,
    });
    expect(parseTitle('MW:Help:foo bar#x', RU)).toEqual({
      ok: true,
      title: { ns: 0, dbkey: 'Help:foo_bar', text: 'Help:foo bar', prefixedText: 'mw:Help:foo bar', prefixedDbKey: 'mw:Help:foo_bar', fragment: 'x', interwiki: 'mw' },
      checkedInterwiki: true,
    });
  });
  it('gives the reason key and parameters', () => {
    expect(parseTitle('a<b', RU)).toEqual({ ok: false, reason: 'title-invalid-characters', params: ['<'] });
    expect(parseTitle('x'.repeat(256), RU)).toEqual({ ok: false, reason: 'title-invalid-too-long', params: ['255'] });
    expect(parseTitle(`Special:${'x'.repeat(513)}`, RU)).toEqual({ ok: false, reason: 'title-invalid-too-long', params: ['512'] });
    expect(parseTitle(`Special:${'x'.repeat(512)}`, RU).ok).toBe(true);
    expect(parseTitle('я'.repeat(128), RU)).toEqual({ ok: false, reason: 'title-invalid-too-long', params: ['255'] });
    expect(parseTitle('a&#0;', RU)).toEqual({ ok: false, reason: 'title-invalid-utf8', params: [] });
    expect(parseTitle('Talk:wikipedia:x', RU)).toEqual({ ok: false, reason: 'title-invalid-talk-namespace', params: [] });
    expect(parseTitle('User::x', RU)).toEqual({ ok: false, reason: 'title-invalid-leading-colon', params: [] });
  });
  it('honours the default namespace and a leading colon', () => {
    expect(parseTitle('Foo', RU, 10)).toMatchObject({ title: { ns: 10, prefixedText: 'Шаблон:Foo' } });
    expect(parseTitle(':Foo', RU, 10)).toMatchObject({ title: { ns: 0, prefixedText: 'Foo' } });
    expect(parseTitle('Help:Foo', RU, 10)).toMatchObject({ title: { ns: 12, prefixedText: 'Справка:Foo' } });
  });
  it('decodes character references and then normalises to NFC', () => {
    expect(parseTitle('A&#x301;', RU)).toMatchObject({ title: { dbkey: 'Á' } });
    expect(parseTitle('A\u0301', RU)).toMatchObject({ title: { dbkey: 'A\u0301' } });
    expect(parseTitle('a&amp;b', RU)).toMatchObject({ title: { prefixedText: 'A&b' } });
    expect(decodeCharReferences('&lt;&#x41;&#66;&nbsp;&bogus;&רלמ;&#xD800;')).toBe('<AB\u00a0&bogus;\u200f\ufffd');
  });
  it('capitalises the first letter as mb_strtoupper does', () => {
    for (const [input, dbkey] of [['ßx', 'SSx'], ['ǆx', 'Ǆx'], ['ŉ', 'ʼN'], ['ёж', 'Ёж'], ['éa', 'Éa'], ['1a', '1a'], ['😀', '😀']]) {
      expect(parseTitle(input!, RU)).toMatchObject({ title: { dbkey } });
    }
  });
  it('knows the English names on an en wiki', () => {
    expect(parseTitle('image talk:x', EN)).toMatchObject({ title: { ns: 7, prefixedText: 'File talk:X' } });
    expect(parseTitle('test wiki talk:x', EN)).toMatchObject({ title: { ns: 5, prefixedText: 'Test wiki talk:X' } });
    expect(parseTitle('Участница:x', EN)).toMatchObject({ title: { ns: 0, prefixedText: 'Участница:x' } });
    expect(parseTitle('Обсуждение:x', EN)).toMatchObject({ title: { ns: 0 } });
    const contribs = parseTitle('special:contribs/x', EN);
    if (!contribs.ok) throw new Error('special:contribs/x');
    expect(fixSpecialName(contribs.title, EN)).toMatchObject({ prefixedText: 'Special:Contributions/x' });
  });
  it('makeTitle and makeTitleSafe', () => {
    expect(makeTitle(5, 'Foo bar', RU, '#a_b')).toEqual({
      ns: 5,
      dbkey: 'Foo_bar',
      text: 'Foo bar',
      prefixedText: 'Обсуждение Тестовая вики:Foo bar',
      prefixedDbKey: 'Обсуждение_Тестовая_вики:Foo_bar',
      fragment: 'a b',
      interwiki: '',
    });
    expect(makeTitleSafe(6, 'x.png#f', RU)).toMatchObject({ ns: 6, prefixedText: 'Файл:X.png', fragment: 'f' });
    expect(makeTitleSafe(6, 'a&amp;b', RU)).toBeNull();
    expect(makeTitleSafe(99, 'x', RU)).toBeNull();
    expect(namespaceName(2, RU)).toBe('Участник');
  });
});
