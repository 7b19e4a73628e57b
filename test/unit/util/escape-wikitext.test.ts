import { describe, expect, it } from 'vitest';
import { api } from '../../support/app.js';
import { escapeWikiText } from '../../../src/util/escape.js';

/**
 * wfEscapeWikiText, as the live wikis (1.39.17 and 1.43.9) print a bad title in `invalidtitle`
 * (`list=allpages&apnamespace=2&apfrom=…&errorformat=wikitext`): a leading colon, `;`, `__`,
 * `://` and a `mailto:`-like protocol's colon are escaped besides the markup characters.
 */
describe('escapeWikiText', () => {
  it.each([
    [':Admin', '&#58;Admin'],
    ['a[b', 'a&#91;b'],
    ['Шаблон:ISBN 1;a__b http://x mailto:y', 'Шаблон:ISBN 1&#59;a_&#95;b http&#58;//x mailto&#58;y'],
    ['x[mailto:y ISBN 1 -', 'x&#91;mailto&#58;y ISBN 1 -'],
    ['a\n*b\n----', 'a\n&#42;b\n&#45;---'],
  ])('%j → %j', (raw, escaped) => {
    expect(escapeWikiText(raw)).toBe(escaped);
  });

  it("in an error's text: a title part with a leading colon (1.39 and 1.43)", async () => {
    const res = await api({ action: 'query', list: 'allpages', apnamespace: '2', apfrom: ':Admin', errorformat: 'wikitext', formatversion: '2' });
    expect(JSON.parse(res.text).errors[0]).toMatchObject({ code: 'invalidtitle', text: 'Плохой заголовок «&#58;Admin».' });
  });
});
