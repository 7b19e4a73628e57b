import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette, Interaction } from '../../src/cassette/format.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';

/**
 * Recorded answers of modules wikitape does not build in, printed in the forms the client asks:
 * formatversion=1 from the stored formatversion=2 data, and what ApiMain adds around a recorded
 * answer. Each body below is what MediaWiki 1.43.9 answered (recorded through `wikitape record`),
 * and each expectation what it answered in the other form (the live wiki, asked the same).
 */
const AT = '2026-11-27T06:45:43Z';
const HEADERS = { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' };
const TEXT = 'Статья «Москва». [[Москва]] [[Несуществующая]]';
const recorded = (req: Record<string, string>, body: Interaction['body']): Interaction => ({ key: canonicalKey(new Map(Object.entries(req)), KEY_RULES), request: req, status: 200, headers: HEADERS, body, recordedAt: AT });

const Q = {
  slots: { action: 'query', prop: 'revisions', titles: 'Москва', rvprop: 'content|ids', rvslots: '*' },
  legacy: { action: 'query', prop: 'revisions', titles: 'Москва', rvprop: 'content' },
  parse: { action: 'parse', text: '[[Категория:Города]] [[wikipedia:Foo]] [[Москва]] [[Nope]]', title: 'X', prop: 'links|categories|langlinks|templates|iwlinks' },
  allmessages: { action: 'query', meta: 'allmessages', ammessages: 'mainpage|edit' },
  allcategories: { action: 'query', list: 'allcategories', acprop: 'size|hidden' },
  compare: { action: 'compare', fromtitle: 'Alpha', totitle: 'Beta' },
  expand: { action: 'expandtemplates', text: '{{PAGENAME}}', title: 'Alpha' },
  expandProp: { action: 'expandtemplates', text: '{{PAGENAME}}', title: 'Alpha', prop: 'wikitext' },
  pageimages: { action: 'query', prop: 'pageimages', titles: 'Москва' },
  preload: { action: 'query', prop: 'info', titles: 'Нет такой страницы', inprop: 'preloadcontent', inpreloadcustom: 'Alpha' },
  testactions: { action: 'query', prop: 'info', titles: 'Мгновенная защита', intestactions: 'edit|move', intestactionsdetail: 'full' },
  editintro: { action: 'query', prop: 'info', titles: 'Alpha', inprop: 'editintro' },
  notoc: { action: 'expandtemplates', text: '__NOTOC__{{PAGENAME}}', title: 'Alpha', prop: 'wikitext' },
  notocLower: { action: 'expandtemplates', text: '__notoc__{{PAGENAME}}', title: 'Alpha', prop: 'wikitext' },
  notocRu: { action: 'expandtemplates', text: '__БЕЗ_ОГЛАВЛЕНИЯ__{{PAGENAME}}', title: 'Alpha', prop: 'wikitext' },
  gif: { action: 'query', prop: 'imageinfo', titles: 'Файл:Образец 1.png', iiprop: 'metadata|size' },
  testactionsHtml: { action: 'query', prop: 'info', titles: 'Мгновенная защита', intestactions: 'edit|move', intestactionsdetail: 'full', errorformat: 'html' },
  links: { action: 'query', prop: 'langlinks|iwlinks', titles: 'Томск', llprop: 'url|langname|autonym', iwprop: 'url' },
  allpages: { action: 'query', generator: 'allpages', gaplimit: '6', gapfrom: 'Delta' },
  allpagesDown: { action: 'query', generator: 'allpages', gaplimit: '3', gapfrom: 'Gamma', gapdir: 'descending' },
  members: { action: 'query', generator: 'categorymembers', gcmtitle: 'Категория:Сибирь' },
  siteinfo: { action: 'query', meta: 'siteinfo', siprop: 'statistics' },
  siteinfoDe: { action: 'query', meta: 'siteinfo', siprop: 'statistics', uselang: 'de', errorformat: 'plaintext', errorlang: 'fr' },
};
const PRELOAD = 'Статья «Alpha». [[Москва]] [[Несуществующая]]\n* [http://wiki.example.net/page/Alpha/0?q=0 ссылка 0]\n* [//docs.example.io/page/Alpha/1?q=1 ссылка 1]';
const INFO = { contentmodel: 'wikitext', pagelanguage: 'ru', pagelanguagehtmlcode: 'ru', pagelanguagedir: 'ltr' };
const MOVE_HTML =
  'Вы должны <a href="/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%92%D1%85%D0%BE%D0%B4" title="Служебная:Вход">представиться системе</a>, чтобы иметь возможность переименовать страницы.';
/**
 * The 1.43.9 body of prop=imageinfo for a PNG of the live wikis, whose metadata holds no boolean (no
 * file there does); in a GIF's (GIFMetadataExtractor) `looped` is one, here added as it would come.
 */
const PNG_METADATA = [{ name: 'frameCount', value: 0 }, { name: 'loopCount', value: 1 }, { name: 'duration', value: 0 }, { name: 'bitDepth', value: 8 }, { name: 'colorType', value: 'truecolour' }, { name: 'metadata', value: [{ name: '_MW_PNG_VERSION', value: 1 }] }];
const ANONEDITWARNING =
  '<div class="cdx-message cdx-message--block cdx-message--warning mw-anon-edit-warning"><span class="cdx-message__icon"></span><div class="cdx-message__content"><strong>Внимание:</strong> Вы не вошли в систему. Ваш IP-адрес будет общедоступен, если вы запишете какие-либо изменения. Если вы <strong><a rel="nofollow" class="external text" href="http://127.0.0.1:8089/wiki/index.php?title=%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%92%D1%85%D0%BE%D0%B4&amp;returnto=Alpha">войдёте</a></strong> или <strong><a rel="nofollow" class="external text" href="http://127.0.0.1:8089/wiki/index.php?title=%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%A1%D0%BE%D0%B7%D0%B4%D0%B0%D1%82%D1%8C_%D1%83%D1%87%D1%91%D1%82%D0%BD%D1%83%D1%8E_%D0%B7%D0%B0%D0%BF%D0%B8%D1%81%D1%8C&amp;returnto=Alpha">создадите учётную запись</a></strong>, её имя будет использоваться вместо IP-адреса, наряду с другими преимуществами.</div></div>';
const page = (pageid: number, title: string) => ({ pageid, ns: 0, title });
const statistics = { pages: 28, articles: 14, edits: 31, images: 6, users: 17, activeusers: 0, admins: 1, jobs: 55 };

const cassette: Cassette = {
  meta: { format: 1, upstream: 'http://127.0.0.1:8089/wiki/api.php', recordedAt: AT, profile: { version: '1.43.9', language: 'ru', scriptPath: '/wiki', server: 'http://127.0.0.1:8089', debugInfo: false } },
  interactions: [
    recorded(Q.slots, { batchcomplete: true, query: { pages: [{ pageid: 2, ns: 0, title: 'Москва', revisions: [{ revid: 30, parentid: 2, slots: { main: { contentmodel: 'wikitext', contentformat: 'text/x-wiki', content: TEXT } } }] }] } }),
    recorded(Q.legacy, { batchcomplete: true, query: { pages: [{ pageid: 2, ns: 0, title: 'Москва', revisions: [{ contentformat: 'text/x-wiki', contentmodel: 'wikitext', content: TEXT }] }] } }),
    recorded(Q.parse, {
      parse: {
        title: 'X',
        pageid: 0,
        langlinks: [],
        categories: [{ sortkey: '', category: 'Города' }],
        links: [{ ns: 0, title: 'Москва', exists: true }, { ns: 0, title: 'Nope', exists: false }],
        templates: [],
        iwlinks: [{ prefix: 'wikipedia', url: 'https://en.wikipedia.org/wiki/Foo', title: 'wikipedia:Foo' }],
      },
    }),
    recorded(Q.allmessages, { batchcomplete: true, query: { allmessages: [{ name: 'mainpage', normalizedname: 'mainpage', content: 'Заглавная страница' }, { name: 'edit', normalizedname: 'edit', content: 'Править' }] } }),
    recorded(Q.allcategories, { batchcomplete: true, query: { allcategories: [{ category: 'Города', size: 0, pages: 0, files: 0, subcats: 0, hidden: false }] } }),
    recorded(Q.compare, { compare: { fromid: 8, fromrevid: 8, fromns: 0, fromtitle: 'Alpha', toid: 9, torevid: 9, tons: 0, totitle: 'Beta', body: '<tr><td>diff</td></tr>' } }),
    recorded(Q.expand, { expandtemplates: { wikitext: 'Alpha' } }),
    recorded(Q.expandProp, { expandtemplates: { wikitext: 'Alpha' } }),
    // A module of an extension (PageImages): its formatversion=1 form is not known.
    recorded(Q.pageimages, { batchcomplete: true, query: { pages: [{ pageid: 2, ns: 0, title: 'Москва', pageimage: 'X.png' }] } }),
    recorded(Q.preload, { batchcomplete: true, query: { pages: [{ ns: 0, title: 'Нет такой страницы', missing: true, ...INFO, preloadcontent: { contentmodel: 'wikitext', contentformat: 'text/x-wiki', content: PRELOAD }, preloadisdefault: false }] } }),
    recorded(Q.testactions, {
      batchcomplete: true,
      query: { pages: [{ ns: 0, title: 'Мгновенная защита', missing: true, ...INFO, actions: { edit: [], move: [{ code: 'cantmove-anon', text: 'You must be a registered user and [[Special:UserLogin|logged in]] to move a page.' }] } }] },
    }),
    recorded(Q.testactionsHtml, { batchcomplete: true, query: { pages: [{ ns: 0, title: 'Мгновенная защита', missing: true, ...INFO, actions: { edit: [], move: [{ code: 'cantmove-anon', html: MOVE_HTML }] } }] } }),
    recorded(Q.gif, {
      batchcomplete: true,
      query: { pages: [{ pageid: 22, ns: 6, title: 'Файл:Образец 1.png', imagerepository: 'local', imageinfo: [{ size: 72, width: 2, height: 2, metadata: [...PNG_METADATA, { name: 'looped', value: true }, { name: 'x', value: [{ name: 'y', value: false }] }] }] }] },
    }),
    recorded(Q.editintro, {
      batchcomplete: true,
      query: { pages: [{ pageid: 8, ns: 0, title: 'Alpha', ...INFO, touched: '2026-11-27T03:09:04Z', lastrevid: 8, length: 187, new: true, editintro: { anoneditwarning: ANONEDITWARNING } }] },
    }),
    recorded(Q.notoc, { expandtemplates: { wikitext: 'Alpha' } }),
    recorded(Q.notocLower, { expandtemplates: { wikitext: '__notoc__Alpha' } }),
    recorded(Q.notocRu, { expandtemplates: { wikitext: '__БЕЗ_ОГЛАВЛЕНИЯ__Alpha' } }),
    recorded(Q.links, {
      batchcomplete: true,
      query: {
        pages: [
          {
            pageid: 36,
            ns: 0,
            title: 'Томск',
            langlinks: [
              { lang: 'en', url: 'https://en.wikipedia.org/wiki/Tomsk', langname: 'English', autonym: 'English', title: 'Tomsk' },
              { lang: 'uk', url: 'https://uk.wikipedia.org/wiki/%D0%A2%D0%BE%D0%BC%D1%81%D1%8C%D0%BA', langname: 'українська', autonym: 'українська', title: 'Томськ' },
            ],
            iwlinks: [{ prefix: 'wikt', url: 'https://en.wiktionary.org/wiki/%D0%B3%D0%BE%D1%80%D0%BE%D0%B4', title: 'город' }],
          },
        ],
      },
    }),
    recorded(Q.allpages, {
      batchcomplete: true,
      continue: { gapcontinue: 'Ёлкино', continue: 'gapcontinue||' },
      query: { pages: [page(10, 'Gamma'), page(11, 'Delta'), page(12, 'Epsilon'), page(15, 'Theta'), page(28, 'Zeta'), page(39, 'Wikitape client sandbox')] },
    }),
    recorded(Q.allpagesDown, { batchcomplete: true, continue: { gapcontinue: 'Beta', continue: 'gapcontinue||' }, query: { pages: [page(10, 'Gamma'), page(11, 'Delta'), page(12, 'Epsilon')] } }),
    recorded(Q.members, { batchcomplete: true, query: { pages: [page(35, 'Омск'), page(36, 'Томск'), page(38, 'Ёлкино')] } }),
    recorded(Q.siteinfo, { batchcomplete: true, query: { statistics } }),
    recorded(Q.siteinfoDe, { batchcomplete: true, query: { statistics } }),
  ],
  entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-bc-shapes-'));
  await writeFile(join(dir, 'recorded.json'), JSON.stringify(cassette, null, 2));
});

