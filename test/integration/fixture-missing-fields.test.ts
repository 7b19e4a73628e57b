import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { WikitapeOptions } from '../../src/options.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { data, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { Client } from '../support/cookie-client.js';

/**
 * Fixture entries that leave fields out: what every answer needs is refused when the file is read
 * (naming the file, the entry and the field); what only some answers print is flagged when they
 * print it (a miss by default), never printed as a made-up value.
 */

const PROFILE = { version: '1.43.9', language: 'ru', siteName: 'Тестовая вики' };

const FLAGS = { automatic: false, anononly: false, nocreate: true, autoblock: true, noemail: false, hidden: false, allowusertalk: false, partial: false };
const BLOCK = { id: 1, user: 'Вандал', userid: 11, by: 'Admin', byid: 1, timestamp: '2024-03-03T12:00:00Z', expiry: 'infinity', reason: 'спам', ...FLAGS, restrictions: [] };
const EVENT = { logid: 1, ns: 0, title: 'Москва', pageid: 2, logpage: 2, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp: '2024-03-01T10:00:00Z', comment: 'новая', tags: [] };
const TITLE = { ns: 0, title: 'Запрещённая', timestamp: '2024-03-05T10:00:00Z', user: 'Admin', userid: 1, comment: '', expiry: 'infinity', level: 'sysop' };

async function fixtureFile(content: unknown): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'wikitape-fields-')), 'wiki.json');
  await writeFile(file, JSON.stringify(content));
  return file;
}

/** Asks the built-in wiki over one fixture file (`onMiss: 'builtin'` unless `miss`). */
async function asker(content: Record<string, unknown>, opts: WikitapeOptions = {}) {
  const file = await fixtureFile({ profile: PROFILE, ...content });
  const app = createApp({ fixtures: [file], clock: TEST_CLOCK, cassettes: NO_CASSETTES, onMiss: 'builtin', ...opts });
  return async (q: Record<string, string>) => {
    const res = await request(app).get('/wiki/api.php').query({ action: 'query', format: 'json', formatversion: '2', ...q });
    return { body: data(res), unknown: res.headers['x-wikitape-unknown'] as string | undefined, source: res.headers['x-wikitape-source'] as string | undefined };
  };
}

/** What loading a fixture file with this content says (the error's message), or null when it loads. */
async function loadError(content: Record<string, unknown>): Promise<{ file: string; message: string | null }> {
  const file = await fixtureFile({ profile: PROFILE, ...content });
  try {
    const s = await startServer({ fixtures: [file], clock: TEST_CLOCK, cassettes: NO_CASSETTES });
    await s.close();
    return { file, message: null };
  } catch (e) {
    return { file, message: (e as Error).message };
  }
}

describe('a fixture entry without a field every answer needs is refused when the file is read', () => {
  it.each([
    ['blocks', 'timestamp', { ...BLOCK, timestamp: undefined }, '"blocks[0]": every entry needs "timestamp" (a timestamp such as 2024-03-01T10:00:00Z)'],
    ['blocks', 'expiry', { ...BLOCK, expiry: undefined }, '"blocks[0]": every entry needs "expiry" ("infinity" or a timestamp such as 2024-03-01T10:00:00Z)'],
    ['blocks', 'an expiry it can read', { ...BLOCK, expiry: 'never' }, '"blocks[0]": every entry needs "expiry" ("infinity" or a timestamp such as 2024-03-01T10:00:00Z)'],
    ['blocks', 'a timestamp it can read', { ...BLOCK, timestamp: '3 March 2024' }, '"blocks[0]": every entry needs "timestamp" (a timestamp such as 2024-03-01T10:00:00Z)'],
    ['blocks', 'hidden', { ...BLOCK, hidden: undefined }, '"blocks[0]": every entry needs "hidden" (a boolean)'],
    ['logevents', 'timestamp', { ...EVENT, timestamp: undefined }, '"logevents[0]": every entry needs "timestamp" (a timestamp such as 2024-03-01T10:00:00Z)'],
    ['logevents', 'type', { ...EVENT, type: undefined }, '"logevents[0]": every entry needs "type" (a string)'],
    ['protectedtitles', 'timestamp', { ...TITLE, timestamp: undefined }, '"protectedtitles[0]": every entry needs "timestamp" (a timestamp such as 2024-03-01T10:00:00Z)'],
  ])('%s without %s', async (kind, _field, entry, problem) => {
    const { file, message } = await loadError({ [kind]: [entry] });
    expect(message).toBe(`wikitape: fixture file ${file}: ${problem}`);
  });

  it('a page whose title has a colon needs its namespace; one without a colon is in the main namespace', async () => {
    const { file, message } = await loadError({ pages: [{ pageid: 5, title: 'Участник:Боб', extlinks: [] }] });
    expect(message).toBe(`wikitape: fixture file ${file}: page 5 ("Участник:Боб") needs "ns": its title has a colon, so its namespace is not known from the title alone`);
    const ask = await asker({ pages: [{ pageid: 5, title: 'Боб', extlinks: [] }] });
    const r = await ask({ list: 'allpages', apnamespace: '0' });
    expect(r.body['query']).toEqual({ allpages: [{ pageid: 5, ns: 0, title: 'Боб' }] });
  });
  it('a page’s protection needs its type, level and expiry (one without its expiry was taken as expired)', async () => {
    const { file, message } = await loadError({ pages: [{ pageid: 1, ns: 0, title: 'A', protection: [{ type: 'edit', level: 'sysop' }] }] });
    expect(message).toBe(`wikitape: fixture file ${file}: page 1 ("A"): "protection" must be a list of protections, each with "type", "level" and "expiry"`);
  });

  it('an external link needs its URL (one without was never shown)', async () => {
    const { file, message } = await loadError({ pages: [{ pageid: 1, ns: 0, title: 'A', extlinks: ['https://example.org/', { id: 3 }] }] });
    expect(message).toBe(`wikitape: fixture file ${file}: page 1 ("A"): every external link needs a "url" (a link is a URL, or an object with "url" and "id")`);
  });
});

