import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertCassette } from '../../src/cassette/convert.js';
import { LIST_ENTITIES } from '../../src/modules/index.js';

/**
 * What a database cassette's writers are checked by: the database converted back to JSON
 * (`wikitape cassettes convert`) is the file the JSON store writes for the same operation
 * (docs/decisions/0018-database-cassettes.md), the times of writing apart.
 */

/** A cassette's text with its times of recording made alike (each recording and write has its own). */
export function timesAlike(text: string): string {
  return text.replace(/"recordedAt": "[^"]*"/g, '"recordedAt": "T"');
}

/** The JSON a database cassette file converts back to, its times made alike. */
export async function convertedBack(file: string): Promise<string> {
  const to = join(await mkdtemp(join(tmpdir(), 'wikitape-back-')), 'back.json');
  await convertCassette(file, to, LIST_ENTITIES);
  return timesAlike(await readFile(to, 'utf8'));
}
