import type { Database, Statement } from './sqlite-driver.js';
import { addUserIds } from '../api/entity-passes.js';
import type { ListEntity } from '../api/list-module.js';
import { parseKeepingKeyOrder } from '../util/ordered-json.js';
import type { Page } from '../wiki/model.js';
import { isUserKey, type Interaction } from './format.js';
import { linkPageIds } from './link-ids.js';
import { KNOWN_COUNTS, tableName, type KindShape } from './sql-table.js';
import { PREPARED, addPreparedColumn, keepsPrepareState, learnedPages, preparer, stepLinkWalks, walkNameOf } from './sql-prepare.js';

/** A row as it was before a write replaced it (null: the write added it). */
type Was = { data: string; known: string | null } | null;

/**
 * One write of a prepared database's document (a recording appended: store-sqlite.ts write),
 * prepared alone, so that appending a recording costs what the recording costs, not what the
 * cassette does (docs/decisions/0018-database-cassettes.md, "Knowledge"). What the full
 * preparation (sql-prepare.ts) gives is kept, step by step:
 * - users' ids: the names the changed entities show with their ids join `prepared_ids`; the
 *   entities that asked for one of those names in vain (`prepared_waiting`) are prepared again;
 * - each entity written, and each of those, prepared (api/entity-passes.ts), its `known` counted
 *   again (`known_counts`);
 * - links' ids: learned again on the pages the written extlinks answers and pages touch, with every
 *   recorded extlinks answer that names one of them, and so on (learning reads an answer's pages
 *   together: link-ids.ts), the pages of that closed set prepared again.
 * What a step cannot follow leaves the database unprepared, as every write did before (replay
 * then works it all out in memory): a recording or entity removed, a name shown with another id
 * than before (which id wins depends on every sighting's order), a sighting that an entity no
 * longer shows, a logged-in extlinks recording (what it teaches readers depends on rights known at
 * replay only).
 */
export class PrepareStep {
  private readonly was = new Map<string, Map<number, Was>>();
  /** The extlinks answers the write stored. */
  private readonly written: Interaction[] = [];
  private followable = true;
  private answers: LinkAnswers | null = null;
  /** Statements by their text, made once per step (a write may rewrite thousands of rows). */
  private readonly statements = new Map<string, Statement>();

  private constructor(
    private readonly db: Database,
    private readonly shapes: ReadonlyMap<string, KindShape>,
    private readonly entities: readonly ListEntity<object>[],
    private readonly linksOf: () => LinkAnswers,
  ) {}

  /** The recorded extlinks answers, read when the step first needs them (a write of log events never does). */
  private get links(): LinkAnswers {
    return (this.answers ??= this.linksOf());
  }

  /**
   * A step for a write to `db`, or null when it is not prepared so that a step can follow it.
   * `links` gives the extlinks answers the document holds as the write leaves it (asked when needed).
   */
  static of(db: Database, shapes: ReadonlyMap<string, KindShape>, entities: readonly ListEntity<object>[], links: () => LinkAnswers): PrepareStep | null {
    if (db.pragma('user_version', { simple: true }) !== PREPARED || !keepsPrepareState(db)) return null;
    return new PrepareStep(db, shapes, entities, links);
  }

  /** Before the row `seq` of a kind is written (its table made): notes it as it was. */
  rewriting(kind: string, seq: number): void {
    let rows = this.was.get(kind);
    if (!rows) this.was.set(kind, (rows = new Map()));
    if (!rows.has(seq)) rows.set(seq, (this.sql(`SELECT data, known FROM ${tableName(kind)} WHERE seq = ?`).get(seq) as Was | undefined) ?? null);
  }

  /** An interaction the write stores. */
  stores(i: Interaction): void {
    if (i.request['prop'] !== 'extlinks') return;
    if (isUserKey(i.key)) this.followable = false;
    this.written.push(i);
  }

  /** The write removes a recording or an entity. */
  removes(): void {
    this.followable = false;
  }

