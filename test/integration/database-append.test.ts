import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { CassetteChanges } from '../../src/cassette/changes.js';
import { convertCassette } from '../../src/cassette/convert.js';
import { closeCassette, FileCassetteStore } from '../../src/cassette/store.js';
import { SqliteCassette } from '../../src/cassette/store-sqlite.js';
import { StoredMembers } from '../../src/cassette/sql-document.js';
import { databasesUnavailable } from '../../src/cassette/sqlite-driver.js';
import { summariesOf } from '../../src/cassette/walk-summary.js';
import { tableShapes } from '../../src/cassette/sql-table.js';
import { KNOWLEDGE_ENTITIES, LIST_ENTITIES, MODULES } from '../../src/modules/index.js';
import { pruneCassettes } from '../../src/cassette/commands.js';
import { CassetteWriter } from '../../src/record/cassette-writer.js';
import { emptyCassette, type Cassette, type Interaction } from '../../src/cassette/format.js';
import { harvest } from '../../src/record/harvest.js';
import { prepareDatabaseFile } from '../../src/replay/prepare-database.js';
import { convertedBack, tabledKinds, timesAlike } from '../support/database-back.js';

/**
 * Appending a recording to a database cassette costs what the recording costs
 * (docs/decisions/0018-database-cassettes.md): what one write hands SQLite does not grow with what
 * the cassette holds, and the database still converts back to the file a JSON store would have
 * written (its walks' summaries as a `summaries` member).
 */

/** A page of `list=logevents` of 50 log events from `first` down, continuing below them. */
function logPage(first: number): Interaction {
  const request = { action: 'query', format: 'json', formatversion: '2', lelimit: '50', list: 'logevents', ...(first > 0 ? { lecontinue: `20240101000000|${first}` } : {}) };
  const key = Object.entries(request)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  const logevents = Array.from({ length: 50 }, (_, n) => first + 50 - n).map((id) => ({ logid: id, ns: 0, title: `Page ${id}`, pageid: id, logpage: id, params: {}, type: 'create', action: 'create', user: `User ${id % 7}`, timestamp: '2024-01-01T00:00:00Z', comment: `made ${id}` }));
  return { key, request, status: 200, headers: {}, body: { batchcomplete: true, continue: { lecontinue: `20240101000000|${first}`, continue: '-||' }, query: { logevents } }, recordedAt: '2024-02-01T00:00:00Z' };
}

/** An answer to `action=query&<query>`. */
function answer(query: string, body: Interaction['body']): Interaction {
  const request = Object.fromEntries(new URLSearchParams(`action=query&${query}`));
  return { key: `action=query&${query}`, request, status: 200, headers: {}, body: { batchcomplete: true, ...body }, recordedAt: '2024-02-01T00:00:00Z' };
}

async function record(store: FileCassetteStore, interactions: readonly Interaction[]): Promise<void> {
  const writer = new CassetteWriter(store, 'grow', 'http://wiki.test/wiki/api.php');
  await writer.ready();
  for (const interaction of interactions) writer.add(Promise.resolve({ interaction, debuginfo: undefined, readerView: true, site: {} }), () => interaction.key);
  await writer.flush();
  writer.close();
  await new Promise((resolve) => setImmediate(resolve));
}

/** Puts an answer into a document as a recorder does (its entities harvested), each change told to `changes`. */
function recordInto(c: Cassette, changes: CassetteChanges, i: Interaction): void {
  const at = c.interactions.findIndex((x) => x.key === i.key);
  if (at >= 0) c.interactions[at] = i;
  else c.interactions.push(i);
  changes.stored(i);
  harvest(c.entities, i.body, i.request, (kind, place) => changes.entity(kind, place));
}

/** The pages a prepared database keeps as proved complete by its walks of links (sql-prepare.ts LINK_WALKS), of a file. */
function walkedLinkPages(file: string): number[] {
  const db = new SqliteCassette(file, tableShapes(LIST_ENTITIES));
  try {
    return db.db.prepare('SELECT pageid FROM link_walk_pages ORDER BY pageid').pluck().all() as number[];
  } finally {
    db.close();
  }
}

