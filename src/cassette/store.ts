import { existsSync, unlinkSync } from 'node:fs';
import { mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../util/ordered-json.js';
import { type Cassette, emptyCassette } from './format.js';
import { cassetteProblems, type EntityShape } from './problems.js';
import { summariesOf } from './walk-summary.js';
import { tooLongForJson } from '../wiki/fixtures.js';
import { SqliteCassette } from './store-sqlite.js';
import { DatabaseRecording } from './sql-recording.js';
import { CassetteChanges, followChanges } from './changes.js';
import { tableShapes } from './sql-table.js';
import type { ListEntity } from '../api/list-module.js';

/** Error for a cassette name or file that cannot be used; says what to do. */
export class CassetteError extends Error {
  readonly code = 'WIKITAPE_CASSETTE';
  constructor(message: string) {
    super(`wikitape: ${message}`);
    this.name = 'CassetteError';
  }
}

/** Where cassettes live: named documents that load and save whole. */
export interface CassetteStore {
  /** Names of the stored cassettes. */
  list(): Promise<string[]>;
  /** Opens a cassette (created empty, not yet written, when absent). */
  open(name: string, upstream: string): Promise<Low<Cassette>>;
  /** Where a cassette is kept, for messages (its file). */
  locate?(name: string): string;
  /** The file a cassette is kept in, for stores of files (replay scans them instead of parsing them whole). */
  fileOf?(name: string): string;
  /** The database cassette of a name, opened, when it is kept as one (replay reads it by key and through its tables). */
  databaseOf?(name: string): SqliteCassette | null;
  /**
   * A database cassette of a name that is there, opened to append recordings to by key and id
   * (sql-recording.ts), never read whole; null for any other (a recorder then opens its document).
   */
  appendTo?(name: string): DatabaseRecording | null;
  /**
   * Takes a cassette for one writer (a recorder): resolves to the function that lets it go, or
   * rejects with a CassetteError naming who holds it. Stores that cannot be shared leave it out.
   */
  lock?(name: string): Promise<() => void>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A cassette name is a plain file name: it can never point outside the cassettes folder. */
export function checkName(name: string): string {
  if (!NAME.test(name) || name.includes('..')) {
    throw new CassetteError(`cassette name "${name}" is not allowed: use letters, digits, ".", "_" and "-" (no folders)`);
  }
  return name;
}

/** The formats a cassette is kept in: pretty JSON (`<name>.json`) or a database (`<name>.sqlite`). */
type CassetteFormat = 'json' | 'sqlite';

/** What a store makes new cassettes with, and checks the cassettes it opens against. */
interface StoreOptions {
  /** The format of a cassette made new (one already there keeps its own). Default json. */
  format?: CassetteFormat;
  /**
   * The list modules' kinds of entity (ListEntity: kind and field types), in registry order: a new
   * cassette lists them so, and an opened one's entities of these kinds are checked field by
   * field. A kind not listed is added when first harvested. Default none.
   */
  entities?: readonly EntityShape[];
  /**
   * The list modules' entities in the lists' order (modules/index.ts KNOWLEDGE_ENTITIES): a
   * database cassette written through the store is then kept prepared as it is written
   * (SqliteCassette.write). Default none: a write leaves a database unprepared.
   */
  knowledge?: readonly ListEntity<object>[];
}

/** Cassettes as pretty JSON files `<dir>/<name>.json`, written atomically by lowdb (temp file + rename). */
export class FileCassetteStore implements CassetteStore {
  readonly dir: string;
  private readonly entities: readonly EntityShape[];
  private readonly format: CassetteFormat;
  private readonly knowledge: readonly ListEntity<object>[];
  constructor(dir: string, options: StoreOptions = {}) {
    this.dir = resolve(dir);
    this.entities = options.entities ?? [];
    this.knowledge = options.knowledge ?? [];
    this.format = options.format ?? 'json';
  }

  /** The cassettes of the folder, JSON and database ones; a name kept both ways is refused (which would replay?). */
  async list(): Promise<string[]> {
    let files: string[];
    try {
      files = await readdir(this.dir);
    } catch {
      return [];
    }
    const json = new Set(files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)));
    const db = files.filter((f) => f.endsWith(DB_EXT)).map((f) => f.slice(0, -DB_EXT.length));
    for (const name of db) if (json.has(name)) throw new CassetteError(`cassette "${name}" is kept twice, as ${this.fileOf(name)} and ${this.databaseFile(name)}: remove one`);
    return [...json, ...db].sort();
  }

  /** The database file a cassette is or would be kept in. */
  databaseFile(name: string): string {
    return this.fileOf(name).slice(0, -'.json'.length) + DB_EXT;
  }

  /** The database cassette of a name, opened, when it is kept as one (else null). */
  databaseOf(name: string): SqliteCassette | null {
    const file = this.databaseFile(name);
    const made = !existsSync(file) && !existsSync(this.fileOf(name)) && this.format === 'sqlite';
    if (!made && !existsSync(file)) return null;
    return new SqliteCassette(file, tableShapes(this.entities), made, this.knowledge);
  }

  /** A database cassette that is there and holds a cassette, opened to append recordings to (else null). */
  appendTo(name: string): DatabaseRecording | null {
    const file = this.databaseFile(name);
    if (!existsSync(file)) return null;
    const database = new SqliteCassette(file, tableShapes(this.entities), false, this.knowledge);
    const appending = DatabaseRecording.of(database);
    const problem = appending && this.problemOf(database);
    if (!appending || problem) database.close();
    if (problem) throw new CassetteError(`cassette file ${file} is not a cassette: ${problem}`);
    return appending;
  }

  /**
   * The database cassette of a name, opened to take interactions out of by key (`cassettes
   * prune`), never read whole; null when it is not kept as one, a CassetteError when it is not a cassette.
   */
  databaseToPrune(name: string): SqliteCassette | null {
    const database = this.databaseOf(name);
    // (one without members yet holds nothing: a document opened from it is the empty cassette)
    const problem = database && database.member('meta') !== undefined ? this.problemOf(database) : null;
    if (database && problem) {
      database.close();
      throw new CassetteError(`cassette file ${database.file} is not a cassette: ${problem}`);
    }
    return database;
  }

  /** What makes a database no cassette: checked as a document is, but for what it holds in tables (rows are checked as they are written). */
  private problemOf(database: SqliteCassette): string | null {
    const rest = database.rest(['summaries']);
    return notACassette({ ...rest, entities: { ...rest.entities, ...Object.fromEntries(database.tabled().map((k) => [k, []])) }, interactions: [] }, this.entities);
  }

  /** The file of a cassette (the name checked: it never leaves the folder). */
  fileOf(name: string): string {
    const file = join(this.dir, `${checkName(name)}.json`);
    if (!file.startsWith(this.dir + sep)) throw new CassetteError(`cassette "${name}" would leave ${this.dir}`);
    return file;
  }

  /** The file a cassette is kept in: its database when it has one (or is made as one), else its JSON file. */
  locate(name: string): string {
    const db = this.databaseFile(name);
    return existsSync(db) || (this.format === 'sqlite' && !existsSync(this.fileOf(name))) ? db : this.fileOf(name);
  }

  /**
   * A lock file `<name>.json.lock` beside the cassette, made with O_EXCL and holding the owner's
   * process id: a second recorder of the same cassette (in this process or another) is refused with
   * a message; a lock left by a process that is gone is taken over.
   */
  async lock(name: string): Promise<() => void> {
    const file = `${this.locate(name)}.lock`;
    await mkdir(this.dir, { recursive: true });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(file, `${process.pid}\n`, { flag: 'wx' });
        let released = false;
        return () => {
          if (released) return;
          released = true;
          try {
            unlinkSync(file);
          } catch {
            // already gone
          }
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new CassetteError(`cassette ${this.fileOf(name)} cannot be locked for recording: ${(e as Error).message}`);
        const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
        if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) {
          throw new CassetteError(
            `cassette ${this.fileOf(name)} is being recorded by another recorder (process ${pid}${pid === process.pid ? ', this one' : ''}); ` +
              `two recorders on one cassette would lose recordings: use another --cassette, or stop the other first (its lock: ${file})`,
          );
        }
        // left by a process that is gone: taken over
        await unlink(file).catch(() => undefined);
      }
    }
    throw new CassetteError(`cassette ${this.fileOf(name)} cannot be locked for recording: its lock file ${file} keeps coming back`);
  }

  /** Opens a cassette file; one that cannot be read, is not JSON or is not a cassette is a CassetteError naming it. */
  async open(name: string, upstream: string): Promise<Low<Cassette>> {
    const file = this.fileOf(name);
    await mkdir(this.dir, { recursive: true });
    const database = this.databaseOf(name);
    if (database) return this.openDatabase(database, upstream);
    // Pretty JSON written atomically (steno: temp file + rename), integer-like keys kept in order.
    // Each write keeps the walks' summaries beside the answers (cassette/walk-summary.ts).
    const adapter = new DataFile<Cassette>(file, { parse: (t) => parseKeepingKeyOrder(t) as Cassette, stringify: (d) => `${stringifyKeepingKeyOrder(withSummaries(d), 2)}\n` });
    // A write that fails (a full disk) leaves no partial temporary file behind (steno names it
    // `.<file>.tmp`); the cassette itself is untouched. Only a file is removed, never a folder.
    // (Writers of a cassette write one at a time, so no other write's temporary file is there.)
    const write = adapter.write.bind(adapter);
    adapter.write = async (data) => {
      try {
        await write(data);
      } catch (e) {
        await unlink(join(dirname(file), `.${basename(file)}.tmp`)).catch(() => undefined);
        throw e;
      }
    };
    const db = new Low<Cassette>(adapter, emptyCassette(upstream, new Date(), this.entities.map((e) => e.kind)));
    try {
      await db.read();
    } catch (e) {
      const why =
        e instanceof SyntaxError
          ? `it is not JSON (${e.message})`
          : tooLongForJson(e)
            ? 'it is too big to read as one JSON text (Node.js strings stop at about 512 MB): convert it to a database cassette (wikitape cassettes convert), or record into several cassettes'
            : (e as Error).message;
      throw new CassetteError(`cassette file ${file} cannot be read: ${why}`);
    }
    const problem = notACassette(db.data, this.entities);
    if (problem) throw new CassetteError(`cassette file ${file} is not a cassette: ${problem}`);
    return db;
  }

  /**
   * A database cassette as the document its writers change: read whole, written by what changed
   * (SqliteCassette.write: what its writers told, cassette/changes.ts; a change not told is not
   * written), the walks' summaries kept per interaction in its table.
   */
  private async openDatabase(database: SqliteCassette, upstream: string): Promise<Low<Cassette>> {
    const changes = new CassetteChanges();
    const adapter = {
      read: () => Promise.resolve(database.member('meta') === undefined ? null : database.read()),
      write: (data: Cassette) => {
        const told = changes.take();
        try {
          database.write(data, told);
        } catch (e) {
          changes.restore(told);
          return Promise.reject(e as Error);
        }
        return Promise.resolve();
      },
    };
    const db = new Low<Cassette>(adapter, emptyCassette(upstream, new Date(), this.entities.map((e) => e.kind)));
    followChanges(db, changes);
    try {
      await db.read();
      const problem = notACassette(db.data, this.entities);
      if (problem) throw new CassetteError(`cassette file ${database.file} is not a cassette: ${problem}`);
    } catch (e) {
      database.close();
      throw e;
    }
    databases.set(db, database);
    return db;
  }
}