describe('a fixture entry without a field only some answers print', () => {
  it('list=blocks: an account block without its user id flags blocks.userid (never userid 0); an address block’s is 0', async () => {
    const { userid: _u, ...noId } = BLOCK;
    const ip = { ...BLOCK, id: 2, user: '192.0.2.7', userid: undefined, timestamp: '2024-03-04T12:00:00Z' };
    const ask = await asker({ blocks: [noId, ip] });
    const r = await ask({ list: 'blocks', bkprop: 'id|user|userid', bkdir: 'newer' });
    expect(r.unknown).toBe('blocks.userid');
    const onlyIp = await ask({ list: 'blocks', bkprop: 'id|userid', bkids: '2' });
    expect(onlyIp.unknown).toBeUndefined();
    expect(onlyIp.body['query']).toEqual({ blocks: [{ id: 2, userid: 0 }] });
    // What users get by default: the miss naming what is unknown.
    const miss = await (await asker({ blocks: [noId] }, { onMiss: 'error' }))({ list: 'blocks', bkprop: 'id|userid' });
    expect(miss.source).toBe('miss');
    expect(miss.unknown).toBe('blocks.userid');
    expect((miss.body['error'] as { code: string }).code).toBe('wikitape-miss');
  });

  it('list=blocks: one without its flags flags blocks.flags when they are shown or a filter reads them; a sitewide one has no restrictions', async () => {
    const { nocreate: _n, restrictions: _r, ...entry } = BLOCK;
    const ask = await asker({ blocks: [entry] });
    expect((await ask({ list: 'blocks', bkprop: 'id|flags' })).unknown).toBe('blocks.flags');
    expect((await ask({ list: 'blocks', bkprop: 'id', bkshow: 'account' })).unknown).toBe('blocks.flags');
    const restrictions = await ask({ list: 'blocks', bkprop: 'id|restrictions' });
    expect(restrictions.unknown).toBeUndefined();
    expect(restrictions.body['query']).toEqual({ blocks: [{ id: 1, restrictions: [] }] });
  });

  it('list=blocks: one without by, byid or reason flags each when shown', async () => {
    const { by: _b, byid: _i, reason: _r, ...entry } = BLOCK;
    const ask = await asker({ blocks: [entry] });
    expect((await ask({ list: 'blocks', bkprop: 'id|by|byid|reason' })).unknown).toBe('blocks.by, blocks.byid, blocks.reason');
    const shown = await ask({ list: 'blocks', bkprop: 'id|user|expiry' });
    expect(shown.unknown).toBeUndefined();
    expect(shown.body['query']).toEqual({ blocks: [{ id: 1, user: 'Вандал', expiry: 'infinity' }] });
  });

  it('list=logevents: one without tags or params flags logevents.tags, logevents.details (never [] or {}), and the tag filter', async () => {
    const { tags: _t, params: _p, ...entry } = EVENT;
    const ask = await asker({ logevents: [entry] });
    expect((await ask({ list: 'logevents', leprop: 'ids|tags' })).unknown).toBe('logevents.tags');
    expect((await ask({ list: 'logevents', letag: 'mobile edit' })).unknown).toContain('logevents.tags');
    // The default props show the details.
    expect((await ask({ list: 'logevents' })).unknown).toBe('logevents.details');
    const ids = await ask({ list: 'logevents', leprop: 'ids|title|type|user|timestamp|comment' });
    expect(ids.unknown).toBeUndefined();
  });

  it('list=logevents: one in the User namespace without its title flags logevents.title (the gender lookup of its debuginfo read the missing title: a wikitape-setup error, unflagged)', async () => {
    const { title: _t, ...entry } = { ...EVENT, ns: 2 };
    const ask = await asker({ profile: { ...PROFILE, debugInfo: true }, logevents: [entry] });
    const got = await ask({ list: 'logevents', leprop: 'ids|title|type' });
    expect({ unknown: got.unknown, code: (got.body['error'] as Record<string, unknown> | undefined)?.['code'] }).toEqual({ unknown: 'logevents.title', code: undefined });
  });

  it('list=logevents: one without its user id flags logevents.userid; an address actor’s is 0; an imported name’s user is flagged too (`anon` comes from its id)', async () => {
    const { userid: _u, ...entry } = EVENT;
    const ip = { ...EVENT, logid: 2, user: '192.0.2.7', userid: undefined, timestamp: '2024-03-02T10:00:00Z' };
    const ask = await asker({ logevents: [entry, ip] });
    const user = await ask({ list: 'logevents', leprop: 'ids|user', ledir: 'newer' });
    expect(user.unknown).toBeUndefined();
    expect((user.body['query'] as { logevents: unknown[] }).logevents).toEqual([
      { logid: 1, pageid: 2, logpage: 2, user: 'Admin' },
      { logid: 2, pageid: 2, logpage: 2, user: '192.0.2.7', anon: true },
    ]);
    expect((await ask({ list: 'logevents', leprop: 'ids|userid' })).unknown).toBe('logevents.userid');
    const imported = await asker({ logevents: [{ ...entry, user: 'imported>Боб' }] });
    expect((await imported({ list: 'logevents', leprop: 'ids|user' })).unknown).toBe('logevents.user');
    const anon = await ask({ list: 'logevents', leprop: 'ids|user|userid', lelimit: '1' });
    expect(anon.unknown).toBeUndefined();
    expect((anon.body['query'] as { logevents: unknown[] }).logevents).toEqual([{ logid: 2, pageid: 2, logpage: 2, user: '192.0.2.7', userid: 0, anon: true }]);
  });

  it('list=logevents: a hidden part left out is not asked of a reader, who sees only that it is hidden', async () => {
    const { comment: _c, ...entry } = EVENT;
    const ask = await asker({ logevents: [{ ...entry, commenthidden: true }] });
    const r = await ask({ list: 'logevents', leprop: 'ids|comment|parsedcomment' });
    expect(r.unknown).toBeUndefined();
    expect((r.body['query'] as { logevents: unknown[] }).logevents).toEqual([{ logid: 1, pageid: 2, logpage: 2, commenthidden: true }]);
  });

  it('list=protectedtitles: one without its level flags protectedtitles.level when shown or filtered on', async () => {
    const { level: _l, ...entry } = TITLE;
    const ask = await asker({ protectedtitles: [entry] });
    expect((await ask({ list: 'protectedtitles' })).unknown).toBe('protectedtitles.level');
    expect((await ask({ list: 'protectedtitles', ptprop: 'timestamp', ptlevel: 'sysop' })).unknown).toBe('protectedtitles.level');
    const shown = await ask({ list: 'protectedtitles', ptprop: 'timestamp' });
    expect(shown.unknown).toBeUndefined();
    expect(shown.body['query']).toEqual({ protectedtitles: [{ ns: 0, title: 'Запрещённая', timestamp: '2024-03-05T10:00:00Z' }] });
  });

  it('list=protectedtitles: one without its user id flags the user (which prints the id too)', async () => {
    const { userid: _u, ...entry } = TITLE;
    const ask = await asker({ protectedtitles: [entry] });
    expect((await ask({ list: 'protectedtitles', ptprop: 'user' })).unknown).toBe('protectedtitles.user, protectedtitles.userid');
  });

  it('list=blocks (1.44): one without its reason flags its parsed reason, never formatted from nothing (it was an internal error: internal_api_error_TypeError)', async () => {
    const { reason: _r, ...entry } = BLOCK;
    const ask = await asker({ profile: { ...PROFILE, version: '1.44.0' }, blocks: [entry] });
    const r = await ask({ list: 'blocks', bkprop: 'id|parsedreason' });
    expect(r).toMatchObject({ source: 'builtin', unknown: 'blocks.parsedreason' });
    expect(r.body['query']).toEqual({ blocks: [{ id: 1 }] });
  });

  it('list=logevents: one without its title flags its parsed comment, which is formatted with the title (it was an internal error: internal_api_error_TypeError)', async () => {
    const { title: _t, ...entry } = { ...EVENT, comment: '/* История */ правка' };
    const ask = await asker({ logevents: [entry] });
    const r = await ask({ list: 'logevents', leprop: 'ids|parsedcomment' });
    expect(r).toMatchObject({ source: 'builtin', unknown: 'logevents.parsedcomment' });
    expect(r.body['query']).toEqual({ logevents: [{ logid: 1, pageid: 2, logpage: 2 }] });
    // with its title, the comment is formatted
    const titled = await (await asker({ logevents: [{ ...EVENT, comment: '/* История */ правка' }] }))({ list: 'logevents', leprop: 'ids|parsedcomment' });
    expect(titled.unknown).toBeUndefined();
    expect((titled.body['query'] as { logevents: { parsedcomment: string }[] }).logevents[0]!.parsedcomment).toContain('title="Москва"');
  });

  it('a field left out is left out of the row its flag names, never printed as a default (no tags [], params {}, userid 0, restrictions [])', async () => {
    const { tags: _t, params: _p, ...event } = EVENT;
    const { userid: _u, restrictions: _r, ...block } = { ...BLOCK, partial: true };
    const ask = await asker({ logevents: [event], blocks: [block] });
    const events = await ask({ list: 'logevents', leprop: 'ids|tags|details' });
    expect(events.unknown).toBe('logevents.details, logevents.tags');
    expect(events.body['query']).toEqual({ logevents: [{ logid: 1, pageid: 2, logpage: 2 }] });
    const blocks = await ask({ list: 'blocks', bkprop: 'id|userid|restrictions' });
    expect(blocks.unknown).toBe('blocks.restrictions, blocks.userid');
    expect(blocks.body['query']).toEqual({ blocks: [{ id: 1 }] });
  });
});

