import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette } from '../../src/cassette/format.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';

/** A cassette as record mode writes it: two logevents pages forming a complete walk. */
const e = (logid: number, ts: string) => ({ logid, ns: 0, title: `T${logid}`, pageid: logid, logpage: logid, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp: ts, comment: '', tags: [] });
const events = [e(3, '2024-01-03T00:00:00Z'), e(2, '2024-01-02T00:00:00Z'), e(1, '2024-01-01T00:00:00Z')];
const strip = ({ tags: _t, ...x }: ReturnType<typeof e>) => x;
const req = { action: 'query', ledir: 'older', lelimit: '2', leprop: 'comment|details|ids|timestamp|title|type|user', list: 'logevents' };
const key = (r: Record<string, string>) => canonicalKey(new Map(Object.entries(r)), KEY_RULES);
const block = { id: 1, user: 'Вандал', by: 'Admin', byid: 1, restrictions: [], timestamp: '2024-01-01T00:00:00Z', expiry: '2024-02-01T00:00:00Z', reason: '', automatic: false, anononly: false, nocreate: false, autoblock: false, noemail: false, hidden: false, allowusertalk: false, partial: false };
const cassette: Cassette = {
  meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-05T00:00:00Z', profile: { version: '1.39.17', language: 'ru', scriptPath: '/w', server: 'http://wiki.test', debugInfo: true } },
  interactions: [
    { key: key(req), request: req, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' }, body: { batchcomplete: true, continue: { lecontinue: '20240101000000|1', continue: '-||' }, query: { logevents: events.slice(0, 2).map(strip) } }, recordedAt: '2024-01-05T00:00:00Z' },
    { key: key({ ...req, lecontinue: '20240101000000|1' }), request: { ...req, lecontinue: '20240101000000|1' }, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' }, body: { batchcomplete: true, query: { logevents: events.slice(2).map(strip) } }, recordedAt: '2024-01-05T00:00:00Z' },
    { key: key({ action: 'query', list: 'blocks' }), request: { action: 'query', list: 'blocks' }, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body: { batchcomplete: true, query: { blocks: [block] } }, recordedAt: '2024-01-05T00:00:00Z' },
  ],
  entities: { logevents: events, blocks: [block], protectedtitles: [], pages: [], missing: [] },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-replay-'));
  await writeFile(join(dir, 'wiki.json'), JSON.stringify(cassette, null, 2));
});

const app = (options = {}) => request(createApp({ cassettes: dir, ...options }));

describe('replay', () => {
  it('answers a recorded question from the cassette, in formatversion 1 and with fresh debuginfo', async () => {
    const res = await app().get('/w/api.php').query({ action: 'query', list: 'logevents', lelimit: '2', format: 'json' });
    expect(res.headers['x-wikitape-source']).toBe('cassette');
    const body = JSON.parse(res.text);
    expect(body.continue).toEqual({ lecontinue: '20240101000000|1', continue: '-||' });
    expect(body.batchcomplete).toBe('');
    expect(body.debuginfo.mwVersion).toBe('1.39.17');
    const again = JSON.parse((await app().get('/w/api.php').query({ action: 'query', list: 'logevents', lelimit: '2', format: 'json' })).text);
    expect(again.debuginfo.time).not.toBe(body.debuginfo.time);
  });

  it('synthesizes a page nobody recorded from a covered list', async () => {
    const res = await app().get('/w/api.php').query({ action: 'query', list: 'logevents', lelimit: '1', lecontinue: '20240102000000|2', format: 'json', formatversion: '2' });
    expect(res.headers['x-wikitape-source']).toBe('synthesized');
    expect(JSON.parse(res.text).query.logevents.map((x: { logid: number }) => x.logid)).toEqual([2]);
    expect(JSON.parse(res.text).continue).toEqual({ lecontinue: '20240101000000|1', continue: '-||' });
  });

  it('answers as of the recording by default, and follows the real clock when asked: a block that expired is gone', async () => {
    const q = { action: 'query', list: 'blocks', format: 'json' };
    const recorded = JSON.parse((await app().get('/w/api.php').query(q)).text);
    expect(recorded.query.blocks.map((b: { user: string }) => b.user)).toEqual(['Вандал']);
    // The recorded answer itself is computed again under the real clock, so that it agrees with
    // every other page of the same list.
    const real = await app({ clock: 'real' }).get('/w/api.php').query(q);
    expect(JSON.parse(real.text).query.blocks).toEqual([]);
    expect(real.headers['x-wikitape-source']).not.toBe('cassette');
    const other = JSON.parse((await app({ clock: 'real' }).get('/w/api.php').query({ ...q, bklimit: '5' })).text);
    expect(other.query.blocks).toEqual([]);
  });

  it('answers an unrecorded question with wikitape-miss under --on-miss error', async () => {
    const res = await app({ onMiss: 'error' }).get('/w/api.php').query({ action: 'query', list: 'protectedtitles', format: 'json' });
    expect(res.headers['x-wikitape-source']).toBe('miss');
    expect(res.headers['mediawiki-api-error']).toBe('wikitape-miss');
    const info = JSON.parse(res.text).error.info as string;
    expect(info).toContain('canonical request: "action=query&list=protectedtitles&ptdir=older&ptlimit=10&ptprop=level%7Ctimestamp"');
    expect(info).toContain('wikitape record --upstream http://wiki.test/w/api.php');
  });

  it('reports each request once to onRequest: method, canonical question, source, status, time', async () => {
    const entries: unknown[] = [];
    await app({ onRequest: (e: unknown) => entries.push(e) }).get('/w/api.php').query({ format: 'json', list: 'logevents', action: 'query', lelimit: '2' });
    expect(entries).toEqual([{ method: 'GET', key: key(req), source: 'cassette', status: 200, ms: expect.any(Number) }]);
  });

  it('refuses by default a question whose answer needs what no recording shows, naming it and the command that records it', async () => {
    const res = await app().get('/w/api.php').query({ action: 'query', list: 'protectedtitles', format: 'json' });
    expect(res.status).toBe(200);
    expect(res.headers['x-wikitape-source']).toBe('miss');
    expect(res.headers['mediawiki-api-error']).toBe('wikitape-miss');
    const { error } = JSON.parse(res.text);
    expect(error.code).toBe('wikitape-miss');
    expect(error.info).toContain('protectedtitles.entries');
    expect(error.info).toContain('wikitape record --upstream http://wiki.test/w/api.php');
    expect(res.headers['x-wikitape-unknown']).toBe('protectedtitles.entries');
  });

  it('falls back to the built-in wiki, flagged, with onMiss builtin', async () => {
    const res = await app({ onMiss: 'builtin' }).get('/w/api.php').query({ action: 'query', list: 'protectedtitles', format: 'json' });
    expect(res.headers['x-wikitape-source']).toBe('builtin');
    expect(res.headers['x-wikitape-unknown']).toBe('protectedtitles.entries');
    expect(JSON.parse(res.text).query).toEqual({ protectedtitles: [] });
  });
});
