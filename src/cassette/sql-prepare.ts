import type { Database } from './sqlite-driver.js';
import { WatchedIds, addUserIds, prepareEntity } from '../api/entity-passes.js';
import type { ListEntity } from '../api/list-module.js';
import { createHash } from 'node:crypto';
import type { Page, PageIds } from '../wiki/model.js';
import type { Interaction } from './format.js';
import { learnLinkIdsOf, linkPageIds } from './link-ids.js';
import { linkWalkOf, linkWalkPages } from './coverage.js';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../util/ordered-json.js';
import { KNOWN_COUNTS, entityRow, indexColumns, tableName, type KindShape } from './sql-table.js';

/**
 * A database cassette's entities prepared when it is written (docs/decisions/0018-database-cassettes.md,
 * "Knowledge"): what they imply (api/entity-passes.ts: `known` inferred, users' ids, derived
 * fields), worked out once over the tables, a batch of rows at a time, never a kind whole. Each
 * entity that changes keeps its prepared text in the column `prepared` beside the text as
 * recorded (`data`, the cassette document's, unchanged: convert back gives the same file), and
 * its `known` and index columns as the prepared entity has them (replay's reads), and each kind's
 * counts of `known` lists are kept (`known_counts`: what SqlEntityTable.knownCounts answers).
 *
 * The database says it is prepared by its `user_version` (PREPARED). What a later write needs to
 * prepare only what it changed (sql-prepare-step.ts) is kept too: users' ids by name
 * (`prepared_ids`, with whether a name was shown with several) and which entities asked for the
 * id of a name no entity showed (`prepared_waiting`: they derive more once one does). A write that
 * cannot be followed so (a database prepared without them, a recording removed) clears the mark,
 * and replay then works the entities out in memory rather than read stale preparations.
 */
export const PREPARED = 1;

/** The tables a later write reads to prepare what it changed (see above). */
const STATE = [
  'CREATE TABLE IF NOT EXISTS prepared_ids (name TEXT PRIMARY KEY, id INTEGER NOT NULL, mixed INTEGER NOT NULL) WITHOUT ROWID',
  'CREATE TABLE IF NOT EXISTS prepared_waiting (kind TEXT NOT NULL, seq INTEGER NOT NULL, name TEXT NOT NULL, PRIMARY KEY (kind, seq, name)) WITHOUT ROWID',
  'CREATE INDEX IF NOT EXISTS prepared_waiting_name ON prepared_waiting (name)',
];

/** Whether a database keeps what a later write needs to prepare only what it changed. */
export function keepsPrepareState(db: Database): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('prepared_ids', 'prepared_waiting')").pluck().get() === 2;
}

/** Rows read and rewritten per transaction. */
const BATCH = 10_000;

/**
 * Prepares the tabled kinds of `db` for `entities` (the list modules' entities, in the lists'
 * order, as replay passes them to its knowledge), the pages with the links' ids its recorded
 * extlinks answers (`links`) teach included. Returns whether it did: a list kind the database
 * keeps outside a table (a hand-made member) leaves it unprepared.
 */
