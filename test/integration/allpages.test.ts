import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/api/result.js';
import { createApp } from '../../src/app.js';
import { emptyHarvest, type Cassette, type Interaction } from '../../src/cassette/format.js';
import { ENTITY_KINDS, KEY_RULES } from '../../src/modules/index.js';
import { harvest } from '../../src/record/harvest.js';
import { canonicalKey, canonicalParams } from '../../src/request/canonical.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * list=allpages (ApiQueryAllPages), built in over fixtures and computed from recorded walks. Its
 * answers were checked against the live 1.39 and 1.43 (test/live/replay-differential.test.ts asks
 * them of both after a recorded walk).
 */
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
const temp = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-allpages-'));
  made.push(dir);
  return dir;
};

const PAGES = [
  { pageid: 8, ns: 0, title: 'Alpha', length: 120, protection: [{ type: 'edit', level: 'sysop', expiry: 'infinity' }], langlinks: [{ lang: 'en', title: 'Alpha' }] },
  { pageid: 9, ns: 0, title: 'Beta', redirect: true, length: 20 },
  { pageid: 10, ns: 0, title: 'Gamma', length: 3000, protection: [{ type: 'move', level: 'autoconfirmed', expiry: '2020-01-01T00:00:00Z' }] },
  { pageid: 7, ns: 0, title: 'Нижний Новгород', length: 700 },
  { pageid: 4, ns: 0, title: 'Новосибирск', length: 650 },
  { pageid: 20, ns: 2, title: 'Участник:Admin', length: 10 },
];
const PROFILE = { version: '1.43.9', language: 'ru' as const, siteName: 'Тестовая вики', scriptPath: '/w', server: 'http://wiki.test' };

