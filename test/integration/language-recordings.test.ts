import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette } from '../../src/cassette/format.js';
import type { JsonObject } from '../../src/api/result.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { Client } from '../support/cookie-client.js';

/**
 * Recordings and the user language: a wiki whose content language is German replays; a recorded
 * answer is printed around in the language it was asked in, and never served to another one.
 */
const key = (r: Record<string, string>) => canonicalKey(new Map(Object.entries(r)), KEY_RULES);
const pt = { title: 'Gesperrt', ns: 0, timestamp: '2024-01-01T00:00:00Z', expiry: 'infinity', level: 'sysop' };
const q = { action: 'query', list: 'protectedtitles' };
const recorded = (r: Record<string, string>, body: JsonObject, cacheControl = 'private, must-revalidate, max-age=0') => ({
  key: key(r),
  request: r,
  status: 200,
  headers: { 'cache-control': cacheControl, vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' },
  body,
  recordedAt: '2024-01-05T00:00:00Z',
});

function cassette(language: string): Cassette {
  return {
    meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-05T00:00:00Z', profile: { version: '1.43.9', language, siteName: 'Testwiki', scriptPath: '/w', server: 'http://wiki.test', debugInfo: true } },
    interactions: [
      recorded(q, { batchcomplete: true, query: { protectedtitles: [pt] } }),
      recorded({ ...q, uselang: 'fr', maxage: '60', smaxage: '60' }, { batchcomplete: true, query: { protectedtitles: [pt] } }, 's-maxage=60, max-age=60, public'),
    ],
    entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-de-'));
  await writeFile(join(dir, 'wiki.json'), JSON.stringify(cassette('de'), null, 2));
});
// Flagged answers served (`onMiss: 'builtin'`): a siteinfo nobody recorded shows the language's names.
const app = () => request(createApp({ cassettes: dir, clock: TEST_CLOCK, onMiss: 'builtin' }));

describe('a wiki whose content language is German', () => {
  it('is accepted: its recordings replay, computed answers speak German by default', async () => {
    const hit = await app().get('/w/api.php').query({ ...q, format: 'json' });
    expect(hit.headers['x-wikitape-source']).toBe('cassette');
    const err = await app().get('/w/api.php').query({ action: 'query', list: 'protectedtitles', ptlevel: 'bogus', format: 'json', formatversion: '2', errorformat: 'plaintext' });
    expect(JSON.parse(err.text).warnings[0].text).toBe('Nicht erkannter Wert für den Parameter „ptlevel“: bogus');
  });

  it('names its namespaces in German (siteinfo, MessagesDe.php), the project talk namespace after the site', async () => {
    const si = JSON.parse((await app().get('/w/api.php').query({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases', format: 'json', formatversion: '2' })).text);
    expect([si.query.namespaces['2'].name, si.query.namespaces['5'].name, si.query.namespaces['-1'].name]).toEqual(['Benutzer', 'Testwiki Diskussion', 'Spezial']);
    expect(si.query.namespacealiases).toContainEqual({ id: 2, alias: 'Benutzerin' });
    expect([si.query.general.lang, si.query.general.mainpage, si.query.general.fallback8bitEncoding]).toEqual(['de', 'Hauptseite', 'windows-1252']);
  });
});

describe('a recorded answer and the user language', () => {
  it('is printed around in the language it was recorded in: the HTML page of a uselang=fr recording is French', async () => {
    const page = await app().get('/w/api.php').query({ ...q, uselang: 'fr' });
    expect(page.headers['x-wikitape-source']).toBe('cassette');
    expect(page.text).toContain('<html class="client-nojs" lang="fr" dir="ltr">');
    expect(page.text).toContain('<title>Résultat de l’API de MediaWiki — Testwiki</title>');
  });

  it('is never served to another language: a recording without uselang is not the answer to uselang=de, nor a French one', async () => {
    const res = await app().get('/w/api.php').query({ ...q, uselang: 'it', format: 'json' });
    expect(res.headers['x-wikitape-source']).not.toBe('cassette');
    expect((await app().get('/w/api.php').query({ ...q, format: 'json' })).headers['x-wikitape-source']).toBe('cassette');
  });

  it('keeps its cache mode through the one uselang rule: public with uselang, private for a session without', async () => {
    const cookie = 'wikidb_session=abcdefabcdefabcdefabcdefabcdefab';
    const fr = await app().get('/w/api.php').set('Cookie', cookie).query({ ...q, uselang: 'fr', maxage: '60', smaxage: '60', format: 'json' });
    expect(fr.headers['x-wikitape-source']).toBe('cassette');
    expect(fr.headers['cache-control']).toBe('private, max-age=0, s-maxage=0');
    const plain = await app().get('/w/api.php').set('Cookie', cookie).query({ ...q, format: 'json', maxage: '60' });
    expect(plain.headers['x-wikitape-source']).toBe('cassette');
    expect(plain.headers['cache-control']).toBe('private, must-revalidate, max-age=60');
  });
});

describe('list=logevents answers a user who may see deleted entries privately (ApiQueryLogEvents::getCacheMode)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const fixtures = await mkdtemp(join(tmpdir(), 'wikitape-rights-'));
    const account = (name: string, id: number, rights: string[]) => ({ name, id, password: 'pw', groups: ['*', 'user'], rights: ['read', 'writeapi', ...rights] });
    await writeFile(join(fixtures, 'accounts.json'), JSON.stringify({ accounts: [account('Reader', 2, []), account('Admin', 1, ['deletedhistory'])] }));
    server = await startServer({ cassettes: NO_CASSETTES, fixtures: [join(fixtures, 'accounts.json')], clock: TEST_CLOCK, profile: { version: '1.39.17' } });
  });
  afterAll(() => server.close());

  it.each([
    ['Reader', 'Accept-Encoding, Treat-as-Untrusted, Cookie'],
    ['Admin', undefined],
  ])('%s: Vary %s (no Vary: cache mode private)', async (name, vary) => {
    const c = new Client(server.url);
    const token = await c.token('login');
    expect((await c.call({ action: 'login', lgname: name, lgpassword: 'pw', lgtoken: token })).body['login'].result).toBe('Success');
    const res = await c.call({ action: 'query', list: 'logevents' }, 'GET');
    expect(res.headers.get('vary') ?? undefined).toBe(vary);
  });
});