/** What replay answers `query` from the cassettes of `dir`: where the answer came from, what it says is unknown, and its text (debuginfo left out). */
async function replayed(dir: string, query: string): Promise<string> {
  const res = await request(createApp({ cassettes: dir, onMiss: 'builtin' })).get(`/wiki/api.php?action=query&${query}&format=json&formatversion=2`);
  const { debuginfo: _d, ...body } = JSON.parse(res.text) as Record<string, unknown>;
  return `${res.status} ${String(res.headers['x-wikitape-source'])} unknown=${String(res.headers['x-wikitape-unknown'] ?? '')} ${JSON.stringify(body)}`;
}

type StoreOf = (entities: typeof LIST_ENTITIES) => FileCassetteStore;

/**
 * What `steps` leave in the cassette `grow` kept as JSON, and kept as a database converted back
 * (times of recording alike): `store` makes that format's store knowing the kinds given.
 */
async function bothWays(steps: (store: StoreOf, format: 'json' | 'sqlite') => Promise<void>): Promise<[string, string]> {
  const root = await mkdtemp(join(tmpdir(), 'wikitape-append-'));
  const texts: string[] = [];
  for (const format of ['json', 'sqlite'] as const) {
    const store: StoreOf = (entities) => new FileCassetteStore(join(root, format), { entities, format });
    await steps(store, format);
    texts.push(format === 'json' ? timesAlike(await readFile(store([]).fileOf('grow'), 'utf8')) : await convertedBack(store([]).databaseFile('grow')));
  }
  return [texts[0]!, texts[1]!];
}

/**
 * The characters of text bound to the statements each database write runs (what it hands SQLite):
 * a recorder appends to a database that is there (SqliteCassette.append).
 */
function countBound(): number[] {
  const per: number[] = [];
  const write = SqliteCassette.prototype.append;
  vi.spyOn(SqliteCassette.prototype, 'append').mockImplementation(function (this: SqliteCassette, ...args: Parameters<SqliteCassette['append']>) {
    const db = this.db;
    const prepare = db.prepare.bind(db);
    let chars = 0;
    db.prepare = (sql: string) => {
      const s = prepare(sql);
      const run = s.run.bind(s);
      s.run = (...params) => {
        for (const p of params) chars += typeof p === 'string' ? p.length : 8;
        return run(...params);
      };
      return s;
    };
    try {
      write.apply(this, args);
    } finally {
      db.prepare = prepare;
      per.push(chars);
    }
  });
  return per;
}