  /** Prepares what the write changed, after it; whether it did (else the database stays unprepared). */
  finish(): boolean {
    if (!this.followable) return false;
    const learned = this.learnIds();
    if (!learned) return false;
    const todo = new Map<string, Map<number, Page | null>>();
    const add = (kind: string, seq: number, page: Page | null = null) => {
      let rows = todo.get(kind);
      if (!rows) todo.set(kind, (rows = new Map()));
      if (page || !rows.has(seq)) rows.set(seq, page);
    };
    for (const [kind, rows] of this.was) for (const seq of rows.keys()) add(kind, seq);
    const waiting = this.db.prepare('SELECT kind, seq FROM prepared_waiting WHERE name = ?');
    for (const name of learned) for (const { kind, seq } of waiting.all(name) as { kind: string; seq: number }[]) add(kind, seq);
    for (const { seq, page } of learnedPages(this.db, this.linkComponent()).values()) add('pages', seq, page);
    const counts = new Map<string, Map<string, number>>();
    for (const [kind, rows] of todo) this.prepareRows(kind, rows, counts);
    this.recount(counts);
    stepLinkWalks(this.db, (walk) => this.links.ofWalk(walk), this.written);
    this.db.pragma(`user_version = ${PREPARED}`);
    return true;
  }

  /** Prepares rows of a kind again (from their recorded text, or the page given), counting their `known` anew. */
  private prepareRows(kind: string, rows: ReadonlyMap<number, Page | null>, counts: Map<string, Map<string, number>>): void {
    const shape = this.shapes.get(kind);
    if (!shape) return;
    addPreparedColumn(this.db, kind);
    const ids = this.db.prepare('SELECT id FROM prepared_ids WHERE name = ?').pluck();
    const prepared = preparer(this.db, shape, this.entities.filter((e) => e.kind === kind), (name) => ids.get(name) as number | undefined);
    const count = counts.get(kind) ?? new Map<string, number>();
    counts.set(kind, count);
    const tally = (known: string | null, n: number) => known !== null && count.set(known, (count.get(known) ?? 0) + n);
    for (const [seq, page] of rows) {
      const data = this.dataOf(kind, seq);
      if (data === undefined) continue;
      const [before, after] = prepared(seq, page ?? (parseKeepingKeyOrder(data) as object), data);
      const was = this.was.get(kind);
      tally(was?.has(seq) ? (was.get(seq)?.known ?? null) : before, -1);
      tally(after, 1);
    }
  }

  /**
   * The names the written entities show with their ids that were not known, added to
   * `prepared_ids`; null when a step cannot follow (see the class's comment).
   */
  private learnIds(): string[] | null {
    const held = this.db.prepare('SELECT id, mixed FROM prepared_ids WHERE name = ?');
    const learned = new Map<string, number>();
    for (const entity of this.entities) {
      if (!entity.users) continue;
      for (const [seq, was] of this.was.get(entity.kind) ?? []) {
        const now = sightings(entity, this.dataOf(entity.kind, seq));
        if (!now || (was && [...(sightings(entity, was.data) ?? [])].some(([name, id]) => now.get(name) !== id))) return null;
        for (const [name, id] of now) {
          const h = held.get(name) as { id: number; mixed: number } | undefined;
          if (h ? h.mixed !== 0 || h.id !== id : (learned.get(name) ?? id) !== id) return null;
          if (!h) learned.set(name, id);
        }
      }
    }
    const put = this.db.prepare('INSERT INTO prepared_ids (name, id, mixed) VALUES (?, ?, 0)');
    for (const [name, id] of learned) put.run(name, id);
    return [...learned.keys()];
  }

