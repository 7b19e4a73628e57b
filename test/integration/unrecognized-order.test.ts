import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Json } from '../../src/api/result.js';
import type { Cassette, Interaction } from '../../src/cassette/format.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { parseUrlEncoded } from '../../src/request/params.js';

/**
 * A recorded answer that warns about parameters the wiki does not know. ApiMain lists them in
 * the order the request sends them ("Unrecognized parameters: zz, aa."), and on 1.39
 * `errorformat=raw` keys each by its place among the request's parameters; the cassette key sorts
 * parameters, so one recording answers every order. The bodies are what MediaWiki 1.39.17 and
 * 1.43.9 answered (recorded through `wikitape record`, which asks with format=json last), and
 * each expectation what the live wiki answered to the order asked.
 */
const AT = '2026-11-27T10:00:00Z';
const HEADERS = { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' };
const PAGE = { pageid: 8, ns: 0, title: 'Alpha', contentmodel: 'wikitext', pagelanguage: 'ru', pagelanguagehtmlcode: 'ru', pagelanguagedir: 'ltr', touched: '2026-11-27T08:00:00Z', lastrevid: 12, length: 167 };
const Q = 'action=query&prop=info&titles=Alpha';
const recorded = (query: string, warnings: Json): Interaction => {
  const params = parseUrlEncoded(query);
  return { key: canonicalKey(params, KEY_RULES), request: Object.fromEntries(params), status: 200, headers: HEADERS, body: { warnings, batchcomplete: true, query: { pages: [PAGE] } }, recordedAt: AT };
};
const raw = (list: Json): Json => [{ code: 'unrecognizedparams', key: 'apierror-unrecognizedparams', params: [{ list, type: 'comma' }, 2], module: 'main' }];

const dir = await mkdtemp(join(tmpdir(), 'wikitape-unrecognized-order-'));
async function cassette(name: string, version: string, interactions: Interaction[]): Promise<void> {
  const c: Cassette = {
    meta: { format: 1, upstream: 'http://127.0.0.1:8088/wiki/api.php', recordedAt: AT, profile: { version, language: 'ru', scriptPath: '/wiki', server: 'http://127.0.0.1:8088', debugInfo: false } },
    interactions,
    entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
  };
  await writeFile(join(dir, `${name}.json`), JSON.stringify(c, null, 2));
}
beforeAll(async () => {
  await cassette('old', '1.39.17', [
    recorded(`${Q}&zz=1&aa=1`, { main: { warnings: 'Unrecognized parameters: zz, aa.' } }),
    recorded(`${Q}&zz=1&aa=1&errorformat=raw`, raw({ 3: 'zz', 4: 'aa' })),
    recorded(`${Q}&zz=1&aa=1&errorformat=plaintext&uselang=de`, [{ code: 'unrecognizedparams', text: 'Unbekannte Parameter: zz, aa.', module: 'main' }]),
  ]);
  await cassette('new', '1.43.9', [recorded(`${Q}&zz=1&aa=1&errorformat=raw`, raw(['zz', 'aa']))]);
});

async function ask(cassetteName: string, query: string): Promise<{ source: string; flag: string | undefined; body: Record<string, any> }> {
  const res = await request(createApp({ cassettes: dir })).get(`/${cassetteName}/wiki/api.php?${query}`);
  return { source: String(res.headers['x-wikitape-source']), flag: res.headers['x-wikitape-unknown'] as string | undefined, body: JSON.parse(res.text) as Record<string, any> };
}

describe('a recording that warns about parameters the wiki does not know, asked in another order', () => {
  it('in the recorded order: answered as recorded', async () => {
    const a = await ask('old', `${Q}&zz=1&aa=1&format=json&formatversion=2`);
    expect(a.source).toBe('cassette');
    expect(a.body['warnings']).toEqual({ main: { warnings: 'Unrecognized parameters: zz, aa.' } });
  });

  it('in another order, in a text (bc, plaintext): a miss naming what it cannot know, never the recorded order', async () => {
    for (const q of [`${Q}&aa=1&zz=1&format=json&formatversion=2`, `aa=1&${Q}&zz=1&errorformat=plaintext&uselang=de&format=json`]) {
      const a = await ask('old', q);
      expect(a.source).toBe('miss');
      expect(a.flag).toBe('warnings.order');
      expect(JSON.stringify(a.body)).toContain('wikitape-miss');
    }
  });

  it("errorformat=raw on 1.39: the names in the request's order, keyed by their places among its parameters", async () => {
    expect((await ask('old', `${Q}&format=json&aa=1&zz=1&errorformat=raw&formatversion=2`)).body['warnings']).toEqual(raw({ 4: 'aa', 5: 'zz' }));
    expect((await ask('old', `aa=1&${Q}&format=json&zz=1&errorformat=raw&formatversion=2`)).body['warnings']).toEqual(raw({ 0: 'aa', 5: 'zz' }));
    expect((await ask('old', `zz=1&aa=1&${Q}&format=json&errorformat=raw&formatversion=2`)).body['warnings']).toEqual(raw(['zz', 'aa']));
  });

  it("errorformat=raw on 1.43: the names in the request's order, as a list", async () => {
    const a = await ask('new', `${Q}&format=json&aa=1&zz=1&errorformat=raw&formatversion=2`);
    expect(a.source).toBe('cassette');
    expect(a.body['warnings']).toEqual(raw(['aa', 'zz']));
  });
});

/**
 * The values of a parameter the key sorts (`uiprop`, `bkusers`, `siprop`), asked in another order
 * than recorded. What MediaWiki 1.39.17 answered to each order (the same on 1.43.5):
 * `uiprop=zz|aa|groups` warns "Unrecognized values for parameter "uiprop": zz, aa", and
 * `aa|zz|groups` "aa, zz"; `bkusers=A<>|B[]` is refused naming "A<>", `B[]|A<>` naming "B[]";
 * `siprop=rightsinfo|skins` lists rightsinfo first, `skins|rightsinfo` skins.
 */
describe("a recording that names a parameter's values, asked with them in another order", () => {
  const UI = 'action=query&meta=userinfo';
  const BK = 'action=query&list=blocks';
  const SI = 'action=query&meta=siteinfo';
  const badUser = (v: string, named: string): Interaction => {
    const params = parseUrlEncoded(`${BK}&bkusers=${encodeURIComponent(v)}`);
    return { key: canonicalKey(params, KEY_RULES), request: Object.fromEntries(params), status: 200, headers: { ...HEADERS, 'mediawiki-api-error': 'baduser' }, body: { error: { code: 'baduser', info: `Invalid value "${named}" for user parameter "bkusers".`, docref: 'See http://127.0.0.1:8088/wiki/api.php for API usage.' } }, recordedAt: AT };
  };
  beforeAll(async () => {
    const userinfo = recorded(`${UI}&uiprop=zz|aa|groups`, { userinfo: { warnings: 'Unrecognized values for parameter "uiprop": zz, aa' } });
    userinfo.body['query'] = { userinfo: { id: 0, name: '127.0.0.1', anon: true, groups: ['*'] } };
    const siteinfo = recorded(`${SI}&siprop=rightsinfo|skins`, null);
    siteinfo.body = { batchcomplete: true, query: { rightsinfo: { url: '', text: '' }, skins: [{ code: 'vector', name: 'Vector', default: true }] } };
    await cassette('values', '1.39.17', [userinfo, badUser('A<>|B[]', 'A<>'), badUser('One|A<>', 'A<>'), siteinfo]);
  });

  it('a warning listing two of them: answered in the recorded order, a miss in another', async () => {
    const same = await ask('values', `${UI}&uiprop=zz|aa|groups&format=json&formatversion=2`);
    expect([same.source, same.body['warnings']]).toEqual(['cassette', { userinfo: { warnings: 'Unrecognized values for parameter "uiprop": zz, aa' } }]);
    const other = await ask('values', `${UI}&uiprop=aa|zz|groups&format=json&formatversion=2`);
    expect([other.source, other.flag, other.body['error']?.code]).toEqual(['miss', 'warnings.order', 'wikitape-miss']);
    // A valid value elsewhere in the list changes nothing the warning says.
    expect((await ask('values', `${UI}&uiprop=groups|zz|aa&format=json&formatversion=2`)).source).toBe('cassette');
  });

  it('an error naming the first bad value: answered while that value comes first, a miss when another may', async () => {
    const first = await ask('values', `${BK}&bkusers=A%3C%3E|B%5B%5D&format=json&formatversion=2`);
    expect([first.source, first.body['error']?.info]).toEqual(['cassette', 'Invalid value "A<>" for user parameter "bkusers".']);
    const other = await ask('values', `${BK}&bkusers=B%5B%5D|A%3C%3E&format=json&formatversion=2`);
    expect([other.source, other.flag, other.body['error']?.code]).toEqual(['miss', 'warnings.order', 'wikitape-miss']);
    // `One` was recorded before `A<>`, but was it good? The recording cannot tell which came first.
    expect((await ask('values', `${BK}&bkusers=One|A%3C%3E&format=json&formatversion=2`)).flag).toBe('warnings.order');
  });

  it("siteinfo's parts in the order siprop names them", async () => {
    const keys = async (siprop: string) => Object.keys((await ask('values', `${SI}&siprop=${siprop}&format=json&formatversion=2`)).body['query']);
    expect(await keys('rightsinfo|skins')).toEqual(['rightsinfo', 'skins']);
    expect(await keys('skins|rightsinfo')).toEqual(['skins', 'rightsinfo']);
    expect(await keys('skins|rightsinfo|skins')).toEqual(['skins', 'rightsinfo']);
  });
});
