import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { convertCassette } from '../../src/cassette/convert.js';
import { SqliteCassette } from '../../src/cassette/store-sqlite.js';
import { prepareDatabaseFile } from '../../src/replay/prepare-database.js';
import { emptyHarvest, identityKey, type Cassette, type Interaction } from '../../src/cassette/format.js';
import { KEY_RULES, KNOWLEDGE_ENTITIES, LIST_ENTITIES } from '../../src/modules/index.js';
import { harvest } from '../../src/record/harvest.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { startServer } from '../../src/server.js';
import { Client } from '../support/cookie-client.js';

/**
 * Knowledge per identity (docs/decisions/0006-sessions-are-identities.md): an administrator who
 * sees what readers may not (a log entry's hidden user) learns the lists from its own complete
 * walks, kept apart from what anonymous recordings teach.
 */

const LEPROP = 'comment|details|ids|tags|timestamp|title|type|user|userid';
const event = (logid: number, extra: Record<string, unknown> = {}) => ({ logid, ns: 0, title: `T${logid}`, pageid: logid, logpage: logid, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp: `2024-01-0${logid}T00:00:00Z`, comment: '', tags: [], ...extra });
const { user: _u, userid: _i, ...hiddenBase } = event(3);
/** Readers see the hidden user's entry without it; the administrator sees it, marked hidden. */
const forReaders = [{ ...hiddenBase, userhidden: true }, event(2), event(1)];
const forAdmin = [{ ...event(3), user: 'Hidden', userid: 7, userhidden: true }, event(2), event(1)];

function interaction(params: Record<string, string>, body: object, user?: string, recordedAt = '2024-03-01T00:00:00Z'): Interaction {
  const request = { action: 'query', ...params };
  const key = identityKey(canonicalKey(new Map(Object.entries(request)), KEY_RULES), user);
  return { key, request, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body: { batchcomplete: true, ...body }, recordedAt, ...(user ? { user } : {}) };
}

/** When the administrator's own log walk was recorded: four days after the readers' (2024-03-01). */
const ADMIN_WALKED = '2024-03-05T00:00:00Z';

let dir: string;
beforeAll(async () => {
  const walk = { list: 'logevents', lelimit: 'max', leprop: LEPROP };
  const anonymous = interaction(walk, { query: { logevents: forReaders } });
  const blocks = { list: 'blocks', bklimit: 'max', bkprop: 'expiry|flags|id|timestamp|user' };
  const flags = { automatic: false, anononly: false, nocreate: false, autoblock: false, noemail: false, allowusertalk: false, partial: false };
  const block = (id: number, user: string, hidden: boolean) => ({ id, user, timestamp: `2024-02-0${id}T00:00:00Z`, expiry: 'infinity', ...flags, hidden });
  const anonymousBlocks = interaction(blocks, { query: { blocks: [block(1, 'Vandal', false)] } });
  const interactions = [
    anonymous,
    anonymousBlocks,
    interaction(walk, { query: { logevents: forAdmin } }, 'Admin', ADMIN_WALKED),
    interaction(blocks, { query: { blocks: [block(2, 'Secret', true), block(1, 'Vandal', false)] } }, 'Admin'),
    interaction({ meta: 'userinfo', uiprop: 'groups|rights' }, { query: { userinfo: { id: 1, name: 'Admin', groups: ['*', 'user', 'sysop'], rights: ['read', 'deletelogentry', 'deletedhistory', 'hideuser', 'apihighlimits'] } } }, 'Admin'),
  ];
  dir = await cassetteDir(interactions, [anonymous, anonymousBlocks]);
});

/** A folder holding one cassette of these interactions, its entities harvested from `readers` (record mode harvests readers' answers only). */
async function cassetteDir(interactions: Interaction[], readers: Interaction[]): Promise<string> {
  const entities = emptyHarvest();
  for (const i of readers) harvest(entities, i.body, i.request);
  const cassette: Cassette = {
    meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-03-01T00:00:00Z', profile: { version: '1.43.9', language: 'en', scriptPath: '/w', server: 'http://wiki.test', debugInfo: false } },
    interactions: interactions.sort((a, b) => (a.key < b.key ? -1 : 1)),
    entities,
  };
  const d = await mkdtemp(join(tmpdir(), 'wikitape-identity-knowledge-'));
  await writeFile(join(d, 'rec.json'), JSON.stringify(cassette));
  return d;
}