describe('list=allpages built in over fixtures', () => {
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    const file = join(await temp(), 'wiki.json');
    await writeFile(file, JSON.stringify({ profile: PROFILE, pages: PAGES }));
    app = createApp({ fixtures: [file], cassettes: NO_CASSETTES, clock: TEST_CLOCK });
  });
  const ask = async (params: Record<string, string>) => {
    const res = await request(app).get('/w/api.php').query({ action: 'query', list: 'allpages', format: 'json', formatversion: '2', ...params });
    const body = JSON.parse(res.text) as { query?: { allpages: { title: string }[] }; continue?: Record<string, string>; errors?: JsonObject[]; error?: JsonObject };
    return { body, titles: body.query?.allpages.map((p) => p.title), unknown: res.headers['x-wikitape-unknown'] as string | undefined };
  };

  it('lists a namespace in page_title byte order, continuing from a DB key', async () => {
    const first = await ask({ aplimit: '3' });
    expect(first.titles).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(first.body.continue).toEqual({ apcontinue: 'Нижний_Новгород', continue: '-||' });
    expect((await ask({ aplimit: '3', apcontinue: 'Нижний_Новгород' })).titles).toEqual(['Нижний Новгород', 'Новосибирск']);
    expect((await ask({ apdir: 'descending', aplimit: '2' })).body).toMatchObject({ continue: { apcontinue: 'Gamma' }, query: { allpages: [{ pageid: 4, ns: 0, title: 'Новосибирск' }, { pageid: 7, ns: 0, title: 'Нижний Новгород' }] } });
    expect((await ask({ apnamespace: '2' })).titles).toEqual(['Участник:Admin']);
  });

  it('reads apfrom, apto and apprefix as title parts of the namespace (first letter upper, _ for spaces)', async () => {
    expect((await ask({ apfrom: 'b', apto: 'Нижний Новгород' })).titles).toEqual(['Beta', 'Gamma', 'Нижний Новгород']);
    expect((await ask({ apfrom: 'Нижний', apto: 'b', apdir: 'descending' })).titles).toEqual(['Gamma', 'Beta']);
    expect((await ask({ apprefix: 'н' })).titles).toEqual(['Нижний Новгород', 'Новосибирск']);
    expect((await ask({ apprefix: 'Нижний_Н' })).titles).toEqual(['Нижний Новгород']);
  });

  it('filters redirects, sizes, protections and language links as the fixture gives them', async () => {
    expect((await ask({ apfilterredir: 'redirects' })).titles).toEqual(['Beta']);
    expect((await ask({ apfilterredir: 'nonredirects', aplimit: '2' })).titles).toEqual(['Alpha', 'Gamma']);
    expect((await ask({ apminsize: '100', apmaxsize: '700' })).titles).toEqual(['Alpha', 'Нижний Новгород', 'Новосибирск']);
    // Gamma's move protection expired before the clock.
    expect((await ask({ apprtype: 'edit|move' })).titles).toEqual(['Alpha']);
    expect((await ask({ apprtype: 'edit', apprlevel: 'autoconfirmed' })).titles).toEqual([]);
    expect((await ask({ apprexpiry: 'indefinite' })).titles).toEqual(['Alpha']);
    expect((await ask({ apfilterlanglinks: 'withlanglinks' })).titles).toEqual(['Alpha']);
    expect((await ask({ apfilterlanglinks: 'withoutlanglinks', aplimit: '1' })).titles).toEqual(['Beta']);
  });

  it('never guesses a page length the fixture does not give: refused by default, flagged with onMiss builtin', async () => {
    const file = join(await temp(), 'wiki.json');
    await writeFile(file, JSON.stringify({ profile: PROFILE, pages: [{ pageid: 1, title: 'Alpha' }, { pageid: 2, title: 'Beta', length: 50 }] }));
    const q = { action: 'query', list: 'allpages', apminsize: '10', format: 'json' };
    const refused = await request(createApp({ fixtures: [file], cassettes: NO_CASSETTES })).get('/w/api.php').query(q);
    expect(refused.headers['x-wikitape-source']).toBe('miss');
    expect(JSON.parse(refused.text).error.info).toContain('pages.length');
    const res = await request(createApp({ fixtures: [file], cassettes: NO_CASSETTES, onMiss: 'builtin' })).get('/w/api.php').query(q);
    expect(res.headers['x-wikitape-unknown']).toBe('pages.length');
    expect(res.headers['x-wikitape-source']).toBe('builtin');
  });

  it('fails as MediaWiki does: a continuation of two parts, a title part of another namespace, prlevel without prtype', async () => {
    expect((await ask({ apcontinue: 'a|b' })).body.error?.['code']).toBe('badcontinue');
    expect((await ask({ apfrom: 'Talk:X', errorformat: 'plaintext' })).body.errors).toEqual([{ code: 'invalidtitle', text: 'Плохой заголовок «Talk:X».', module: 'query+allpages' }]);
    expect((await ask({ apto: 'a#b', errorformat: 'plaintext', uselang: 'en' })).body.errors?.[0]?.['text']).toBe('Bad title "a#b".');
    expect((await ask({ apprlevel: 'sysop', errorformat: 'plaintext', uselang: 'en' })).body.errors).toEqual([{ code: 'invalidparammix', text: 'The "prlevel" parameter may only be used with "prtype".', module: 'query+allpages' }]);
  });
});

/** A recorded answer to `params`, as record mode stores it (canonical request and key). */
function recorded(params: Record<string, string>, rows: JsonObject[], cont?: string): Interaction {
  const request = Object.fromEntries(canonicalParams(new Map(Object.entries({ action: 'query', list: 'allpages', ...params })), KEY_RULES));
  const body: JsonObject = { batchcomplete: true, ...(cont ? { continue: { apcontinue: cont, continue: '-||' } } : {}), query: { allpages: rows } };
  return { key: canonicalKey(new Map(Object.entries(request)), KEY_RULES), request, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body, recordedAt: '2024-01-05T00:00:00Z' };
}

