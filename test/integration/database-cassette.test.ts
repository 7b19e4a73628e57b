import { copyFile, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { convertCassette } from '../../src/cassette/convert.js';
import { CassetteError, FileCassetteStore } from '../../src/cassette/store.js';
import { KEY_RULES, KNOWLEDGE_ENTITIES, LIST_ENTITIES, MODULES } from '../../src/modules/index.js';
import { SqliteCassette } from '../../src/cassette/store-sqlite.js';
import { prepareDatabaseFile } from '../../src/replay/prepare-database.js';
import { databasesUnavailable, type SqliteDriver } from '../../src/cassette/sqlite-driver.js';
import { cliTest, runCli } from '../support/cli.js';
import { SqlEntityTable, tableShapes } from '../../src/cassette/sql-table.js';
import { listCassettes, listKeys, pruneCassettes, verifyCassettes } from '../../src/cassette/commands.js';
import { startServer } from '../../src/server.js';
import { ReplayEngine } from '../../src/engine.js';
import type { RequestLogEntry } from '../../src/options.js';
import { CassetteWriter } from '../../src/record/cassette-writer.js';
import { snapshot } from '../../src/record/snapshot.js';
import { isUserKey, type Interaction } from '../../src/cassette/format.js';
import { convertedBack, tabledKinds, timesAlike } from '../support/database-back.js';

/**
 * Database cassettes (docs/decisions/0018-database-cassettes.md): the bundled wiki's recording
 * converted to `.sqlite` and back is the same file, byte for byte, and replay from either answers
 * every question of a set alike (exact hits, synthesized pages at other limits and continuation
 * points, filtered lists, extlinks, blocks, allpages, misses), also for a cassette of entities only,
 * which replay reads through the database's SQL indexes.
 */

const BUNDLED = join(process.cwd(), 'cassettes', 'bundled-wiki.json');

/** The question set both models are asked. */
const QUESTIONS = [
  'action=query&list=logevents&lelimit=10',
  'action=query&list=logevents&lelimit=3',
  'action=query&list=logevents&lelimit=7&ledir=newer',
  'action=query&list=logevents&lelimit=5&letype=delete',
  'action=query&list=logevents&lelimit=5&leaction=move/move',
  'action=query&list=logevents&leuser=Admin&lelimit=4',
  'action=query&list=logevents&letype=protect&leuser=Admin&lelimit=2',
  'action=query&list=logevents&letitle=Eta',
  'action=query&list=logevents&lenamespace=0&lelimit=6',
  'action=query&list=logevents&leprefix=Z&lelimit=6',
  'action=query&list=logevents&lestart=2024-06-01T00:00:00Z&lelimit=5',
  'action=query&list=logevents&leaction=nonsense',
  'action=query&list=logevents&letitle=%3Cbad%3E',
  'action=query&list=blocks&bklimit=5',
  'action=query&list=blocks&bklimit=3&bkdir=newer',
  'action=query&list=blocks&bkusers=198.51.100.0/24',
  'action=query&list=blocks&bkids=1|2|3',
  'action=query&list=blocks&bkip=198.51.100.7',
  'action=query&list=protectedtitles&ptlimit=4',
  'action=query&list=protectedtitles&ptlimit=4&ptdir=newer&ptnamespace=0',
  'action=query&list=allpages&aplimit=5',
  'action=query&list=allpages&aplimit=3&apdir=descending',
  'action=query&list=allpages&apprefix=B&aplimit=5',
  'action=query&list=allpages&apfrom=C&aplimit=4',
  // Answers that need what the entities imply (replay/knowledge.ts): users' ids learned from other
  // answers, blocks' ranges from their targets, the props each entity was recorded with.
  'action=query&list=logevents&leprop=user|userid|title|type&lelimit=25',
  'action=query&list=logevents&leprop=user|userid|ids&leuser=Admin&lelimit=5',
  'action=query&list=logevents&leprop=ids|title|details|tags|comment|timestamp&lelimit=12&ledir=newer',
  'action=query&list=blocks&bkprop=id|user|userid|by|byid|range|flags&bklimit=10',
  'action=query&list=blocks&bkprop=id|restrictions|expiry&bklimit=10',
  'action=query&list=protectedtitles&ptprop=user|userid|level|comment&ptlimit=10',
  'action=query&prop=extlinks&titles=Alpha 2|Beta 3|Delta 5&ellimit=max',
  'action=query&prop=extlinks&titles=Alpha 2&ellimit=2',
  // The same page lookups again, after reads that stopped at their first row (the statements are reused).
  'action=query&prop=extlinks&titles=Delta|Alpha|Beta|Alpha|Nowhere at all&ellimit=4',
  'action=query&prop=extlinks&titles=Alpha|Beta|Gamma&ellimit=4',
  'action=query&prop=info&titles=Alpha 2|Nowhere at all',
  'action=query&meta=siteinfo',
  'action=query&list=nosuchlist',
];

/** An answer as text, its debuginfo left out (it names the test's random port and session). */
function withoutDebuginfo(text: string): string {
  try {
    const { debuginfo: _d, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return text;
  }
}

/** Asks every question (and the next page of each that continues) and gives the answers as text. */
async function answers(dir: string, questions: readonly string[] = QUESTIONS): Promise<string[]> {
  const app = createApp({ cassettes: dir, onMiss: 'builtin' });
  const out: string[] = [];
  for (const q of questions) {
    const res = await request(app).get(`/wiki/api.php?${q}&format=json&formatversion=2`);
    out.push(`${q}\n${res.status} ${res.headers['x-wikitape-unknown'] ?? ''}\n${withoutDebuginfo(res.text)}`);
    const cont = (JSON.parse(res.text || '{}') as { continue?: Record<string, string> }).continue;
    if (cont) {
      const next = new URLSearchParams(cont).toString();
      const again = await request(app).get(`/wiki/api.php?${q}&${next}&format=json&formatversion=2`);
      out.push(`${q}&${next}\n${again.status} ${again.headers['x-wikitape-unknown'] ?? ''}\n${withoutDebuginfo(again.text)}`);
    }
  }
  return out;
}

/** Runs `use` on a database cassette file, opened for it alone. */
function withDatabase(file: string, use: (db: SqliteCassette) => void): void {
  const db = new SqliteCassette(file, tableShapes(LIST_ENTITIES));
  try {
    use(db);
  } finally {
    db.close();
  }
}

/** `answers`, checking that replay read no stored kind whole (a prepared database's knowledge reads through its tables). */
async function answersReadingNoKindWhole(dir: string, questions: readonly string[] = QUESTIONS): Promise<string[]> {
  const whole = vi.spyOn(SqliteCassette.prototype, 'entities');
  try {
    const out = await answers(dir, questions);
    expect(whole).not.toHaveBeenCalled();
    return out;
  } finally {
    whole.mockRestore();
  }
}

const CHOICE = 'WIKITAPE_SQLITE_DRIVER';

/** Records `interactions` into a store's cassette `name` as a recorder does, each written before the next (one write, one preparing step). */
async function record(store: FileCassetteStore, name: string, interactions: readonly Interaction[]): Promise<void> {
  const writer = new CassetteWriter(store, name, 'http://wiki.test/wiki/api.php', { reRecord: true });
  await writer.ready();
  for (const interaction of interactions) {
    writer.add(Promise.resolve({ interaction, debuginfo: undefined, readerView: !isUserKey(interaction.key), site: {} }), () => interaction.key);
    await writer.flush();
  }
  writer.close();
  // (the lock goes once the writer's release has run)
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * The bundled recording in two sessions: answers that show no user id first, so that log events
 * wait for a name's id (their default props have `user` without `userid`) that only the second
 * one's blocks show (`by` with `byid`: the log walk that shows `userid` is left out), and the
 * extlinks walks split between the two (learning a link's id reads answers of both).
 */
async function twoSessions(): Promise<[Interaction[], Interaction[]]> {
  const { interactions } = JSON.parse(await readFile(BUNDLED, 'utf8')) as { interactions: Interaction[] };
  const kept = interactions.filter((i) => !(i.key.includes('userid') && i.key.includes('list=logevents')));
  const first = kept.filter((i, n) => !i.key.includes('userid') && (!i.key.includes('extlinks') || n % 2 === 0));
  return [first, kept.filter((i) => !first.includes(i))];
}

/** `wikitape snapshot` of the bundled wiki (served from `<root>/json`) into `<root>/<name>-json` and `<root>/<name>-sqlite`. */
async function snapshotBoth(root: string, name: string): Promise<void> {
  const wiki = await startServer({ cassettes: join(root, 'json'), onMiss: 'builtin', clock: '2024-03-10T00:00:00Z' });
  try {
    for (const format of ['json', 'sqlite'] as const) await snapshot({ upstream: wiki.url, cassettes: join(root, `${name}-${format}`), cassette: name, store: format });
  } finally {
    await wiki.close();
  }
}

/** Answers with the wiki's time in them made alike (siteinfo's `time` is the replay's clock). */
const timeless = (texts: string[]) => texts.map((t) => t.replace(/"time":"[^"]*"/g, '"time":"…"'));

/** `use` with databases opened through `driver` (src/cassette/sqlite-driver.ts), the choice restored after. */
async function withDriver<T>(driver: SqliteDriver, use: () => Promise<T> | T): Promise<T> {
  const before = process.env[CHOICE];
  process.env[CHOICE] = driver;
  try {
    return await use();
  } finally {
    if (before === undefined) delete process.env[CHOICE];
    else process.env[CHOICE] = before;
  }
}

/** Whether this line runs node:sqlite (not Node 20), and whether it runs both drivers (Node 22: node:sqlite without a flag). */
const NODE_24 = Number(process.versions.node.split('.')[0]) >= 24;
const NODE_SQLITE = (await withDriver('node:sqlite', databasesUnavailable)) === null;
const BOTH_DRIVERS = NODE_SQLITE && (await withDriver('better-sqlite3', databasesUnavailable)) === null;

describe('database cassettes (.sqlite)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'wikitape-sqlite-'));
    for (const d of ['json', 'db', 'back', 'ejson', 'edb', 'djson', 'ddb']) await mkdir(join(root, d));
    await copyFile(BUNDLED, join(root, 'json', 'bundled.json'));
    await convertCassette(join(root, 'json', 'bundled.json'), join(root, 'db', 'bundled.sqlite'), LIST_ENTITIES);
    expect(prepareDatabaseFile(join(root, 'db', 'bundled.sqlite'), LIST_ENTITIES, KNOWLEDGE_ENTITIES)).toBe(true);
    await mkdir(join(root, 'raw'));
    await convertCassette(join(root, 'json', 'bundled.json'), join(root, 'raw', 'bundled.sqlite'), LIST_ENTITIES);
    // Entities only: no recording, so no knowledge is worked out and every list is read through SQL.
    const c = JSON.parse(await readFile(BUNDLED, 'utf8')) as { interactions: unknown[] };
    c.interactions = [];
    await writeFile(join(root, 'ejson', 'bundled.json'), `${JSON.stringify(c, null, 2)}\n`);
    await convertCassette(join(root, 'ejson', 'bundled.json'), join(root, 'edb', 'bundled.sqlite'), LIST_ENTITIES);
    expect(prepareDatabaseFile(join(root, 'edb', 'bundled.sqlite'), LIST_ENTITIES, KNOWLEDGE_ENTITIES)).toBe(true);
  });

  it('answers what the entities imply (ids learned elsewhere, ranges, inferred props) from a prepared database as from the JSON file', async () => {
    // The bundled recording with what knowledge derives taken out of its entities, so that replay must derive it again.
    const c = JSON.parse(await readFile(BUNDLED, 'utf8')) as { entities: Record<string, Record<string, unknown>[]> };
    const drop = (e: Record<string, unknown>, fields: string[]) => {
      for (const f of fields) delete e[f];
      if (Array.isArray(e['known'])) e['known'] = (e['known'] as string[]).filter((k) => !fields.includes(k) && !(k === 'range' && fields.includes('rangestart')));
    };
    c.entities['logevents']!.forEach((e, n) => (n % 3 === 0 ? delete e['known'] : n % 3 === 1 ? drop(e, ['userid']) : undefined));
    for (const b of c.entities['blocks']!) drop(b, ['byid', 'rangestart', 'rangeend']);
    for (const p of c.entities['protectedtitles']!) drop(p, ['userid']);
    await writeFile(join(root, 'djson', 'bundled.json'), `${JSON.stringify(c, null, 2)}\n`);
    await convertCassette(join(root, 'djson', 'bundled.json'), join(root, 'ddb', 'bundled.sqlite'), LIST_ENTITIES);
    expect(prepareDatabaseFile(join(root, 'ddb', 'bundled.sqlite'), LIST_ENTITIES, KNOWLEDGE_ENTITIES)).toBe(true);
    withDatabase(join(root, 'ddb', 'bundled.sqlite'), (db) => {
      // Preparing changed entities of each kind (else this would compare nothing derived).
      for (const kind of ['logevents', 'blocks', 'protectedtitles']) {
        expect(db.db.prepare(`SELECT count(prepared) FROM e_${kind}`).pluck().get()).toBeGreaterThan(0);
        // The counts of props it keeps are the prepared entities' (as a scan of their index gives them).
        const counts = db.table(kind).knownCounts();
        expect(counts.withKnown).toBe(db.table(kind).count);
        expect(counts).toEqual(new SqlEntityTable(db.db, tableShapes(LIST_ENTITIES).find((s) => s.kind === kind)!).knownCounts());
      }
    });
    expect(await answersReadingNoKindWhole(join(root, 'ddb'))).toEqual(await answers(join(root, 'djson')));
  });

  it('converts JSON → SQLite → JSON byte for byte', async () => {
    await convertCassette(join(root, 'db', 'bundled.sqlite'), join(root, 'back', 'bundled.json'), LIST_ENTITIES);
    expect((await readFile(join(root, 'back', 'bundled.json'))).equals(await readFile(BUNDLED))).toBe(true);
  });

  it('is listed, verified and pruned as a JSON cassette is', async () => {
    const dir = join(root, 'cmd');
    await mkdir(dir);
    await convertCassette(BUNDLED, join(dir, 'bundled.sqlite'), LIST_ENTITIES);
    const [listed] = await listCassettes(dir);
    expect(listed).toMatchObject({ name: 'bundled', interactions: 167, version: '1.43.9' });
    expect(await verifyCassettes(dir, KEY_RULES, LIST_ENTITIES)).toEqual([]);
    const keep = new Set((await listKeys(dir, 'bundled')).slice(0, 100));
    const [pruned] = await pruneCassettes(dir, keep, MODULES.query.list);
    expect(pruned).toMatchObject({ removed: 67, kept: 100 });
    expect(await listKeys(dir, 'bundled')).toEqual([...keep].sort());
  });

  it('is pruned into what the JSON store writes when pruning the JSON file alike, its kinds kept in their tables and prepared, and replays alike', async () => {
    const dirs = { json: join(root, 'prune-json'), sqlite: join(root, 'prune-sqlite') };
    for (const dir of Object.values(dirs)) await mkdir(dir);
    await copyFile(BUNDLED, join(dirs.json, 'bundled.json'));
    await convertCassette(BUNDLED, join(dirs.sqlite, 'bundled.sqlite'), LIST_ENTITIES);
    expect(prepareDatabaseFile(join(dirs.sqlite, 'bundled.sqlite'), LIST_ENTITIES, KNOWLEDGE_ENTITIES)).toBe(true);
    const tabled = tabledKinds(join(dirs.sqlite, 'bundled.sqlite'));
    expect(tabled).toEqual([...LIST_ENTITIES.map((e) => e.kind), 'pages'].sort());
    // Every other answer, and the walks of one list (its pages stay while it synthesized answers).
    const keys = await listKeys(dirs.json, 'bundled');
    const usage = new Set([...keys.filter((_, n) => n % 2 === 0), 'list:blocks']);
    const [json] = await pruneCassettes(dirs.json, usage, MODULES.query.list, false, KNOWLEDGE_ENTITIES);
    // The database is pruned key by key, never read whole (a big one would not fit in memory).
    const whole = (['read', 'all', 'entities'] as const).map((m) => vi.spyOn(SqliteCassette.prototype, m));
    let sqlite: Awaited<ReturnType<typeof pruneCassettes>>[number] | undefined;
    try {
      [sqlite] = await pruneCassettes(dirs.sqlite, usage, MODULES.query.list, false, KNOWLEDGE_ENTITIES);
      for (const spy of whole) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of whole) spy.mockRestore();
    }
    expect(json!.removed).toBeGreaterThan(50);
    expect(sqlite).toEqual(json);
    expect(await convertedBack(join(dirs.sqlite, 'bundled.sqlite'))).toBe(timesAlike(await readFile(join(dirs.json, 'bundled.json'), 'utf8')));
    expect(tabledKinds(join(dirs.sqlite, 'bundled.sqlite'))).toEqual(tabled);
    // Prepared again (taking answers out is no step its writes follow), so replay reads no kind whole.
    withDatabase(join(dirs.sqlite, 'bundled.sqlite'), (db) => expect(db.prepared()).toBe(true));
    expect(await answersReadingNoKindWhole(dirs.sqlite)).toEqual(await answers(dirs.json));
  });

  it('replays the same answers from the database as from the JSON file', async () => {
    const [a, b] = [await answers(join(root, 'json')), await answers(join(root, 'db'))];
    expect(b).toEqual(a);
    expect(a.filter((x) => x.includes('\n200 \n{"batchcomplete"')).length).toBeGreaterThan(10);
  });

  it('reads no kind whole for its knowledge when convert prepared its entities, and answers as the JSON file does', async () => {
    expect(await answersReadingNoKindWhole(join(root, 'db'))).toEqual(await answers(join(root, 'json')));
    withDatabase(join(root, 'db', 'bundled.sqlite'), (db) => {
      expect(db.prepared()).toBe(true);
      // The summaries of its walks, made as convert read the answers.
      expect(db.walkSummaries().length).toBeGreaterThan(20);
    });
  });

  it('`wikitape cassettes convert` to .sqlite prepares the database', cliTest(1), async () => {
    const dir = join(root, 'cli');
    await mkdir(dir);
    const cli = await runCli(['cassettes', 'convert', BUNDLED, join(dir, 'bundled.sqlite')]);
    expect(cli.code).toBe(0);
    withDatabase(join(dir, 'bundled.sqlite'), (db) => {
      expect(db.prepared()).toBe(true);
    });
  });

  it('`wikitape cassettes convert` into a folder that is not there says so, either way, and makes nothing', cliTest(2), async () => {
    const missing = join(root, 'no-such-folder');
    for (const [from, to] of [[BUNDLED, join(missing, 'bundled.sqlite')], [join(root, 'db', 'bundled.sqlite'), join(missing, 'bundled.json')]] as const) {
      const cli = await runCli(['cassettes', 'convert', from, to]);
      expect(cli.code).not.toBe(0);
      expect(cli.stderr).toContain(`there is no folder ${missing}`);
      expect(cli.stderr).not.toMatch(/ENOENT|not a cassette/);
    }
    expect(existsSync(missing)).toBe(false);
  });

  it('answers a miss through the server once, with the same answer and near misses from the database as from the JSON file', async () => {
    const q = '/wiki/api.php?action=query&prop=info&titles=Alpha%7CNowhere%20at%20all&format=json&formatversion=2';
    const warm = '/wiki/api.php?action=query&list=logevents&lelimit=3&format=json&formatversion=2';
    /** The miss's answer, what the log said of it, and how often it was worked out, against a server that answers it as builtin. */
    const ask = async (dir: string) => {
      // Each computed answer asks for the knowledge once (engine.ts handle).
      const reads = vi.spyOn(ReplayEngine.prototype, 'knows');
      const count = async (onMiss: 'error' | 'builtin') => {
        const log: RequestLogEntry[] = [];
        const s = await startServer({ cassettes: dir, onMiss, onRequest: (e) => log.push(e) });
        try {
          await fetch(`${s.url}${warm.slice('/wiki/api.php'.length)}`);
          const before = reads.mock.calls.length;
          const text = await (await fetch(`${s.url}${q.slice('/wiki/api.php'.length)}`)).text();
          return { text: withoutDebuginfo(text), log: log.at(-1), reads: reads.mock.calls.length - before };
        } finally {
          await s.close();
        }
      };
      try {
        return { miss: await count('error'), builtin: await count('builtin') };
      } finally {
        reads.mockRestore();
      }
    };
    const [fromJson, fromDb] = [await ask(join(root, 'json')), await ask(join(root, 'db'))];
    expect(fromDb.miss.text).toBe(fromJson.miss.text);
    expect(fromDb.miss.text).toContain('"code":"wikitape-miss"');
    expect(fromDb.miss.log).toMatchObject({ source: 'miss', nearMisses: fromJson.miss.log!.nearMisses });
    expect(fromDb.miss.log!.nearMisses!.length).toBeGreaterThan(0);
    // The hot path tried the miss for a template and the app answered it: worked out once, as a computed answer is.
    for (const { miss, builtin } of [fromJson, fromDb]) {
      expect(builtin.reads).toBe(1);
      expect(miss.reads).toBe(builtin.reads);
    }
  });

  it('replays a database whose entities are not prepared (converted without the lists) as the JSON file too', async () => {
    expect(await answers(join(root, 'raw'))).toEqual(await answers(join(root, 'json')));
  });

  it('answers a cassette of entities alone from its SQL indexes as from memory', async () => {
    const [a, b] = [await answers(join(root, 'ejson')), await answers(join(root, 'edb'))];
    expect(b).toEqual(a);
    // The filtered lists found rows (the index ranges are not empty by mistake).
    expect(a.find((x) => x.startsWith('action=query&list=logevents&leuser=Admin&lelimit=4\n'))).toMatch(/"logid"/);
    expect(a.find((x) => x.startsWith('action=query&list=logevents&letitle=Eta\n'))).toMatch(/"title":"Eta"/);
  });

  it('reads one index range twice at once, and again after a read stopped early (its statements are reused)', () => {
    withDatabase(join(root, 'edb', 'bundled.sqlite'), (db) => {
      const table = db.table('logevents');
      const ids = (it: Iterable<object>) => [...it].map((e) => (e as { logid: number }).logid);
      const all = ids(table.range('order', {}, true));
      expect(all.length).toBeGreaterThan(5);
      // Two reads of the same query text interleaved, and one stopped after its first row.
      const a = table.range('order', {}, true)[Symbol.iterator]();
      const firstA = a.next().value as { logid: number };
      expect(ids(table.range('order', {}, true))).toEqual(all);
      a.return?.();
      expect(firstA.logid).toBe(all[0]);
      expect(ids(table.range('order', {}, true))).toEqual(all);
      expect(ids(table.range('order', {}, false))).toEqual([...all].reverse());
    });
  });

  it('appends a recording, and a second recorder of the database is refused', async () => {
    const dir = join(root, 'db');
    const store = new FileCassetteStore(dir, { entities: LIST_ENTITIES });
    const writer = new CassetteWriter(store, 'bundled', 'http://wiki.test/wiki/api.php', { onError: () => undefined });
    await writer.ready();
    const second = new CassetteWriter(store, 'bundled', 'http://wiki.test/wiki/api.php');
    await expect(second.ready()).rejects.toThrow(/being recorded by another recorder/);
    const interaction = { key: 'action=query&meta=wikitapetest', request: { action: 'query', meta: 'wikitapetest' }, status: 200, headers: {}, body: { batchcomplete: true }, recordedAt: '2026-01-01T00:00:00Z' };
    writer.add(Promise.resolve({ interaction, debuginfo: undefined, readerView: true, site: {} }), () => interaction.key);
    await writer.flush();
    writer.close();
    const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php?action=query&meta=wikitapetest&format=json&formatversion=2');
    expect(withoutDebuginfo(res.text)).toBe('{"batchcomplete":true}');
    // A recording written since: what was prepared is no longer trusted (replay works it out again).
    withDatabase(join(dir, 'bundled.sqlite'), (db) => {
      expect(db.prepared()).toBe(false);
    });
  });

  it('records into a new database cassette when told to (format sqlite), and replays it', async () => {
    const dir = join(root, 'fresh');
    const store = new FileCassetteStore(dir, { entities: LIST_ENTITIES, format: 'sqlite' });
    // Opened before the recorder (as snapshot does): the database made then is opened again, empty.
    expect((await store.open('fresh', 'http://wiki.test/w/api.php')).data.interactions).toEqual([]);
    const writer = new CassetteWriter(store, 'fresh', 'http://wiki.test/w/api.php');
    await writer.ready();
    const interaction = { key: 'action=query&meta=wikitapefresh', request: { action: 'query', meta: 'wikitapefresh' }, status: 200, headers: {}, body: { batchcomplete: true, fresh: 1 }, recordedAt: '2026-01-01T00:00:00Z' };
    writer.add(Promise.resolve({ interaction, debuginfo: undefined, readerView: true, site: {} }), () => interaction.key);
    await writer.flush();
    writer.close();
    expect(await new FileCassetteStore(dir).list()).toEqual(['fresh']);
    expect((await readFile(join(dir, 'fresh.sqlite'))).subarray(0, 15).toString()).toBe('SQLite format 3');
    const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php?action=query&meta=wikitapefresh&format=json&formatversion=2');
    expect(withoutDebuginfo(res.text)).toBe('{"batchcomplete":true,"fresh":1}');
  });

  it('names a .sqlite file that is no cassette database, without a crash', async () => {
    const dir = join(root, 'bad');
    await mkdir(dir);
    await writeFile(join(dir, 'broken.sqlite'), 'this is not a database at all, just text');
    const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php?action=query&list=logevents&format=json');
    expect(res.status).toBe(500);
    expect(res.text).toContain('broken.sqlite');
    expect(res.text).not.toMatch(/\n\s+at /);
    expect(() => new FileCassetteStore(dir).databaseOf('broken')).toThrow(CassetteError);
  });

  it('keeps a database a recorder writes prepared, write by write, and answers as the JSON file recorded alike', { timeout: 60_000 }, async () => {
    const [first, second] = await twoSessions();
    for (const format of ['json', 'sqlite'] as const) {
      const store = new FileCassetteStore(join(root, `rec-${format}`), { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, format });
      await record(store, 'rec', first);
      if (format === 'sqlite') withDatabase(join(root, 'rec-sqlite', 'rec.sqlite'), (db) => expect(db.prepared()).toBe(true));
      await record(store, 'rec', second);
    }
    withDatabase(join(root, 'rec-sqlite', 'rec.sqlite'), (db) => {
      expect(db.prepared()).toBe(true);
      // Preparing derived what the first session's entities lacked from the second's names (else this compares nothing derived).
      expect(db.db.prepare("SELECT count(*) FROM e_logevents WHERE prepared LIKE '%\"userid\"%' AND data NOT LIKE '%\"userid\"%'").pluck().get()).toBeGreaterThan(0);
      expect(db.db.prepare("SELECT count(*) FROM e_pages WHERE prepared LIKE '%\"id\":1%'").pluck().get()).toBeGreaterThan(0);
      for (const kind of ['logevents', 'blocks', 'pages']) expect(db.table(kind).knownCounts()).toEqual(new SqlEntityTable(db.db, tableShapes(LIST_ENTITIES).find((s) => s.kind === kind)!).knownCounts());
    });
    expect(timeless(await answersReadingNoKindWhole(join(root, 'rec-sqlite')))).toEqual(timeless(await answers(join(root, 'rec-json'))));
  });

  it('`wikitape snapshot --store sqlite` leaves a prepared database that converts back to the JSON snapshot and answers as it, also with recordings appended', { timeout: 120_000 }, async () => {
    await snapshotBoth(root, 'snap');
    withDatabase(join(root, 'snap-sqlite', 'snap.sqlite'), (db) => expect(db.prepared()).toBe(true));
    const sameFiles = async () => expect(await convertedBack(join(root, 'snap-sqlite', 'snap.sqlite'))).toBe(timesAlike(await readFile(join(root, 'snap-json', 'snap.json'), 'utf8')));
    await sameFiles();
    expect(timeless(await answersReadingNoKindWhole(join(root, 'snap-sqlite')))).toEqual(timeless(await answers(join(root, 'snap-json'))));
    // Recordings appended to each (entities seen again with other props, ids and links learned anew).
    const [first, second] = await twoSessions();
    for (const format of ['json', 'sqlite'] as const) await record(new FileCassetteStore(join(root, `snap-${format}`), { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES }), 'snap', [...first.slice(0, 40), ...second]);
    withDatabase(join(root, 'snap-sqlite', 'snap.sqlite'), (db) => expect(db.prepared()).toBe(true));
    await sameFiles();
    expect(timeless(await answersReadingNoKindWhole(join(root, 'snap-sqlite')))).toEqual(timeless(await answers(join(root, 'snap-json'))));
  });

  it('resumes a snapshot into a database asking the wiki nothing it holds, and reading none of it whole', { timeout: 120_000 }, async () => {
    const wiki = await startServer({ cassettes: join(root, 'json'), onMiss: 'builtin', clock: '2024-03-10T00:00:00Z' });
    try {
      const dir = join(root, 'resume-sqlite');
      const first = await snapshot({ upstream: wiki.url, cassettes: dir, cassette: 'resume', store: 'sqlite' });
      expect(first.requests - first.reused).toBeGreaterThan(10);
      const before = await convertedBack(join(dir, 'resume.sqlite'));
      const whole = vi.spyOn(SqliteCassette.prototype, 'read');
      const again = await snapshot({ upstream: wiki.url, cassettes: dir, cassette: 'resume' });
      expect(whole).not.toHaveBeenCalled();
      expect(again.reused).toBe(again.requests);
      expect(again.requests).toBe(first.requests);
      // (the recorded times apart: the second snapshot changed nothing else)
      expect(timesAlike(await convertedBack(join(dir, 'resume.sqlite')))).toBe(timesAlike(before));
    } finally {
      vi.restoreAllMocks();
      await wiki.close();
    }
  });

  it("replays a snapshot's database reading none of its link-id crawl's summaries, at start or for its computed answers, and answers as the JSON snapshot", { timeout: 120_000 }, async () => {
    await snapshotBoth(root, 'crawl');
    const file = join(root, 'crawl-sqlite', 'crawl.sqlite');
    const stored = (db: SqliteCassette) => db.db.prepare('SELECT pageid, walk FROM link_walk_pages ORDER BY pageid, walk').all();
    let kept: unknown[] = [];
    withDatabase(file, (db) => {
      expect(db.prepared()).toBe(true);
      // Snapshot-shaped: the link-id crawl (record/snapshot-link-ids.ts) is most of its answers, one per link, continued by `elcontinue`.
      expect(db.db.prepare("SELECT count(*) FROM interactions WHERE key LIKE '%elcontinue=%' AND key LIKE '%prop=extlinks%'").pluck().get()).toBeGreaterThan(20);
      kept = stored(db);
      expect(kept.length).toBeGreaterThan(5);
      db.db.exec(`VACUUM INTO '${join(root, 'crawl-whole.sqlite')}'`);
    });
    // What its writes' steps kept of its walks of links is what preparing it whole keeps.
    await mkdir(join(root, 'crawl-whole'));
    await copyFile(join(root, 'crawl-whole.sqlite'), join(root, 'crawl-whole', 'crawl.sqlite'));
    expect(prepareDatabaseFile(join(root, 'crawl-whole', 'crawl.sqlite'), LIST_ENTITIES, KNOWLEDGE_ENTITIES)).toBe(true);
    withDatabase(join(root, 'crawl-whole', 'crawl.sqlite'), (db) => expect(stored(db)).toEqual(kept));
    const crawl = [...QUESTIONS, 'action=query&prop=extlinks&titles=Alpha|Beta|Gamma|Delta|Epsilon|Zeta|Eta&ellimit=max', 'action=query&prop=extlinks&titles=Alpha&ellimit=1&elcontinue=2'];
    const json = timeless(await answers(join(root, 'crawl-json'), crawl));
    // (with the check that what it keeps teaches what the answers teach: WIKITAPE_CHECK_SUMMARIES, as the unit project sets it)
    expect(timeless(await answers(join(root, 'crawl-sqlite'), crawl))).toEqual(json);
    // Every summary replay reads of the database, by whether it is a crawl answer's.
    const read = { crawl: 0, other: 0 };
    const count = (summaries: Interaction[]) => {
      for (const s of summaries) read[s.request['prop'] === 'extlinks' ? 'crawl' : 'other']++;
      return summaries;
    };
    const byKey = SqliteCassette.prototype.walkSummariesOf;
    const all = SqliteCassette.prototype.walkSummaries;
    const spies = [vi.spyOn(SqliteCassette.prototype, 'walkSummariesOf').mockImplementation(function (this: SqliteCassette, keys) { return count(byKey.call(this, keys)); }), vi.spyOn(SqliteCassette.prototype, 'walkSummaries').mockImplementation(function (this: SqliteCassette) { return count(all.call(this)); })];
    // Nor are its keys all read (they stay in it: each looked up by key, those knowledge and sessions need read through an index).
    const keys = vi.spyOn(SqliteCassette.prototype, 'keys');
    // (the test suite's check that summaries teach what answers teach reads every answer: the other tests here keep it)
    const check = process.env['WIKITAPE_CHECK_SUMMARIES'];
    delete process.env['WIKITAPE_CHECK_SUMMARIES'];
    try {
      const ready = await startServer({ cassettes: join(root, 'crawl-sqlite'), onMiss: 'builtin' });
      await ready.close();
      expect(read).toEqual({ crawl: 0, other: 0 });
      expect(timeless(await answersReadingNoKindWhole(join(root, 'crawl-sqlite'), crawl))).toEqual(json);
      // The list walks' summaries were read (knowledge was worked out), the crawl's none.
      expect(read.crawl).toBe(0);
      expect(read.other).toBeGreaterThan(0);
      expect(keys).not.toHaveBeenCalled();
    } finally {
      if (check !== undefined) process.env['WIKITAPE_CHECK_SUMMARIES'] = check;
      for (const spy of spies) spy.mockRestore();
      keys.mockRestore();
    }
  });

  it('answers from a folder of a database and a JSON cassette as from the two JSON files, the first cassette holding a key answering it', { timeout: 60_000 }, async () => {
    // Another recording of the log's questions: each answer marked, so which cassette answered shows.
    const c = JSON.parse(await readFile(BUNDLED, 'utf8')) as { interactions: Interaction[] };
    c.interactions = c.interactions.filter((i) => i.key.includes('list=logevents')).map((i) => ({ ...i, body: { ...i.body, warnings: { main: { warnings: 'the other recording' } } } }));
    const other = `${JSON.stringify(c, null, 2)}\n`;
    await mkdir(join(root, 'mix'));
    await writeFile(join(root, 'mix', 'other.json'), other);
    await convertCassette(join(root, 'mix', 'other.json'), join(root, 'mix', 'other.sqlite'), LIST_ENTITIES);
    await convertCassette(BUNDLED, join(root, 'mix', 'bundled.sqlite'), LIST_ENTITIES);
    const bundled = { json: BUNDLED, sqlite: join(root, 'mix', 'bundled.sqlite') };
    const others = { json: join(root, 'mix', 'other.json'), sqlite: join(root, 'mix', 'other.sqlite') };
    /** The answers from a folder of `a` then `b` (cassettes are read in their names' order), each a file copied. */
    const from = async (dir: string, a: string, b: string) => {
      await mkdir(join(root, dir));
      await copyFile(a, join(root, dir, `a${a.slice(a.lastIndexOf('.'))}`));
      await copyFile(b, join(root, dir, `b${b.slice(b.lastIndexOf('.'))}`));
      return answers(join(root, dir));
    };
    const bundledFirst = await from('mix-jj', bundled.json, others.json);
    expect(bundledFirst.join('\n')).not.toContain('the other recording');
    expect(await from('mix-dj', bundled.sqlite, others.json)).toEqual(bundledFirst);
    expect(await from('mix-jd', bundled.json, others.sqlite)).toEqual(bundledFirst);
    const otherFirst = await from('mix-jj2', others.json, bundled.json);
    expect(otherFirst.join('\n')).toContain('the other recording');
    expect(await from('mix-dj2', others.sqlite, bundled.json)).toEqual(otherFirst);
    expect(await from('mix-jd2', others.json, bundled.sqlite)).toEqual(otherFirst);
  });

  it('leaves a database unprepared when a recording shows a name with another id than it keeps, and answers as the JSON file', { timeout: 60_000 }, async () => {
    const [first, second] = await twoSessions();
    // A log event showing Admin with an id other than the blocks' `byid` (which one wins depends on the sightings' order).
    const renamed: Interaction = { key: 'action=query&format=json&formatversion=2&leprop=ids|user|userid&list=logevents&lestart=2001-01-01T00:00:00Z', request: { action: 'query', list: 'logevents', leprop: 'ids|user|userid', lestart: '2001-01-01T00:00:00Z', format: 'json', formatversion: '2' }, status: 200, headers: {}, body: { batchcomplete: true, query: { logevents: [{ logid: 900001, pageid: 0, logpage: 0, user: 'Admin', userid: 77 }] } }, recordedAt: '2026-01-01T00:00:00Z' };
    for (const format of ['json', 'sqlite'] as const) {
      const store = new FileCassetteStore(join(root, `mixed-${format}`), { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, format });
      await record(store, 'mixed', [...first, ...second]);
      if (format === 'sqlite') withDatabase(join(root, 'mixed-sqlite', 'mixed.sqlite'), (db) => expect(db.prepared()).toBe(true));
      await record(store, 'mixed', [renamed]);
    }
    withDatabase(join(root, 'mixed-sqlite', 'mixed.sqlite'), (db) => expect(db.prepared()).toBe(false));
    expect(timeless(await answers(join(root, 'mixed-sqlite')))).toEqual(timeless(await answers(join(root, 'mixed-json'))));
  });

  // A database written on one Node line is read on another: Node 22 runs both drivers, so both ways are checked in one process.
  describe.runIf(BOTH_DRIVERS)('written through one SQLite driver, read through the other', () => {
    it.each([
      ['better-sqlite3', 'node:sqlite'],
      ['node:sqlite', 'better-sqlite3'],
    ] as const)('a database %s wrote and prepared is replayed and converted back through %s as the JSON file', async (writer, reader) => {
      const dir = join(root, `by-${writer.replace(':', '-')}`);
      await mkdir(dir);
      await withDriver(writer, async () => {
        await convertCassette(BUNDLED, join(dir, 'bundled.sqlite'), LIST_ENTITIES);
        expect(prepareDatabaseFile(join(dir, 'bundled.sqlite'), LIST_ENTITIES, KNOWLEDGE_ENTITIES)).toBe(true);
      });
      const json = await answers(join(root, 'json'));
      expect(await withDriver(reader, () => answersReadingNoKindWhole(dir))).toEqual(json);
      await withDriver(reader, () => convertCassette(join(dir, 'bundled.sqlite'), join(dir, 'back.json'), LIST_ENTITIES));
      expect((await readFile(join(dir, 'back.json'))).equals(await readFile(BUNDLED))).toBe(true);
    });
  });
});

describe('the SQLite driver a database cassette is opened with', () => {
  it.runIf(NODE_24)('ran the database tests above on Node 24 without loading better-sqlite3 (it can abort a Node 24 process)', () => {
    expect(Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes(`${sep}better-sqlite3${sep}`))).toEqual([]);
  });

  it.runIf(NODE_24)('refuses better-sqlite3 on Node 24 before any database object is made', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-sqlite24-'));
    const file = join(dir, 'none.sqlite');
    await withDriver('better-sqlite3', () => {
      expect(() => new SqliteCassette(file, [], true)).toThrow(/cannot be made: WIKITAPE_SQLITE_DRIVER=better-sqlite3 is refused on Node\.js v24.*abort.*leave WIKITAPE_SQLITE_DRIVER unset/);
    });
    expect(existsSync(file)).toBe(false);
  });

  it.runIf(!NODE_SQLITE)('refuses node:sqlite where the line has none', async () => {
    await withDriver('node:sqlite', async () => {
      await expect(convertCassette(BUNDLED, join(tmpdir(), 'wikitape-never.sqlite'), LIST_ENTITIES)).rejects.toThrow(/cannot be made: WIKITAPE_SQLITE_DRIVER=node:sqlite needs a Node\.js whose node:sqlite has setReturnArrays and isTransaction/);
    });
  });

  it('refuses a driver it does not know, as a cassette error naming the file', async () => {
    await withDriver('sqlite3' as SqliteDriver, () => {
      expect(() => new SqliteCassette(join(tmpdir(), 'wikitape-never.sqlite'), [], true)).toThrow(CassetteError);
      expect(() => new SqliteCassette(join(tmpdir(), 'wikitape-never.sqlite'), [], true)).toThrow(/wikitape-never\.sqlite cannot be made: WIKITAPE_SQLITE_DRIVER=sqlite3 names no SQLite driver/);
    });
  });
});
