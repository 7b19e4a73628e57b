import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_DRIVERS, databasesUnavailable, openDatabase, sqliteDriver, type Database, type SqliteDriver } from '../../../src/cassette/sqlite-driver.js';

/**
 * The driver seam (src/cassette/sqlite-driver.ts): each driver this Node line can run (both on
 * Node 22, better-sqlite3 on 20, node:sqlite on 24) gives the answers better-sqlite3 gives, which
 * the cassette store's code was written against.
 */

const CHOICE = 'WIKITAPE_SQLITE_DRIVER';
const before = process.env[CHOICE];
afterEach(() => {
  if (before === undefined) delete process.env[CHOICE];
  else process.env[CHOICE] = before;
});

/** The drivers this line runs. */
const usable = SQLITE_DRIVERS.filter((d) => {
  process.env[CHOICE] = d;
  const ok = databasesUnavailable() === null;
  if (before === undefined) delete process.env[CHOICE];
  else process.env[CHOICE] = before;
  return ok;
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-driver-'));
});

/** A database made through `driver`, with a table t(a, b) of three rows. */
function made(driver: SqliteDriver, name: string): Database {
  process.env[CHOICE] = driver;
  const db = openDatabase(join(dir, `${driver.replace(':', '-')}-${name}.sqlite`), { fileMustExist: false });
  db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)');
  const put = db.prepare('INSERT INTO t (a, b) VALUES (?, ?)');
  db.transaction(() => {
    for (const [a, b] of [[1, 'one'], [2, 'two'], [3, null]] as const) put.run(a, b);
  })();
  return db;
}

describe('the SQLite driver seam', () => {
  it('runs node:sqlite on Node 24 and later, better-sqlite3 before', () => {
    delete process.env[CHOICE];
    expect(sqliteDriver()).toBe(Number(process.versions.node.split('.')[0]) >= 24 ? 'node:sqlite' : 'better-sqlite3');
    expect(usable).toContain(sqliteDriver());
  });

  describe.each(usable)('through %s', (driver) => {
    it('reads rows, plucked values and no row as better-sqlite3 does', () => {
      const db = made(driver, 'read');
      // The driver asked for is the one opened (only better-sqlite3's database has inTransaction).
      expect('inTransaction' in db).toBe(driver === 'better-sqlite3');
      expect(db.prepare('SELECT a, b FROM t ORDER BY a').all()).toEqual([{ a: 1, b: 'one' }, { a: 2, b: 'two' }, { a: 3, b: null }]);
      expect(db.prepare('SELECT b FROM t WHERE a = ?').get(2)).toEqual({ b: 'two' });
      expect(db.prepare('SELECT b FROM t WHERE a = ?').get(9)).toBeUndefined();
      const b = db.prepare('SELECT b, a FROM t WHERE a >= ? ORDER BY a').pluck();
      expect(b.all(2)).toEqual(['two', null]);
      expect(b.get(1)).toBe('one');
      expect(b.pluck(false).get(1)).toEqual({ b: 'one', a: 1 });
      expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(3);
      db.close();
      expect(db.open).toBe(false);
    });

    it('iterates plucked rows, and a statement left half-read is read again from its start', () => {
      const db = made(driver, 'iterate');
      const s = db.prepare('SELECT a FROM t ORDER BY a').pluck();
      for (const a of s.iterate()) {
        expect(a).toBe(1);
        break;
      }
      expect([...s.iterate()]).toEqual([1, 2, 3]);
      db.close();
    });

    it('binds undefined as NULL', () => {
      const db = made(driver, 'undefined');
      db.prepare('INSERT INTO t (a, b) VALUES (?, ?)').run(4, undefined);
      expect(db.prepare('SELECT b IS NULL FROM t WHERE a = 4').pluck().get()).toBe(1);
      db.close();
    });

    it('answers a pragma as rows, or with simple as its value', () => {
      const db = made(driver, 'pragma');
      expect(db.pragma('journal_mode = WAL')).toEqual([{ journal_mode: 'wal' }]);
      expect(db.pragma('user_version', { simple: true })).toBe(0);
      expect(db.pragma('user_version = 7')).toEqual([]);
      expect(db.pragma('user_version', { simple: true })).toBe(7);
      db.close();
    });

    it('commits a transaction, undoes one that throws, and undoes a nested one alone', () => {
      const db = made(driver, 'transaction');
      const put = db.prepare('INSERT INTO t (a, b) VALUES (?, ?)');
      const count = () => db.prepare('SELECT count(*) FROM t').pluck().get();
      expect(db.transaction((a: number) => put.run(a, 'x').changes)(10)).toBe(1);
      expect(count()).toBe(4);
      const failing = db.transaction(() => {
        put.run(11, 'y');
        throw new Error('undone');
      });
      expect(failing).toThrow(/^undone$/);
      expect(count()).toBe(4);
      db.transaction(() => {
        put.run(12, 'z');
        expect(failing).toThrow(/^undone$/);
      })();
      expect(db.prepare('SELECT a FROM t WHERE a >= 10 ORDER BY a').pluck().all()).toEqual([10, 12]);
      // No transaction is left open: a new one begins.
      db.transaction(() => put.run(13, 'w'))();
      expect(count()).toBe(6);
      db.close();
    });

    it('refuses to make a file it was told must exist', () => {
      process.env[CHOICE] = driver;
      expect(() => openDatabase(join(dir, 'absent.sqlite'), { fileMustExist: true })).toThrow(/unable to open database file/);
    });
  });

  it('refuses a driver it does not know, naming both', () => {
    process.env[CHOICE] = 'sqlite3';
    expect(databasesUnavailable()).toBe('WIKITAPE_SQLITE_DRIVER=sqlite3 names no SQLite driver (better-sqlite3 or node:sqlite)');
  });
});