/** The answer's text (no debuginfo: the profile has none), asked of a fresh replay or of `app`. */
async function ask(params: Record<string, string>, app = request(createApp({ cassettes: dir }))): Promise<{ text: string; source: string }> {
  const res = await app.get('/wiki/api.php').query(params);
  return { text: res.text, source: res.headers['x-wikitape-source'] as string };
}

describe('formatversion=1 of recorded answers: content values print as `*`, last (ApiResult BC transform)', () => {
  it("a revision's slot content and its legacy content", async () => {
    const slots = await ask({ ...Q.slots, format: 'json', utf8: '1' });
    expect(slots.source).toBe('cassette');
    expect(JSON.parse(slots.text).query.pages['2'].revisions).toEqual([{ revid: 30, parentid: 2, slots: { main: { contentmodel: 'wikitext', contentformat: 'text/x-wiki', '*': TEXT } } }]);
    const legacy = await ask({ ...Q.legacy, format: 'json', utf8: '1' });
    expect(legacy.text).toContain(`"revisions":[{"contentformat":"text/x-wiki","contentmodel":"wikitext","*":${JSON.stringify(TEXT)}}]`);
  });

  it("parse's links, categories and interwiki links", async () => {
    const { text } = await ask({ ...Q.parse, format: 'json', utf8: '1' });
    expect(text).toBe(
      '{"parse":{"title":"X","pageid":0,"langlinks":[],"categories":[{"sortkey":"","*":"Города"}],"links":[{"ns":0,"exists":"","*":"Москва"},{"ns":0,"*":"Nope"}],"templates":[],' +
        '"iwlinks":[{"prefix":"wikipedia","url":"https://en.wikipedia.org/wiki/Foo","*":"wikipedia:Foo"}]}}',
    );
  });

  it("allmessages' texts, allcategories' names and compare's diff", async () => {
    expect((await ask({ ...Q.allmessages, format: 'json', utf8: '1' })).text).toBe(
      '{"batchcomplete":"","query":{"allmessages":[{"name":"mainpage","normalizedname":"mainpage","*":"Заглавная страница"},{"name":"edit","normalizedname":"edit","*":"Править"}]}}',
    );
    expect((await ask({ ...Q.allcategories, format: 'json', utf8: '1' })).text).toBe('{"batchcomplete":"","query":{"allcategories":[{"size":0,"pages":0,"files":0,"subcats":0,"*":"Города"}]}}');
    expect((await ask({ ...Q.compare, format: 'json' })).text).toBe('{"compare":{"fromid":8,"fromrevid":8,"fromns":0,"fromtitle":"Alpha","toid":9,"torevid":9,"tons":0,"totitle":"Beta","*":"<tr><td>diff</td></tr>"}}');
  });

  it("a page's language and interwiki links: each one's title (ApiQueryLangLinks, ApiQueryIWLinks)", async () => {
    const { text, source } = await ask({ ...Q.links, format: 'json', utf8: '1' });
    expect(source).toBe('cassette');
    expect(text).toBe(
      '{"batchcomplete":"","query":{"pages":{"36":{"pageid":36,"ns":0,"title":"Томск","langlinks":[' +
        '{"lang":"en","url":"https://en.wikipedia.org/wiki/Tomsk","langname":"English","autonym":"English","*":"Tomsk"},' +
        '{"lang":"uk","url":"https://uk.wikipedia.org/wiki/%D0%A2%D0%BE%D0%BC%D1%81%D1%8C%D0%BA","langname":"українська","autonym":"українська","*":"Томськ"}],' +
        '"iwlinks":[{"prefix":"wikt","url":"https://en.wiktionary.org/wiki/%D0%B3%D0%BE%D1%80%D0%BE%D0%B4","*":"город"}]}}}}',
    );
  });

  it("expandtemplates' text without `prop` (the old way), and with it", async () => {
    expect((await ask({ ...Q.expand, format: 'json' })).text).toBe('{"expandtemplates":{"*":"Alpha"}}');
    expect((await ask({ ...Q.expandProp, format: 'json' })).text).toBe('{"expandtemplates":{"wikitext":"Alpha"}}');
  });

  it("prop=info's preloaded text, and the reasons intestactionsdetail gives (messages: their text or html)", async () => {
    const info = '"contentmodel":"wikitext","pagelanguage":"ru","pagelanguagehtmlcode":"ru","pagelanguagedir":"ltr"';
    expect((await ask({ ...Q.preload, format: 'json', utf8: '1' })).text).toBe(
      `{"batchcomplete":"","query":{"pages":{"-1":{"ns":0,"title":"Нет такой страницы","missing":"",${info},"preloadcontent":{"contentmodel":"wikitext","contentformat":"text/x-wiki","*":${JSON.stringify(PRELOAD)}}}}}}`,
    );
    expect((await ask({ ...Q.testactions, format: 'json', utf8: '1' })).text).toBe(
      `{"batchcomplete":"","query":{"pages":{"-1":{"ns":0,"title":"Мгновенная защита","missing":"",${info},"actions":{"edit":[],"move":[{"code":"cantmove-anon","*":"You must be a registered user and [[Special:UserLogin|logged in]] to move a page."}]}}}}}`,
    );
    expect((await ask({ ...Q.testactionsHtml, format: 'json', utf8: '1' })).text).toBe(
      `{"batchcomplete":"","query":{"pages":{"-1":{"ns":0,"title":"Мгновенная защита","missing":"",${info},"actions":{"edit":[],"move":[{"code":"cantmove-anon","*":${JSON.stringify(MOVE_HTML)}}]}}}}}`,
    );
  });

  it("imageinfo's metadata: each entry's `value` is a BC bool, which keeps true and false", async () => {
    const png = '[{"name":"frameCount","value":0},{"name":"loopCount","value":1},{"name":"duration","value":0},{"name":"bitDepth","value":8},{"name":"colorType","value":"truecolour"},{"name":"metadata","value":[{"name":"_MW_PNG_VERSION","value":1}]}';
    expect((await ask({ ...Q.gif, format: 'json', utf8: '1' })).text).toBe(
      `{"batchcomplete":"","query":{"pages":{"22":{"pageid":22,"ns":6,"title":"Файл:Образец 1.png","imagerepository":"local","imageinfo":[{"size":72,"width":2,"height":2,"metadata":${png},{"name":"looped","value":true},{"name":"x","value":[{"name":"y","value":false}]}]}]}}}}`,
    );
  });

  it("a generator's pages: keyed by id in the order the generator gave them (allpages: by title, either way), which the recording shows only for allpages", async () => {
    const ids = (text: string) => Object.keys(JSON.parse(text.replace(/"(\d+)":\{"pageid"/g, '"#$1":{"pageid"')).query.pages as object).map((k) => k.slice(1));
    const up = await ask({ ...Q.allpages, format: 'json' });
    expect([up.source, ids(up.text)]).toEqual(['cassette', ['11', '12', '10', '15', '39', '28']]);
    const down = await ask({ ...Q.allpagesDown, format: 'json' });
    expect([down.source, ids(down.text)]).toEqual(['cassette', ['10', '12', '11']]);
    // categorymembers gives them by sort key (Ёлкино, Омск, Томск): no recording in formatversion=2 shows it
    const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.members, format: 'json' });
    expect([res.headers['x-wikitape-source'], res.headers['x-wikitape-unknown'], res.headers['mediawiki-api-error']]).toEqual(['miss', 'formatversion.pageorder', 'wikitape-miss']);
    expect(JSON.parse(res.text).error.info).toContain('formatversion.pageorder');
    const v2 = await ask({ ...Q.members, format: 'json', formatversion: '2' });
    expect([v2.source, JSON.parse(v2.text)]).toEqual(['cassette', cassette.interactions.find((i) => i.request['generator'] === 'categorymembers')!.body]);
  });

  it('formatversion=2 keeps them as recorded', async () => {
    expect(JSON.parse((await ask({ ...Q.slots, format: 'json', formatversion: '2' })).text)).toEqual(cassette.interactions[0]!.body);
  });
});