/** The database behind each document a store opened from one (see closeCassette). */
const databases = new WeakMap<Low<Cassette>, SqliteCassette>();

/**
 * Lets go of a cassette document a store opened, once its writes are done: a database cassette's
 * connection is closed. SQLite keeps each write in its write-ahead log (`<name>.sqlite-wal`) until
 * a checkpoint; the last connection's close moves the log into the `.sqlite` file and removes it,
 * so the file alone (copied, committed) holds every recording. A process that exits without it
 * (`wikitape record` stopped: process.exit closes nothing) left the recordings in the log beside
 * the file. A JSON document holds nothing open.
 */
export function closeCassette(db: Low<Cassette>): void {
  databases.get(db)?.close();
}

/**
 * Prepares the database cassette of a name (SqliteCassette.prepare, for the store's `knowledge`)
 * when it is one and its writes left it unprepared: once, after writes a step cannot follow (a
 * recording taken out) or a database made unprepared. Replay then reads no kind whole for it.
 */
export function prepareDatabase(store: CassetteStore, name: string): void {
  const database = store.databaseOf?.(name) ?? null;
  try {
    if (database && !database.prepared()) database.prepare();
  } finally {
    database?.close();
  }
}

/** A cassette as the file store writes it: with the summaries of its walks as they are now (none: no member). */
function withSummaries(c: Cassette): Cassette {
  const summaries = Array.isArray(c.interactions) ? summariesOf(c.interactions) : [];
  if (summaries.length === 0 && c.summaries === undefined) return c;
  return { ...c, summaries };
}

/** The extension of database cassettes. */
const DB_EXT = '.sqlite';

/** Whether a process of this id is running (signal 0 checks without sending anything). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What makes a parsed file no cassette (its first problem), or null: the members every reader relies on. */
export function notACassette(c: unknown, entities: readonly EntityShape[] = []): string | null {
  return cassetteProblems(c, entities, 1)[0] ?? null;
}
