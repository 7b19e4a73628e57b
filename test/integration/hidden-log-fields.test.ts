import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { LogEvent } from '../../src/modules/logevents.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { Client } from '../support/cookie-client.js';

/**
 * Log events with hidden fields (log_deleted), as an anonymous reader sees them. ApiQueryLogEvents
 * (1.39 lines 244-261, 1.43 260-277): without `deletedhistory`, a user filter (`leuser`) leaves out
 * events whose user is hidden (bit 4) and a title, namespace or prefix filter those whose action is hidden
 * (bit 1); each filter only looks at its own bit. On the live wikis (1.39 and 1.43) an event whose
 * action is hidden and suppressed (log 41) is listed under `leuser=Admin` and left out under
 * `lenamespace`; neither wiki holds an event whose user is hidden (making one is a write).
 */
const event = (logid: number, title: string, deleted: number): LogEvent => ({
  logid, ns: 0, title, pageid: 0, logpage: 0, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1,
  timestamp: `2024-03-0${logid - 200}T12:00:00Z`, comment: '', tags: [], deleted,
});
const USER_HIDDEN = event(201, 'Скрытый автор', 4);
const ACTION_HIDDEN = event(202, 'Скрытое действие', 1 | 8);

let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-hidden-'));
  await writeFile(join(dir, 'hidden.json'), JSON.stringify({ logevents: [USER_HIDDEN, ACTION_HIDDEN] }));
  app = createApp({ fixtures: [MINI_WIKI, join(dir, 'hidden.json')], clock: TEST_CLOCK, cassettes: NO_CASSETTES });
});

type Event = Record<string, unknown> & { logid: number };
async function events(params: Record<string, string>): Promise<Event[]> {
  const res = await request(app).get('/wiki/api.php').query({ action: 'query', list: 'logevents', lelimit: 'max', format: 'json', formatversion: '2', ...params });
  return (JSON.parse(res.text) as { query: { logevents: Event[] } }).query.logevents;
}
const ids = (list: Event[]) => list.map((e) => e.logid);

describe('log events with hidden fields', () => {
  it('are listed without what is hidden', async () => {
    const all = await events({});
    const byId = (id: number) => all.find((e) => e.logid === id)!;
    expect(byId(201)).toMatchObject({ userhidden: true, title: 'Скрытый автор' });
    expect(byId(201)).not.toHaveProperty('user');
    expect(byId(202)).toMatchObject({ actionhidden: true, suppressed: true, user: 'Admin' });
    expect(byId(202)).not.toHaveProperty('title');
  });

  it('says an entry is suppressed only beside a hidden part it shows (as the live 1.43 answers leprop=user|userid for its log 41)', async () => {
    expect((await events({ leprop: 'user|userid' })).filter((e) => e['suppressed'] === true)).toEqual([]);
    const byType = (await events({ leprop: 'type|user' })).filter((e) => e['suppressed'] === true);
    expect(byType).toEqual([]);
    const withIds = (await events({ leprop: 'ids|user' })).find((e) => e.logid === 202);
    expect(withIds).toEqual({ logid: 202, actionhidden: true, user: 'Admin', suppressed: true });
  });

  it('mark a hidden part only where a prop shows it, and `suppressed` only beside a mark', async () => {
    // (MediaWiki 1.39 and 1.43, log 41: leprop=tags|timestamp|type|userid shows neither actionhidden nor suppressed)
    const shown = (await events({ leprop: 'tags|timestamp|type|userid', letype: 'create' })).filter((e) => e['timestamp'] === ACTION_HIDDEN.timestamp);
    expect(shown).toEqual([{ type: 'create', action: 'create', userid: 1, timestamp: ACTION_HIDDEN.timestamp, tags: [] }]);
    const withIds = (await events({ leprop: 'ids|type' })).filter((e) => e.logid === 202);
    expect(withIds).toEqual([{ logid: 202, actionhidden: true, type: 'create', action: 'create', suppressed: true }]);
  });

  it('leuser leaves out the events whose user is hidden, and keeps those whose action is', async () => {
    const mine = ids(await events({ leuser: 'Admin' }));
    expect(mine).not.toContain(201);
    expect(mine).toContain(202);
    expect(mine.length).toBeGreaterThan(2);
  });

  it('lenamespace leaves out the events whose action is hidden, and keeps those whose user is', async () => {
    const main = ids(await events({ lenamespace: '0' }));
    expect(main).not.toContain(202);
    expect(main).toContain(201);
  });

  it('leprefix and letitle leave out the events whose action is hidden, as lenamespace does', async () => {
    // (ApiQueryLogEvents: the prefix sets $title, which the check reads)
    expect(ids(await events({ leprefix: 'Скрыт' }))).toEqual([201]);
    expect(ids(await events({ letitle: 'Скрытое действие' }))).toEqual([]);
  });
});