describe('what ApiMain adds around a recorded answer', () => {
  it('responselanginfo: uselang and errorlang after the on-top keys, after requestid and curtimestamp', async () => {
    const { text, source } = await ask({ ...Q.siteinfoDe, format: 'json', formatversion: '2', responselanginfo: '1', requestid: '7' });
    expect(source).toBe('cassette');
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['batchcomplete', 'requestid', 'uselang', 'errorlang', 'query']);
    expect(body).toMatchObject({ uselang: 'de', errorlang: 'fr', query: { statistics } });
    // errorformat=bc: the error language is English whatever the user language
    const bc = await ask({ ...Q.siteinfo, format: 'json', responselanginfo: '1' });
    expect(bc.source).toBe('cassette');
    expect(JSON.parse(bc.text)).toMatchObject({ uselang: 'ru', errorlang: 'en' });
  });

  it("a callback's warning is its own request's: an array callback asked first leaves nothing for the next request", async () => {
    const app = request(createApp({ cassettes: dir }));
    const first = JSON.parse((await ask({ ...Q.siteinfo, format: 'json', 'callback[]': 'x' }, app)).text) as Record<string, unknown>;
    expect(first['warnings']).toEqual({ main: { '*': 'Parameter "callback" uses unsupported PHP array syntax.' } });
    // POSTed, so that it is not the printed template of a GET (kept by URL) but the recording printed again
    const next = await app.post('/wiki/api.php').type('form').send({ ...Q.siteinfo, format: 'json' });
    expect(next.headers['x-wikitape-source']).toBe('cassette');
    expect(JSON.parse(next.text)).toEqual({ batchcomplete: '', query: { statistics } });
  });

  it('a callback whose bytes are not UTF-8 warns (apiwarn-badutf8), as it does for a computed answer', async () => {
    const res = await request(createApp({ cassettes: dir })).get(`/wiki/api.php?action=query&meta=siteinfo&siprop=statistics&format=json&callback=x%FFy`);
    expect(res.headers['x-wikitape-source']).toBe('cassette');
    expect(res.text).toMatch(/^\/\*\*\/xy\(\{"warnings":\{"json":\{"\*":"The value passed for \\"callback\\" contains invalid or non-normalized data/);
  });
});

describe('a recording asked in a form wikitape cannot print as the wiki does', () => {
  const builtin = () => request(createApp({ cassettes: dir, onMiss: 'builtin' }));

  it("formatversion=1 of a module whose form there is not known: a miss naming it, by default; flagged with --on-miss builtin", async () => {
    const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.pageimages, format: 'json' });
    expect(res.headers['x-wikitape-source']).toBe('miss');
    expect(res.headers['x-wikitape-unknown']).toBe('formatversion.query+pageimages');
    expect(res.headers['mediawiki-api-error']).toBe('wikitape-miss');
    const body = JSON.parse(res.text) as { error: { code: string; info: string } };
    expect(body.error.code).toBe('wikitape-miss');
    expect(body.error.info).toContain('A recording answers this request');
    expect(body.error.info).toContain('formatversion.query+pageimages');
    const flagged = await builtin().get('/wiki/api.php').query({ ...Q.pageimages, format: 'json' });
    expect([flagged.headers['x-wikitape-source'], flagged.headers['x-wikitape-unknown']]).toEqual(['cassette', 'formatversion.query+pageimages']);
    // formatversion=2 is the form it was recorded in
    const v2 = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.pageimages, format: 'json', formatversion: '2' });
    expect([v2.headers['x-wikitape-source'], v2.headers['x-wikitape-unknown']]).toEqual(['cassette', undefined]);
    expect(JSON.parse(v2.text)).toEqual(cassette.interactions.find((i) => i.request['prop'] === 'pageimages')!.body);
  });

  it('format=xml and format=php of a recording: a miss by default, not JSON in their place; flagged with --on-miss builtin', async () => {
    for (const format of ['xml', 'php']) {
      const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.siteinfo, format });
      expect([format, res.headers['x-wikitape-source'], res.headers['x-wikitape-unknown'], res.headers['mediawiki-api-error']]).toEqual([format, 'miss', `format.${format}`, 'wikitape-miss']);
      const flagged = await builtin().get('/wiki/api.php').query({ ...Q.siteinfo, format });
      expect([format, flagged.headers['x-wikitape-source'], flagged.headers['x-wikitape-unknown']]).toEqual([format, 'cassette', `format.${format}`]);
    }
  });

  it("the HTML page of a 1.43 answer holding a message box's class: its skin loads the box's styles, which wikitape does not (page.styles)", async () => {
    const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.editintro, format: 'jsonfm' });
    expect([res.headers['x-wikitape-source'], res.headers['x-wikitape-unknown'], res.headers['mediawiki-api-error']]).toEqual(['miss', 'page.styles', 'wikitape-miss']);
    const flagged = await builtin().get('/wiki/api.php').query({ ...Q.editintro, format: 'jsonfm' });
    expect([flagged.headers['x-wikitape-source'], flagged.headers['x-wikitape-unknown']]).toEqual(['cassette', 'page.styles']);
    // a parameter the page shows (the format link, debuginfo) holds it too
    const asked = await builtin().get('/wiki/api.php').query({ ...Q.siteinfo, format: 'jsonfm', x: 'mw-message-box' });
    expect(asked.headers['x-wikitape-unknown']).toBe('page.styles');
    for (const format of ['json', 'jsonfm']) {
      const plain = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...(format === 'json' ? Q.editintro : Q.siteinfo), format });
      expect([format, plain.headers['x-wikitape-source'], plain.headers['x-wikitape-unknown']]).toEqual([format, 'cassette', undefined]);
    }
  });

  it('the HTML page of a question holding a double-underscore word: the parse of the header removes magic words from its format link (page.header)', async () => {
    const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.notoc, format: 'jsonfm' });
    expect([res.headers['x-wikitape-source'], res.headers['x-wikitape-unknown']]).toEqual(['miss', 'page.header']);
    const json = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.notoc, format: 'json' });
    expect([json.headers['x-wikitape-source'], json.headers['x-wikitape-unknown'], json.text]).toEqual(['cassette', undefined, '{"expandtemplates":{"wikitext":"Alpha"}}']);
  });

  it('a double-underscore word in the format link in any case, or a parameter name PHP turns into one: refused, as the wiki removes it there (page.header)', async () => {
    const lower = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.notocLower, format: 'jsonfm' });
    expect([lower.headers['x-wikitape-source'], lower.headers['x-wikitape-unknown'], lower.headers['mediawiki-api-error']]).toEqual(['miss', 'page.header', 'wikitape-miss']);
    // PHP reads `_.NOTOC._` as `__NOTOC__` ('.' in a name becomes '_'), and the link holds that name
    const named = await builtin().get('/wiki/api.php?action=query&meta=siteinfo&siprop=statistics&_.NOTOC._=1');
    expect(named.headers['x-wikitape-unknown']).toContain('page.header');
  });

  it("no format link, or a link where no magic word can be (a POST, wrappedhtml, a Russian word that urlencode percent-encodes, a space): printed as the wiki prints it", async () => {
    const ru = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.notocRu, format: 'jsonfm' });
    expect([ru.headers['x-wikitape-source'], ru.headers['x-wikitape-unknown']]).toEqual(['cassette', undefined]);
    // the link as the live wikis print it (1.39 and 1.43 alike)
    expect(ru.text).toContain('&amp;text=__%D0%91%D0%95%D0%97_%D0%9E%D0%93%D0%9B%D0%90%D0%92%D0%9B%D0%95%D0%9D%D0%98%D0%AF__%7B%7BPAGENAME%7D%7D&amp;');
    expect(ru.text).toContain('"wikitext": "__\\u0411\\u0415\\u0417_\\u041e\\u0413\\u041b\\u0410\\u0412\\u041b\\u0415\\u041d\\u0418\\u042f__Alpha"');
    const posted = await request(createApp({ cassettes: dir })).post('/wiki/api.php').type('form').send({ ...Q.notoc, format: 'jsonfm' });
    expect([posted.headers['x-wikitape-source'], posted.headers['x-wikitape-unknown']]).toEqual(['cassette', undefined]);
    expect(posted.text).toContain('присвойте <kbd>format=json</kbd>.');
    const wrapped = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.notoc, format: 'jsonfm', wrappedhtml: '1' });
    expect([wrapped.headers['x-wikitape-source'], wrapped.headers['x-wikitape-unknown']]).toEqual(['cassette', undefined]);
    const spaced = await request(createApp({ cassettes: dir })).get('/wiki/api.php').query({ ...Q.siteinfo, format: 'jsonfm', requestid: '__NOTOC __' });
    expect([spaced.headers['x-wikitape-source'], spaced.headers['x-wikitape-unknown']]).toEqual(['cassette', undefined]);
    expect(spaced.text).toContain('&amp;requestid=__NOTOC+__"');
  });
});
