import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Low, Memory } from 'lowdb';
import { DataFile } from 'lowdb/node';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../util/ordered-json.js';
import { type Cassette, emptyCassette } from './format.js';

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
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A cassette name is a plain file name: it can never point outside the cassettes folder. */
export function checkName(name: string): string {
  if (!NAME.test(name) || name.includes('..')) {
    throw new CassetteError(`cassette name "${name}" is not allowed: use letters, digits, ".", "_" and "-" (no folders)`);
  }
  return name;
}

/** Cassettes as pretty JSON files `<dir>/<name>.json`, written atomically by lowdb (temp file + rename). */
export class FileCassetteStore implements CassetteStore {
  readonly dir: string;
  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  async list(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    } catch {
      return [];
    }
  }

  /** The file of a cassette (the name checked: it never leaves the folder). */
  fileOf(name: string): string {
    const file = join(this.dir, `${checkName(name)}.json`);
    if (!file.startsWith(this.dir + sep)) throw new CassetteError(`cassette "${name}" would leave ${this.dir}`);
    return file;
  }

  async open(name: string, upstream: string): Promise<Low<Cassette>> {
    const file = this.fileOf(name);
    await mkdir(this.dir, { recursive: true });
    // Pretty JSON written atomically (steno: temp file + rename), integer-like keys kept in order.
    const adapter = new DataFile<Cassette>(file, { parse: (t) => parseKeepingKeyOrder(t) as Cassette, stringify: (d) => `${stringifyKeepingKeyOrder(d, 2)}\n` });
    const db = new Low<Cassette>(adapter, emptyCassette(upstream, new Date()));
    await db.read();
    return db;
  }
}

/** Cassettes in memory, for tests. */
export class MemoryCassetteStore implements CassetteStore {
  private readonly dbs = new Map<string, Low<Cassette>>();
  async list(): Promise<string[]> {
    return [...this.dbs.keys()].sort();
  }
  async open(name: string, upstream: string): Promise<Low<Cassette>> {
    checkName(name);
    let db = this.dbs.get(name);
    if (!db) {
      db = new Low<Cassette>(new Memory<Cassette>(), emptyCassette(upstream, new Date()));
      this.dbs.set(name, db);
    }
    return db;
  }
}
