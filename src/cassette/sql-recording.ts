import { stringifyKeepingKeyOrder } from '../util/ordered-json.js';
import { idOfFields } from '../wiki/entity-table.js';
import { PAGES, type Page } from '../wiki/model.js';
import type { Cassette, Harvest, Interaction } from './format.js';
import { listTarget, type HarvestTarget } from './harvest-target.js';
import type { SqliteCassette } from './store-sqlite.js';
import { StoredRows } from './sql-table.js';

/** Staged rows of a kind by place, and the places of their ids. */
interface StagedKind {
  rows: Map<number, object>;
  ids: Map<string, number>;
}

/**
 * Recordings appended to a database cassette that is there (record/cassette-writer.ts): what a
 * recording shows is looked up by key and id and written by key and place (SqliteCassette.append),
 * never read whole. A recorder opening a database of a million log events read them all (14 s and
 * 2.6 GB before its first answer); appending a recording now costs what the recording costs
 * (docs/decisions/0018-database-cassettes.md). Kinds kept in tables are read through SQL; those
 * kept in the `entities` member (redirects, missing titles: a few) in memory, as a document's.
 * What is applied waits here until `write` stores it in one transaction.
 */
export class DatabaseRecording implements HarvestTarget {
  /** The cassette's `meta`, as recordings change it. */
  meta: Cassette['meta'];
  /** The `entities` member as stored: tabled kinds marked, the others' lists (harvested in memory). */
  private readonly entities: Record<string, unknown>;
  private readonly loose: HarvestTarget;
  private looseChanged = false;
  private staged = new Map<string, StagedKind>();
  private interactions = new Map<string, Interaction>();
  /** The next place of each tabled kind (its rows' count: places are 0…n-1). */
  private readonly next = new Map<string, number>();
  private readonly rows: StoredRows;

  private constructor(
    readonly database: SqliteCassette,
    meta: Cassette['meta'],
    entities: Record<string, unknown>,
  ) {
    this.meta = meta;
    this.entities = entities;
    this.rows = new StoredRows(database.db);
    this.loose = listTarget(entities as Harvest, () => (this.looseChanged = true));
  }

  /**
   * Opens recordings into `database`, or null when it cannot take them so: it holds no cassette
   * yet, or a kind is kept otherwise than the store keeps it (in a table the store has no shape
   * for; with a shape, in the `entities` member, even as an empty list, or in a table the member
   * does not mark, rows left by an older write): a document store's write moves it whole.
   */
  static of(database: SqliteCassette): DatabaseRecording | null {
    const meta = database.member('meta');
    const entities = database.member('entities') as Record<string, unknown> | undefined;
    if (typeof meta !== 'object' || meta === null || typeof entities !== 'object' || entities === null || Array.isArray(entities)) return null;
    const tabled = new Set(database.tabled());
    if ([...tabled].some((kind) => database.kindShape(kind) === undefined)) return null;
    const rows = new StoredRows(database.db);
    if (database.shapedKinds().some((kind) => !tabled.has(kind) && (entities[kind] !== undefined || rows.count(kind) > 0))) return null;
    return new DatabaseRecording(database, meta as Cassette['meta'], entities);
  }

  /** The recording of a key: applied since the last write, or stored. */
  recording(key: string): Interaction | undefined {
    return this.interactions.get(key) ?? this.database.interaction(key);
  }

  /** Whether a recording of the key is applied or stored. */
  holds(key: string): boolean {
    return this.interactions.has(key) || this.database.holds(key);
  }

  /** An interaction stored under its key (added or replaced) at the next write. */
  store(i: Interaction): void {
    this.interactions.set(i.key, i);
  }

  find(kind: string, idFields: readonly string[], id: string): { at: number; entity: object } | undefined {
    if (!this.shaped(kind)) return this.loose.find(kind, idFields, id);
    // (a place is staged under the id it holds: an entity is replaced by one of the same id)
    const staged = this.staged.get(kind);
    const at = staged?.ids.get(id);
    if (at !== undefined) return { at, entity: staged!.rows.get(at)! };
    return this.rows.byId(kind, id);
  }

  add(kind: string, idFields: readonly string[], entity: object): number {
    if (!this.shaped(kind)) return this.loose.add(kind, idFields, entity);
    const at = this.next.get(kind) ?? this.rows.count(kind);
    this.next.set(kind, at + 1);
    if (this.entities[kind] === undefined) {
      this.entities[kind] = { $table: true };
      this.looseChanged = true;
    }
    this.stage(kind, at, entity, idOfFields(idFields, entity));
    return at;
  }

  put(kind: string, at: number, entity: object): void {
    const shape = this.database.kindShape(kind);
    if (!shape) return this.loose.put(kind, at, entity);
    this.stage(kind, at, entity, idOfFields(shape.idFields, entity));
  }

  pagesTitled(title: string): { at: number; page: Page }[] {
    const out = new Map<number, Page>(this.rows.pagesTitled(title).map((p) => [p.at, p.page]));
    for (const [at, page] of this.staged.get(PAGES)?.rows ?? []) {
      if ((page as Page).title === title) out.set(at, page as Page);
      else out.delete(at);
    }
    return [...out].sort(([a], [b]) => a - b).map(([at, page]) => ({ at, page }));
  }

  /** Stores what was applied since the last write in one transaction; what a failed write held is kept for the next. */
  write(): void {
    const interactions = [...this.interactions.values()];
    const rows = new Map([...this.staged].map(([kind, s]) => [kind, s.rows]));
    const members = new Map<string, string>([['meta', stringifyKeepingKeyOrder(this.meta)]]);
    if (this.looseChanged) members.set('entities', stringifyKeepingKeyOrder(this.entities));
    this.database.append({ interactions, rows, members });
    this.interactions = new Map();
    this.staged = new Map();
    this.looseChanged = false;
  }

  private shaped(kind: string): boolean {
    return this.database.kindShape(kind) !== undefined;
  }

  private stage(kind: string, at: number, entity: object, id: string): void {
    let s = this.staged.get(kind);
    if (!s) this.staged.set(kind, (s = { rows: new Map(), ids: new Map() }));
    s.rows.set(at, entity);
    s.ids.set(id, at);
  }
}
