import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * The built-in page set (ApiPageSet and ApiQuery's page information) over a fixture. Expected
 * answers are what the live 1.39.17 and 1.43.9 print for the same data (the live wikis of
 * scripts/live-wiki.sh, filled by populate.mjs: `Zeta` was moved to `Зета`), and where the
 * live wikis have no such page (redirects with fragments, to other wikis, in chains and loops),
 * what ApiPageSet's code does.
 */
const fixture = {
  profile: { version: '1.39.17', language: 'ru', siteName: 'Тестовая вики', server: 'http://127.0.0.1:8088', scriptPath: '/wiki' },
  pages: [
    { pageid: 2, ns: 0, title: 'Москва', extlinks: ['https://example.org/moscow'] },
    { pageid: 8, ns: 0, title: 'Alpha', extlinks: [] },
    { pageid: 9, ns: 0, title: 'Beta', extlinks: [] },
    { pageid: 12, ns: 0, title: 'Epsilon', extlinks: [] },
    { pageid: 13, ns: 0, title: 'Зета', extlinks: ['http://wiki.example.net/page/Zeta/0?q=0'] },
    { pageid: 17, ns: 12, title: 'Справка:Справка', extlinks: [] },
    { pageid: 19, ns: 10, title: 'Шаблон:Инфобокс', extlinks: [] },
    { pageid: 22, ns: 6, title: 'Файл:Образец 1.png', extlinks: [] },
    { pageid: 28, ns: 0, title: 'Zeta', redirect: true, extlinks: [] },
    { pageid: 30, ns: 0, title: 'Раздел', redirect: true, extlinks: [] },
    { pageid: 31, ns: 0, title: 'Внешняя', redirect: true, extlinks: [] },
    { pageid: 32, ns: 0, title: 'Цепь', redirect: true, extlinks: [] },
    { pageid: 33, ns: 0, title: 'Петля А', redirect: true, extlinks: [] },
    { pageid: 34, ns: 0, title: 'Петля Б', redirect: true, extlinks: [] },
  ],
  redirects: [
    { from: 'Zeta', to: 'Зета' },
    { from: 'Раздел', to: 'Alpha', tofragment: 'История' },
    { from: 'Внешняя', to: 'wikipedia:Foo', tointerwiki: 'wikipedia' },
    { from: 'Цепь', to: 'Zeta' },
    { from: 'Петля А', to: 'Петля Б' },
    { from: 'Петля Б', to: 'Петля А' },
  ],
};

let file: string;
beforeAll(async () => {
  file = join(await mkdtemp(join(tmpdir(), 'wikitape-pageset-')), 'wiki.json');
  await writeFile(file, JSON.stringify(fixture));
});

type Body = Record<string, any>;
async function ask(params: Record<string, string>, version = '1.39.17'): Promise<{ text: string; body: Body; unknown: string | undefined }> {
  const app = createApp({ fixtures: [file], clock: TEST_CLOCK, cassettes: NO_CASSETTES, profile: { version } });
  const res = await request(app).get('/wiki/api.php').query({ action: 'query', format: 'json', ...params });
  const body = JSON.parse(res.text) as Body;
  delete body['debuginfo'];
  return { text: res.text.replace(/,"debuginfo":[\s\S]*$/, '}'), body, unknown: res.headers['x-wikitape-unknown'] };
}
const query = async (params: Record<string, string>, version?: string) => (await ask({ formatversion: '2', ...params }, version)).body['query'];

describe('title normalization', () => {
  it('gives NFD input a percent-encoded `fromencoded` entry to its NFC form, then the title, with the badutf8 warning', async () => {
    const { body } = await ask({ titles: 'Е\u0308лка|е\u0308лка|Alpha', formatversion: '2' });
    expect(body['warnings']).toEqual({ query: { warnings: expect.stringContaining('The value passed for "titles" contains invalid or non-normalized data') } });
    expect(body['query']['normalized']).toEqual([
      { fromencoded: true, from: '%D0%95%CC%88%D0%BB%D0%BA%D0%B0', to: 'Ёлка' },
      { fromencoded: true, from: '%D0%B5%CC%88%D0%BB%D0%BA%D0%B0', to: 'ёлка' },
      { fromencoded: false, from: 'ёлка', to: 'Ёлка' },
    ]);
    expect(body['query']['pages']).toEqual([{ ns: 0, title: 'Ёлка', missing: true }, { pageid: 8, ns: 0, title: 'Alpha' }]);
  });

  it('writes names, aliases, gender forms and the project namespace as the wiki does', async () => {
    const q = await query({ titles: 'talk:Foo|Image:Образец_1.png|Project:X|Участница:Y|User talk:Z|Обсуждение участницы:Z' });
    expect(q['normalized'].map((n: Body) => [n.from, n.to])).toEqual([
      ['talk:Foo', 'Обсуждение:Foo'],
      ['Image:Образец_1.png', 'Файл:Образец 1.png'],
      ['Project:X', 'Тестовая вики:X'],
      ['Участница:Y', 'Участник:Y'],
      ['User talk:Z', 'Обсуждение участника:Z'],
      ['Обсуждение участницы:Z', 'Обсуждение участника:Z'],
    ]);
  });

  it('upper-cases a first letter as each version does (1.39: Ǆemal, SStraße; 1.43: ǅemal, Sstraße)', async () => {
    const to = (q: Body) => q['normalized'].map((n: Body) => n.to);
    expect(to(await query({ titles: 'ǆemal|ßtraße|აბ' }, '1.39.17'))).toEqual(['Ǆemal', 'SStraße', 'Აბ']);
    expect(to(await query({ titles: 'ǆemal|ßtraße|ﬁx' }, '1.43.9'))).toEqual(['ǅemal', 'Sstraße', 'Fix']);
  });

  it('lists an invalid title once, as given, with its reason in the error format asked (numbers as numbers in raw)', async () => {
    expect((await query({ titles: 'a[b|a[b|::x' }))['pages']).toEqual([
      { title: '::x', invalidreason: 'The requested page title contains an invalid colon at the beginning.', invalid: true },
      { title: 'a[b', invalidreason: 'The requested page title contains invalid characters: "[".', invalid: true },
    ]);
    const raw = await query({ titles: 'А'.repeat(128), errorformat: 'raw' });
    expect(raw['pages'][0]['invalidreason']).toEqual({ code: 'title-invalid-too-long', key: 'title-invalid-too-long', params: [{ num: 255 }, 'А'.repeat(128)] });
    const plain = await query({ titles: 'a[b', errorformat: 'plaintext' });
    expect(plain['pages'][0]['invalidreason']).toEqual({ code: 'title-invalid-characters', text: 'Запрашиваемое название страницы содержит недопустимые символы: «[».' });
  });

  it('names an invalid title in its reason as MediaWiki parsed it: references decoded, spaces as underscores (the page keeps the title as given)', async () => {
    const reasons = async (version: string) => {
      const q = await query({ titles: ' A%D0 b &amp; c  |a ~~~ b|Foo bar/../x y', errorformat: 'raw' }, version);
      return q['pages'].map((p: Body) => [p.title, p.invalidreason.params]);
    };
    // What MediaWiki 1.39.17 and 1.43.5 answered, in their order (their wfEscapeWikiText differs in `~` and a leading `_`).
    expect(await reasons('1.39.17')).toEqual([
      ['Foo bar/../x y', ['Foo_bar/../x_y']],
      ['a ~~~ b', ['a_~~~_b']],
      [' A%D0 b &amp; c  ', ['%D0', '_A%D0_b_&#38;_c_&#95;']],
    ]);
    expect(await reasons('1.43.5')).toEqual([
      ['Foo bar/../x y', ['Foo_bar/../x_y']],
      ['a ~~~ b', ['a_~~&#126;_b']],
      [' A%D0 b &amp; c  ', ['%D0', '&#95;A%D0_b_&#38;_c_&#95;']],
    ]);
  });

  it('gives `titles=#` a `normalized` entry and no page; a fragment is dropped', async () => {
    expect(await query({ titles: '#' })).toEqual({ normalized: [{ fromencoded: false, from: '#', to: '' }] });
    expect(await query({ titles: 'Alpha#История' })).toEqual({ normalized: [{ fromencoded: false, from: 'Alpha#История', to: 'Alpha' }], pages: [{ pageid: 8, ns: 0, title: 'Alpha' }] });
  });

  it('accepts a 255-byte title and refuses a 256-byte one', async () => {
    const pages = (await query({ titles: `${'А'.repeat(127)}x|${'А'.repeat(128)}` }))['pages'];
    expect(pages.map((p: Body) => Boolean(p.invalid))).toEqual([false, true]);
  });

  it('refuses titles together with pageids (multisource)', async () => {
    expect((await ask({ titles: 'Alpha', pageids: '8' })).body['error']).toMatchObject({ code: 'multisource', info: 'The "pageids" parameter cannot be used with "titles".' });
  });
});

describe('special pages, media and interwiki titles', () => {
  it('writes special pages under their local names, `missing` where no such page is installed, as the live wikis do', async () => {
    const q = await query({ titles: 'Special:Random|Служебная:Version|Special:Nonexistent|Media:Образец_1.png|Медиа:Нет.png' });
    expect(q['normalized'].map((n: Body) => n.to)).toEqual(['Служебная:Случайная страница', 'Служебная:Версия', 'Служебная:Nonexistent', 'Медиа:Образец 1.png']);
    expect(q['pages']).toEqual([
      { ns: -2, title: 'Медиа:Нет.png', special: true, missing: true },
      { ns: -2, title: 'Медиа:Образец 1.png', special: true },
      { ns: -1, title: 'Служебная:Nonexistent', special: true, missing: true },
      { ns: -1, title: 'Служебная:Версия', special: true },
      { ns: -1, title: 'Служебная:Случайная страница', special: true },
    ]);
  });

  it('knows the special pages 1.43 added', async () => {
    expect((await query({ titles: 'Special:Contribute' }, '1.39.17'))['pages'][0]['missing']).toBe(true);
    expect((await query({ titles: 'Special:Contribute' }, '1.43.9'))['pages'][0]['missing']).toBeUndefined();
  });

  it('lists interwiki titles apart, the prefix lower-cased, with their URL for iwurl', async () => {
    const q = await query({ titles: 'wikipedia:Foo bar#x|Mw:Help:Foo|Commons:File:X.png', iwurl: '1' });
    expect(q).toEqual({
      normalized: [
        { fromencoded: false, from: 'wikipedia:Foo bar#x', to: 'wikipedia:Foo bar' },
        { fromencoded: false, from: 'Mw:Help:Foo', to: 'mw:Help:Foo' },
        { fromencoded: false, from: 'Commons:File:X.png', to: 'commons:File:X.png' },
      ],
      interwiki: [
        { title: 'wikipedia:Foo bar', iw: 'wikipedia', url: 'https://en.wikipedia.org/wiki/Foo_bar' },
        { title: 'mw:Help:Foo', iw: 'mw', url: 'https://www.mediawiki.org/wiki/Help:Foo' },
        { title: 'commons:File:X.png', iw: 'commons', url: 'https://commons.wikimedia.org/wiki/File:X.png' },
      ],
    });
  });

  it('reads prefixes in the version’s own table (1.43 has no `wiki:`)', async () => {
    expect((await query({ titles: 'wiki:Foo' }, '1.39.17'))['interwiki']).toEqual([{ title: 'wiki:Foo', iw: 'wiki' }]);
    expect((await query({ titles: 'wiki:Foo' }, '1.43.9'))['pages']).toEqual([{ ns: 0, title: 'Wiki:Foo', missing: true }]);
  });
});

describe('redirects', () => {
  it('are listed as pages without `redirects`, and followed with it: the target’s links, `query.redirects`', async () => {
    expect((await query({ titles: 'Zeta', prop: 'extlinks' }))['pages']).toEqual([{ pageid: 28, ns: 0, title: 'Zeta' }]);
    expect(await query({ titles: 'Zeta', prop: 'extlinks', redirects: '1' })).toEqual({
      redirects: [{ from: 'Zeta', to: 'Зета' }],
      pages: [{ pageid: 13, ns: 0, title: 'Зета', extlinks: [{ url: 'http://wiki.example.net/page/Zeta/0?q=0' }] }],
    });
  });

  it('carry the target’s fragment and interwiki prefix, follow chains and stop at loops', async () => {
    const q = await query({ titles: 'Раздел|Внешняя|Цепь|Петля А', redirects: '1' });
    expect(q['redirects']).toEqual([
      { from: 'Раздел', to: 'Alpha', tofragment: 'История' },
      { from: 'Внешняя', to: 'wikipedia:Foo', tointerwiki: 'wikipedia' },
      { from: 'Цепь', to: 'Zeta' },
      { from: 'Петля А', to: 'Петля Б' },
      { from: 'Zeta', to: 'Зета' },
      { from: 'Петля Б', to: 'Петля А' },
    ]);
    expect(q['interwiki']).toEqual([{ title: 'wikipedia:Foo', iw: 'wikipedia' }]);
    expect(q['pages']).toEqual([{ pageid: 8, ns: 0, title: 'Alpha' }, { pageid: 13, ns: 0, title: 'Зета' }]);
  });

  it('are followed from pageids too; formatversion=1 lists the pages in the order found (ids, then targets)', async () => {
    const { text } = await ask({ pageids: '28|9|8', redirects: '1', indexpageids: '1' });
    expect(text).toContain('"redirects":[{"from":"Zeta","to":"\\u0417\\u0435\\u0442\\u0430"}],"pageids":["8","9","13"],"pages":{"8":{"pageid":8,"ns":0,"title":"Alpha"},"9":{"pageid":9,"ns":0,"title":"Beta"},"13":{"pageid":13');
  });
});

describe('indexpageids and the order of pages', () => {
  it('lists ids as strings in ApiQuery’s order (missing, invalid, special, then found); formatversion=2 sorts the pages by id', async () => {
    const q = await query({ titles: 'Beta|Alpha|Special:Random|a[b|Nope|Help:Nope|Nope2', indexpageids: '1' });
    expect(q['pageids']).toEqual(['-3', '-4', '-5', '-1', '-2', '8', '9']);
    expect(q['pages'].map((p: Body) => p.title)).toEqual(['Справка:Nope', 'Nope2', 'Nope', 'Служебная:Случайная страница', 'a[b', 'Alpha', 'Beta']);
  });

  it('finds titles namespace by namespace in the order first named (formatversion=1 keeps it), pageids by id', async () => {
    const { text } = await ask({ titles: 'Справка:Справка|Beta|Шаблон:Инфобокс|Alpha', indexpageids: '1' });
    expect(text).toMatch(/"pageids":\["17","8","9","19"\],"pages":\{"17":.*"8":.*"9":.*"19":/);
    const byId = await ask({ pageids: '12|8|2|999|0', indexpageids: '1' });
    expect(byId.text).toMatch(/"pageids":\["999","0","2","8","12"\],"pages":\{"999":\{"pageid":999,"missing":""\},"0":.*"2":.*"8":.*"12":/);
  });

  it('accepts converttitles, which changes nothing on a wiki without language variants', async () => {
    expect(await query({ titles: 'Nope|Alpha', converttitles: '1' })).toEqual(await query({ titles: 'Nope|Alpha' }));
  });
});
