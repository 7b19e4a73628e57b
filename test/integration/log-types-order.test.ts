import { describe, expect, it } from 'vitest';
import { api, data } from '../support/app.js';

// The live wikis' answers to list=logevents&letype=bogus (recorded from MediaWiki 1.39.17 and
// 1.43.9 with SpamBlacklist): the extension's log type comes first in $wgLogTypes (extension
// registration merges its LogTypes ahead of core's), so the allowed values it lists start with it.
const TYPES_139 = ['spamblacklist', '', 'block', 'protect', 'rights', 'delete', 'upload', 'move', 'import', 'patrol', 'merge', 'suppress', 'tag', 'managetags', 'contentmodel', 'newusers', 'create'];
const TYPES_143 = [...TYPES_139.slice(0, 15), 'renameuser', ...TYPES_139.slice(15)];

describe.each([
  ['1.39.17', TYPES_139, '(paramvalidator-badvalue-enumnotmulti: letype, bogus, spamblacklist(comma-separator)(comma-separator)block(comma-separator)protect(comma-separator)rights(comma-separator)delete(comma-separator)upload(comma-separator)move(comma-separator)import(comma-separator)patrol(comma-separator)merge(comma-separator)suppress(comma-separator)tag(comma-separator)managetags(comma-separator)contentmodel(comma-separator)newusers(and)(word-separator)create, 17)'],
  ['1.43.9', TYPES_143, '(paramvalidator-badvalue-enumnotmulti: letype, bogus, spamblacklist(comma-separator)(comma-separator)block(comma-separator)protect(comma-separator)rights(comma-separator)delete(comma-separator)upload(comma-separator)move(comma-separator)import(comma-separator)patrol(comma-separator)merge(comma-separator)suppress(comma-separator)tag(comma-separator)managetags(comma-separator)contentmodel(comma-separator)renameuser(comma-separator)newusers(and)(word-separator)create, 18)'],
])('letype=bogus on %s lists the log types in the wiki\'s order', (version, types, qqx) => {
  it('in errorformat=raw', async () => {
    const raw = data(await api({ action: 'query', list: 'logevents', letype: 'bogus', errorformat: 'raw', formatversion: '2' }, { version }));
    expect((raw['errors'] as unknown[])[0]).toEqual({
      code: 'badvalue',
      key: 'paramvalidator-badvalue-enumnotmulti',
      params: [{ plaintext: 'letype' }, { plaintext: 'bogus' }, { list: types.map((plaintext) => ({ plaintext })), type: 'text' }, { num: types.length }],
      module: 'query+logevents',
    });
  });

  it('in errorlang=qqx', async () => {
    const qq = data(await api({ action: 'query', list: 'logevents', letype: 'bogus', errorformat: 'plaintext', errorlang: 'qqx', formatversion: '2' }, { version }));
    expect((qq['errors'] as { text: string }[])[0]!.text).toBe(qqx);
  });
});