describe('knowledge per identity', () => {
  it("a logged-in identity's complete walk makes its own computed answers exact; readers keep theirs", async () => {
    const s = await startServer({ cassettes: dir });
    try {
      const ask = { action: 'query', list: 'logevents', lelimit: '1', leprop: 'ids|user|userid', formatversion: '2' };
      const admin = new Client(s.url);
      await admin.call({ action: 'login', lgname: 'Admin', lgpassword: 'any', lgtoken: await admin.token('login') });
      const mine = await admin.call(ask, 'GET');
      expect(mine.headers.get('x-wikitape-unknown')).toBeNull();
      expect(mine.headers.get('x-wikitape-source')).toBe('synthesized');
      expect(mine.body['query'].logevents).toEqual([{ logid: 3, pageid: 3, logpage: 3, user: 'Hidden', userid: 7, userhidden: true }]);
      const next = await admin.call({ ...ask, lecontinue: mine.body['continue'].lecontinue }, 'GET');
      expect(next.body['query'].logevents).toEqual([{ logid: 2, pageid: 2, logpage: 2, user: 'Admin', userid: 1 }]);
      const reader = new Client(s.url);
      const theirs = await reader.call(ask, 'GET');
      expect(theirs.headers.get('x-wikitape-source')).toBe('synthesized');
      expect(theirs.body['query'].logevents).toEqual([{ logid: 3, pageid: 3, logpage: 3, userhidden: true }]);
      // A hidden block shows to `hideuser` (ApiQueryBlocks), from the administrator's own walk.
      const hiddenBlocks = { action: 'query', list: 'blocks', bklimit: '1', bkprop: 'id|user', formatversion: '2' };
      const adminBlocks = await admin.call(hiddenBlocks, 'GET');
      expect(adminBlocks.headers.get('x-wikitape-unknown')).toBeNull();
      expect(adminBlocks.body['query'].blocks).toEqual([{ id: 2, user: 'Secret' }]);
      expect((await reader.call(hiddenBlocks, 'GET')).body['query'].blocks).toEqual([{ id: 1, user: 'Vandal' }]);
    } finally {
      await s.close();
    }
  });

  it("under --clock recorded, a logged-in identity's computed answer is as of its own walk, a reader's as of the readers' walk", async () => {
    const s = await startServer({ cassettes: dir, clock: 'recorded' });
    try {
      const ask = { action: 'query', list: 'logevents', lelimit: '1', leprop: 'ids', curtimestamp: '1', formatversion: '2' };
      const admin = new Client(s.url);
      await admin.call({ action: 'login', lgname: 'Admin', lgpassword: 'any', lgtoken: await admin.token('login') });
      const mine = await admin.call(ask, 'GET');
      expect(mine.headers.get('x-wikitape-source')).toBe('synthesized');
      expect(mine.headers.get('x-wikitape-unknown')).toBeNull();
      expect([mine.body['curtimestamp'], mine.headers.get('date')]).toEqual([ADMIN_WALKED, 'Tue, 05 Mar 2024 00:00:00 GMT']);
      const theirs = await new Client(s.url).call(ask, 'GET');
      expect(theirs.headers.get('x-wikitape-source')).toBe('synthesized');
      expect([theirs.body['curtimestamp'], theirs.headers.get('date')]).toEqual(['2024-03-01T00:00:00Z', 'Fri, 01 Mar 2024 00:00:00 GMT']);
    } finally {
      await s.close();
    }
  });
});

describe("an identity's view leaves readers' knowledge as it was", () => {
  /** Readers' log walk left users' ids out; the administrator's showed them: what readers know of Protector's id must not depend on who asked first. */
  async function protectorCassette(): Promise<string> {
    const byProtector = event(2, { user: 'Protector', userid: 9 });
    const { userid: _id, ...withoutId } = byProtector;
    const readersWalk = { list: 'logevents', lelimit: 'max', leprop: 'ids|timestamp|title|type|user' };
    const readerEntry = (e: Record<string, unknown>) => ({ logid: e['logid'], ns: 0, title: e['title'], pageid: e['pageid'], logpage: e['logpage'], type: 'create', action: 'create', user: e['user'], timestamp: e['timestamp'] });
    const anonymous = interaction(readersWalk, { query: { logevents: [readerEntry(withoutId), readerEntry(event(1))] } });
    const titles = interaction({ list: 'protectedtitles', ptlimit: 'max', ptprop: 'expiry|level|timestamp|user' }, { query: { protectedtitles: [{ ns: 0, title: 'Locked', timestamp: '2024-01-05T00:00:00Z', user: 'Protector', expiry: 'infinity', level: 'sysop' }] } });
    const interactions = [
      anonymous,
      titles,
      interaction({ list: 'logevents', lelimit: 'max', leprop: LEPROP }, { query: { logevents: [byProtector, event(1)] } }, 'Admin', ADMIN_WALKED),
      interaction({ meta: 'userinfo', uiprop: 'groups|rights' }, { query: { userinfo: { id: 1, name: 'Admin', groups: ['*', 'user', 'sysop'], rights: ['read', 'deletelogentry', 'deletedhistory', 'hideuser', 'apihighlimits'] } } }, 'Admin'),
    ];
    return cassetteDir(interactions, [anonymous, titles]);
  }

  it("a reader's answer is the same before and after a logged-in identity's view is worked out", async () => {
    const s = await startServer({ cassettes: await protectorCassette() });
    try {
      const titles = { action: 'query', list: 'protectedtitles', ptlimit: '1', ptprop: 'user|userid', formatversion: '2' };
      const reader = new Client(s.url);
      const before = await reader.call(titles, 'GET');
      // Readers were never shown Protector's id: replay says so rather than answer.
      expect(before.headers.get('x-wikitape-unknown')).not.toBeNull();
      const admin = new Client(s.url);
      await admin.call({ action: 'login', lgname: 'Admin', lgpassword: 'any', lgtoken: await admin.token('login') });
      const mine = await admin.call({ action: 'query', list: 'logevents', lelimit: '1', leprop: 'user|userid', formatversion: '2' }, 'GET');
      expect(mine.body['query'].logevents).toEqual([{ user: 'Protector', userid: 9 }]);
      const after = await reader.call(titles, 'GET');
      expect([after.status, after.headers.get('x-wikitape-unknown'), after.body]).toEqual([before.status, before.headers.get('x-wikitape-unknown'), before.body]);
    } finally {
      await s.close();
    }
  });
});