  /**
   * The recorded extlinks answers that learning the written ones' and the written pages' link ids
   * reads: each answer naming a page of the set, the set grown by its pages, until it grows no more.
   */
  private linkComponent(): Interaction[] {
    const pages = linkPageIds(this.written);
    for (const [seq, was] of this.was.get('pages') ?? []) {
      const data = this.dataOf('pages', seq);
      for (const text of [data, was?.data]) if (text !== undefined) pages.add((parseKeepingKeyOrder(text) as Page).pageid);
    }
    if (pages.size === 0) return [];
    // A walk from the pages given, through the answers naming each (each answer's pages once).
    const out = new Set<Interaction>();
    const todo = [...pages];
    for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
      for (const i of this.links.naming(id)) {
        if (out.has(i)) continue;
        out.add(i);
        for (const other of pagesOf(i)) if (!pages.has(other) && pages.add(other)) todo.push(other);
      }
    }
    // (in the document's order, by key, as replay's learning reads them)
    return [...out].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Adds what the step counted to `known_counts` (a list no entity has any longer goes). */
  private recount(counts: ReadonlyMap<string, ReadonlyMap<string, number>>): void {
    const update = this.db.prepare(`UPDATE ${KNOWN_COUNTS} SET n = n + ? WHERE kind = ? AND known = ?`);
    const insert = this.db.prepare(`INSERT INTO ${KNOWN_COUNTS} (kind, known, n) VALUES (?, ?, ?)`);
    for (const [kind, count] of counts) {
      for (const [known, n] of count) if (n !== 0 && update.run(n, kind, known).changes === 0) insert.run(kind, known, n);
    }
    this.db.prepare(`DELETE FROM ${KNOWN_COUNTS} WHERE n <= 0`).run();
  }

  private dataOf(kind: string, seq: number): string | undefined {
    return this.sql(`SELECT data FROM ${tableName(kind)} WHERE seq = ?`).pluck().get(seq) as string | undefined;
  }

  private sql(text: string): Statement {
    let s = this.statements.get(text);
    if (!s) this.statements.set(text, (s = this.db.prepare(text)));
    return s;
  }
}

/**
 * The recorded extlinks answers of a document by the pages they name, kept as the document changes
 * (store-sqlite.ts tells each interaction stored or removed): a step finds the answers its pages'
 * link ids are learned from without a pass over every answer.
 */
export class LinkAnswers {
  private readonly byPage = new Map<number, Map<string, Interaction>>();
  private readonly byWalk = new Map<string, Map<string, Interaction>>();
  private readonly held = new Map<string, Interaction>();

  /** The extlinks answers among `interactions`. */
  constructor(interactions: Iterable<Interaction>) {
    for (const i of interactions) this.set(i.key, i);
  }

  /** The interaction of `key` is now `i` (null: removed). */
  set(key: string, i: Interaction | null): void {
    const was = this.held.get(key);
    if (was) {
      this.held.delete(key);
      for (const id of pagesOf(was)) this.byPage.get(id)?.delete(key);
      const walk = walkNameOf(was);
      if (walk !== null) this.byWalk.get(walk)?.delete(key);
    }
    if (!i || i.request['prop'] !== 'extlinks') return;
    this.held.set(key, i);
    for (const id of pagesOf(i)) add(this.byPage, id, key, i);
    const walk = walkNameOf(i);
    if (walk !== null) add(this.byWalk, walk, key, i);
  }

  /** The answers of a walk of links (sql-prepare.ts walkNameOf). */
  ofWalk(walk: string): Iterable<Interaction> {
    return this.byWalk.get(walk)?.values() ?? [];
  }

  /** The answers naming a page. */
  naming(page: number): Iterable<Interaction> {
    return this.byPage.get(page)?.values() ?? [];
  }
}

function add<K>(index: Map<K, Map<string, Interaction>>, at: K, key: string, i: Interaction): void {
  let answers = index.get(at);
  if (!answers) index.set(at, (answers = new Map()));
  answers.set(key, i);
}

/** The pages learning link ids reads for one answer (linkPageIds), worked out once per answer object. */
const named = new WeakMap<Interaction, number[]>();
function pagesOf(i: Interaction): number[] {
  let ids = named.get(i);
  if (!ids) named.set(i, (ids = [...linkPageIds([i])]));
  return ids;
}

/** The names an entity (its recorded text) shows with their ids; null when it shows one name with two. */
function sightings(entity: ListEntity<object>, data: string | undefined): Map<string, number> | null {
  const ids = new Map<string, number>();
  const mixed = new Set<string>();
  if (data !== undefined) addUserIds(entity, parseKeepingKeyOrder(data) as object, ids, mixed);
  return mixed.size > 0 ? null : ids;
}