export function prepareTables(db: Database, shapes: ReadonlyMap<string, KindShape>, tabled: readonly string[], untabled: (kind: string) => boolean, entities: readonly ListEntity<object>[], links: readonly Interaction[]): boolean {
  if (entities.some((e) => untabled(e.kind))) return false;
  const kinds = new Set(tabled);
  const ids = new Map<string, number>();
  const mixed = new Set<string>();
  for (const entity of entities) {
    if (!entity.users || !kinds.has(entity.kind)) continue;
    for (const rows of batches(db, entity.kind, 'data')) for (const { data } of rows) addUserIds(entity, parseKeepingKeyOrder(data) as object, ids, mixed);
  }
  db.transaction(() => {
    for (const sql of STATE) db.exec(sql);
    db.prepare('DELETE FROM prepared_waiting').run();
    db.prepare('DELETE FROM prepared_ids').run();
    const put = db.prepare('INSERT INTO prepared_ids (name, id, mixed) VALUES (?, ?, ?)');
    for (const [name, id] of ids) put.run(name, id, mixed.has(name) ? 1 : 0);
    const lookup = (name: string) => ids.get(name);
    for (const kind of kinds) {
      const ofKind = entities.filter((e) => e.kind === kind);
      const shape = shapes.get(kind);
      if (!shape) continue;
      addPreparedColumn(db, kind);
      // (only rows that hold one: a fresh database's 10M rows rewritten for nothing cost minutes and gigabytes of WAL)
      db.prepare(`UPDATE ${tableName(kind)} SET prepared = NULL WHERE prepared IS NOT NULL`).run();
      if (ofKind.length > 0 && ofKind.some((e) => e.derive || Object.keys(e.propFields).length > 0)) prepareKind(db, shape, ofKind, lookup);
    }
    // The pages whose links' ids the recorded extlinks answers teach, prepared again with them.
    const pages = shapes.get('pages');
    if (pages && kinds.has('pages')) {
      const prepared = preparer(db, pages, entities.filter((e) => e.kind === 'pages'), lookup);
      for (const { seq, data, page } of learnedPages(db, links).values()) prepared(seq, page, data);
    }
    countKnown(db, [...kinds]);
    storeLinkWalks(db, links);
    db.exec(`CREATE INDEX IF NOT EXISTS interactions_knowledge ON interactions (key) WHERE ${KNOWLEDGE_KEYS}`);
    db.exec(`CREATE INDEX IF NOT EXISTS interactions_identities ON interactions (key) WHERE ${IDENTITY_KEYS}`);
    db.pragma(`user_version = ${PREPARED}`);
  })();
  return true;
}

/** Rewrites the rows of a kind whose entity preparing changes. */
function prepareKind(db: Database, shape: KindShape, ofKind: readonly ListEntity<object>[], lookup: (name: string) => number | undefined): void {
  const prepared = preparer(db, shape, ofKind, lookup);
  for (const rows of batches(db, shape.kind, 'data')) {
    for (const { seq, data } of rows) prepared(seq, parseKeepingKeyOrder(data) as object, data);
  }
}

/**
 * Prepares one entity of a kind (`e`, changed in place; `data`: its row's recorded text) and
 * stores it in its row (`seq`): its prepared text when that differs, its `known` and index columns
 * as prepared, and the names whose ids it asked for in vain. Returns its `known` column before and after.
 */
export function preparer(db: Database, shape: KindShape, ofKind: readonly ListEntity<object>[], lookup: (name: string) => number | undefined): (seq: number, e: object, data: string) => [string | null, string | null] {
  const cols = indexColumns(shape);
  const t = tableName(shape.kind);
  const was = db.prepare(`SELECT known FROM ${t} WHERE seq = ?`).pluck();
  const set = db.prepare(`UPDATE ${t} SET prepared = ?, id = ?, known = ?${cols.map((c) => `, x_${c.name} = ?`).join('')} WHERE seq = ?`);
  const unwait = db.prepare('DELETE FROM prepared_waiting WHERE kind = ? AND seq = ?');
  const wait = db.prepare('INSERT OR IGNORE INTO prepared_waiting (kind, seq, name) VALUES (?, ?, ?)');
  return (seq, e, data) => {
    const before = was.get(seq) as string | null;
    const ids = new WatchedIds(lookup);
    prepareEntity(ofKind, e, ids);
    const text = stringifyKeepingKeyOrder(e);
    const [, id, known, , ...index] = entityRow(shape, cols, seq, e);
    set.run(text === data ? null : text, id, known, ...index, seq);
    unwait.run(shape.kind, seq);
    for (const name of ids.missed) wait.run(shape.kind, seq, name);
    return [before, known as string | null];
  };
}

/** A page's row (its place and recorded text) and the page with the link ids learned. */
export interface LearnedPage {
  seq: number;
  data: string;
  page: Page;
}

/**
 * The pages learning link ids from `links` (recorded `prop=extlinks` answers) reads, as recorded,
 * with the ids learned (link-ids.ts), by page id, each with its row; none when no page is kept.
 */
export function learnedPages(db: Database, links: readonly Interaction[]): Map<number, LearnedPage> {
  const out = new Map<number, LearnedPage>();
  const t = tableName('pages');
  if (links.length === 0 || db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(t) !== 1) return out;
  const read = db.prepare(`SELECT seq, data FROM ${t} WHERE id = ? ORDER BY seq LIMIT 1`);
  for (const id of linkPageIds(links)) {
    const row = read.get(String(id)) as { seq: number; data: string } | undefined;
    if (row) out.set(id, { ...row, page: parseKeepingKeyOrder(row.data) as Page });
  }
  learnLinkIdsOf(new Map([...out].map(([id, { page }]) => [id, page])), () => links);
  return out;
}

