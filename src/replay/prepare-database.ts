import type { ListEntity } from '../api/list-module.js';
import { SqliteCassette } from '../cassette/store-sqlite.js';
import { tableShapes } from '../cassette/sql-table.js';
import type { EntityShape } from '../cassette/problems.js';

/**
 * Prepares a database cassette file (SqliteCassette.prepare: what replay's knowledge works out of
 * its entities alone, and the links' ids its extlinks answers teach, worked out once so that
 * replay reads no kind whole for it: docs/decisions/0018-database-cassettes.md, "Knowledge"), for
 * `wikitape cassettes convert` to .sqlite and the scale bench's writer. Returns whether it is prepared.
 */
export function prepareDatabaseFile(file: string, shapes: readonly EntityShape[], entities: readonly ListEntity<object>[]): boolean {
  const db = new SqliteCassette(file, tableShapes(shapes));
  try {
    return db.prepare(entities);
  } finally {
    db.close();
  }
}
