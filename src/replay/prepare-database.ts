import type { ListEntity } from '../api/list-module.js';
import { isUserKey, type Interaction } from '../cassette/format.js';
import { SqliteCassette } from '../cassette/store-sqlite.js';
import { tableShapes } from '../cassette/sql-table.js';
import type { EntityShape } from '../cassette/problems.js';
import type { Page } from '../wiki/model.js';
import { learnLinkIdsOf, linkPageIds } from './link-ids.js';

/**
 * What replay's knowledge works out of a database cassette's entities alone (knowledge.ts
 * prepareEntities, link-ids.ts), worked out once when the database is written (`wikitape cassettes
 * convert`, the scale bench's writer), so that replay reads no kind whole for it
 * (docs/decisions/0018-database-cassettes.md, "Knowledge"):
 * - the entity passes (cassette/sql-prepare.ts), over the tables a batch at a time;
 * - the links' ids its recorded `prop=extlinks` answers show, learned on the pages those answers
 *   name (linkPageIds), read by id.
 * Replay learns link ids from what readers were shown; whether a logged-in recording shows what
 * readers see depends on its user's rights, known at replay only. A database holding a logged-in
 * extlinks recording is left unprepared (replay works it all out, as for a JSON cassette).
 * Returns whether the database is prepared.
 */
function prepareDatabase(db: SqliteCassette, entities: readonly ListEntity<object>[]): boolean {
  const links: Interaction[] = [];
  for (const key of db.keys()) {
    if (!/(?:^|&)prop=/.test(key)) continue;
    const i = db.interaction(key);
    if (i?.request['prop'] !== 'extlinks') continue;
    if (isUserKey(key)) return false;
    links.push(i);
  }
  const pages = new Map<number, Page>();
  if (links.length > 0 && db.tabled().includes('pages')) {
    const table = db.table('pages');
    for (const id of linkPageIds(links)) {
      const p = table.get(String(id)) as Page | undefined;
      if (p) pages.set(id, p);
    }
    learnLinkIdsOf(pages, () => links);
  }
  return db.prepare(entities, new Map([['pages', [...pages.values()]]]));
}

/** prepareDatabase of a database cassette file (`wikitape cassettes convert` to .sqlite, the scale bench's writer). */
export function prepareDatabaseFile(file: string, shapes: readonly EntityShape[], entities: readonly ListEntity<object>[]): boolean {
  const db = new SqliteCassette(file, tableShapes(shapes));
  try {
    return prepareDatabase(db, entities);
  } finally {
    db.close();
  }
}
