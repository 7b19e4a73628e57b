import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { emptyHarvest, type Cassette, type Interaction } from '../../src/cassette/format.js';
import type { JsonObject } from '../../src/api/result.js';
import { harvest } from '../../src/record/harvest.js';
import { canonicalKey, canonicalParams } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';

/**
 * The page set on a replayed wiki: what a crawl recorded (pages, which are redirects and where
 * they lead, siteinfo's interwiki table and special page names) decides the answer; what it did
 * not record is flagged. And a recorded answer replayed for another spelling of its titles.
 * Answers as the live 1.39 gave them (populate.mjs's data: `Zeta` was moved to `Зета`).
 */
const PROFILE = { version: '1.39.17', language: 'ru' as const, siteName: 'Тестовая вики', server: 'http://127.0.0.1:8088', scriptPath: '/wiki', debugInfo: false };
const ALL = [{ pageid: 2, ns: 0, title: 'Москва' }, { pageid: 8, ns: 0, title: 'Alpha' }, { pageid: 28, ns: 0, title: 'Zeta' }, { pageid: 13, ns: 0, title: 'Зета' }];
const ZETA_LINKS = [{ url: '//docs.example.io/page/Zeta/1?q=1' }, { url: 'http://wiki.example.net/page/Zeta/0?q=0' }];

/** An interaction as record mode stores it. */
function recorded(params: Record<string, string>, body: JsonObject): Interaction {
  const p = new Map(Object.entries(params));
  return { key: canonicalKey(p, KEY_RULES), request: Object.fromEntries(canonicalParams(p, KEY_RULES)), status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body, recordedAt: '2026-11-22T12:00:00Z' };
}

const allpages = (ns: string, pages: typeof ALL, redirects = false) =>
  recorded({ action: 'query', list: 'allpages', apnamespace: ns, aplimit: 'max', ...(redirects ? { apfilterredir: 'redirects' } : {}) }, { batchcomplete: true, query: { allpages: pages } });
const PAGES = Array.from({ length: 16 }, (_, ns) => allpages(String(ns), ns === 0 ? ALL : []));
const REDIRECT_WALK = Array.from({ length: 16 }, (_, ns) => allpages(String(ns), ns === 0 ? ALL.filter((p) => p.title === 'Zeta') : [], true));
const TARGETS = recorded({ action: 'query', titles: 'Zeta', redirects: '1' }, { batchcomplete: true, query: { redirects: [{ from: 'Zeta', to: 'Зета' }], pages: [{ pageid: 13, ns: 0, title: 'Зета' }] } });
const SITEINFO = recorded(
  { action: 'query', meta: 'siteinfo', siprop: 'interwikimap|specialpagealiases' },
  { batchcomplete: true, query: { interwikimap: [{ prefix: 'foo', url: 'https://foo.example/wiki/$1' }, { prefix: 'wp', url: 'https://en.wikipedia.org/wiki/$1' }], specialpagealiases: [{ realname: 'Randompage', aliases: ['Случайная_страница', 'Random'] }] } },
);
const SPELLED = recorded(
  { action: 'query', titles: 'zeta', redirects: '1', prop: 'extlinks', ellimit: 'max' },
  { batchcomplete: true, query: { normalized: [{ fromencoded: false, from: 'zeta', to: 'Zeta' }], redirects: [{ from: 'Zeta', to: 'Зета' }], pages: [{ pageid: 13, ns: 0, title: 'Зета', extlinks: ZETA_LINKS }] } },
);
const INTERWIKI_LOWER = recorded({ action: 'query', titles: 'wp:foo' }, { batchcomplete: true, query: { interwiki: [{ title: 'wp:foo', iw: 'wp' }] } });
const SPACED = recorded({ action: 'query', titles: 'Foo Bar' }, { batchcomplete: true, query: { pages: [{ ns: 0, title: 'Foo Bar', missing: true }] } });
const BY_IDS = recorded({ action: 'query', pageids: '8|2' }, { batchcomplete: true, query: { pages: [{ pageid: 2, ns: 0, title: 'Москва' }, { pageid: 8, ns: 0, title: 'Alpha' }] } });

