import { describe, expect, it } from 'vitest';
import { api, data } from '../support/app.js';

/**
 * Parameters, values and warnings as each version's ParamValidator and ApiMain treat them (every
 * expectation read from the live MediaWiki 1.39 and 1.43 first).
 */
const V139 = { version: '1.39.17' };
const V143 = { version: '1.43.9' };

describe.each([V139, V143])('MediaWiki $version', (profile) => {
  it('siprop with only unrecognized values warns and adds no empty query object', async () => {
    const res = await api({ action: 'query', meta: 'siteinfo', siprop: 'bogus' }, profile);
    expect(data(res)).toEqual({ batchcomplete: '', warnings: { siteinfo: { '*': 'Unrecognized value for parameter "siprop": bogus' } } });
    const empty = await api({ action: 'query', meta: 'siteinfo', siprop: '' }, profile);
    expect(data(empty)).toEqual({ batchcomplete: '' });
  });
});