/** A folder with a cassette of these interactions (each further list of them: another cassette, named after the first). */
async function cassettes(interactions: Interaction[], ...more: Interaction[][]): Promise<string> {
  const dir = await temp();
  for (const [n, list] of [interactions, ...more].entries()) {
    const entities = emptyHarvest(ENTITY_KINDS);
    for (const i of list) harvest(entities, i.body, i.request);
    const cassette: Cassette = { meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-05T00:00:00Z', profile: PROFILE }, interactions: list.sort((a, b) => (a.key < b.key ? -1 : 1)), entities };
    await writeFile(join(dir, `wiki${n}.json`), JSON.stringify(cassette, null, 2));
  }
  return dir;
}

const row = (pageid: number, title: string, ns = 0) => ({ pageid, ns, title });

describe('list=allpages computed from recorded walks', () => {
  const walk = [
    recorded({ aplimit: '2' }, [row(8, 'Alpha'), row(9, 'Beta')], 'Gamma'),
    recorded({ aplimit: '2', apcontinue: 'Gamma' }, [row(10, 'Gamma'), row(7, 'Нижний Новгород')], 'Новосибирск'),
    recorded({ aplimit: '2', apcontinue: 'Новосибирск' }, [row(4, 'Новосибирск')]),
  ];
  const ask = async (dir: string, params: Record<string, string>) => {
    const res = await request(createApp({ cassettes: dir })).get('/w/api.php').query({ format: 'json', formatversion: '2', ...params });
    const { debuginfo: _d, ...body } = JSON.parse(res.text) as JsonObject;
    return { source: res.headers['x-wikitape-source'], unknown: res.headers['x-wikitape-unknown'] as string | undefined, body };
  };

  it('answers other limits and continuation points of a walked namespace exactly', async () => {
    const dir = await cassettes(walk);
    const r = await ask(dir, { action: 'query', list: 'allpages', aplimit: '3', apcontinue: 'Beta' });
    expect(r.source).toBe('synthesized');
    expect(r.body).toEqual({ batchcomplete: true, continue: { apcontinue: 'Новосибирск', continue: '-||' }, query: { allpages: [row(9, 'Beta'), row(10, 'Gamma'), row(7, 'Нижний Новгород')] } });
    // Another namespace was not walked: its entries are not known.
    expect((await ask(dir, { action: 'query', list: 'allpages', apnamespace: '4' })).unknown).toBe('allpages.entries');
    // Which of the walked pages are redirects nobody recorded.
    expect((await ask(dir, { action: 'query', list: 'allpages', apfilterredir: 'nonredirects' })).unknown).toBe('pages.redirect');
  });

  it('knows page existence and redirects from complete walks (pages.existence, pages.redirect)', async () => {
    const titles = { action: 'query', prop: 'extlinks', titles: 'Несуществующая' };
    expect((await ask(await cassettes([walk[0]!, walk[1]!]), titles)).unknown).toBe('pages.existence');
    const redirects = recorded({ aplimit: 'max', apfilterredir: 'redirects' }, [row(9, 'Beta')]);
    const dir = await cassettes([...walk, redirects]);
    expect((await ask(dir, titles)).unknown).toBeUndefined();
    const r = await ask(dir, { action: 'query', list: 'allpages', apfilterredir: 'nonredirects', aplimit: '2' });
    expect(r).toMatchObject({ source: 'synthesized', unknown: undefined });
    expect(r.body['query']).toEqual({ allpages: [row(8, 'Alpha'), row(10, 'Gamma')] });
    expect((await ask(dir, { action: 'query', list: 'allpages', apfilterredir: 'redirects' })).body['query']).toEqual({ allpages: [row(9, 'Beta')] });
    // The redirects walked in another cassette than the pages (which lists them first) are still redirects.
    const apart = await cassettes(walk, [redirects]);
    expect((await ask(apart, { action: 'query', list: 'allpages', apfilterredir: 'redirects' })).body['query']).toEqual({ allpages: [row(9, 'Beta')] });
    expect((await ask(apart, { action: 'query', list: 'allpages', apfilterredir: 'nonredirects', aplimit: '2' })).body['query']).toEqual({ allpages: [row(8, 'Alpha'), row(10, 'Gamma')] });
    // What no walk shows: sizes and protections.
    expect((await ask(dir, { action: 'query', list: 'allpages', apminsize: '10' })).unknown).toBe('pages.length');
    expect((await ask(dir, { action: 'query', list: 'allpages', apprtype: 'edit' })).unknown).toBe('pages.protection');
  });
});
