import { describe, expect, it } from 'vitest';
import { api } from '../support/app.js';

/**
 * prop=extlinks' SQL trace (debuginfo) says the query MediaWiki runs, and the answer is in that
 * query's order. Taken from the live wikis (`debuginfo=1`): 1.39 orders by page, then el_index_60
 * and el_id, selecting el_from twice for more than one page (ApiQueryExternalLinks adds the order
 * fields); 1.43 orders by el_id alone, for one page or many (its $orderBy is `[ 'el_id' ]`).
 */
type Sql = { debuginfo?: { queries?: { sql: string }[] } };
async function trace(pageids: string, version: string): Promise<string[]> {
  const res = await api({ action: 'query', prop: 'extlinks', pageids, ellimit: '3', formatversion: '2' }, { version });
  return ((JSON.parse(res.text) as Sql).debuginfo?.queries ?? []).map((q) => q.sql.replace(/^\S+: /, '')).filter((s) => s.includes('"externallinks"'));
}

describe('prop=extlinks: the SQL trace', () => {
  it('1.43, several pages: ORDER BY el_id, as the live wiki says', async () => {
    expect(await trace('2|4', '1.43.9')).toEqual(['SELECT  el_from,el_to_domain_index,el_to_path,el_id  FROM "externallinks"    WHERE el_from IN (2,4)   ORDER BY el_id LIMIT 4  ']);
  });
  it('1.43, one page: ORDER BY el_id', async () => {
    expect(await trace('4', '1.43.9')).toEqual(['SELECT  el_from,el_to_domain_index,el_to_path,el_id  FROM "externallinks"    WHERE el_from = 4  ORDER BY el_id LIMIT 4  ']);
  });
  it('1.39, several pages: el_from selected twice, ORDER BY el_from,el_index_60,el_id', async () => {
    expect(await trace('2|4', '1.39.17')).toEqual([`SELECT  el_from,el_to,el_from,el_index_60,el_id  FROM "externallinks"    WHERE el_from IN (2,4)  AND ((el_to NOT LIKE '//%' ESCAPE '\`' ) OR (el_index_60  LIKE 'http://%' ESCAPE '\`' ))  ORDER BY el_from,el_index_60,el_id LIMIT 4  `]);
  });
  it('1.39, one page: ORDER BY el_index_60,el_id', async () => {
    expect(await trace('4', '1.39.17')).toEqual([`SELECT  el_from,el_to,el_index_60,el_id  FROM "externallinks"    WHERE el_from = 4 AND ((el_to NOT LIKE '//%' ESCAPE '\`' ) OR (el_index_60  LIKE 'http://%' ESCAPE '\`' ))  ORDER BY el_index_60,el_id LIMIT 4  `]);
  });
});