/** A replay app over one cassette holding these interactions (entities harvested as record mode does). */
async function replay(interactions: Interaction[]) {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-pageset-replay-'));
  const entities = emptyHarvest();
  for (const i of interactions) harvest(entities, i.body, i.request);
  const cassette: Cassette = { meta: { format: 1, upstream: 'http://127.0.0.1:8088/wiki/api.php', recordedAt: '2026-11-22T12:00:00Z', profile: PROFILE }, interactions, entities };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'crawl.json'), JSON.stringify(cassette, null, 2));
  const app = createApp({ cassettes: dir, clock: '2026-11-23T00:00:00Z' });
  return async (params: Record<string, string>) => {
    const res = await request(app).get('/wiki/api.php').query({ action: 'query', format: 'json', ...params });
    return { text: res.text, body: JSON.parse(res.text) as Record<string, any>, source: res.headers['x-wikitape-source'], unknown: res.headers['x-wikitape-unknown'] as string | undefined };
  };
}

describe('redirects on a replayed wiki', () => {
  it('are followed where a recorded answer showed the target, exactly', async () => {
    const ask = await replay([...PAGES, ...REDIRECT_WALK, TARGETS]);
    const r = await ask({ titles: 'Alpha|Zeta', redirects: '1', formatversion: '2' });
    expect(r.unknown).toBeUndefined();
    expect(r.body['query']).toEqual({ redirects: [{ from: 'Zeta', to: 'Зета' }], pages: [{ pageid: 8, ns: 0, title: 'Alpha' }, { pageid: 13, ns: 0, title: 'Зета' }] });
  });

  it('known to be a redirect but with no target recorded: flagged pages.redirect', async () => {
    const r = await (await replay([...PAGES, ...REDIRECT_WALK]))({ titles: 'Zeta', redirects: '1', formatversion: '2' });
    expect(r.unknown).toContain('pages.redirect');
  });

  it('not known either way (no walk of the redirects): flagged pages.redirect', async () => {
    const r = await (await replay(PAGES))({ titles: 'Alpha', redirects: '1', formatversion: '2' });
    expect(r.unknown).toContain('pages.redirect');
    const plain = await (await replay(PAGES))({ titles: 'Alpha', formatversion: '2' });
    expect(plain.unknown).toBeUndefined();
  });
});

describe('a page nobody recorded beside one whose links were walked', () => {
  it('leaves the continuation of their links unknown: how many pages exist shapes it (MediaWiki 1.39)', async () => {
    // (replay once refused a continuation of two pages' links as `badcontinue`, unflagged: it took
    // Москва, which nothing recorded, for missing, so the continuation had one part too many)
    const ask = await replay([SPELLED]);
    const r = await ask({ titles: 'Зета|Москва', prop: 'extlinks', ellimit: '1', elcontinue: '13|http://net.example.wiki./page/Zeta/0?q=0|7', formatversion: '2' });
    expect({ source: r.source, unknown: r.unknown, code: r.body['error']?.['code'] }).toEqual({ source: 'miss', unknown: 'pages.existence', code: 'wikitape-miss' });
    // A page recorded alone: its own links' continuation has no page part, and a third part is the wiki's error.
    const alone = await ask({ titles: 'Зета', prop: 'extlinks', ellimit: '1', elcontinue: '13|http://net.example.wiki./page/Zeta/0?q=0|7', formatversion: '2' });
    expect({ unknown: alone.unknown, code: alone.body['error']?.['code'] }).toEqual({ unknown: undefined, code: 'badcontinue' });
  });
});

