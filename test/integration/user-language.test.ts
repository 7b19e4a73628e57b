import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette } from '../../src/cassette/format.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * `uselang` on a Russian wiki: what a recorded answer prints in the user's language, and
 * ApiMain::setCacheMode's downgrade of a public answer to anon-public-user-private unless
 * `uselang` names a language. Checked on the live 1.39 and 1.43 (list=logevents):
 * - uselang=en: debuginfo's memory `1.29 MB` (ru: `3,45 МБ`), the HTML page `lang="en"` and
 *   "Retrieved from";
 * - with an anonymous session cookie (`wikidb_session`, 32+ characters: a persistent session) and
 *   maxage=60, smaxage=30: no uselang or uselang=user sends `Cache-Control: private,
 *   must-revalidate, max-age=60` (anon-public-user-private with a session), uselang=en the public
 *   mode, which HeaderCallback turns into `private, max-age=0, s-maxage=0` and Expires 1970 since
 *   the answer sets the session cookie; without a cookie all three are `s-maxage=30, max-age=60,
 *   public`; the debug log says "downgrading cache mode 'public' to 'anon-public-user-private' due
 *   to uselang=user", or "setting cache mode public" with uselang=en.
 */
const req = { action: 'query', list: 'logevents', lelimit: '1' };
/** The same question recorded as asked (uselang is part of it, unless it is `user`). */
const interaction = (request: Record<string, string>) => ({
  key: canonicalKey(new Map(Object.entries(request)), KEY_RULES), request, status: 200,
  headers: { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' },
  body: { batchcomplete: true, continue: { lecontinue: '20240101000000|1', continue: '-||' }, query: { logevents: [{ logid: 2, ns: 0, title: 'Москва', pageid: 2, logpage: 2, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp: '2024-01-02T00:00:00Z', comment: '' }] } },
  recordedAt: '2024-01-05T00:00:00Z',
});
const cassette: Cassette = {
  meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-05T00:00:00Z', profile: { version: '1.39.17', language: 'ru', scriptPath: '/w', server: 'http://wiki.test', debugInfo: true } },
  interactions: [interaction(req), interaction({ ...req, uselang: 'en' })],
  entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
};

let recorded: ReturnType<typeof createApp>;
let builtin: ReturnType<typeof createApp>;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-uselang-'));
  await writeFile(join(dir, 'wiki.json'), JSON.stringify(cassette));
  recorded = createApp({ cassettes: dir });
  builtin = createApp({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: NO_CASSETTES });
});

const SESSION = 'wikidb_session=abcdefghijklmnopqrstuvwxyz0123456789ABCD';

describe('a recorded answer', () => {
  const get = (extra: Record<string, string>) => request(recorded).get('/w/api.php').query({ ...req, ...extra });

  it('is printed in the language uselang names', async () => {
    const en = await get({ format: 'json', uselang: 'en' });
    expect(en.headers['x-wikitape-source']).toBe('cassette');
    expect(JSON.parse(en.text).debuginfo.memory).toMatch(/^\d+(\.\d+)? MB$/);
    const ru = await get({ format: 'json' });
    expect(ru.headers['x-wikitape-source']).toBe('cassette');
    expect(JSON.parse(ru.text).debuginfo.memory).toMatch(/^\d+(,\d+)? МБ$/);
    const page = await get({ uselang: 'en' });
    expect(page.headers['x-wikitape-source']).toBe('cassette');
    expect(page.text).toContain('<html class="client-nojs" lang="en" dir="ltr">');
    expect(page.text).toContain('Retrieved from');
    expect((await get({})).text).toContain('<html class="client-nojs" lang="ru" dir="ltr">');
  });
});

describe('the uselang cache-mode downgrade', () => {
  for (const [name, app, path] of [['built in', () => builtin, '/wiki/api.php'], ['recorded', () => recorded, '/w/api.php']] as const) {
    const get = (extra: Record<string, string>, cookie?: string) => {
      const r = request(app()).get(path).query({ ...req, format: 'json', maxage: '60', smaxage: '30', ...extra });
      return cookie ? r.set('Cookie', cookie) : r;
    };

    it(`${name}: with a session, private unless uselang names a language`, async () => {
      for (const uselang of [{}, { uselang: 'user' }] as Record<string, string>[]) {
        const res = await get(uselang, SESSION);
        expect(res.headers['cache-control']).toBe('private, must-revalidate, max-age=60');
        expect(res.headers['vary']).toBe('Accept-Encoding, Treat-as-Untrusted, Cookie');
      }
      if (name === 'recorded') return; // see the todo below
      const en = await get({ uselang: 'en' }, SESSION);
      expect(en.headers['cache-control']).toBe('private, max-age=0, s-maxage=0');
      expect(en.headers['expires']).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
    });

    it(`${name}: without one, public in every case`, async () => {
      for (const uselang of [{}, { uselang: 'user' }, { uselang: 'en' }] as Record<string, string>[]) {
        expect((await get(uselang)).headers['cache-control']).toBe('s-maxage=30, max-age=60, public');
      }
    });

    it(`${name}: the debug log says which mode was set`, async () => {
      const log = async (extra: Record<string, string>) => (JSON.parse((await get(extra)).text).debuginfo.debugLog as string[]).filter((l) => l.startsWith('ApiMain::setCacheMode'));
      expect(await log({})).toEqual([
        "ApiMain::setCacheMode: downgrading cache mode 'public' to 'anon-public-user-private' due to uselang=user",
        'ApiMain::setCacheMode: setting cache mode anon-public-user-private',
      ]);
      expect(await log({ uselang: 'en' })).toEqual(['ApiMain::setCacheMode: setting cache mode public']);
    });
  }

  // A recording's headers cannot tell public from anon-public-user-private (both send a private
  // Cache-Control without maxage), and replay takes the stricter: the wiki's public answer to
  // uselang=en becomes private, must-revalidate, max-age=60 with a session cookie.
  it.todo('recorded: with a session and uselang=en, public as the wiki (the modules\' cache mode deciding, not the recorded headers)');
});