describe('a hidden part of a log event a fixture leaves out', () => {
  let server: RunningServer | undefined;
  afterAll(async () => server?.close());

  it('is flagged for a caller with the rights to see it (deletedhistory), never printed empty', async () => {
    const { comment: _c, ...entry } = EVENT;
    const given = { ...EVENT, logid: 2, timestamp: '2024-03-02T10:00:00Z', comment: 'скрытое', commenthidden: true };
    const accounts = [{ name: 'Admin', id: 1, password: 'секрет', groups: ['*', 'user', 'sysop'], rights: ['read', 'deletedhistory'] }];
    const file = await fixtureFile({ profile: PROFILE, accounts, logevents: [{ ...entry, commenthidden: true }, given] });
    server = await startServer({ fixtures: [file], clock: TEST_CLOCK, cassettes: NO_CASSETTES, onMiss: 'builtin' });
    const c = new Client(server.url);
    await c.call({ action: 'login', lgname: 'Admin', lgpassword: 'секрет', lgtoken: await c.token('login') });
    const ask = (q: Record<string, string>) => c.call({ action: 'query', list: 'logevents', formatversion: '2', ...q }, 'GET');
    // (a list computed for such a caller is flagged `session.visibility` besides: readers' lists may lack what they see)
    const both = await ask({ leprop: 'ids|comment' });
    expect(both.headers.get('x-wikitape-unknown')?.split(', ')).toContain('logevents.comment');
    const shown = await ask({ leprop: 'ids|comment', lelimit: '1' });
    expect(shown.headers.get('x-wikitape-unknown')?.split(', ')).not.toContain('logevents.comment');
    expect(shown.body['query'].logevents).toEqual([{ logid: 2, pageid: 2, logpage: 2, commenthidden: true, comment: 'скрытое' }]);
  });
});

describe('a fixture account without its id', () => {
  let server: RunningServer | undefined;
  afterAll(async () => server?.close());

  it('is flagged in meta=userinfo once logged in (userinfo.id), never id 0', async () => {
    const file = await fixtureFile({ profile: { version: '1.39.17' }, accounts: [{ name: 'Боб', password: 'секрет', groups: ['*', 'user'], rights: ['read'] }] });
    server = await startServer({ fixtures: [file], clock: TEST_CLOCK, cassettes: NO_CASSETTES, onMiss: 'builtin' });
    const c = new Client(server.url);
    const token = await c.token('login');
    await c.call({ action: 'login', lgname: 'Боб', lgpassword: 'секрет', lgtoken: token });
    const me = await c.call({ action: 'query', meta: 'userinfo' }, 'GET');
    expect(me.headers.get('x-wikitape-unknown')).toBe('userinfo.id');
    expect(me.body['query'].userinfo.name).toBe('Боб');
  });
});
