import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { emptyHarvest } from '../../src/cassette/format.js';
import { ENTITY_KINDS } from '../../src/modules/index.js';
import { harvest } from '../../src/record/harvest.js';
import type { JsonObject } from '../../src/api/result.js';
import { askReplay, expectComputed, recordedPart } from '../support/recorded-fixture.js';

/**
 * What list=allpages filters on beyond titles (`apminsize`/`apmaxsize`: page_len; `apprtype`,
 * `apprlevel`, `apprexpiry`: page_restrictions; `apfilterlanglinks`: langlinks) is known from
 * recorded `prop=info&inprop=protection` and `prop=langlinks` answers, which `wikitape snapshot`
 * asks of every page; prop=info also says which pages are redirects (`apfilterredir`, a summary
 * link's `mw-redirect`). The cassette holds MediaWiki 1.43's answers, recorded through `wikitape
 * record`: the complete walk of the main namespace, what `prop=info|langlinks` showed of all its
 * pages in one answer, and Омск's language links two at a time (an answer that continues). The
 * expected pages are the live wiki's answers to the same questions.
 */
const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'page-facts-1.43.json');
const CLOCK = '2026-11-28T09:30:00Z';
const WHOLE_INFO = 'prop=info%7Clanglinks';

const cassettes = (keep?: (key: string) => boolean) => recordedPart(FIXTURE, keep);
const ask = (dir: string, params: Record<string, string>) => askReplay(dir, CLOCK, { list: 'allpages', apnamespace: '0', ...params });

const page = (pageid: number, title: string) => ({ pageid, ns: 0, title });
const pages = (...list: ReturnType<typeof page>[]) => ({ batchcomplete: true, query: { allpages: list } });