/**
 * An entry's row is built once per caller's rights and kept (modules/list-support.ts showRows):
 * callers with other rights, asking the same page of one server in turn, each get their own.
 */
describe('log events with hidden fields, asked in turn by callers with other rights', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-hidden-rights-'));
    const account = (name: string, id: number, rights: string[]) => ({ name, id, password: 'pw', groups: ['*', 'user'], rights: ['read', 'writeapi', ...rights] });
    const accounts = [account('Reader', 2, []), account('Historian', 3, ['deletedhistory']), account('Overseer', 4, ['deletedhistory', 'suppressrevision'])];
    await writeFile(join(dir, 'hidden.json'), JSON.stringify({ logevents: [USER_HIDDEN, ACTION_HIDDEN], accounts }));
    // Readers' recordings cannot show what rights show (session.visibility): answered anyway, flagged.
    server = await startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, 'hidden.json')], clock: TEST_CLOCK, onMiss: 'builtin' });
  });
  afterAll(() => server.close());

  /** Events 201 and 202 as `name` sees them (formatversion=1 and 2), logged in unless a reader. */
  async function seenBy(name: string | null): Promise<Event[][]> {
    const c = new Client(server.url);
    if (name) {
      const token = await c.token('login');
      expect((await c.call({ action: 'login', lgname: name, lgpassword: 'pw', lgtoken: token })).body['login'].result).toBe('Success');
    }
    const out: Event[][] = [];
    for (const formatversion of ['1', '2']) {
      const res = await c.call({ action: 'query', list: 'logevents', lelimit: 'max', formatversion }, 'GET');
      const list = (res.body as { query?: { logevents: Event[] } }).query?.logevents;
      if (!list) throw new Error(`no log events for ${name}: ${JSON.stringify(res.body)}`);
      out.push([201, 202].map((id) => list.find((e) => e.logid === id)!));
    }
    return out;
  }

  it('each sees what its rights show, whoever asked before', async () => {
    const reader = await seenBy(null);
    const historian = await seenBy('Historian');
    const overseer = await seenBy('Overseer');
    const readerAgain = await seenBy('Reader');
    for (const [i, bool] of [[0, ''], [1, true]] as const) {
      // a reader: neither the hidden user nor the suppressed action
      for (const seen of [reader[i]!, readerAgain[i]!]) {
        expect(seen[0]).toMatchObject({ userhidden: bool });
        expect(seen[0]).not.toHaveProperty('user');
        expect(seen[1]).toMatchObject({ actionhidden: bool, suppressed: bool });
        expect(seen[1]).not.toHaveProperty('title');
      }
      // deletedhistory: the hidden user, not the suppressed action
      expect(historian[i]![0]).toMatchObject({ userhidden: bool, user: 'Admin' });
      expect(historian[i]![1]).not.toHaveProperty('title');
      // suppressrevision: both
      expect(overseer[i]![0]).toMatchObject({ userhidden: bool, user: 'Admin' });
      expect(overseer[i]![1]).toMatchObject({ actionhidden: bool, suppressed: bool, title: 'Скрытое действие' });
    }
  });

  /** The ids of events 201 and 202 `name` finds with a filter (lenamespace, leprefix, leuser). */
  async function foundBy(name: string | null, filter: Record<string, string>): Promise<number[]> {
    const c = new Client(server.url);
    if (name) {
      const token = await c.token('login');
      expect((await c.call({ action: 'login', lgname: name, lgpassword: 'pw', lgtoken: token })).body['login'].result).toBe('Success');
    }
    const res = await c.call({ action: 'query', list: 'logevents', lelimit: 'max', formatversion: '2', ...filter }, 'GET');
    return ((res.body as { query: { logevents: Event[] } }).query.logevents.map((e) => e.logid)).filter((id) => id === 201 || id === 202);
  }

  it('filtered, each finds the events whose part its rights show (deletedhistory: hidden ones, not suppressed ones)', async () => {
    for (const filter of [{ lenamespace: '0' }, { leprefix: 'Скрыт' }] as Record<string, string>[]) {
      expect(await foundBy(null, filter)).toEqual([201]);
      expect(await foundBy('Historian', filter)).toEqual([201]);
      expect(await foundBy('Overseer', filter)).toEqual([202, 201]);
    }
    expect(await foundBy(null, { leuser: 'Admin' })).toEqual([202]);
    expect(await foundBy('Historian', { leuser: 'Admin' })).toEqual([202, 201]);
    expect(await foundBy('Overseer', { leuser: 'Admin' })).toEqual([202, 201]);
  });
});

