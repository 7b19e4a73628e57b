import { describe, expect, it } from 'vitest';
import { api, data } from '../support/app.js';

type Obj = Record<string, unknown>;

describe('prop=extlinks', () => {
  it('lists missing, invalid and existing pages in fv1 order, with normalized titles', async () => {
    // Ids -2, -1 and 2, 3: the greatest key is their count less one, so PHP makes them a list in key order
    // (as both live wikis answer titles=москва|Nope|a[b|Санкт-Петербург, pages 2 and 3 there).
    const res = await api({ action: 'query', prop: 'extlinks', titles: 'москва|Несуществующая|a[b|Alpha', utf8: '1' });
    expect(res.text).toMatch(/^\{"batchcomplete":"","query":\{"normalized":\[\{"from":"москва","to":"Москва"\}\],"pages":\[\{"ns":0,"title":"Несуществующая","missing":""\},\{"title":"a\[b","invalidreason":"The requested page title contains invalid characters: \\"\[\\".","invalid":""\},\{"pageid":2,"ns":0,"title":"Москва","extlinks":\[/);
    // Ids -2, -1 and 3: keyed, in the page set's order
    const keyed = await api({ action: 'query', prop: 'extlinks', titles: 'Несуществующая|a[b|Alpha', utf8: '1' });
    expect(keyed.text).toMatch(/^\{"batchcomplete":"","query":\{"pages":\{"-2":\{"ns":0,"title":"Несуществующая","missing":""\},"-1":\{"title":"a\[b","invalidreason":"The requested page title contains invalid characters: \\"\[\\".","invalid":""\},"3":\{"pageid":3,"ns":0,"title":"Alpha","extlinks":\[/);
  });

  it('lists the fv1 pages as an array when their ids are PHP\'s list keys: the greatest is their count less one (-1 and 1)', async () => {
    const list = await api({ action: 'query', titles: 'Нет такой|Заглавная страница', utf8: '1' });
    expect(list.text).toMatch(/^\{"batchcomplete":"","query":\{"pages":\[\{"ns":0,"title":"Нет такой","missing":""\},\{"pageid":1,"ns":0,"title":"Заглавная страница"\}\]\}/);
    const invalid = await api({ action: 'query', prop: 'extlinks', titles: 'Заглавная страница|a[b', utf8: '1' });
    expect(invalid.text).toMatch(/^\{"batchcomplete":"","query":\{"pages":\[\{"title":"a\[b",/);
    // -2, -1 and 1: keyed
    const keyed = await api({ action: 'query', titles: 'Нет такой|Нет другой|Заглавная страница', utf8: '1' });
    expect(keyed.text).toMatch(/^\{"batchcomplete":"","query":\{"pages":\{"-1":/);
    expect(data(await api({ action: 'query', titles: 'Нет такой|Заглавная страница', formatversion: '2' }))['query']).toEqual({
      pages: [{ ns: 0, title: 'Нет такой', missing: true }, { pageid: 1, ns: 0, title: 'Заглавная страница' }],
    });
  });

  it('answers exportnowrap without export as the page set alone, and refuses export', async () => {
    const res = await api({ action: 'query', titles: 'Alpha', indexpageids: '1', exportnowrap: '1' });
    expect(res.headers['x-wikitape-unknown']).toBeUndefined();
    expect(data(res)).toEqual({ batchcomplete: '', query: { pageids: ['3'], pages: { '3': { pageid: 3, ns: 0, title: 'Alpha' } } } });
    expect((await api({ action: 'query', titles: 'Alpha', export: '1', exportnowrap: '1' })).headers['mediawiki-api-error']).toBe('wikitape-notimplemented');
  });

  it('sorts pages by id in fv2, fake ids first, and marks fromencoded', async () => {
    const body = data(await api({ action: 'query', prop: 'extlinks', titles: 'Alpha|Несуществующая|москва', formatversion: '2' }));
    const q = body['query'] as Obj;
    expect(q['normalized']).toEqual([{ fromencoded: false, from: 'москва', to: 'Москва' }]);
    expect((q['pages'] as Obj[]).map((p) => p['pageid'] ?? p['title'])).toEqual(['Несуществующая', 2, 3]);
  });

  it('orders 1.39 links by their reversed-host index and continues with page|index|id', async () => {
    const body = data(await api({ action: 'query', prop: 'extlinks', titles: 'Москва|Alpha', ellimit: '2', formatversion: '2' }));
    const pages = (body['query'] as Obj)['pages'] as Obj[];
    expect(pages.map((p) => (p['extlinks'] as Obj[] | undefined)?.map((l) => l['url']))).toEqual([
      ['http://www.example.com/a?q=1', '//docs.example.io/x'],
      undefined,
    ]);
    expect(body['continue']).toEqual({ elcontinue: '2|https://org.example./moscow|1', continue: '||' });
    expect(body).not.toHaveProperty('batchcomplete');
  });

  it('orders 1.43+ links by el_id, gives protocol-relative links as https and continues with the id', async () => {
    const body = data(await api({ action: 'query', prop: 'extlinks', titles: 'Москва', ellimit: '2', formatversion: '2' }, { version: '1.43.9' }));
    const pages = (body['query'] as Obj)['pages'] as Obj[];
    expect((pages[0]!['extlinks'] as Obj[]).map((l) => l['url'])).toEqual(['https://example.org/moscow', 'http://www.example.com/a?q=1']);
    expect(body['continue']).toEqual({ elcontinue: '3', continue: '||' });
  });

  it('carries the generator part of `continue` on while a prop continues: the request values it names, in request order', async () => {
    const ask = async (ellimit: string) => data(await api({ action: 'query', titles: 'Москва', prop: 'extlinks', ellimit, list: 'blocks', formatversion: '2', continue: 'formatversion|titles|nope||blocks' }));
    const body = await ask('1');
    expect(body['continue']).toEqual({ elcontinue: 'http://io.example.docs./x|3', titles: 'Москва', formatversion: '2', continue: 'titles|formatversion||blocks' });
    expect(Object.keys(body['continue'] as Obj)).toEqual(['elcontinue', 'titles', 'formatversion', 'continue']);
    // The prop done, nothing is carried on.
    expect((await ask('max'))['continue']).toBeUndefined();
  });

  it('walks a page with more than 10 links without skipping or repeating', async () => {
    const urls: string[] = [];
    let cont: Obj = {};
    for (let i = 0; i < 20; i++) {
      const body = data(await api({ action: 'query', prop: 'extlinks', titles: 'Список ссылок', ellimit: '4', formatversion: '2', ...(cont as Record<string, string>) }));
      urls.push(...(((body['query'] as Obj)['pages'] as Obj[])[0]!['extlinks'] as Obj[]).map((l) => l['url'] as string));
      if (!body['continue']) break;
      cont = body['continue'] as Obj;
    }
    expect(urls).toHaveLength(14);
    expect(new Set(urls).size).toBe(14);
  });

  it('filters by protocol and query', async () => {
    const urls = async (p: Record<string, string>) =>
      ((((data(await api({ action: 'query', prop: 'extlinks', titles: 'Москва|Alpha', formatversion: '2', ...p }))['query'] as Obj)['pages'] as Obj[]).flatMap((x) => (x['extlinks'] as Obj[] | undefined) ?? [])).map((l) => l['url']));
    expect(await urls({ elprotocol: 'mailto' })).toEqual(['mailto:info@example.com']);
    expect(await urls({ elprotocol: 'https' })).toEqual(['//docs.example.io/x', 'https://example.org/moscow', 'https://b.example.net/']);
    expect(await urls({ elquery: '*.example.com' })).toEqual(['http://www.example.com/a?q=1']);
    // an empty query is no query (ApiQueryExternalLinks: `$query !== ''`)
    expect(await urls({ elquery: '' })).toEqual(await urls({}));
  });

  it.each([
    // LinkFilter::makeLikeArray: a `*` only at the start of the host
    ['example.org/*', 'badquery'],
    ['*.example.org/a*', 'badquery'],
    ['example.org?q=*', 'badquery'],
    ['1.2.3.*', undefined],
    ['[::1]', undefined],
  ])('elquery=%s → %s on 1.39 and 1.43', async (elquery, code) => {
    for (const version of ['1.39.17', '1.43.9']) {
      const res = await api({ action: 'query', prop: 'extlinks', titles: 'Alpha', elquery }, { version });
      expect(res.headers['mediawiki-api-error']).toBe(code);
    }
  });

  it('a protocol written without `//` (elprotocol=matrix, geo, mailto): 1.43 reads `*.host` after it as a path, and refuses it, but for mailto and news', async () => {
    // What MediaWiki 1.39.17 and 1.43.5 answered to elquery=*.example.org with each protocol.
    for (const [elprotocol, on139, on143] of [['matrix', undefined, 'badquery'], ['geo', undefined, 'badquery'], ['mailto', undefined, undefined], ['news', undefined, undefined], ['https', undefined, undefined]] as const) {
      for (const [version, code] of [['1.39.17', on139], ['1.43.9', on143]] as const) {
        const res = await api({ action: 'query', prop: 'extlinks', titles: 'Alpha', elprotocol, elquery: '*.example.org' }, { version });
        expect([elprotocol, version, res.headers['mediawiki-api-error']]).toEqual([elprotocol, version, code]);
      }
    }
  });
});

describe('action=parse with a summary', () => {
  it('renders links, red links with the Russian title, link trails and autocomments (1.39)', async () => {
    const body = data(await api({ action: 'parse', summary: '/* Раздел 1 */ [[Москва]]ы и [[Нет такой|ссылка]]', prop: '', formatversion: '2' }));
    expect(body['parse']).toEqual({
      title: 'API',
      pageid: 0,
      parsedsummary:
        '<span dir="auto"><span class="autocomment"><a href="/wiki/index.php/API#Раздел_1" title="API">→\u200eРаздел 1</a>: </span> ' +
        '<a href="/wiki/index.php/%D0%9C%D0%BE%D1%81%D0%BA%D0%B2%D0%B0" title="Москва">Москваы</a> и ' +
        '<a href="/wiki/index.php?title=%D0%9D%D0%B5%D1%82_%D1%82%D0%B0%D0%BA%D0%BE%D0%B9&amp;action=edit&amp;redlink=1" class="new" title="Нет такой (страница не существует)">ссылка</a></span>',
    });
  });

  it('renders autocomments with bdi and no wrapper from 1.43 on', async () => {
    const body = data(await api({ action: 'parse', summary: '/* Раздел */', prop: '', formatversion: '2' }, { version: '1.43.9' }));
    expect((body['parse'] as Obj)['parsedsummary']).toBe('<span class="autocomment"><a href="/wiki/index.php/API#Раздел" title="API">→<bdi dir="ltr">Раздел</bdi></a></span>');
  });

  it('escapes HTML and decodes entities first', async () => {
    const body = data(await api({ action: 'parse', summary: '<b>x</b> &amp; a&mdash;b', prop: '', formatversion: '2' }));
    expect((body['parse'] as Obj)['parsedsummary']).toBe('&lt;b&gt;x&lt;/b&gt; &amp; a—b');
  });

  it('answers the full default props with the empty-content text and the limit report', async () => {
    const body = data(await api({ action: 'parse', summary: 'x' }));
    const parse = body['parse'] as Obj;
    expect(Object.keys(parse)).toEqual(['title', 'pageid', 'text', 'parsedsummary', 'langlinks', 'categories', 'links', 'templates', 'images', 'externallinks', 'sections', 'parsewarnings', 'displaytitle', 'iwlinks', 'properties']);
    expect((parse['text'] as Obj)['*']).toMatch(/^<div class="mw-parser-output">\n<!-- \nNewPP limit report\nCached time: 20240310000000\nCache expiry: 86400\n[\s\S]*Post\u2010expand include size: 0\/2097152 bytes[\s\S]*100\.00% {4}0\.000 {6}1 -total\n-->\n<\/div>$/);
    expect(parse['displaytitle']).toBe('<span class="mw-page-title-main">API</span>');
    expect(parse['properties']).toEqual([]);
    const fv2 = data(await api({ action: 'parse', summary: 'x', formatversion: '2' }));
    expect((fv2['parse'] as Obj)['showtoc']).toBe(false);
    expect((fv2['parse'] as Obj)['properties']).toEqual({});
  });

  it('is sent with cache mode anon-public-user-private', async () => {
    const res = await api({ action: 'parse', summary: 'x', prop: '' });
    expect(res.headers['vary']).toBe('Accept-Encoding, Treat-as-Untrusted, Cookie');
    expect(res.headers['cache-control']).toBe('private, must-revalidate, max-age=0');
    const cached = await api({ action: 'parse', summary: 'x', prop: '', maxage: '60', smaxage: '60' });
    expect(cached.headers['cache-control']).toBe('s-maxage=60, max-age=60, public');
  });
});

describe('action=parse: every prop, deprecated parameters, onlypst (as the live 1.39 and 1.43 answer for empty content)', () => {
  it('answers the props of a skin-less parse of nothing, in ApiParse\'s order, and parsetree for generatexml', async () => {
    const prop = 'categorieshtml|parsewarningshtml|subtitle|headitems|modules|jsconfigvars|encodedjsconfigvars|indicators|parsetree';
    const fv2 = data(await api({ action: 'parse', summary: 'x', prop, formatversion: '2' }))['parse'] as Obj;
    expect(fv2).toEqual({
      title: 'API', pageid: 0, parsedsummary: 'x',
      categorieshtml: '<div id="catlinks" class="catlinks catlinks-allhidden" data-mw="interface"></div>',
      parsewarningshtml: [], subtitle: '', headitems: [], modules: [], modulescripts: [], modulestyles: [],
      jsconfigvars: {}, encodedjsconfigvars: '[]', indicators: {}, parsetree: '<root/>',
    });
    expect(Object.keys(fv2)).toEqual(['title', 'pageid', 'parsedsummary', 'categorieshtml', 'parsewarningshtml', 'subtitle', 'headitems', 'modules', 'modulescripts', 'modulestyles', 'jsconfigvars', 'encodedjsconfigvars', 'indicators', 'parsetree']);
    const fv1 = data(await api({ action: 'parse', summary: 'x', prop: 'categorieshtml|indicators|parsetree' }))['parse'] as Obj;
    expect(fv1['parsetree']).toEqual({ '*': '<root/>' });
    expect(fv1['indicators']).toEqual([]);
    const xml = data(await api({ action: 'parse', summary: 'x', prop: '', generatexml: '1', formatversion: '2' }))['parse'] as Obj;
    expect(xml['parsetree']).toBe('<root/>');
  });

  it('warns of modules without their configuration variables', async () => {
    const body = data(await api({ action: 'parse', summary: 'x', prop: 'modules', uselang: 'en' }));
    expect(body['warnings']).toEqual({ parse: { '*': 'Property "modules" was set but not "jsconfigvars" or "encodedjsconfigvars". Configuration variables are necessary for proper module usage.' } });
  });

  it('warns of deprecated parameters and values, with main\'s pointer to the announcement list', async () => {
    const res = await api({ action: 'parse', summary: 'x', prop: 'headitems', generatexml: '1', disablepp: '1', effectivelanglinks: '1', errorformat: 'raw' });
    const warnings = data(res)['warnings'] as Obj[];
    expect(warnings.map((w) => [w['key'], (w['data'] as Obj | undefined)?.['feature']])).toEqual([
      ['apiwarn-deprecation-parse-headitems', 'action=parse&prop=headitems'],
      ['api-usage-mailinglist-ref', undefined],
      ['paramvalidator-param-deprecated', 'action=parse&effectivelanglinks'],
      ['paramvalidator-param-deprecated', 'action=parse&disablepp'],
      ['paramvalidator-param-deprecated', 'action=parse&generatexml'],
    ]);
    expect(warnings[2]!['params']).toEqual([{ plaintext: 'effectivelanglinks' }, { plaintext: '1' }]);
    // A boolean given is true, whatever its value: the warning names the value "1".
    for (const value of ['', 'false', 'abc']) {
      const given = data(await api({ action: 'parse', summary: 'x', prop: '', effectivelanglinks: value, errorformat: 'raw' }))['warnings'] as Obj[];
      expect(given[0]!['params']).toEqual([{ plaintext: 'effectivelanglinks' }, { plaintext: '1' }]);
    }
  });

  it('warns that a title without text parses nothing of that page, when props are asked for', async () => {
    const warned = data(await api({ action: 'parse', summary: 'x', title: 'Foo', errorformat: 'raw' }));
    expect(warned['warnings']).toEqual([{ code: 'parse-titlewithouttext', key: 'apiwarn-parse-titlewithouttext', params: [], module: 'parse' }]);
    const none = data(await api({ action: 'parse', summary: 'x', title: 'Foo', prop: '' }));
    expect(none['warnings']).toBeUndefined();
  });

  it('answers onlypst with the transformed text alone (no title, no page id)', async () => {
    const body = data(await api({ action: 'parse', summary: 'x', onlypst: '1', prop: 'wikitext', formatversion: '2' }));
    expect(JSON.stringify(body)).toBe('{"parse":{"text":"","wikitext":"","parsedsummary":"x"}}');
  });

  it('flags what it does not render: a skin\'s head, the limit report table, Parsoid (1.43)', async () => {
    expect((await api({ action: 'parse', summary: 'x', prop: 'headhtml' })).headers['x-wikitape-unknown']).toBe('parse.headhtml');
    expect((await api({ action: 'parse', summary: 'x', prop: 'limitreporthtml' })).headers['x-wikitape-unknown']).toBe('parse.limitreporthtml');
    const parsoid = await api({ action: 'parse', summary: 'x', parsoid: '1' }, { version: '1.43.9' });
    expect(parsoid.headers['mediawiki-api-error']).toBe('wikitape-notimplemented');
    const in139 = data(await api({ action: 'parse', summary: 'x', prop: '', parsoid: '1' }));
    expect(in139['warnings']).toEqual({ main: { '*': 'Unrecognized parameter: parsoid.' } });
  });
});

describe('action=parse with section=new', () => {
  // Answers of the real MediaWiki 1.39.17 (the live wiki of scripts/live-wiki.sh) to the same questions.
  it('makes the summary from the section title when the summary is empty or absent (ApiParse::formatSummary)', async () => {
    const title = data(await api({ action: 'parse', section: 'new', sectiontitle: "'''Bold''' [[Foo|bar]] <b>x</b>", prop: '', formatversion: '2' }));
    expect((title['parse'] as Obj)['parsedsummary']).toBe('<span dir="auto"><span class="autocomment"><a href="#Bold_bar_x">→‎Bold bar x</a>: </span> новая тема</span>');
    const both = data(await api({ action: 'parse', section: 'new', sectiontitle: 'T', summary: 'S', prop: '', formatversion: '2' }));
    expect((both['parse'] as Obj)['parsedsummary']).toBe('S');
  });

  it('flags the parse of the heading a section title adds (wikitape renders no wikitext)', async () => {
    const res = await api({ action: 'parse', section: 'new', sectiontitle: 'T', formatversion: '2' });
    expect(res.headers['x-wikitape-unknown']).toBe('parse.sectiontitle');
    const bare = await api({ action: 'parse', section: 'new', sectiontitle: 'T', prop: '', formatversion: '2' });
    expect(bare.headers['x-wikitape-unknown']).toBeUndefined();
  });
});

describe('action=parse with another section, content model or format', () => {
  // Answers of the real MediaWiki 1.39.17 and 1.43.9 (the live wikis of scripts/live-wiki.sh) to the same questions.
  const error = async (params: Record<string, string>) => (data(await api({ action: 'parse', summary: 'x', uselang: 'en', formatversion: '2', ...params }))['error'] as Obj)['info'];

  it('refuses a section that is no section ID, before the title is read', async () => {
    for (const section of ['x', ' 1', '', 'T-x']) expect(await error({ section })).toBe('The "section" parameter must be a valid section ID or "new".');
    expect(await error({ section: 'x', title: 'a[b' })).toBe('The "section" parameter must be a valid section ID or "new".');
    expect(await error({ section: '1', title: 'a[b' })).toBe('Bad title "a[b".');
  });

  it("names a bad value's choices in the wiki's order, not sorted (ContentHandler's formats and models, the skins)", async () => {
    const choices = async (p: Record<string, string>, version: string) => (((data(await api({ action: 'parse', summary: 'x', formatversion: '2', errorformat: 'raw', ...p }, { version }))['errors'] as Obj[])[0]!['params'] as Obj[])[2]!['list'] as Obj[]).map((c) => c['plaintext']);
    for (const version of ['1.39.17', '1.43.9']) {
      expect(await choices({ contentformat: 'bogus' }, version)).toEqual(['text/x-wiki', 'text/javascript', 'application/json', 'text/css', 'text/plain', 'application/octet-stream', 'application/unknown', 'application/x-binary', 'text/unknown', 'unknown/unknown']);
      expect(await choices({ contentmodel: 'bogus' }, version)).toEqual(['wikitext', 'javascript', 'json', 'css', 'text', 'unknown']);
    }
    expect(await choices({ useskin: 'bogus' }, '1.43.9')).toEqual(['minerva', 'monobook', 'timeless', 'vector-2022', 'vector', 'fallback', 'apioutput', 'authentication-popup', 'json']);
  });

  it("refuses a title on another wiki (an interwiki prefix: ApiParse's Title::isExternal)", async () => {
    for (const version of ['1.39.17', '1.43.9']) {
      expect((data(await api({ action: 'parse', summary: 'x', uselang: 'en', formatversion: '2', title: 'wikipedia:Foo' }, { version }))['error'] as Obj)['info']).toBe('Bad title "wikipedia:Foo".');
    }
    expect(data(await api({ action: 'parse', summary: 'x', formatversion: '2', title: 'Talk:Foo' }))['parse']).toBeDefined();
  });

  it('refuses page, pageid or oldid beside each other, text, title or revid first (the section after)', async () => {
    expect(await error({ title: 'X', page: 'Y', section: 'x' })).toBe('The parameters "title" and "page" can not be used together.');
    expect(await error({ page: 'Y', pageid: '1', oldid: '2' })).toBe('The parameters "page", "pageid" and "oldid" can not be used together.');
    expect(await error({ text: 'a', oldid: '2' })).toBe('The parameters "text" and "oldid" can not be used together.');
  });

  it('names parse as the module of that error (errorformat=plaintext: live 1.39 and 1.43 say "module": "parse")', async () => {
    const body = data(await api({ action: 'parse', summary: 'x', text: 'a', page: 'Y', errorformat: 'plaintext', formatversion: '2' }));
    expect(body['errors']).toMatchObject([{ code: 'invalidparammix', module: 'parse' }]);
  });

  it('gives the pre-save-transformed text after the text for pst', async () => {
    const body = data(await api({ action: 'parse', summary: 'x', prop: 'wikitext|sections', pst: '1', formatversion: '2' }));
    expect(JSON.stringify(body)).toBe('{"parse":{"title":"API","pageid":0,"parsedsummary":"x","sections":[],"showtoc":false,"wikitext":"","psttext":""}}');
    const v1 = data(await api({ action: 'parse', summary: 'x', prop: 'wikitext', pst: '1' }));
    expect(JSON.stringify(v1)).toBe('{"parse":{"title":"API","pageid":0,"parsedsummary":{"*":"x"},"wikitext":{"*":""},"psttext":{"*":""}}}');
  });

  it('has section 0 alone of the empty content it parses', async () => {
    expect(await error({ section: '1' })).toBe('There is no section 1 in API.');
    expect(await error({ section: 'T-1', title: 'Foo', prop: '' })).toBe('There is no section T-1 in Foo.');
    expect(await error({ section: '01' })).toBe('There is no section 01 in API.');
    // after the warning that a title without text parses nothing of it
    expect(data(await api({ action: 'parse', summary: 'x', title: 'Foo', prop: 'links', section: '1', uselang: 'en', formatversion: '2' }))['warnings']).toEqual({
      parse: { warnings: '"title" used without "text", and parsed page properties were requested. Did you mean to use "page" instead of "title"?' },
    });
    for (const section of ['0', '00', 'T-0']) expect(data(await api({ action: 'parse', summary: 'x', section, prop: '', formatversion: '2' }))).toEqual({ parse: { title: 'API', pageid: 0, parsedsummary: 'x' } });
  });

  it('refuses a content format the content model does not read', async () => {
    expect(await error({ contentformat: 'text/css' })).toBe('The requested format text/css is not supported for content model wikitext.');
    expect(await error({ contentmodel: 'css', contentformat: 'text/x-wiki' })).toBe('The requested format text/x-wiki is not supported for content model css.');
    expect(await error({ title: 'MediaWiki:X.json', contentformat: 'text/x-wiki' })).toBe('The requested format text/x-wiki is not supported for content model json.');
  });

  it('wraps the text in the class asked (none for an empty one), says a preview is one (1.43), and knows the skins of the captured wikis', async () => {
    const text = async (wrapoutputclass: string, version = '1.39.17') => (data(await api({ action: 'parse', summary: 'x', prop: 'text', disablelimitreport: '1', wrapoutputclass, formatversion: '2' }, { version }))['parse'] as Obj)['text'];
    expect(await text('foo')).toBe('<div class="foo"></div>');
    expect(await text('a b<')).toBe('<div class="a b&lt;"></div>');
    expect(await text('')).toBe('');
    expect(await text('foo', '1.43.9')).toBe('<div class="mw-content-ltr foo" lang="ru" dir="ltr"></div>');
    // A preview is a complication of the parse from 1.43 on (its limit report says so).
    const report = async (params: Record<string, string>, version: string) => (data(await api({ action: 'parse', summary: 'x', prop: 'text', formatversion: '2', ...params }, { version }))['parse'] as Obj)['text'];
    expect(await report({ preview: 'false' }, '1.43.9')).toContain('\nComplications: [is\u2010preview]\n');
    expect(await report({ sectionpreview: '1' }, '1.43.9')).toContain('\nComplications: [is\u2010preview]\n');
    expect(await report({}, '1.43.9')).toContain('\nComplications: []\n');
    expect(await report({ preview: '1' }, '1.39.17')).toContain('\nComplications: []\n');
    expect(data(await api({ action: 'parse', summary: 'x', prop: '', useskin: 'minerva', formatversion: '2' }))).toEqual({ parse: { title: 'API', pageid: 0, parsedsummary: 'x' } });
    expect(data(await api({ action: 'parse', summary: 'x', prop: '', useskin: 'json', formatversion: '2' }, { version: '1.43.9' }))).toEqual({ parse: { title: 'API', pageid: 0, parsedsummary: 'x' } });
    expect((await api({ action: 'parse', summary: 'x', prop: '', contentmodel: 'GadgetDefinition' })).headers['mediawiki-api-error']).toBe('badvalue');
  });

  it('renders no other content model than wikitext: a title\'s own (a .css, .js or .json page) or the one asked', async () => {
    for (const params of <Record<string, string>[]>[{ contentmodel: 'css' }, { contentmodel: 'text', prop: 'displaytitle' }, { title: 'MediaWiki:Common.css' }, { title: 'User:A/b.js', onlypst: '1' }, { contentmodel: 'json', section: '0', prop: '' }]) {
      expect((await api({ action: 'parse', summary: 'x', ...params })).headers['mediawiki-api-error']).toBe('wikitape-notimplemented');
    }
    // The summary alone is the same whatever the content.
    expect(data(await api({ action: 'parse', summary: 'x', contentmodel: 'css', prop: '', formatversion: '2' }))).toEqual({ parse: { title: 'API', pageid: 0, parsedsummary: 'x' } });
    expect(data(await api({ action: 'parse', summary: 'x', title: 'User:A/b.js', prop: '', formatversion: '2' }))).toEqual({ parse: { title: 'Участник:A/b.js', pageid: 0, parsedsummary: 'x' } });
  });
});

describe('action=spamblacklist', () => {
  it('answers ok, or blacklisted with the matching part of each URL', async () => {
    expect(data(await api({ action: 'spamblacklist', url: 'https://ok.test/' }))).toEqual({ spamblacklist: { result: 'ok' } });
    expect(data(await api({ action: 'spamblacklist', url: '' }))).toEqual({ spamblacklist: { result: 'ok' } });
    expect(data(await api({ action: 'spamblacklist', url: 'http://Casino-Spam.example/x|https://ok.test/' }))).toEqual({
      spamblacklist: { result: 'blacklisted', matches: ['Casino-Spam.example'] },
    });
  });

  it('lists each match once, in the order of the sorted URLs', async () => {
    const res = await api({ action: 'spamblacklist', url: 'http://casino-spam.example/a|http://casino-spam.example/b|http://badpills.test/' });
    expect(data(res)).toEqual({ spamblacklist: { result: 'blacklisted', matches: ['badpills.test', 'casino-spam.example'] } });
  });

  it('turns a duplicate followed by another match into an object, as PHP array_unique does', async () => {
    const res = await api({ action: 'spamblacklist', url: 'http://free-money.test/|http://casino-spam.example/b|http://casino-spam.example/a' });
    expect(res.text).toMatch(/^\{"spamblacklist":\{"result":"blacklisted","matches":\{"0":"casino-spam.example","2":"free-money"\}\}/);
  });
});
