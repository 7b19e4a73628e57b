import { closeSync } from 'node:fs';
import { interactionProblem, type Interaction } from '../cassette/format.js';
import { readInteraction, type ScannedInteraction } from '../cassette/scan.js';
import { summarize, summarized, type AnswerSummary } from '../cassette/walk-summary.js';
import type { SqliteCassette } from '../cassette/store-sqlite.js';
import { mayLackContinue, refiledContinue } from '../cassette/stale-continue.js';

/** Where an interaction not yet parsed is: its cassette file (kept open) and its place in it. */
type Stored = ScannedInteraction & { fd: number };

/**
 * The recorded interactions by canonical key. Those of scanned files stay on disk until asked
 * for; the most recently used parsed ones are kept (`keep`), so memory holds the keys, not the
 * answers, whatever the number of recordings. A database cassette's keys stay in it too, each
 * looked up by key (its primary key) when asked: a snapshot's link-id crawl is one recording per
 * page with links (~100k at 1M log events, each key naming 50 titles), which memory would hold
 * for nothing. The first cassette holding a key answers it (cassettes in their order). A recording
 * an older wikitape filed without its empty `continue` is held under the key it answers
 * (cassette/stale-continue.ts), whatever its cassette says.
 */
export class InteractionTable {
  private readonly byKey = new Map<string, Interaction | Stored>();
  private readonly recent = new Map<string, Interaction>();
  /** What knowledge reads of the answers it reads only in part (cassette/walk-summary.ts), by key. */
  private readonly summaries = new Map<string, AnswerSummary>();
  private readonly fds: number[] = [];
  /**
   * Database cassettes in their order, each with how many of its keys no cassette before it holds,
   * and how many keys of files came before it (its place among the cassettes: see `inOrder`).
   */
  private readonly dbs: { db: SqliteCassette; count: number; after: number }[] = [];
  /** Keys whose summary was asked of their database (readDatabaseSummaries). */
  private readonly asked = new Set<string>();
  /** Keys of databases whose recording is held under another key (refiled): they answer nothing. */
  private readonly moved = new Set<string>();
  constructor(readonly keep = 1000) {}

  /** How many keys it holds (a key kept by two databases counted in each). */
  get size(): number {
    let n = this.byKey.size;
    for (const { count } of this.dbs) n += count;
    return n;
  }
  has(key: string): boolean {
    return this.byKey.has(key) || this.databaseOf(key) !== undefined;
  }
  /**
   * Every key, each once, in the order the cassettes hold them; of a database, those `ofDatabase`
   * picks, when given (the keys a question needs, through an index: cassette/sql-prepare.ts).
   */
  *keys(ofDatabase: (db: SqliteCassette) => Iterable<string> = (db) => db.keys()): IterableIterator<string> {
    for (const [key] of this.inOrder(ofDatabase)) yield key;
  }

  /**
   * Every key with where a file keeps it (undefined: a database), in the cassettes' order (a
   * database's keys where it came, in key order), a database giving those `ofDatabase` picks.
   */
  private *inOrder(ofDatabase: (db: SqliteCassette) => Iterable<string>): IterableIterator<[string, Interaction | Stored | undefined]> {
    let d = 0;
    let n = 0;
    for (const entry of this.byKey) {
      while (d < this.dbs.length && this.dbs[d]!.after === n) yield* this.databaseKeys(d++, ofDatabase);
      yield entry;
      n++;
    }
    while (d < this.dbs.length) yield* this.databaseKeys(d++, ofDatabase);
  }

  /** The keys a database (at `at`) answers, of those `ofDatabase` picks. */
  private *databaseKeys(at: number, ofDatabase: (db: SqliteCassette) => Iterable<string>): IterableIterator<[string, undefined]> {
    for (const key of ofDatabase(this.dbs[at]!.db)) if (this.answering(key, at) && !this.moved.has(key)) yield [key, undefined];
  }
  /** Adds an interaction unless its key is already there (the first cassette wins); under the key it answers (see refiled). */
  add(i: Interaction): void {
    const held = refiledContinue(i) ?? i;
    if (!this.has(held.key)) this.byKey.set(held.key, held);
  }
  /** Adds a scanned interaction unless its key is already there; whether it was added under its own key (one refiled is held parsed). */
  addStored(fd: number, where: ScannedInteraction): boolean {
    const refiled = mayLackContinue(where.key) ? refiledOf(() => readInteraction(fd, where)) : null;
    if (refiled) {
      if (!this.has(refiled.key)) this.byKey.set(refiled.key, refiled);
      return false;
    }
    if (this.has(where.key)) return false;
    this.byKey.set(where.key, { ...where, fd });
    return true;
  }
  /** Keeps a summary its cassette wrote for an interaction held (checked by its caller against the answer's stored length). */
  addSummary(s: AnswerSummary): void {
    this.summaries.set(s.key, s);
  }
  /** Adds a database cassette's interactions (their keys stay in it; each read by key when asked for); how many it holds. */
  addDatabase(db: SqliteCassette): number {
    const all = db.count();
    let before = 0;
    for (const key of this.byKey.keys()) if (db.holds(key)) before++;
    const entry = { db, count: all - before, after: this.byKey.size };
    this.dbs.push(entry);
    // Its recordings filed without their empty `continue`, held parsed under the key they answer
    // (only questions of other actions than query are read: a few of a database's keys).
    for (const key of db.keysBesideQueries()) {
      if (!mayLackContinue(key) || !this.answering(key, this.dbs.length - 1)) continue;
      const refiled = refiledOf(() => db.interaction(key));
      if (!refiled) continue;
      this.moved.add(key);
      entry.count--;
      if (!this.has(refiled.key)) this.byKey.set(refiled.key, refiled);
    }
    return all;
  }
  /** Keeps a file open for `addStored` entries; closed by `close`. */
  holdFile(fd: number): void {
    this.fds.push(fd);
  }