/**
 * A fixture crawled logged in (`scripts/crawl-fixture.mjs` with WIKITAPE_CRAWL_LOGIN) names the
 * rights its lists were read with (`seenWithRights`): a caller with no right beyond them is
 * answered from it unflagged; one with more, or any such caller of a reader's fixture, is flagged
 * `session.visibility` (the fixture may lack what they would see).
 */
describe('a fixture read with rights (seenWithRights)', () => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  /** A server on the hidden events (and a hidden block), read with `seen` (undefined: a reader's fixture). */
  async function serve(seen: string[] | undefined): Promise<RunningServer> {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-seen-with-'));
    const account = (name: string, id: number, rights: string[]) => ({ name, id, password: 'pw', groups: ['*', 'user'], rights: ['read', ...rights] });
    const block = { id: 31, user: 'Скрытый', userid: 31, by: 'Admin', byid: 1, timestamp: '2024-03-02T10:00:00Z', expiry: 'infinity', reason: '', automatic: false, anononly: false, nocreate: true, autoblock: false, noemail: false, hidden: true, allowusertalk: false, partial: false, restrictions: [] };
    const doc = { logevents: [USER_HIDDEN, ACTION_HIDDEN], blocks: [block], ...(seen ? { seenWithRights: seen } : {}) };
    await writeFile(join(dir, 'lists.json'), JSON.stringify(doc));
    await writeFile(join(dir, 'accounts.json'), JSON.stringify({ accounts: [account('Historian', 3, ['deletedhistory']), account('Hider', 5, ['hideuser']), account('Overseer', 4, ['deletedhistory', 'suppressrevision'])] }));
    const s = await startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, 'lists.json'), join(dir, 'accounts.json')], clock: TEST_CLOCK, onMiss: 'builtin' });
    servers.push(s);
    return s;
  }

  /** What `name` is shown of `list`, and what is flagged. */
  async function ask(s: RunningServer, name: string, list: 'logevents' | 'blocks'): Promise<{ unknown: string | null; ids: number[] }> {
    const c = new Client(s.url);
    const token = await c.token('login');
    expect((await c.call({ action: 'login', lgname: name, lgpassword: 'pw', lgtoken: token })).body['login'].result).toBe('Success');
    const res = await c.call({ action: 'query', list, lelimit: 'max', bklimit: 'max' }, 'GET');
    const rows = (res.body as { query: Record<string, { logid?: number; id?: number }[]> }).query[list]!;
    return { unknown: res.headers.get('x-wikitape-unknown'), ids: rows.map((r) => r.logid ?? r.id!) };
  }

  it('answers callers whose rights it was read with, unflagged, with what those rights show', async () => {
    const s = await serve(['read', 'deletedhistory', 'hideuser']);
    expect(await ask(s, 'Historian', 'logevents')).toEqual({ unknown: null, ids: [202, 201] });
    expect(await ask(s, 'Hider', 'blocks')).toEqual({ unknown: null, ids: [31] });
    // suppressrevision shows what the fixture's crawl could not see
    expect((await ask(s, 'Overseer', 'logevents')).unknown).toBe('session.visibility');
  });

  it("flags every caller with such rights on a reader's fixture", async () => {
    const s = await serve(undefined);
    expect((await ask(s, 'Historian', 'logevents')).unknown).toBe('session.visibility');
    expect((await ask(s, 'Hider', 'blocks')).unknown).toBe('session.visibility');
  });

  it('is refused at start when it is not a list of rights', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-seen-with-'));
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ seenWithRights: 'hideuser' }));
    await expect(startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, 'bad.json')] })).rejects.toThrow('"seenWithRights" must be a list of rights');
  });
});

