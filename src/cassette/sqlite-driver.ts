import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite a database cassette is read and written through (docs/decisions/0018-database-cassettes.md,
 * "Node.js 24"): better-sqlite3 12 on Node 20 and 22, `node:sqlite` on Node 24 and later.
 * better-sqlite3 12 wraps its objects in the raw node::ObjectWrap, whose destructor on Node 24 asks
 * for the current Environment: a statement the garbage collector frees where there is none aborts
 * the process (`Assertion failed: (env) != nullptr` in node::RemoveEnvironmentCleanupHook). Node 24's
 * `node:sqlite` frees its statements with the GC safely and loads without a warning there; Node 20
 * has none, and Node 22's warns ExperimentalWarning. Both write the same file format (SQLite 3).
 *
 * `Database` and `Statement` are the part of better-sqlite3's API the cassette store uses, so its
 * code reads the same over either driver; the `node:sqlite` side below gives that part the
 * meaning better-sqlite3 gives it. The driver is loaded when the first database is opened, never
 * before, and the other one never (a JSON cassette loads neither).
 */

/** The drivers, by the module each loads. */
export const SQLITE_DRIVERS = ['better-sqlite3', 'node:sqlite'] as const;
export type SqliteDriver = (typeof SQLITE_DRIVERS)[number];

/** A value a statement binds: `undefined` binds NULL (better-sqlite3's meaning; node:sqlite refuses it). */
type BindValue = string | number | bigint | null | undefined | Uint8Array;

/** What a write statement reports. */
interface RunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

/** A prepared statement: better-sqlite3's, or node:sqlite's made to read as one. */
export interface Statement {
  /** Rows read as their first column's value alone (from now on, or off with `false`). */
  pluck(toggle?: boolean): this;
  /** The first row, or undefined when there is none. */
  get(...params: BindValue[]): unknown;
  all(...params: BindValue[]): unknown[];
  /** Rows one by one; a caller that stops early (`break`) resets the statement. */
  iterate(...params: BindValue[]): IterableIterator<unknown>;
  run(...params: BindValue[]): RunResult;
}

/** An open database: better-sqlite3's, or node:sqlite's made to read as one. */
export interface Database {
  readonly open: boolean;
  prepare(sql: string): Statement;
  /** Runs one or more statements without results. */
  exec(sql: string): this;
  /** `PRAGMA <source>`: its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /**
   * `fn` as one transaction: BEGIN, then COMMIT, or ROLLBACK when it throws; called inside another
   * transaction, a savepoint (better-sqlite3's nesting).
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

/** Chooses a driver other than the line's (checking that a database written by one reads alike through the other). */
const CHOICE = 'WIKITAPE_SQLITE_DRIVER';
/** Node's major version. */
const major = () => Number(process.versions.node.split('.')[0]);

/** The driver this process opens databases with: the line's, or the one `WIKITAPE_SQLITE_DRIVER` names. */
export function sqliteDriver(): SqliteDriver {
  const chosen = process.env[CHOICE];
  if (chosen === undefined || chosen === '') return major() >= 24 ? 'node:sqlite' : 'better-sqlite3';
  if ((SQLITE_DRIVERS as readonly string[]).includes(chosen)) return chosen as SqliteDriver;
  throw new Error(`${CHOICE}=${chosen} names no SQLite driver (${SQLITE_DRIVERS.join(' or ')})`);
}

/**
 * Why this process cannot open a database, or null: better-sqlite3 asked for on Node 24 (it can
 * abort the process, see above), or node:sqlite where the line has none usable (Node 20 has none;
 * an early 22 has it behind a flag, or without `setReturnArrays` and `isTransaction`, which came
 * with 24.0 and were brought to 22 later: 22.23 has them).
 */
export function databasesUnavailable(): string | null {
  let driver: SqliteDriver;
  try {
    driver = sqliteDriver();
  } catch (e) {
    return (e as Error).message;
  }
  if (driver === 'better-sqlite3' && major() >= 24) {
    return `${CHOICE}=better-sqlite3 is refused on Node.js ${process.version}: better-sqlite3 12 can abort a Node.js 24 process when the garbage collector frees its statements (leave ${CHOICE} unset to use node:sqlite)`;
  }
  if (driver === 'node:sqlite' && !nodeSqliteUsable()) {
    return `${CHOICE}=node:sqlite needs a Node.js whose node:sqlite has setReturnArrays and isTransaction (24, or a recent 22: 22.23 has them; this is ${process.version}); leave it unset to use better-sqlite3`;
  }
  return null;
}

const require = createRequire(import.meta.url);

let usable: boolean | undefined;
/** Whether this line has a node:sqlite with what NodeDatabase uses (found out once, on a database in memory). */
function nodeSqliteUsable(): boolean {
  if (usable !== undefined) return usable;
  const sqlite = nodeSqlite();
  if (!sqlite || typeof sqlite.StatementSync.prototype.setReturnArrays !== 'function') return (usable = false);
  const probe = new sqlite.DatabaseSync(':memory:', { timeout: 0 });
  usable = typeof probe.isTransaction === 'boolean';
  probe.close();
  return usable;
}

/**
 * Opens (or, without `fileMustExist`, makes) a database file through the process's driver, with
 * better-sqlite3's defaults on either: a 5 s busy timeout, foreign keys on, double-quoted strings
 * not taken as text. Callers check `databasesUnavailable()` first.
 */
export function openDatabase(file: string, options: { fileMustExist: boolean }): Database {
  if (sqliteDriver() === 'better-sqlite3') {
    const Open = require('better-sqlite3') as typeof BetterSqlite3;
    const db: Database = new Open(file, { fileMustExist: options.fileMustExist }) as BetterDatabase;
    return db;
  }
  // node:sqlite has no such option: it would make the file.
  if (options.fileMustExist && !existsSync(file)) throw new Error('unable to open database file');
  const sqlite = nodeSqlite();
  if (!sqlite) throw new Error(`node:sqlite is not available on Node.js ${process.version}`);
  return new NodeDatabase(new sqlite.DatabaseSync(file, { timeout: 5000 }));
}

/** better-sqlite3's database as used here: its `prepare` binding the values above (its types' default, a conditional type, matches no one interface). */
interface BetterDatabase extends Omit<BetterSqlite3.Database, 'prepare' | 'exec'> {
  prepare(sql: string): BetterSqlite3.Statement<BindValue[]>;
  exec(sql: string): this;
}

/** The part of node:sqlite used here (typed here: @types/node follows Node 20, which has none). */
interface NodeSqlite {
  DatabaseSync: new (file: string, options: { timeout: number }) => NodeSqliteDatabase;
  StatementSync: { prototype: { setReturnArrays?: unknown } };
}
interface NodeSqliteDatabase {
  readonly isTransaction: boolean;
  prepare(sql: string): NodeSqliteStatement;
  exec(sql: string): void;
  close(): void;
}
interface NodeSqliteStatement {
  setReturnArrays(on: boolean): void;
  get(...params: BindValue[]): unknown;
  all(...params: BindValue[]): unknown[];
  iterate(...params: BindValue[]): IterableIterator<unknown>;
  run(...params: BindValue[]): RunResult;
}

/** node:sqlite, or undefined where the line has none without a flag (Node 20, an early 22). */
function nodeSqlite(): NodeSqlite | undefined {
  return process.getBuiltinModule('node:sqlite') as NodeSqlite | undefined;
}

/** better-sqlite3 binds `undefined` as NULL; node:sqlite refuses it. */
const bindable = (params: BindValue[]): BindValue[] => (params.includes(undefined) ? params.map((p) => p ?? null) : params);

/** A node:sqlite statement read as better-sqlite3's: `pluck` by returning rows as arrays and taking the first value. */
class NodeStatement implements Statement {
  private plucked = false;

