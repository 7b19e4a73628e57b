import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyHarvest, identityKey, type Cassette, type Interaction } from '../../src/cassette/format.js';
import type { JsonObject } from '../../src/api/result.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { startServer, type RunningServer } from '../../src/server.js';

/**
 * meta=siteinfo parts that a parameter changes (ApiQuerySiteinfo): `sifilteriw` filters the
 * interwiki map, `sinumberingroup` counts each group's members, `siinlanguagecode` names the
 * languages (and skins, and the interwiki map's languages) in that language, `sishowalldb` lists
 * every replica. A recording without the parameter does not answer a question with it: the
 * filter is read from the entries' `local` flag, the rest is refused (both live wikis answered
 * `sifilteriw=local` with `[]` and `sinumberingroup` with member counts where wikitape replayed
 * the unfiltered, uncounted recording).
 */

function interaction(params: Record<string, string>, query: JsonObject): Interaction {
  const request = { action: 'query', meta: 'siteinfo', formatversion: '2', ...params };
  const key = identityKey(canonicalKey(new Map(Object.entries(request)), KEY_RULES), undefined);
  return { key, request, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body: { batchcomplete: true, query }, recordedAt: '2024-03-01T00:00:00Z' };
}

const IW: JsonObject[] = [{ prefix: 'acronym', url: 'https://a.example/$1' }, { prefix: 'mylocal', local: true, url: 'https://l.example/$1' }];
const GROUPS: JsonObject[] = [{ name: '*', rights: ['read'] }, { name: 'user', rights: ['edit'] }];
let server: RunningServer;
beforeAll(async () => {
  const cassette: Cassette = {
    meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-03-01T00:00:00Z', profile: { version: '1.43.9', language: 'en', scriptPath: '/w', server: 'http://wiki.test', debugInfo: false } },
    interactions: [interaction({ siprop: 'interwikimap|usergroups|languages' }, { interwikimap: IW, usergroups: GROUPS, languages: [{ code: 'de', bcp47: 'de', name: 'Deutsch' }] })],
    entities: emptyHarvest(),
  };
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-siteinfo-modifiers-'));
  await writeFile(join(dir, 'rec.json'), JSON.stringify(cassette));
  server = await startServer({ cassettes: dir });
});
afterAll(() => server.close());

async function ask(params: Record<string, string>) {
  const r = await fetch(`${server.url}?${new URLSearchParams({ action: 'query', meta: 'siteinfo', format: 'json', formatversion: '2', ...params })}`);
  return { unknown: r.headers.get('x-wikitape-unknown'), body: (await r.json()) as { query?: Record<string, unknown>; error?: { code: string } } };
}

describe('meta=siteinfo with the parameters that change a part', () => {
  it('filters a recorded interwiki map by its entries’ local flag', async () => {
    expect((await ask({ siprop: 'interwikimap', sifilteriw: 'local' })).body.query).toEqual({ interwikimap: [IW[1]] });
    expect((await ask({ siprop: 'interwikimap', sifilteriw: '!local' })).body.query).toEqual({ interwikimap: [IW[0]] });
    expect((await ask({ siprop: 'interwikimap' })).body.query).toEqual({ interwikimap: IW });
  });

  it('refuses member counts and names in another language that no recording shows, and answers the parts as recorded without them', async () => {
    const cases: Record<string, string>[] = [{ siprop: 'usergroups', sinumberingroup: '1' }, { siprop: 'languages', siinlanguagecode: 'fr' }, { siprop: 'interwikimap', siinlanguagecode: 'fr' }];
    for (const params of cases) {
      const { unknown, body } = await ask(params);
      expect(body.error?.code, JSON.stringify(params)).toBe('wikitape-miss');
      expect(unknown).toBe(`siteinfo.${params['siprop']}`);
    }
    expect((await ask({ siprop: 'usergroups|languages', siinlanguagecode: '' })).body.query).toEqual({ usergroups: GROUPS, languages: [{ code: 'de', bcp47: 'de', name: 'Deutsch' }] });
  });
});