/** Counts each kind's distinct `known` lists once (SqlEntityTable.knownCounts of a prepared database). */
function countKnown(db: Database, kinds: readonly string[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${KNOWN_COUNTS} (kind TEXT NOT NULL, known TEXT NOT NULL, n INTEGER NOT NULL)`);
  db.prepare(`DELETE FROM ${KNOWN_COUNTS}`).run();
  for (const kind of kinds) db.prepare(`INSERT INTO ${KNOWN_COUNTS} (kind, known, n) SELECT ?, known, count(*) FROM ${tableName(kind)} WHERE known IS NOT NULL GROUP BY known`).run(kind);
}

/** A kind's rows in their order, BATCH at a time (each batch read whole: a write may follow it). */
function* batches(db: Database, kind: string, column: string): Iterable<{ seq: number; data: string }[]> {
  const next = db.prepare(`SELECT seq, ${column} AS data FROM ${tableName(kind)} WHERE seq > ? ORDER BY seq LIMIT ${BATCH}`);
  let after = -1;
  for (;;) {
    const rows = next.all(after) as { seq: number; data: string }[];
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.seq;
  }
}

/** Adds the `prepared` column to a kind's table made before it had one. */
export function addPreparedColumn(db: Database, kind: string): void {
  const has = (db.prepare(`SELECT count(*) FROM pragma_table_info('${tableName(kind)}') WHERE name = 'prepared'`).pluck().get() as number) > 0;
  if (!has) db.exec(`ALTER TABLE ${tableName(kind)} ADD COLUMN prepared TEXT`);
}

/** The text replay reads of an entity: prepared, when the database is. */
export const readColumn = (prepared: boolean) => (prepared ? 'coalesce(prepared, data)' : 'data');

/**
 * What the recorded walks of links prove, kept when a database is prepared: the pages whose
 * every link a walk of `prop=extlinks` holds (coverage.ts linkWalkPages), each with the walk
 * (a hash of its question, linkWalkOf) that proves it. Knowledge asks it page by page
 * (`storedLinkPages`), so replay neither loads nor works through the walks' answers: a snapshot's
 * link-id crawl is one answer per page with links (record/snapshot-link-ids.ts), ~100k at 1M log
 * events. A write that adds or replaces answers of a walk stores that walk again (`stepLinkWalks`).
 */
const LINK_WALKS = [
  'CREATE TABLE IF NOT EXISTS link_walk_pages (pageid INTEGER NOT NULL, walk TEXT NOT NULL, PRIMARY KEY (pageid, walk)) WITHOUT ROWID',
  'CREATE INDEX IF NOT EXISTS link_walk_pages_walk ON link_walk_pages (walk)',
];

/** Whether a database keeps its walks of links (see LINK_WALKS): one prepared before it did has none. */
function keepsLinkWalks(db: Database): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'link_walk_pages'").pluck().get() === 1;
}

/** The walk of links of an answer (linkWalkOf), worked out once per answer object (a step reads every one the document holds). */
const walkNames = new WeakMap<Interaction, string | null>();
export function walkNameOf(i: Interaction): string | null {
  let name = walkNames.get(i);
  if (name === undefined) walkNames.set(i, (name = linkWalkOf(i)));
  return name;
}

/** A walk's name as the table keeps it (its questions name 50 titles: kept short). */
const walkId = (name: string) => createHash('sha1').update(name).digest('base64url').slice(0, 16);

/**
 * Stores the pages the walks of links in `links` (every recorded `prop=extlinks` answer the
 * database holds) prove complete: of the walks named in `only`, each stored again; else of all,
 * the table made anew.
 */
function storeLinkWalks(db: Database, links: readonly Interaction[], only?: ReadonlySet<string>): void {
  if (!only) {
    for (const sql of LINK_WALKS) db.exec(sql);
    db.prepare('DELETE FROM link_walk_pages').run();
  }
  const byWalk = new Map<string, Interaction[]>();
  for (const i of links) {
    const name = walkNameOf(i);
    if (name === null || (only && !only.has(name))) continue;
    const answers = byWalk.get(name);
    if (answers) answers.push(i);
    else byWalk.set(name, [i]);
  }
  const drop = db.prepare('DELETE FROM link_walk_pages WHERE walk = ?');
  const put = db.prepare('INSERT OR IGNORE INTO link_walk_pages (pageid, walk) VALUES (?, ?)');
  for (const name of only ?? byWalk.keys()) {
    const id = walkId(name);
    if (only) drop.run(id);
    for (const pageid of linkWalkPages(byWalk.get(name) ?? [])) put.run(pageid, id);
  }
}

/**
 * A write's part (sql-prepare-step.ts): the walks of links its stored answers (`written`) are
 * pages of, stored again from the answers of each walk the document holds (`answersOf`: looked up
 * by walk, so a write reads no other answer), when the database keeps its walks (one prepared
 * before it did is read as before: replay works them out from the answers).
 */
export function stepLinkWalks(db: Database, answersOf: (walk: string) => Iterable<Interaction>, written: readonly Interaction[]): void {
  const only = new Set<string>();
  for (const i of written) {
    const name = walkNameOf(i);
    if (name !== null) only.add(name);
  }
  if (only.size > 0 && keepsLinkWalks(db)) storeLinkWalks(db, [...only].flatMap((name) => [...answersOf(name)]), only);
}

/**
 * The pages a prepared database's walks of links prove complete (see LINK_WALKS), asked page by
 * page (Knowledge.completeLinks; what fixtures add is kept beside them); null when the database
 * is not prepared or keeps no walks.
 */
export function storedLinkPages(db: Database): PageIds | null {
  if (db.pragma('user_version', { simple: true }) !== PREPARED || !keepsLinkWalks(db)) return null;
  const one = db.prepare('SELECT 1 FROM link_walk_pages WHERE pageid = ? LIMIT 1').pluck();
  const added = new Set<number>();
  return {
    has: (pageid) => added.has(pageid) || one.get(pageid) !== undefined,
    add: (pageid) => added.add(pageid),
    *[Symbol.iterator]() {
      const stored = new Set(db.prepare('SELECT DISTINCT pageid FROM link_walk_pages').pluck().all() as number[]);
      for (const id of added) stored.add(id);
      yield* stored;
    },
  };
}

/**
 * The keys of the answers knowledge reads of a prepared database that keeps its walks of links
 * (replay/replay-model.ts knowledgeOf): lists, meta, and props other than `prop=extlinks` alone
 * (whose walks `link_walk_pages` answers for), at least: the caller picks among them. Keys are
 * canonical (request/canonical.ts): parameters joined by `&`, values encoded (a multi-value's `|`
 * too), an identity after ` @`. Preparing makes a partial index of them, kept by SQLite as
 * recordings are added, so that reading them reads no other key (a snapshot's link-id crawl).
 */
const KNOWLEDGE_KEYS = "(('&' || key) GLOB '*&list=*' OR ('&' || key) GLOB '*&meta=*' OR (('&' || key) GLOB '*&prop=*' AND NOT (('&' || key || '&') GLOB '*&prop=extlinks&*' OR ('&' || key) GLOB '*&prop=extlinks @*')))";

/** The keys of the answers knowledge reads of a prepared database (see KNOWLEDGE_KEYS), in key order. */
export function knowledgeKeys(db: Database): IterableIterator<string> {
  return keysWhere(db, KNOWLEDGE_KEYS);
}

/**
 * The keys replay reads to know the recorded identities (replay/sessions.ts recordedIdentities):
 * logged-in ones (` @` and the name) and meta answers (userinfo), at least; through a partial index
 * in a prepared database, as KNOWLEDGE_KEYS.
 */
const IDENTITY_KEYS = "(instr(key, ' @') > 0 OR ('&' || key) GLOB '*&meta=*')";

/** The keys of a database replay reads to know its identities (see IDENTITY_KEYS), in key order. */
export function identityKeys(db: Database): IterableIterator<string> {
  return keysWhere(db, IDENTITY_KEYS);
}

function* keysWhere(db: Database, where: string): IterableIterator<string> {
  for (const key of db.prepare(`SELECT key FROM interactions WHERE ${where} ORDER BY key`).pluck().iterate()) yield key as string;
}