describe('list=allpages filters from recorded prop=info and prop=langlinks (MediaWiki 1.43)', () => {
  it.each([
    [{ apminsize: '400' }, pages(page(5, 'Екатеринбург'), page(1, 'Заглавная страница'), page(6, 'Казань'), page(35, 'Омск'), page(21, 'Список ссылок'))],
    [
      { apmaxsize: '150', aplimit: '3' },
      { ...pages(page(12, 'Epsilon'), page(40, 'Hunt-writes 1.43 1795851699838-1'), page(39, 'Hunt-writes 1.43 1795851699838-1-2')), continue: { apcontinue: 'Hunt-writes_1.43_1795853742079-1', continue: '-||' } },
    ],
    [{ apprtype: 'edit' }, pages(page(2, 'Москва'))],
    [{ apprtype: 'move', apprlevel: 'sysop' }, pages(page(2, 'Москва'))],
    [{ apprtype: 'edit', apprlevel: 'sysop' }, pages()],
    [{ apprtype: 'edit|move', apprexpiry: 'definite' }, pages()],
    [{ apfilterlanglinks: 'withlanglinks' }, pages(page(38, 'Ёлкино'), page(37, 'Лондон'), page(35, 'Омск'), page(36, 'Томск'))],
    [{ apfilterlanglinks: 'withoutlanglinks', aplimit: '4' }, { ...pages(page(8, 'Alpha'), page(9, 'Beta'), page(11, 'Delta'), page(12, 'Epsilon')), continue: { apcontinue: 'Gamma', continue: '-||' } }],
    [{ apminsize: '300', apmaxsize: '400', apfilterlanglinks: 'withlanglinks' }, pages(page(37, 'Лондон'), page(36, 'Томск'))],
    // prop=info says which pages are redirects: no walk of the redirects needed.
    [
      { apfilterredir: 'redirects' },
      pages(page(40, 'Hunt-writes 1.43 1795851699838-1'), page(43, 'Hunt-writes 1.43 1795853742079-1'), page(45, 'Hunt-writes 1.43 1795855899510-1'), page(47, 'Hunt-writes 1.43 1795857759536-1'), page(28, 'Zeta')),
    ],
    [
      { apfilterredir: 'nonredirects', aplimit: '5' },
      { ...pages(page(8, 'Alpha'), page(9, 'Beta'), page(11, 'Delta'), page(12, 'Epsilon'), page(10, 'Gamma')), continue: { apcontinue: 'Hunt-writes_1.43_1795851699838-1-2', continue: '-||' } },
    ],
    [{ apfilterredir: 'redirects', apmaxsize: '60' }, pages(page(28, 'Zeta'))],
  ])('%j is computed as the wiki answers it', async (params, expected) => {
    expectComputed(await ask(await cassettes(), params), expected);
  });

  it('without the whole prop=info answer, sizes, protections and language links stay unknown', async () => {
    // Left: the walk, and Омск's language links two at a time (they continue: not its whole list).
    const dir = await cassettes((key) => !key.includes(WHOLE_INFO));
    expect((await ask(dir, { apminsize: '400' })).unknown).toContain('pages.length');
    expect((await ask(dir, { apprtype: 'edit' })).unknown).toContain('pages.protection');
    expect((await ask(dir, { apfilterlanglinks: 'withlanglinks' })).unknown).toContain('pages.langlinks');
    expect((await ask(dir, { apfilterredir: 'nonredirects' })).unknown).toContain('pages.redirect');
    // What the walk alone answers still is.
    expect((await ask(dir, { aplimit: '2' })).unknown).toBeUndefined();
  });

  it('a summary\'s link to a redirect has the class the wiki gives it', async () => {
    const res = await request(createApp({ cassettes: await cassettes(), clock: CLOCK }))
      .get('/wiki/api.php')
      .query({ action: 'parse', summary: '[[Zeta]] [[Alpha]]', prop: '', format: 'json', formatversion: '2' });
    expect(res.headers['x-wikitape-unknown']).toBeUndefined();
    expect(JSON.parse(res.text)['parse']).toEqual({
      title: 'API',
      pageid: 0,
      parsedsummary: '<a href="/wiki/index.php/Zeta" class="mw-redirect" title="Zeta">Zeta</a> <a href="/wiki/index.php/Alpha" title="Alpha">Alpha</a>',
    });
  });

  it('keeps a page\'s own protections, not those it has by cascade from another page', () => {
    const into = emptyHarvest(ENTITY_KINDS);
    // ApiQueryInfo::getProtectionInfo: page_restrictions rows (`cascade` set on a cascading one),
    // then the protections a cascading page passes on, each naming its `source`.
    const protection: JsonObject[] = [
      { type: 'edit', level: 'sysop', expiry: 'infinity', cascade: true },
      { type: 'move', level: 'sysop', expiry: '2026-12-01T00:00:00Z' },
      { type: 'edit', level: 'sysop', expiry: 'infinity', source: 'Заглавная страница' },
    ];
    harvest(into, { query: { pages: [{ pageid: 7, ns: 0, title: 'Москва', contentmodel: 'wikitext', length: 167, protection }] } }, { prop: 'info', inprop: 'protection' });
    expect(into['pages']).toEqual([
      {
        pageid: 7,
        ns: 0,
        title: 'Москва',
        extlinks: [],
        contentmodel: 'wikitext',
        length: 167,
        redirect: false,
        protection: [
          { type: 'edit', level: 'sysop', expiry: 'infinity', cascade: true },
          { type: 'move', level: 'sysop', expiry: '2026-12-01T00:00:00Z' },
        ],
      },
    ]);
  });

  it('takes a page\'s language links only from an answer that shows all of them', () => {
    const shown: JsonObject = { query: { pages: [{ pageid: 35, ns: 0, title: 'Омск', langlinks: [{ lang: 'de', title: 'Omsk' }] }, { pageid: 36, ns: 0, title: 'Томск' }] } };
    const langlinksOf = (body: JsonObject, req: Record<string, string>) => {
      const into = emptyHarvest(ENTITY_KINDS);
      harvest(into, body, req);
      return (into['pages'] as { langlinks?: unknown }[]).map((p) => p.langlinks);
    };
    expect(langlinksOf(shown, { prop: 'langlinks' })).toEqual([[{ lang: 'de', title: 'Omsk' }], []]);
    expect(langlinksOf({ ...shown, continue: { llcontinue: '35|en', continue: '||' } }, { prop: 'langlinks' })).toEqual([undefined, undefined]);
    expect(langlinksOf(shown, { prop: 'langlinks', llcontinue: '35|de' })).toEqual([undefined, undefined]);
    expect(langlinksOf(shown, { prop: 'langlinks', lllang: 'de' })).toEqual([undefined, undefined]);
    expect(langlinksOf(shown, { prop: 'info' })).toEqual([undefined, undefined]);
  });
});