/**
 * The restricted logs ($wgLogRestrictions): LogEventsList::getExcludeClause leaves out, for each
 * caller, the types whose right it lacks. On the live 1.39 and 1.43 a sysop (`suppressionlog`,
 * `spamblacklistlog`) reads the suppression log and the spam blacklist's hits; readers and bot
 * passwords without those grants read neither.
 */
describe('restricted logs, read by callers with their rights', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-restricted-logs-'));
    const suppressed = { ...event(211, 'Участник:Скрытый', 0), type: 'suppress', action: 'block', params: {}, timestamp: '2024-03-05T12:00:00Z' };
    const hit = { ...event(212, 'Спам', 0), type: 'spamblacklist', action: 'hit', params: {}, timestamp: '2024-03-06T12:00:00Z' };
    const account = (name: string, id: number, rights: string[]) => ({ name, id, password: 'pw', groups: ['*', 'user'], rights: ['read', ...rights] });
    const accounts = [account('Reader', 2, []), account('Spamwatcher', 3, ['spamblacklistlog']), account('Suppressor', 4, ['suppressionlog', 'spamblacklistlog'])];
    await writeFile(join(dir, 'logs.json'), JSON.stringify({ logevents: [suppressed, hit], accounts, seenWithRights: ['suppressionlog', 'spamblacklistlog'] }));
    server = await startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, 'logs.json')], clock: TEST_CLOCK, onMiss: 'builtin' });
  });
  afterAll(() => server.close());

  async function logs(name: string | null, params: Record<string, string> = {}): Promise<{ ids: number[]; unknown: string | null }> {
    const c = new Client(server.url);
    if (name) {
      const token = await c.token('login');
      expect((await c.call({ action: 'login', lgname: name, lgpassword: 'pw', lgtoken: token })).body['login'].result).toBe('Success');
    }
    const res = await c.call({ action: 'query', list: 'logevents', lelimit: 'max', ...params }, 'GET');
    return { ids: (res.body as { query: { logevents: Event[] } }).query.logevents.map((e) => e.logid), unknown: res.headers.get('x-wikitape-unknown') };
  }

  it('each reads the restricted logs whose right it has', async () => {
    expect(await logs(null)).toEqual({ ids: [], unknown: null });
    expect(await logs('Reader')).toEqual({ ids: [], unknown: null });
    expect(await logs('Spamwatcher')).toEqual({ ids: [212], unknown: null });
    expect(await logs('Suppressor')).toEqual({ ids: [212, 211], unknown: null });
    expect(await logs('Suppressor', { letype: 'suppress' })).toEqual({ ids: [211], unknown: null });
    expect(await logs('Spamwatcher', { letype: 'suppress' })).toEqual({ ids: [], unknown: null });
  });
});