  get(key: string): Interaction | undefined {
    const e = this.byKey.get(key);
    if (e !== undefined && !isStored(e)) return e;
    const db = e === undefined ? this.databaseOf(key) : undefined;
    if (e === undefined && db === undefined) return undefined;
    let i = this.recent.get(key);
    if (i) {
      this.recent.delete(key);
      this.recent.set(key, i);
      return i;
    }
    i = e !== undefined ? readInteraction(e.fd, e) : readDatabase(db!, key);
    this.recent.set(key, i);
    if (this.recent.size > this.keep) this.recent.delete(this.recent.keys().next().value!);
    return i;
  }

  /** Every interaction (or those whose key passes `only`), parsed one by one (not kept). */
  *values(only?: (key: string) => boolean): IterableIterator<Interaction> {
    for (const key of this.keys()) {
      if (only && !only(key)) continue;
      yield this.recent.get(key) ?? this.read(key);
    }
  }

  /**
   * What knowledge reads of each interaction whose key passes `only`: the summary of its walk
   * (one its cassette kept, or one made from the answer once it was read), or the whole
   * interaction when knowledge reads more of it (meta answers). Both give the same knowledge.
   * A database offers only the keys `candidates` picks of it, when given (a prepared database's
   * keys knowledge reads, through an index: cassette/sql-prepare.ts), else all of its keys.
   */
  *teaching(only: (key: string) => boolean, candidates: (db: SqliteCassette) => Iterable<string> = (db) => db.keys()): IterableIterator<Interaction> {
    this.readDatabaseSummaries(only, candidates);
    for (const [key, e] of this.inOrder(candidates)) if (only(key)) yield this.teachingOf(key, e);
  }

  close(): void {
    for (const fd of this.fds.splice(0)) closeSync(fd);
    for (const { db } of this.dbs.splice(0)) db.close();
    this.recent.clear();
  }

  /** What knowledge reads of one interaction (see teaching). */
  private teachingOf(key: string, e: Interaction | Stored | undefined): Interaction {
    const held = this.summaries.get(key);
    if (held) return held;
    if (e !== undefined && !isStored(e)) return e;
    const i = this.recent.get(key) ?? this.read(key);
    const s = summarized(i.request) ? summarize(i) : null;
    if (s) this.summaries.set(key, s);
    return s ?? i;
  }

  /**
   * Reads the summaries the databases keep of the interactions whose key passes `only` (of those
   * `candidates` picks; each key asked once): at start none is read, so that a walk no question
   * needs (a snapshot's link-id crawl, which a prepared database's tables answer for) is never loaded.
   */
  private readDatabaseSummaries(only: (key: string) => boolean, candidates: (db: SqliteCassette) => Iterable<string>): void {
    for (const [at, { db }] of this.dbs.entries()) {
      const keys = new Set<string>();
      for (const key of candidates(db)) {
        if (this.summaries.has(key) || this.asked.has(key) || !only(key) || !this.answering(key, at)) continue;
        keys.add(key);
        this.asked.add(key);
      }
      // (written by the store alone: one that is no interaction is left, and its answer read instead)
      for (const s of db.walkSummariesOf([...keys])) if (interactionProblem(s) === null && keys.has(s.key)) this.summaries.set(s.key, s);
    }
  }

  /** Whether the database at `at` answers a key it holds (no cassette before it holds the key). */
  private answering(key: string, at: number): boolean {
    if (this.byKey.has(key)) return false;
    for (let n = 0; n < at; n++) if (this.dbs[n]!.db.holds(key)) return false;
    return true;
  }

  /** The first database holding a key no file holds (none for a key whose recording is held under another). */
  private databaseOf(key: string): SqliteCassette | undefined {
    if (this.moved.has(key)) return undefined;
    for (const { db } of this.dbs) if (db.holds(key)) return db;
    return undefined;
  }

  /** A key's interaction, read from where it is kept. */
  private read(key: string): Interaction {
    const e = this.byKey.get(key);
    if (e !== undefined) return isStored(e) ? readInteraction(e.fd, e) : e;
    return readDatabase(this.databaseOf(key)!, key);
  }
}

const isStored = (e: Interaction | Stored): e is Stored => 'fd' in e;

/**
 * A recording re-filed under the key it answers (cassette/stale-continue.ts), or null. One that
 * cannot be read is left where it is: its fault is reported when it is asked for, as any other's.
 */
function refiledOf(read: () => Interaction | undefined): Interaction | null {
  let i: Interaction | undefined;
  try {
    i = read();
  } catch {
    return null;
  }
  return i === undefined || interactionProblem(i) !== null ? null : refiledContinue(i);
}

/** An interaction a database holds, read. */
function readDatabase(db: SqliteCassette, key: string): Interaction {
  const i = db.interaction(key);
  if (!i) throw new Error('cassette file changed while replaying');
  return i;
}