describe("a logged-in identity's view of a database cassette", () => {
  /** Readers' protected titles show Protector's id; the administrator's own log walk shows Protector without it. */
  async function databaseAndJson(): Promise<{ json: string; db: string }> {
    const titles = interaction({ list: 'protectedtitles', ptlimit: 'max', ptprop: 'expiry|level|timestamp|user|userid' }, { query: { protectedtitles: [{ ns: 0, title: 'Locked', timestamp: '2024-01-05T00:00:00Z', user: 'Protector', userid: 9, expiry: 'infinity', level: 'sysop' }, { ns: 0, title: 'Shut', timestamp: '2024-01-04T00:00:00Z', user: 'Other', userid: 11, expiry: 'infinity', level: 'sysop' }] } });
    const readersWalk = interaction({ list: 'logevents', lelimit: 'max', leprop: LEPROP }, { query: { logevents: forReaders } });
    const { userid: _id, ...withoutId } = event(2, { user: 'Protector' });
    const adminWalk = interaction({ list: 'logevents', lelimit: 'max', leprop: 'comment|details|ids|tags|timestamp|title|type|user' }, { query: { logevents: [{ ...forAdmin[0] }, withoutId, event(1)] } }, 'Admin', ADMIN_WALKED);
    const userinfo = interaction({ meta: 'userinfo', uiprop: 'groups|rights' }, { query: { userinfo: { id: 1, name: 'Admin', groups: ['*', 'user', 'sysop'], rights: ['read', 'deletelogentry', 'deletedhistory', 'hideuser', 'apihighlimits'] } } }, 'Admin');
    const json = await cassetteDir([titles, readersWalk, adminWalk, userinfo], [titles, readersWalk]);
    const db = await mkdtemp(join(tmpdir(), 'wikitape-identity-db-'));
    await convertCassette(join(json, 'rec.json'), join(db, 'rec.sqlite'), LIST_ENTITIES);
    expect(prepareDatabaseFile(join(db, 'rec.sqlite'), LIST_ENTITIES, KNOWLEDGE_ENTITIES)).toBe(true);
    return { json, db };
  }

  /** The administrator's and a reader's answers to questions computed from the walks. */
  async function answersOf(dir: string): Promise<unknown[]> {
    const s = await startServer({ cassettes: dir, onMiss: 'builtin' });
    try {
      const admin = new Client(s.url);
      await admin.call({ action: 'login', lgname: 'Admin', lgpassword: 'any', lgtoken: await admin.token('login') });
      const out: unknown[] = [];
      for (const client of [admin, new Client(s.url)]) {
        for (const q of [{ leprop: 'user|userid|ids', lelimit: '3' }, { leprop: 'user|userid', lelimit: '1', ledir: 'newer' }] as Record<string, string>[]) {
          const r = await client.call({ action: 'query', list: 'logevents', formatversion: '2', ...q }, 'GET');
          out.push([r.status, r.headers.get('x-wikitape-unknown'), r.body]);
        }
      }
      return out;
    } finally {
      await s.close();
    }
  }

  it("derives its own entities' users' ids from readers' kinds without reading those a database keeps whole, and answers as the JSON cassette", async () => {
    const { json, db } = await databaseAndJson();
    const whole = [vi.spyOn(SqliteCassette.prototype, 'entities'), vi.spyOn(SqliteCassette.prototype, 'all')];
    try {
      const fromDb = await answersOf(db);
      for (const spy of whole) expect(spy).not.toHaveBeenCalled();
      expect(fromDb).toEqual(await answersOf(json));
      // Protector's id came from readers' protected titles into the administrator's own answer (else this compares nothing derived).
      expect(JSON.stringify(fromDb[0])).toContain('"user":"Protector","userid":9');
    } finally {
      for (const spy of whole) spy.mockRestore();
    }
  });
});
