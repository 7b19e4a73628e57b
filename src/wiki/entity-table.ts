/**
 * How the modules read a kind of entity when a scan would cost what the wiki's size costs: by id,
 * and in an index's order from a point on (a page of a list, a deep continuation: a binary search
 * and a walk of the rows shown, not a filter and sort of every row). The in-memory table here is
 * built from the model's list of a kind the first time it is asked for (and again when that list
 * grew); a store that keeps entities on disk answers the same questions from its own indexes.
 */

/** An index's key of an entity: compared part by part (see the index's `compare`). */
export type IndexKey = readonly (string | number)[];

/**
 * One column of a declared index: its name (a store's column: letters, digits and `_`), its type,
 * and its value for an entity (a field, or worked out from fields: a title without its namespace).
 * A value an entity lacks is `''` or -1, so that every entity has a key.
 */
export interface IndexColumn<E> {
  readonly name: string;
  readonly type: 'integer' | 'text';
  value(e: E): string | number;
}

/**
 * An index a kind of entity is read through, declared as data by the list that shows the kind
 * (ListEntity.indexes): its columns, compared in turn (compareIndexKeys). Memory tables sort by it;
 * a database store makes a column per part and an SQL index over them in this order.
 */
interface IndexSpec<E> {
  readonly columns: readonly IndexColumn<E>[];
}

/** A kind's declared indexes by name; `order` is its list's order. */
export type IndexSpecs<E> = Readonly<Record<string, IndexSpec<E>>>;

/**
 * Two keys compared part by part: numbers as numbers, text by code unit (MySQL's and SQLite's
 * binary collation compare UTF-8 bytes; they agree for text outside the surrogate range); a key
 * that is a prefix of the other comes first.
 */
export function compareIndexKeys(a: IndexKey, b: IndexKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/** The in-memory form of declared indexes: each key its columns' values. */
export function tableIndexes<E>(specs: IndexSpecs<E>): Record<string, TableIndex<E>> {
  const out: Record<string, TableIndex<E>> = {};
  for (const [name, spec] of Object.entries(specs)) out[name] = { key: (e) => spec.columns.map((c) => c.value(e)), compare: compareIndexKeys };
  return out;
}

/** The name an entity has among its kind: its id fields' values joined with `|`. */
export function idOfFields(idFields: readonly string[], e: object): string {
  return idFields.map((f) => String((e as Record<string, unknown>)[f])).join('|');
}

/** A column reading one field: its value, or `''` / -1 when the entity lacks it. */
export function fieldColumn<E extends object>(name: string, type: 'integer' | 'text'): IndexColumn<E> {
  const none = type === 'integer' ? -1 : '';
  return { name, type, value: (e) => ((e as Record<string, unknown>)[name] as string | number | undefined) ?? none };
}

/** An order the entities can be read in: the key of each, and how two keys compare. */
export interface TableIndex<E> {
  key(e: E): IndexKey;
  compare(a: IndexKey, b: IndexKey): number;
}

/**
 * Where a range starts and ends, in the index's ascending order, each bound included and compared
 * over its own parts (a bound of one part takes every key that starts with it: a timestamp bound
 * of a `[timestamp, id]` index). Every bound given holds.
 */
export interface KeyRange {
  /** The entities' keys compare at or above each of these. */
  from?: readonly IndexKey[];
  /** The entities' keys compare at or below each of these. */
  to?: readonly IndexKey[];
}

/** A kind of entity as the modules read it (see the file's comment). */
export interface EntityTable<E> {
  /** How many entities the table holds. */
  readonly count: number;
  /** The entity with this id (its id fields joined, as api/list-module.ts entityId makes it), if held. */
  get(id: string): E | undefined;
  /** The entities of `range` in index `index`'s order, ascending or descending. */
  range(index: string, range: KeyRange, descending: boolean): Iterable<E>;
  /** How many entities have a `known` list of props, and how many of those name each prop (see needPropsOfAll). */
  knownCounts(): KnownCounts;
}

/** How many entities of a table list the props recordings showed (`known`), and how many name each. */
export interface KnownCounts {
  withKnown: number;
  byProp: Map<string, number>;
}

/** An entity table over an array held in memory (the model's list of a kind). */
export class MemoryEntityTable<E extends object> implements EntityTable<E> {
  private byId: Map<string, E> | null = null;
  private readonly sorted = new Map<string, E[]>();

  constructor(
    private readonly items: readonly E[],
    private readonly idOf: (e: E) => string,
    private readonly indexes: Readonly<Record<string, TableIndex<E>>>,
  ) {}

  get count(): number {
    return this.items.length;
  }

  get(id: string): E | undefined {
    if (!this.byId) {
      // The first of two with one id is the one found (as a scan would find it).
      this.byId = new Map();
      for (const e of this.items) if (!this.byId.has(this.idOf(e))) this.byId.set(this.idOf(e), e);
    }
    return this.byId.get(id);
  }

  *range(index: string, range: KeyRange, descending: boolean): Iterable<E> {
    const ix = this.indexes[index];
    if (!ix) throw new Error(`no index "${index}"`);
    const rows = this.ascending(index, ix);
    const part = (e: E, bound: IndexKey) => ix.compare(ix.key(e).slice(0, bound.length), bound);
    let lo = 0;
    let hi = rows.length;
    for (const b of range.from ?? []) lo = Math.max(lo, firstWhere(rows, (e) => part(e, b) >= 0));
    for (const b of range.to ?? []) hi = Math.min(hi, firstWhere(rows, (e) => part(e, b) > 0));
    if (descending) for (let i = hi - 1; i >= lo; i--) yield rows[i]!;
    else for (let i = lo; i < hi; i++) yield rows[i]!;
  }

  knownCounts(): KnownCounts {
    const counts: KnownCounts = { withKnown: 0, byProp: new Map() };
    for (const e of this.items as readonly { known?: string[] }[]) {
      if (!e.known) continue;
      counts.withKnown++;
      for (const p of new Set(e.known)) counts.byProp.set(p, (counts.byProp.get(p) ?? 0) + 1);
    }
    return counts;
  }

  private ascending(name: string, ix: TableIndex<E>): E[] {
    let rows = this.sorted.get(name);
    if (!rows) {
      // Each key worked out once (not twice per comparison); equal keys keep the list's order.
      const keyed = this.items.map((e, at) => ({ e, at, key: ix.key(e) }));
      keyed.sort((a, b) => ix.compare(a.key, b.key) || a.at - b.at);
      rows = keyed.map((k) => k.e);
      this.sorted.set(name, rows);
    }
    return rows;
  }
}

/** The first position at which `pred` holds, in rows where it fails up to a point and holds from there on. */
function firstWhere<E>(rows: readonly E[], pred: (e: E) => boolean): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(rows[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const tables = new WeakMap<readonly object[], Map<string, { length: number; table: EntityTable<object> }>>();

/**
 * The table `name` over a list of entities, made once and kept while the list keeps its length
 * (the model's lists only grow: loading appends, nothing is removed). `make` builds it.
 */
export function tableOver<E extends object>(items: readonly E[], name: string, make: (items: readonly E[]) => EntityTable<E>): EntityTable<E> {
  let named = tables.get(items);
  if (!named) tables.set(items, (named = new Map()));
  const held = named.get(name);
  if (held && held.length === items.length) return held.table as EntityTable<E>;
  const table = make(items);
  named.set(name, { length: items.length, table: table as EntityTable<object> });
  return table;
}
