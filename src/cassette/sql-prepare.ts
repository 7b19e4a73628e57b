import type { Database } from './sqlite-driver.js';
import { addUserIds, prepareEntity } from '../api/entity-passes.js';
import type { ListEntity } from '../api/list-module.js';
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
 * The database says it is prepared by its `user_version` (PREPARED); every write of the document
 * clears it (store-sqlite.ts), so a recording added later makes replay work the entities out in
 * memory again rather than read stale preparations.
 */
export const PREPARED = 1;

/** Rows read and rewritten per transaction. */
const BATCH = 10_000;

/**
 * Prepares the tabled kinds of `db` for `entities` (the list modules' entities, in the lists'
 * order, as replay passes them to its knowledge), and stores the entities of `also` (by kind) as
 * prepared, in place of those of their ids. Returns whether it did: a list kind the database keeps
 * outside a table (a hand-made member) leaves it unprepared.
 */
export function prepareTables(db: Database, shapes: ReadonlyMap<string, KindShape>, tabled: readonly string[], untabled: (kind: string) => boolean, entities: readonly ListEntity<object>[], also: ReadonlyMap<string, readonly object[]>): boolean {
  if (entities.some((e) => untabled(e.kind))) return false;
  const kinds = new Set(tabled);
  const ids = new Map<string, number>();
  for (const entity of entities) {
    if (!entity.users || !kinds.has(entity.kind)) continue;
    for (const rows of batches(db, entity.kind, 'data')) for (const { data } of rows) addUserIds(entity, parseKeepingKeyOrder(data) as object, ids);
  }
  db.transaction(() => {
    for (const kind of kinds) {
      const ofKind = entities.filter((e) => e.kind === kind);
      const shape = shapes.get(kind);
      if (!shape) continue;
      addPreparedColumn(db, kind);
      db.prepare(`UPDATE ${tableName(kind)} SET prepared = NULL`).run();
      if (ofKind.length > 0 && ofKind.some((e) => e.derive || Object.keys(e.propFields).length > 0)) prepareKind(db, shape, ofKind, ids);
      // What else its writer worked out of some (pages' links' ids learned from the recordings), by id.
      for (const e of also.get(kind) ?? []) prepareOne(db, shape, ofKind, ids, e);
    }
    countKnown(db, [...kinds]);
    db.pragma(`user_version = ${PREPARED}`);
  })();
  return true;
}

/** Rewrites the rows of a kind whose entity preparing changes. */
function prepareKind(db: Database, shape: KindShape, ofKind: readonly ListEntity<object>[], ids: ReadonlyMap<string, number>): void {
  const cols = indexColumns(shape);
  const set = db.prepare(`UPDATE ${tableName(shape.kind)} SET prepared = ?, id = ?, known = ?${cols.map((c) => `, x_${c.name} = ?`).join('')} WHERE seq = ?`);
  for (const rows of batches(db, shape.kind, 'data')) {
    for (const { seq, data } of rows) {
      const e = parseKeepingKeyOrder(data) as object;
      prepareEntity(ofKind, e, ids);
      const text = stringifyKeepingKeyOrder(e);
      if (text === data) continue;
      const [, id, known, , ...index] = entityRow(shape, cols, seq, e);
      set.run(text, id, known, ...index, seq);
    }
  }
}

/** Counts each kind's distinct `known` lists once (SqlEntityTable.knownCounts of a prepared database). */
function countKnown(db: Database, kinds: readonly string[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${KNOWN_COUNTS} (kind TEXT NOT NULL, known TEXT NOT NULL, n INTEGER NOT NULL)`);
  db.prepare(`DELETE FROM ${KNOWN_COUNTS}`).run();
  for (const kind of kinds) db.prepare(`INSERT INTO ${KNOWN_COUNTS} (kind, known, n) SELECT ?, known, count(*) FROM ${tableName(kind)} WHERE known IS NOT NULL GROUP BY known`).run(kind);
}

/** Stores one prepared entity of a kind in the rows of its id. */
function prepareOne(db: Database, shape: KindShape, ofKind: readonly ListEntity<object>[], ids: ReadonlyMap<string, number>, e: object): void {
  prepareEntity(ofKind, e, ids);
  const cols = indexColumns(shape);
  const [, id, known, , ...index] = entityRow(shape, cols, 0, e);
  db.prepare(`UPDATE ${tableName(shape.kind)} SET prepared = ?, known = ?${cols.map((c) => `, x_${c.name} = ?`).join('')} WHERE id = ?`).run(stringifyKeepingKeyOrder(e), known, ...index, id);
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
function addPreparedColumn(db: Database, kind: string): void {
  const has = (db.prepare(`SELECT count(*) FROM pragma_table_info('${tableName(kind)}') WHERE name = 'prepared'`).pluck().get() as number) > 0;
  if (!has) db.exec(`ALTER TABLE ${tableName(kind)} ADD COLUMN prepared TEXT`);
}

/** The text replay reads of an entity: prepared, when the database is. */
export const readColumn = (prepared: boolean) => (prepared ? 'coalesce(prepared, data)' : 'data');