describe('interwiki titles and special pages on a replayed wiki', () => {
  it('read against the recorded interwiki table and special page names, exactly', async () => {
    const ask = await replay([...PAGES, SITEINFO]);
    const r = await ask({ titles: 'foo:Bar|wikipedia:X|Special:Random', iwurl: '1', formatversion: '2' });
    expect(r.unknown).toBeUndefined();
    expect(r.body['query']).toEqual({
      normalized: [
        { fromencoded: false, from: 'wikipedia:X', to: 'Wikipedia:X' },
        { fromencoded: false, from: 'Special:Random', to: 'Служебная:Случайная страница' },
      ],
      interwiki: [{ title: 'foo:Bar', iw: 'foo', url: 'https://foo.example/wiki/Bar' }],
      pages: [{ ns: 0, title: 'Wikipedia:X', missing: true }, { ns: -1, title: 'Служебная:Случайная страница', special: true }],
    });
  });

  it('without a recorded siteinfo: flagged siteinfo.interwikimap and siteinfo.specialpagealiases', async () => {
    const ask = await replay(PAGES);
    expect((await ask({ titles: 'wikipedia:X' })).unknown).toBe('siteinfo.interwikimap');
    expect((await ask({ titles: 'Special:Random' })).unknown).toBe('siteinfo.specialpagealiases');
    expect((await ask({ titles: 'Alpha' })).unknown).toBeUndefined();
  });
});

describe('a recorded answer asked in another spelling', () => {
  it('is served with the `normalized` of the spelling asked (none for the wiki’s own), in both formats', async () => {
    const ask = await replay([...PAGES, SPELLED]);
    const own = await ask({ titles: 'Zeta', redirects: '1', prop: 'extlinks', ellimit: 'max', formatversion: '2' });
    expect(own.source).toBe('cassette');
    expect(own.body['query']['normalized']).toBeUndefined();
    const spaced = await ask({ titles: ' zeta ', redirects: '1', prop: 'extlinks', ellimit: 'max' });
    expect(spaced.source).toBe('cassette');
    expect(spaced.text).toContain('"query":{"normalized":[{"from":" zeta ","to":"Zeta"}],"redirects":[{"from":"Zeta","to":"\\u0417\\u0435\\u0442\\u0430"}]');
  });

  it('past the page set (`continue=-||…`) is served without `normalized`, as the wiki writes no page information then', async () => {
    const params = { titles: 'Alpha|Zeta', prop: 'extlinks', list: 'blocks', bklimit: '1', bkcontinue: '20261120000000|4', continue: '-||extlinks' };
    const later = recorded({ action: 'query', ...params }, { batchcomplete: true, query: { blocks: [{ id: 4, user: 'Spammer 2' }] } });
    const ask = await replay([...PAGES, later]);
    const r = await ask({ ...params, titles: 'alpha|zeta', formatversion: '2' });
    expect(r.source).toBe('cassette');
    expect(r.body['query']).toEqual({ blocks: [{ id: 4, user: 'Spammer 2' }] });
  });

  it('is not served for a spelling the wiki answers otherwise: an interwiki prefix’s case, a tab', async () => {
    const ask = await replay([...PAGES, SITEINFO, INTERWIKI_LOWER, SPACED]);
    const upper = await ask({ titles: 'Wp:foo', formatversion: '2' });
    expect(upper.unknown).toBeUndefined();
    expect(upper.body['query']).toEqual({ normalized: [{ fromencoded: false, from: 'Wp:foo', to: 'wp:foo' }], interwiki: [{ title: 'wp:foo', iw: 'wp' }] });
    const tab = await ask({ titles: 'Foo\tBar', formatversion: '2' });
    expect(tab.body['query']['pages']).toEqual([{ title: 'Foo\tBar', invalidreason: 'The requested page title contains invalid characters: "\t".', invalid: true }]);
  });
});

describe('formatversion=1 of a recorded answer', () => {
  it('lists pages asked by id in id order, as the wiki found them', async () => {
    const r = await (await replay([...PAGES, BY_IDS]))({ pageids: '8|2' });
    expect(r.source).toBe('cassette');
    expect(r.text).toMatch(/"pages":\{"2":\{"pageid":2,.*\},"8":\{"pageid":8,/);
  });
});
