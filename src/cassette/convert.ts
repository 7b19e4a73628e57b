import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../util/ordered-json.js';
import { tooLongForJson } from '../wiki/fixtures.js';
import type { Cassette, Interaction } from './format.js';
import type { EntityShape } from './problems.js';
import { readInteraction, scanCassette } from './scan.js';
import { tableShapes } from './sql-table.js';
import { SqliteCassette } from './store-sqlite.js';
import { CassetteError, notACassette } from './store.js';

/**
 * `wikitape cassettes convert FROM TO`: a JSON cassette (`.json`) into a database cassette
 * (`.sqlite`) or back, member for member (docs/decisions/0018-database-cassettes.md). A JSON
 * cassette in wikitape's own layout is read interaction by interaction (cassette/scan.ts), so one
 * too big to read as one string converts too; the JSON a database would make is refused when it
 * would pass what Node.js can hold as one string.
 */

/** Node.js's longest string (~512 MB, V8's limit), with room for the indentation the bytes counted lack. */
const JSON_WALL = 400 * 1024 * 1024;

/** What a conversion did. */
export interface Converted {
  interactions: number;
  to: string;
}

const formatOf = (file: string) => (file.endsWith('.sqlite') ? 'sqlite' : file.endsWith('.json') ? 'json' : null);

/** Converts the cassette file `from` into `to` (which must not exist), by their extensions. */
export async function convertCassette(from: string, to: string, entities: readonly EntityShape[]): Promise<Converted> {
  const [a, b] = [formatOf(from), formatOf(to)];
  if (!a || !b || a === b) throw new CassetteError(`convert takes a cassette file and the file to make of it, one .json and one .sqlite (not ${from} → ${to})`);
  if (!existsSync(from)) throw new CassetteError(`cassette file ${from} cannot be read: it does not exist`);
  if (existsSync(to)) throw new CassetteError(`${to} is there already: convert makes a new file (remove it first, or name another)`);
  // SQLite said "the directory does not exist" of a database it could not open, and the JSON side ENOENT.
  if (!existsSync(dirname(to))) throw new CassetteError(`${to} cannot be made: there is no folder ${dirname(to)} (make it first, or name a file in a folder that is there)`);
  return a === 'json' ? toDatabase(from, to, entities) : toJson(from, to, entities);
}

async function toDatabase(from: string, to: string, entities: readonly EntityShape[]): Promise<Converted> {
  const { order, rest, interactions, count } = readJsonCassette(from, entities);
  const db = new SqliteCassette(to, tableShapes(entities), true);
  try {
    db.import(order, rest, interactions);
  } catch (e) {
    db.close();
    await rm(to, { force: true });
    throw e instanceof CassetteError ? e : new CassetteError(`cassette file ${from} cannot be converted: ${(e as Error).message}`);
  }
  db.close();
  return { interactions: count, to };
}

/** A JSON cassette's members, its interactions read one by one where its layout lets them be. */
function readJsonCassette(file: string, entities: readonly EntityShape[]): { order: string[]; rest: Omit<Cassette, 'interactions'>; interactions: Iterable<Interaction>; count: number } {
  const fd = openSync(file, 'r');
  let scanned: ReturnType<typeof scanCassette> = null;
  try {
    scanned = scanCassette(fd);
  } catch (e) {
    if (tooLongForJson(e)) {
      closeSync(fd);
      throw new CassetteError(`cassette file ${file} cannot be converted: a member other than its interactions is too big to read as one JSON text (Node.js strings stop at about 512 MB)`);
    }
  }
  if (scanned) {
    const found = scanned;
    const problem = notACassette({ ...found.rest, interactions: [] }, entities);
    if (problem) {
      closeSync(fd);
      throw new CassetteError(`cassette file ${file} is not a cassette: ${problem}`);
    }
    const interactions = (function* () {
      try {
        for (const where of found.interactions) yield readInteraction(fd, where);
      } finally {
        closeSync(fd);
      }
    })();
    return { order: found.members, rest: found.rest, interactions, count: found.interactions.length };
  }
  closeSync(fd);
  let c: unknown;
  try {
    c = parseKeepingKeyOrder(readFileSync(file, 'utf8'));
  } catch (e) {
    const why = e instanceof SyntaxError ? `it is not JSON (${e.message})` : tooLongForJson(e) ? 'it is too big to read as one JSON text and not in the layout wikitape writes' : (e as Error).message;
    throw new CassetteError(`cassette file ${file} cannot be read: ${why}`);
  }
  const problem = notACassette(c, entities);
  if (problem) throw new CassetteError(`cassette file ${file} is not a cassette: ${problem}`);
  const whole = c as Cassette;
  return { order: Object.keys(whole), rest: whole, interactions: whole.interactions, count: whole.interactions.length };
}

async function toJson(from: string, to: string, entities: readonly EntityShape[]): Promise<Converted> {
  const db = new SqliteCassette(from, tableShapes(entities));
  try {
    const bytes = db.textBytes();
    if (bytes > JSON_WALL) {
      throw new CassetteError(
        `cassette ${from} holds about ${Math.round(bytes / 2 ** 20)} MB of text: as JSON it would pass what Node.js can read as one string (~512 MB), so no replay could load it. ` +
          'Keep it as a database cassette, or record the part you need into a smaller cassette and convert that',
      );
    }
    const c = db.read();
    const problem = notACassette(c, entities);
    if (problem) throw new CassetteError(`cassette file ${from} is not a cassette: ${problem}`);
    // As the JSON store writes it (store.ts): pretty, two spaces, a final line break.
    await writeFile(to, `${stringifyKeepingKeyOrder(c, 2)}\n`, { flag: 'wx' });
    return { interactions: c.interactions.length, to };
  } finally {
    db.close();
  }
}
