import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../util/ordered-json.js';
import type { Interaction } from './format.js';
import type { Database, Statement } from './sqlite-driver.js';
import { summariesOf, type AnswerSummary } from './walk-summary.js';

/**
 * The parts of a database cassette's document (store-sqlite.ts) that a write keeps by what changed:
 * its top-level members and its walks' summaries. A write stores what a recording changed, not
 * what the cassette holds (docs/decisions/0018-database-cassettes.md).
 */

/** The walks' summaries, one row per interaction that has one (cassette/walk-summary.ts), by key. */
const SUMMARY_TABLE = 'CREATE TABLE IF NOT EXISTS walk_summaries (key TEXT PRIMARY KEY, json TEXT NOT NULL) WITHOUT ROWID';

/** Up to how many summaries StoredSummaries.usedOf picks out of the `summaries` member in SQLite (more: the member is parsed whole). */
const PICKED_SUMMARIES = 1000;

/** A member as stored: its name and its JSON text (null: kept elsewhere, `interactions` in its table, `summaries` in walk_summaries). */
export type StoredMember = readonly [name: string, json: string | null];

/**
 * The `members` table: a member is rewritten only when its text changed (a recording changes
 * `meta`'s time, rarely anything else), all of them again only when their names or order did.
 * What the table holds is read once, at the first write; a write that failed forgets it.
 */
export class StoredMembers {
  private held: StoredMember[] | null = null;

  constructor(private readonly db: Database) {}

  /** Stores the members in their order (within the caller's transaction). */
  write(members: readonly StoredMember[]): void {
    const held = this.stored();
    if (held.length === members.length && held.every(([name], n) => name === members[n]![0])) {
      const update = this.db.prepare('UPDATE members SET json = ? WHERE name = ?');
      members.forEach(([name, json], n) => json !== held[n]![1] && update.run(json, name));
    } else {
      this.db.prepare('DELETE FROM members').run();
      const add = this.db.prepare('INSERT INTO members (position, name, json) VALUES (?, ?, ?)');
      members.forEach(([name, json], n) => add.run(n, name, json));
    }
    this.held = [...members];
  }

  /** Stores the members named with their new text, the others as they are (a new one goes last). */
  update(changed: ReadonlyMap<string, string | null>): void {
    const held = this.stored();
    const names = new Set(held.map(([name]) => name));
    this.write([...held.map(([name, json]) => [name, changed.has(name) ? changed.get(name)! : json] as const), ...[...changed].filter(([name]) => !names.has(name))]);
  }

  /** Reads the table again at the next write (a write that failed left it as it was before). */
  forget(): void {
    this.held = null;
  }

  /** The members as the table holds them (read once). */
  private stored(): StoredMember[] {
    return (this.held ??= this.db.prepare('SELECT name, json FROM members ORDER BY position').all().map((r) => [(r as { name: string }).name, (r as { json: string | null }).json] as const));
  }
}

/**
 * The `walk_summaries` table: the summary of each interaction that has one, written as the
 * interaction is stored or removed, and read as replay uses them. A database written before they were kept so (its table emptied
 * by each write, the summaries in a `summaries` member) has them all made once, at its first write.
 */
export class StoredSummaries {
  private complete = false;
  private statements: { put: Statement; drop: Statement } | null = null;

  constructor(private readonly db: Database) {}

  /** Makes the table hold every interaction's summary before a write changes some (within the caller's transaction). */
  ready(interactions: () => Iterable<Interaction>): void {
    if (this.complete) return;
    this.db.exec(SUMMARY_TABLE);
    const marked = this.db.prepare("SELECT count(*) FROM members WHERE name = 'summaries' AND json IS NULL").pluck().get() === 1;
    if (!marked && !this.any() && hasRows(this.db, 'interactions')) for (const i of interactions()) this.put(i);
    this.complete = true;
  }

  /** The interaction `i` is stored: its summary, or none. */
  put(i: Interaction): void {
    const [s] = summariesOf([i]);
    if (s) this.sql().put.run(s.key, stringifyKeepingKeyOrder(s));
    else this.sql().drop.run(i.key);
  }

  /** The interaction of `key` is removed. */
  drop(key: string): void {
    this.sql().drop.run(key);
  }

  /** Whether it holds any. */
  any(): boolean {
    return hasRows(this.db, 'walk_summaries');
  }

  /** Every summary, in the interactions' order (a JSON cassette's `summaries` member). */
  all(): AnswerSummary[] {
    const rows = this.db.prepare('SELECT key, json FROM walk_summaries').all() as { key: string; json: string }[];
    // (JavaScript's order of keys, as the document's interactions are sorted, not SQLite's bytes)
    rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return rows.map((r) => parseKeepingKeyOrder(r.json) as AnswerSummary);
  }

