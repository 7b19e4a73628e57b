import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertCassette } from '../../src/cassette/convert.js';
import { LIST_ENTITIES } from '../../src/modules/index.js';
import { SqliteCassette } from '../../src/cassette/store-sqlite.js';
import { tableShapes } from '../../src/cassette/sql-table.js';

/**
 * What a database cassette's writers are checked by: the database converted back to JSON
 * (`wikitape cassettes convert`) is the file the JSON store writes for the same operation
 * (docs/decisions/0018-database-cassettes.md), the times of writing apart.
 */

/** A cassette's text with its times of recording made alike (each recording and write has its own). */
export function timesAlike(text: string): string {
  return text.replace(/"recordedAt": "[^"]*"/g, '"recordedAt": "T"');
}

/**
 * A cassette's text with what differs between two recordings of one live wiki made alike: times
 * of recording, and siteinfo's `time` (the wiki's clock).
 */
export function wikiTimesAlike(text: string): string {
  return timesAlike(text).replace(/"time": "[^"]*"/g, '"time": "T"');
}

/** The JSON a database cassette file converts back to, its times made alike. */
export async function convertedBack(file: string): Promise<string> {
  const to = join(await mkdtemp(join(tmpdir(), 'wikitape-back-')), 'back.json');
  await convertCassette(file, to, LIST_ENTITIES);
  return timesAlike(await readFile(to, 'utf8'));
}

/** The kinds a database cassette keeps in its tables (each list's own kind, unless a write took them out). */
export function tabledKinds(file: string): string[] {
  return opened(file, (db) => db.tabled().sort());
}

/** Whether a database cassette is prepared (SqliteCassette.prepared). */
export function isPrepared(file: string): boolean {
  return opened(file, (db) => db.prepared());
}

function opened<T>(file: string, use: (db: SqliteCassette) => T): T {
  const db = new SqliteCassette(file, tableShapes(LIST_ENTITIES));
  try {
    return use(db);
  } finally {
    db.close();
  }
}