  constructor(private readonly s: NodeSqliteStatement) {}

  pluck(toggle = true): this {
    this.plucked = toggle;
    this.s.setReturnArrays(toggle);
    return this;
  }

  get(...params: BindValue[]): unknown {
    const row = this.s.get(...bindable(params));
    return this.plucked && row !== undefined ? (row as unknown[])[0] : row;
  }

  all(...params: BindValue[]): unknown[] {
    const rows = this.s.all(...bindable(params));
    return this.plucked ? rows.map((r) => (r as unknown[])[0]) : rows;
  }

  iterate(...params: BindValue[]): IterableIterator<unknown> {
    // Bound now, as better-sqlite3 does (a bad parameter throws here, not at the first row).
    const rows = this.s.iterate(...bindable(params));
    return this.plucked ? firstOfEach(rows) : rows;
  }

  run(...params: BindValue[]): RunResult {
    return this.s.run(...bindable(params));
  }
}

/** Each row's first value; a caller's early `return` reaches the statement's iterator (for…of calls it). */
function* firstOfEach(rows: IterableIterator<unknown>): IterableIterator<unknown> {
  for (const r of rows) yield (r as unknown[])[0];
}

/** A node:sqlite database read as better-sqlite3's (see Database). */
class NodeDatabase implements Database {
  private isOpen = true;

  constructor(private readonly db: NodeSqliteDatabase) {}

  get open(): boolean {
    return this.isOpen;
  }

  prepare(sql: string): Statement {
    return new NodeStatement(this.db.prepare(sql));
  }

  exec(sql: string): this {
    this.db.exec(sql);
    return this;
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const s = this.prepare(`PRAGMA ${source}`);
    return options.simple ? s.pluck().get() : s.all();
  }

  /** As better-sqlite3's: a savepoint when nested; on a throw (COMMIT's too), undone if still open, then rethrown. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      const nested = this.db.isTransaction;
      this.db.exec(nested ? 'SAVEPOINT wikitape' : 'BEGIN');
      try {
        const result = fn(...args);
        this.db.exec(nested ? 'RELEASE wikitape' : 'COMMIT');
        return result;
      } catch (e) {
        if (this.db.isTransaction) this.db.exec(nested ? 'ROLLBACK TO wikitape; RELEASE wikitape' : 'ROLLBACK');
        throw e;
      }
    };
  }

  close(): void {
    this.isOpen = false;
    this.db.close();
  }
}