describe.skipIf(databasesUnavailable() !== null)('appending to a database cassette', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('hands SQLite as much for one recording into a cassette of 2 answers as into one of 120', { timeout: 60_000 }, async () => {
    const bound: number[] = [];
    for (const size of [2, 120]) {
      const store = new FileCassetteStore(await mkdtemp(join(tmpdir(), 'wikitape-append-')), { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, format: 'sqlite' });
      await record(store, Array.from({ length: size }, (_, n) => logPage(1_000_000 + n * 50)));
      const per = countBound();
      await record(store, [logPage(10)]);
      vi.restoreAllMocks();
      expect(per).toHaveLength(1);
      bound.push(per[0]!);
      // What was written is all there: the new answer's summary beside the others.
      const db = new SqliteCassette(store.databaseFile('grow'), tableShapes(LIST_ENTITIES));
      try {
        expect(db.walkSummaries().map((s) => s.key)).toContain(logPage(10).key);
        expect(db.walkSummaries()).toHaveLength(size + 1);
        expect(db.table('logevents').count).toBe((size + 1) * 50);
      } finally {
        db.close();
      }
    }
    // (the new answer and its 50 log events: some thousands of characters, the same for both)
    expect(bound[0]).toBeGreaterThan(1000);
    expect(bound[1]).toBe(bound[0]);
  });

  it('reads of a database that is there what a recording shows, never the cassette whole, and merges what it shows again', { timeout: 60_000 }, async () => {
    const store = new FileCassetteStore(await mkdtemp(join(tmpdir(), 'wikitape-append-')), { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, format: 'sqlite' });
    await record(store, Array.from({ length: 40 }, (_, n) => logPage(1_000_000 + n * 50)));
    const whole = (['read', 'all', 'entities'] as const).map((m) => vi.spyOn(SqliteCassette.prototype, m));
    // 50 log events held already, shown again with their tags (another question: another key).
    const seen = logPage(1_000_000 + 5 * 50);
    const request = { ...seen.request, leprop: 'ids|title|type|user|timestamp|comment|details|tags' };
    const rows = (seen.body['query'] as { logevents: object[] }).logevents.map((e) => ({ ...e, tags: ['mobile edit'] }));
    await record(store, [{ ...seen, key: `${seen.key}&leprop=${encodeURIComponent(request.leprop)}`, request, body: { ...seen.body, query: { logevents: rows } } }]);
    for (const spy of whole) expect(spy).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    const db = new SqliteCassette(store.databaseFile('grow'), tableShapes(LIST_ENTITIES));
    try {
      expect(db.count()).toBe(41);
      const events = db.all('logevents') as { logid: number; tags: string[]; known: string[] }[];
      expect(events).toHaveLength(40 * 50);
      const merged = events.find((e) => e.logid === 1_000_000 + 5 * 50 + 1)!;
      expect(merged.tags).toEqual(['mobile edit']);
      expect(merged.known).toContain('tags');
      expect(events.filter((e) => e.known.includes('tags'))).toHaveLength(50);
    } finally {
      db.close();
    }
  });

  it('keeps what it records of a kind that a store without its shape left as an empty list in the entities member', async () => {
    const texts = await bothWays(async (store) => {
      // A store that knows no list's kind writes the log events' list (empty) into the `entities` member.
      const bare = await store([]).open('grow', 'http://wiki.test/wiki/api.php');
      bare.data.entities.logevents = [];
      await bare.write();
      closeCassette(bare);
      await record(store(LIST_ENTITIES), [logPage(100)]);
    });
    expect((JSON.parse(texts[0]) as Cassette).entities.logevents).toHaveLength(50);
    expect(texts[1]).toBe(texts[0]);
  });

  it('leaves every recording in the .sqlite file itself once its recorder stopped: the file alone, copied elsewhere, holds them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-append-'));
    const store = new FileCassetteStore(dir, { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, format: 'sqlite' });
    await record(store, [logPage(100), logPage(150)]);
    // SQLite keeps a write in its write-ahead log beside the file until the last connection closes.
    expect(existsSync(`${store.databaseFile('grow')}-wal`)).toBe(false);
    await mkdir(join(dir, 'copy'));
    await copyFile(store.databaseFile('grow'), join(dir, 'copy', 'grow.sqlite'));
    const db = new SqliteCassette(join(dir, 'copy', 'grow.sqlite'), tableShapes(LIST_ENTITIES));
    try {
      expect(db.walkSummaries()).toHaveLength(2);
      expect(db.table('logevents').count).toBe(100);
    } finally {
      db.close();
    }
    // And once `cassettes prune` took one out.
    expect((await pruneCassettes(dir, new Set([logPage(100).key]), MODULES.query.list, false, KNOWLEDGE_ENTITIES))[0]).toMatchObject({ removed: 1, kept: 1 });
    expect(existsSync(`${store.databaseFile('grow')}-wal`)).toBe(false);
    await copyFile(store.databaseFile('grow'), join(dir, 'copy', 'grow.sqlite'));
    const pruned = new SqliteCassette(join(dir, 'copy', 'grow.sqlite'), tableShapes(LIST_ENTITIES));
    try {
      expect(pruned.walkSummaries().map((s) => s.key)).toEqual([logPage(100).key]);
    } finally {
      pruned.close();
    }
  });

  // Appended to a database made new (written empty first) or there; and held as a document, told
  // what changed, when the database made new could not be written empty (a full disk at start).
  it.each([
    { into: 'a new database', failing: ['append'], before: [] },
    { into: 'a database that is there', failing: ['append'], before: [logPage(1000)] },
    { into: 'a new database that could not be written empty', failing: ['write', 'write'], before: [] },
  ] as const)('stores what a failed write held at the next write, into $into', async ({ failing, before }) => {
    const store = new FileCassetteStore(await mkdtemp(join(tmpdir(), 'wikitape-append-')), { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, format: 'sqlite' });
    if (before.length > 0) await record(store, before);
    for (const method of failing) {
      vi.spyOn(SqliteCassette.prototype, method).mockImplementationOnce(() => {
        throw new Error('SQLITE_FULL: database or disk is full');
      });
    }
    const writer = new CassetteWriter(store, 'grow', 'http://wiki.test/wiki/api.php', { onError: () => undefined });
    await writer.ready();
    const page = logPage(10);
    writer.add(Promise.resolve({ interaction: page, debuginfo: undefined, readerView: true, site: {} }), () => page.key);
    await expect(writer.flush()).rejects.toThrow(/disk is full/);
    await writer.flush();
    writer.close();
    const db = new SqliteCassette(store.databaseFile('grow'), tableShapes(LIST_ENTITIES));
    try {
      expect(db.interaction(page.key)?.body).toEqual(page.body);
      expect(db.walkSummaries().map((s) => s.key).sort()).toEqual([page, ...before].map((p) => p.key).sort());
      expect(db.table('logevents').count).toBe(50 * (before.length + 1));
    } finally {
      db.close();
    }
  });

  it('takes the kinds a write kept out of their tables (as prune and diff --update once did) back in whole, and converts back to the file a JSON store writes', async () => {
    const texts = await bothWays(async (store, format) => {
      await record(store(LIST_ENTITIES), [logPage(100)]);
      // Written by a store that knows no list's kind: its log events go into the `entities` member, the table keeps the first 50.
      await record(store([]), [logPage(150)]);
      if (format === 'sqlite') expect(tabledKinds(store([]).databaseFile('grow'))).not.toContain('logevents');
      await record(store(LIST_ENTITIES), [logPage(200)]);
      if (format === 'sqlite') expect(tabledKinds(store([]).databaseFile('grow'))).toContain('logevents');
    });
    expect((JSON.parse(texts[0]) as Cassette).entities.logevents).toHaveLength(150);
    expect(texts[1]).toBe(texts[0]);
  });

  it('refuses a write whose writer did not tell its store of an interaction or entity it added, the database left as it was', async () => {
    const store = new FileCassetteStore(await mkdtemp(join(tmpdir(), 'wikitape-append-')), { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, format: 'sqlite' });
    await record(store, [logPage(100)]);
    const before = await convertedBack(store.databaseFile('grow'));
    const quiet = await store.open('grow', 'http://wiki.test/wiki/api.php');
    quiet.data.interactions.push(logPage(150));
    await expect(quiet.write()).rejects.toThrow(/grow\.sqlite was not written \(it is as it was\): its document holds 2 interactions, the database would hold 1: a change was not told/);
    const entity = await store.open('grow', 'http://wiki.test/wiki/api.php');
    entity.data.entities.logevents!.push({ ...entity.data.entities.logevents![0]!, logid: 1 });
    await expect(entity.write()).rejects.toThrow(/its document holds 51 entities\.logevents, the database would hold 50/);
    expect(await convertedBack(store.databaseFile('grow'))).toBe(before);
  });

  it('prepares the write after a refused one from the answers the database holds, not from those the refused one stored, and replays as the JSON file', async () => {
    const root = await mkdtemp(join(tmpdir(), 'wikitape-append-'));
    await mkdir(join(root, 'db'));
    const file = join(root, 'db', 'c.sqlite');
    // A walk of links over Alpha and Beta, one link an answer: its first answer, and the last (the link after the token).
    const walk = 'ellimit=1&prop=extlinks&titles=Alpha%7CBeta';
    const first = answer(walk, { continue: { elcontinue: '5', continue: '||' }, query: { pages: [{ pageid: 1, ns: 0, title: 'Alpha', extlinks: [{ url: 'https://a.example/1' }] }, { pageid: 2, ns: 0, title: 'Beta' }] } });
    const last = answer(`elcontinue=5&${walk}`, { query: { pages: [{ pageid: 1, ns: 0, title: 'Alpha', extlinks: [{ url: 'https://a.example/2' }] }, { pageid: 2, ns: 0, title: 'Beta' }] } });
    const gamma = answer('ellimit=max&prop=extlinks&titles=Gamma', { query: { pages: [{ pageid: 3, ns: 0, title: 'Gamma', extlinks: [{ url: 'https://g.example/1' }] }] } });
    const db = new SqliteCassette(file, tableShapes(LIST_ENTITIES), true, KNOWLEDGE_ENTITIES);
    const doc = emptyCassette('http://wiki.test/wiki/api.php', new Date('2024-02-01T00:00:00Z'), LIST_ENTITIES.map((e) => e.kind));
    const changes = new CassetteChanges();
    try {
      // Prepared by its first write; the second, an extlinks answer, by a step, which reads the extlinks answers the database holds (kept from then on).
      for (const i of [first, gamma]) {
        recordInto(doc, changes, i);
        db.write(doc, changes.take());
      }
      expect(db.prepared()).toBe(true);
      // The walk's last answer, refused (its writer did not tell of an answer it added): the database is as it was.
      const refused = structuredClone(doc);
      const told = new CassetteChanges();
      recordInto(refused, told, last);
      refused.interactions.push(logPage(100));
      expect(() => db.write(refused, told.take())).toThrow(/was not written \(it is as it was\)/);
      // The next write (the walk's first answer recorded again) tells what it changes in the database as it is (the store's
      // writers tell a refused write's changes again, stored anew by the next write: not so here).
      recordInto(doc, changes, { ...first, recordedAt: '2024-03-01T00:00:00Z' });
      db.write(doc, changes.take());
      expect(db.prepared()).toBe(true);
    } finally {
      db.close();
    }
    // Replay (as a user runs it: without the test suite's check that the walks' summaries teach what the answers teach)
    // says Alpha's links are not known whole, as from the JSON file: never Alpha's one link recorded as all it has.
    vi.stubEnv('WIKITAPE_CHECK_SUMMARIES', '');
    onTestFinished(() => void vi.unstubAllEnvs());
    await mkdir(join(root, 'json'));
    await convertCassette(file, join(root, 'json', 'c.json'), LIST_ENTITIES);
    for (const q of ['prop=extlinks&titles=Alpha&ellimit=max', 'prop=extlinks&titles=Beta&ellimit=max']) {
      const json = await replayed(join(root, 'json'), q);
      expect(json).toMatch(/^200 builtin unknown=extlinks\.entries /);
      expect(await replayed(join(root, 'db'), q)).toBe(json);
    }
    // The walk is not complete in what the database holds (its last answer was refused): preparing it whole proves no page of it.
    await mkdir(join(root, 'whole'));
    await copyFile(file, join(root, 'whole', 'c.sqlite'));
    expect(prepareDatabaseFile(join(root, 'whole', 'c.sqlite'), LIST_ENTITIES, KNOWLEDGE_ENTITIES)).toBe(true);
    expect(walkedLinkPages(join(root, 'whole', 'c.sqlite'))).toEqual([3]);
    expect(walkedLinkPages(file)).toEqual(walkedLinkPages(join(root, 'whole', 'c.sqlite')));
  });

  it('stores the entities member of the document it is given after a write that rolled back, not the one that write made', async () => {
    const root = await mkdtemp(join(tmpdir(), 'wikitape-append-'));
    await mkdir(join(root, 'db'));
    const file = join(root, 'db', 'c.sqlite');
    const db = new SqliteCassette(file, tableShapes(LIST_ENTITIES), true);
    const doc = emptyCassette('http://wiki.test/wiki/api.php', new Date('2024-02-01T00:00:00Z'), LIST_ENTITIES.map((e) => e.kind));
    const changes = new CassetteChanges();
    try {
      recordInto(doc, changes, answer('prop=info&titles=Alpha', { query: { pages: [{ pageid: 1, ns: 0, title: 'Alpha' }] } }));
      db.write(doc, changes.take());
      // A write that shows a missing title (kept in the `entities` member), failing as it stores the members (a disk I/O error, say).
      const refused = structuredClone(doc);
      const told = new CassetteChanges();
      recordInto(refused, told, answer('prop=info&titles=Nowhere', { query: { pages: [{ ns: 0, title: 'Nowhere', missing: true }] } }));
      vi.spyOn(StoredMembers.prototype, 'write').mockImplementationOnce(() => {
        throw new Error('disk I/O error');
      });
      expect(() => db.write(refused, told.take())).toThrow(/disk I\/O error/);
      // The next write (not the failed one again, as the store's writers do) changes a kind kept in a table alone, and its writer tells
      // so: the member is the document's, which shows no missing title (soft: what replay answers is checked too).
      recordInto(doc, changes, answer('prop=info&titles=Beta', { query: { pages: [{ pageid: 2, ns: 0, title: 'Beta' }] } }));
      db.write(doc, changes.take());
      expect.soft(db.read().entities).toEqual(doc.entities);
    } finally {
      db.close();
    }
    // Replay (without the test suite's check, as a user runs it) does not know whether the title is missing, as from the document as a JSON file.
    vi.stubEnv('WIKITAPE_CHECK_SUMMARIES', '');
    onTestFinished(() => void vi.unstubAllEnvs());
    await mkdir(join(root, 'json'));
    await writeFile(join(root, 'json', 'c.json'), `${JSON.stringify(doc, null, 2)}\n`);
    const json = await replayed(join(root, 'json'), 'prop=extlinks&titles=Nowhere');
    expect(json).toMatch(/^200 builtin unknown=pages\.existence /);
    expect(await replayed(join(root, 'db'), 'prop=extlinks&titles=Nowhere')).toBe(json);
  });

  it('converts back to the file a JSON store writes of the same recordings, summaries and all', { timeout: 60_000 }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'wikitape-append-'));
    const pages = Array.from({ length: 6 }, (_, n) => logPage(100 + n * 50));
    const texts: string[] = [];
    for (const format of ['json', 'sqlite'] as const) {
      const store = new FileCassetteStore(join(root, format), { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, format });
      // In three sessions, one answer again (re-recorded) between them.
      await record(store, pages.slice(0, 2));
      await record(store, [...pages.slice(2, 4), logPage(100)]);
      await record(store, pages.slice(4));
      // A page seen, then found to be a redirect by a later answer (its page changed after it was stored).
      await record(store, [answer('titles=Old', { query: { pages: [{ pageid: 5, ns: 0, title: 'Old' }] } })]);
      await record(store, [answer('titles=Old&x=1', { query: { redirects: [{ from: 'Old', to: 'New' }] } })]);
      if (format === 'sqlite') await convertCassette(store.databaseFile('grow'), join(root, 'back.json'), LIST_ENTITIES);
      const text = await readFile(format === 'json' ? store.fileOf('grow') : join(root, 'back.json'), 'utf8');
      // (each file's own time of writing apart)
      texts.push(text.replace((JSON.parse(text) as Cassette).meta.recordedAt!, 'T'));
    }
    expect(texts[1]).toBe(texts[0]);
    const c = JSON.parse(texts[0]!) as Cassette;
    expect(c.summaries).toEqual(JSON.parse(JSON.stringify(summariesOf(c.interactions))));
    expect(c.summaries).toHaveLength(6);
    expect(c.entities.pages).toEqual([expect.objectContaining({ pageid: 5, title: 'Old', redirect: true })]);
  });
});
