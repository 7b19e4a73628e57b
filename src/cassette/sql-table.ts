import type { Database, Statement } from './sqlite-driver.js';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../util/ordered-json.js';
import { idOfFields } from '../wiki/entity-table.js';
import { PAGE_SHAPE, PAGES, type Page } from '../wiki/model.js';
import type { EntityShape } from './problems.js';
import type { EntityTable, IndexColumn, IndexKey, IndexSpecs, KeyRange, KnownCounts } from '../wiki/entity-table.js';

/**
 * A kind of entity in a database cassette (store-sqlite.ts), read through SQL: one table per kind,
 * the entity as JSON text (`data`), its place in the cassette's list (`seq`), its id (`id`, the id
 * fields joined), the props it was recorded with (`known`) and a column per column of its declared indexes (`x_<name>`), with an SQL index
 * per declared index in its order (then `seq`, the order a memory table keeps equal keys in).
 */

/** How a kind is stored: its id fields and declared indexes (ListEntity, wiki/model.ts PAGE_SHAPE). */
export interface KindShape {
  readonly kind: string;
  readonly idFields: readonly string[];
  readonly indexes: IndexSpecs<object>;
}

/** The kinds a database keeps in tables: the lists' own (those declaring ids and indexes) and pages. */
export function tableShapes(entities: readonly EntityShape[]): KindShape[] {
  const own = entities.filter((e): e is EntityShape & KindShape => e.idFields !== undefined && e.indexes !== undefined);
  return [...own, PAGE_SHAPE as unknown as KindShape];
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A name safe to put into SQL as an identifier (kinds and columns are declared in code, never read from input). */
function sqlName(name: string): string {
  if (!NAME.test(name)) throw new Error(`"${name}" cannot name a database table or column`);
  return name;
}

/** The table of a kind. */
export const tableName = (kind: string) => `e_${sqlName(kind)}`;

/** The columns a kind's indexes need, each once (two indexes naming one column share it). */
export function indexColumns(shape: KindShape): IndexColumn<object>[] {
  const out = new Map<string, IndexColumn<object>>();
  for (const spec of Object.values(shape.indexes)) for (const c of spec.columns) if (!out.has(c.name)) out.set(c.name, c);
  return [...out.values()];
}

/** The statements that make a kind's table and its indexes. */
export function kindSchema(shape: KindShape): string[] {
  const t = tableName(shape.kind);
  const cols = indexColumns(shape).map((c) => `x_${sqlName(c.name)} ${c.type === 'integer' ? 'INTEGER' : 'TEXT'}`);
  const out = [`CREATE TABLE IF NOT EXISTS ${t} (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, known TEXT, data TEXT NOT NULL${cols.map((c) => `, ${c}`).join('')})`];
  out.push(`CREATE INDEX IF NOT EXISTS ${t}__id ON ${t} (id, seq)`);
  // Which props each entity was recorded with, counted per list (needPropsOfAll) from this index alone.
  out.push(`CREATE INDEX IF NOT EXISTS ${t}__known ON ${t} (known)`);
  for (const [name, spec] of Object.entries(shape.indexes)) {
    out.push(`CREATE INDEX IF NOT EXISTS ${t}_${sqlName(name)} ON ${t} (${spec.columns.map((c) => `x_${c.name}`).join(', ')}, seq)`);
  }
  return out;
}

/**
 * The stored rows of a database's kinds as a recording reads them (sql-recording.ts): an entity by
 * id, how many places a kind has, the pages of a title; as recorded (`data`), statements made once
 * (a recording looks up each entity it shows).
 */
export class StoredRows {
  private readonly statements = new Map<string, Statement>();
  private readonly tables = new Set<string>();

  constructor(private readonly db: Database) {}

  /** The entity of a kind stored under an id (the first place: a file edited by hand may hold two), and its place. */
  byId(kind: string, id: string): { at: number; entity: object } | undefined {
    if (!this.has(kind)) return undefined;
    const row = this.sql(`SELECT seq, data FROM ${tableName(kind)} WHERE id = ? ORDER BY seq LIMIT 1`).get(id) as { seq: number; data: string } | undefined;
    return row && { at: row.seq, entity: parseKeepingKeyOrder(row.data) as object };
  }

  /** How many places a kind's table holds (its rows are at places 0 to n - 1); 0 without a table. */
  count(kind: string): number {
    if (!this.has(kind)) return 0;
    return ((this.sql(`SELECT max(seq) FROM ${tableName(kind)}`).pluck().get() as number | null) ?? -1) + 1;
  }

  /** The pages of a prefixed title, each place: through the `title` index (namespace, title) once per namespace pages are in, not a scan. */
  pagesTitled(title: string): { at: number; page: Page }[] {
    if (!this.has(PAGES)) return [];
    const t = tableName(PAGES);
    const one = this.sql(`SELECT seq, data FROM ${t} WHERE x_ns = ? AND x_title = ? ORDER BY seq`);
    const out: { at: number; page: Page }[] = [];
    for (const ns of this.sql(`SELECT DISTINCT x_ns FROM ${t}`).pluck().all() as number[]) {
      for (const r of one.all(ns, title) as { seq: number; data: string }[]) out.push({ at: r.seq, page: parseKeepingKeyOrder(r.data) as Page });
    }
    return out.sort((a, b) => a.at - b.at);
  }

  /** Whether the kind has its table (once it has, it keeps it). */
  private has(kind: string): boolean {
    if (this.tables.has(kind)) return true;
    const made = this.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(tableName(kind)) === 1;
    if (made) this.tables.add(kind);
    return made;
  }

  private sql(text: string): Statement {
    let s = this.statements.get(text);
    if (!s) this.statements.set(text, (s = this.db.prepare(text)));
    return s;
  }
}

/** An entity's row: its place, id, `known` props (JSON, or null: every prop known), JSON text and index columns. */
export function entityRow(shape: KindShape, cols: readonly IndexColumn<object>[], seq: number, e: object): (string | number | null)[] {
  const known = (e as { known?: unknown }).known;
  return [seq, idOfFields(shape.idFields, e), Array.isArray(known) ? JSON.stringify(known) : null, stringifyKeepingKeyOrder(e), ...cols.map((c) => c.value(e))];
}

/** The statement that stores an entity's row (entityRow) in its kind's table. */
export function putEntity(db: Database, shape: KindShape, cols: readonly IndexColumn<object>[], verb = 'INSERT OR REPLACE'): Statement {
  return db.prepare(`${verb} INTO ${tableName(shape.kind)} (seq, id, known, data${cols.map((c) => `, x_${c.name}`).join('')}) VALUES (?, ?, ?, ?${cols.map(() => ', ?').join('')})`);
}

/** Adds entities of a kind after the rows its table holds, one transaction per 10,000; how many. */
export function appendRows(db: Database, shape: KindShape, items: Iterable<object>): number {
  const cols = indexColumns(shape);
  const put = putEntity(db, shape, cols, 'INSERT');
  let seq = ((db.prepare(`SELECT max(seq) FROM ${tableName(shape.kind)}`).pluck().get() as number | null) ?? -1) + 1;
  const batch = db.transaction((rows: object[]) => {
    for (const e of rows) put.run(...entityRow(shape, cols, seq++, e));
  });
  let rows: object[] = [];
  let n = 0;
  for (const e of items) {
    rows.push(e);
    if (rows.length < 10_000) continue;
    batch(rows);
    n += rows.length;
    rows = [];
  }
  batch(rows);
  return n + rows.length;
}

/** The counts of `known` per kind a prepared database keeps (sql-prepare.ts). */
export const KNOWN_COUNTS = 'known_counts';

/** An entity table over a kind's SQL table (see the file's comment). */
export class SqlEntityTable<E extends object> implements EntityTable<E> {
  private readonly table: string;
  private readonly byId: Statement;
  private readonly counted: Statement;
  private held: number | null = null;
  /** Prepared range statements not being read, by query text (range). */
  private readonly idle = new Map<string, Statement[]>();

  constructor(
    private readonly db: Database,
    private readonly shape: KindShape,
    /** Whether the database is prepared (sql-prepare.ts): then each entity's prepared text is read, and the counts of `known` stored. */
    private readonly prepared = false,
  ) {
    this.table = tableName(shape.kind);
    this.byId = db.prepare(`SELECT ${this.column} FROM ${this.table} WHERE id = ? ORDER BY seq LIMIT 1`).pluck();
    this.counted = db.prepare(`SELECT count(*) FROM ${this.table}`).pluck();
  }

  /** The text read of each entity: as recorded, or as prepared (sql-prepare.ts). */
  private get column(): string {
    return this.prepared ? 'coalesce(prepared, data)' : 'data';
  }

  /**
   * The entities whose text holds `text` (a name as JSON writes it, say), in their order: what a
   * look-up of one name reads where no index names it (a logged-in view's users' ids:
   * replay/knowledge.ts prepareView), one pass of SQLite over the text, none parsed but those.
   */
  *containing(text: string): IterableIterator<E> {
    const rows = this.db.prepare(`SELECT ${this.column} FROM ${this.table} WHERE instr(${this.column}, ?) > 0 ORDER BY seq`).pluck().all(text) as string[];
    for (const row of rows) yield parseKeepingKeyOrder(row) as E;
  }

  get count(): number {
    return (this.held ??= this.counted.get() as number);
  }

  get(id: string): E | undefined {
    const data = this.byId.get(id) as string | undefined;
    return data === undefined ? undefined : (parseKeepingKeyOrder(data) as E);
  }

  /**
   * An index range read: each bound a row-value comparison over its first parts, in the index's
   * order (every part descending when asked), rows parsed one by one as they are read (the caller
   * stops after the rows it shows: LIMIT n + 1 without a LIMIT in SQL).
   */
  *range(index: string, range: KeyRange, descending: boolean): Iterable<E> {
    const spec = this.shape.indexes[index];
    if (!spec) throw new Error(`no index "${index}"`);
    const cols = spec.columns.map((c) => `x_${c.name}`);
    const where: string[] = [];
    const args: (string | number)[] = [];
    const bound = (b: IndexKey, op: string) => {
      if (b.length === 0) return;
      const part = cols.slice(0, b.length);
      where.push(b.length === 1 ? `${part[0]} ${op} ?` : `(${part.join(', ')}) ${op} (${part.map(() => '?').join(', ')})`);
      args.push(...b.slice(0, cols.length));
    };
    for (const b of range.from ?? []) bound(b.slice(0, cols.length), '>=');
    for (const b of range.to ?? []) bound(b.slice(0, cols.length), '<=');
    const dir = descending ? ' DESC' : '';
    const sql = `SELECT ${this.column} FROM ${this.table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${[...cols, 'seq'].map((c) => c + dir).join(', ')}`;
    // A statement no other read is in the middle of (one left half-read keeps nothing else busy),
    // prepared once per query text: compiling it again for each of 50 titles cost more than the reads.
    const idle = this.idle.get(sql) ?? [];
    this.idle.set(sql, idle);
    const statement = idle.pop() ?? this.db.prepare(sql).pluck();
    try {
      for (const data of statement.iterate(...args)) yield parseKeepingKeyOrder(data as string) as E;
    } finally {
      // Back once its read is over (done, or stopped by its caller); one never finished is not reused.
      idle.push(statement);
    }
  }

  /**
   * From the `known` index: each distinct list of props once, with how many entities have it (in
   * a prepared database, as its preparing counted them: a scan of the index costs 100s of ms at 1M).
   */
  knownCounts(): KnownCounts {
    const counts: KnownCounts = { withKnown: 0, byProp: new Map() };
    const sql = this.prepared ? `SELECT known, n FROM ${KNOWN_COUNTS} WHERE kind = ?` : `SELECT known, count(*) AS n FROM ${this.table} WHERE known IS NOT NULL GROUP BY known`;
    for (const { known, n } of this.db.prepare(sql).all(...(this.prepared ? [this.shape.kind] : [])) as { known: string; n: number }[]) {
      counts.withKnown += n;
      for (const p of new Set(JSON.parse(known) as string[])) counts.byProp.set(p, (counts.byProp.get(p) ?? 0) + n);
    }
    return counts;
  }
}