  /** Checks the table again at the next write (a write that failed left it as it was before). */
  forget(): void {
    this.complete = false;
  }

  /**
   * The summaries replay uses: the table's, or, in a database written by a wikitape that emptied
   * the table at each write, its `summaries` member.
   */
  used(): AnswerSummary[] {
    const made = this.hasTable() ? (this.db.prepare('SELECT json FROM walk_summaries').pluck().all() as string[]) : [];
    if (made.length > 0) return made.map((j) => parseKeepingKeyOrder(j) as AnswerSummary);
    return this.member();
  }

  /**
   * What `used` gives of those `keys` that have one, read for these keys alone: from the table by
   * key; from the `summaries` member picked out by SQLite (json_each), not parsed whole here.
   */
  usedOf(keys: readonly string[]): AnswerSummary[] {
    if (keys.length === 0) return [];
    if (this.hasTable() && this.any()) {
      const one = this.db.prepare('SELECT json FROM walk_summaries WHERE key = ?').pluck();
      const out: AnswerSummary[] = [];
      for (const key of keys) {
        const json = one.get(key) as string | undefined;
        if (json !== undefined) out.push(parseKeepingKeyOrder(json) as AnswerSummary);
      }
      return out;
    }
    // (many keys, as when knowledge reads every walk: the member parsed once costs less than picking each)
    if (keys.length > PICKED_SUMMARIES) {
      const wanted = new Set(keys);
      return this.member().filter((s) => wanted.has(s?.key));
    }
    const picked = this.db.prepare("SELECT s.value FROM members m, json_each(m.json) s WHERE m.name = 'summaries' AND json_type(m.json) = 'array' AND json_extract(s.value, '$.key') IN (SELECT value FROM json_each(?))").pluck();
    return (picked.all(JSON.stringify(keys)) as string[]).map((j) => parseKeepingKeyOrder(j) as AnswerSummary);
  }

  /** The `summaries` member's summaries (none when it has no text: they are in the table). */
  private member(): AnswerSummary[] {
    const json = this.db.prepare("SELECT json FROM members WHERE name = 'summaries'").pluck().get() as string | null | undefined;
    const member = typeof json === 'string' ? parseKeepingKeyOrder(json) : undefined;
    return Array.isArray(member) ? (member as AnswerSummary[]) : [];
  }

  private hasTable(): boolean {
    return this.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'walk_summaries'").pluck().get() === 1;
  }

  private sql(): { put: Statement; drop: Statement } {
    return (this.statements ??= {
      put: this.db.prepare('INSERT OR REPLACE INTO walk_summaries (key, json) VALUES (?, ?)'),
      drop: this.db.prepare('DELETE FROM walk_summaries WHERE key = ?'),
    });
  }
}

/** Whether a table holds any row. */
function hasRows(db: Database, table: string): boolean {
  return db.prepare(`SELECT EXISTS (SELECT 1 FROM ${table})`).pluck().get() === 1;
}

/** The members every interaction row has a column for, in a written cassette's order. */
const COLUMNS = ['key', 'request', 'status', 'headers', 'body', 'recordedAt', 'user'] as const;

/** Interaction rows as stored. */
export interface Row {
  key: string;
  request: string;
  status: number;
  headers: string;
  body: string;
  recorded_at: string | null;
  user: string | null;
  extra: string | null;
}

/** An interaction as its row stores it. */
export function toRow(i: Interaction): (string | number | null)[] {
  const extra = Object.fromEntries(Object.entries(i).filter(([k]) => !(COLUMNS as readonly string[]).includes(k)));
  return [i.key, JSON.stringify(i.request), i.status, JSON.stringify(i.headers), stringifyKeepingKeyOrder(i.body), i.recordedAt ?? null, i.user ?? null, Object.keys(extra).length ? stringifyKeepingKeyOrder(extra) : null];
}

/** An interaction as its row stored it. */
export function fromRow(r: Row): Interaction {
  const i: Record<string, unknown> = { key: r.key, request: JSON.parse(r.request), status: r.status, headers: JSON.parse(r.headers), body: parseKeepingKeyOrder(r.body) };
  if (r.recorded_at !== null) i['recordedAt'] = r.recorded_at;
  if (r.user !== null) i['user'] = r.user;
  if (r.extra !== null) Object.assign(i, parseKeepingKeyOrder(r.extra));
  return i as unknown as Interaction;
}
