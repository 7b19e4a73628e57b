import { describe, expect, it } from 'vitest';
import { api } from '../../support/app.js';
import { escapeWikiText } from '../../../src/util/escape.js';

/**
 * wfEscapeWikiText as the live wikis print it: each input asked as `list=logevents&letitle=…`
 * (a bad title; errorformat=raw shows the escaped parameter) of MediaWiki 1.39.17 and 1.43.9.
 */
describe('escapeWikiText', () => {
  it.each([
    [' a[b', '&#32;a&#91;b', '&#32;a&#91;b'],
    ['a;b[', 'a&#59;b&#91;', 'a&#59;b&#91;'],
    ['a__b[', 'a_&#95;b&#91;', 'a_&#95;b&#91;'],
    ['http://x[', 'http&#58;//x&#91;', 'http&#58;//x&#91;'],
    ['mailto:x[', 'mailto&#58;x&#91;', 'mailto&#58;x&#91;'],
    ['Tel:x[', 'Tel&#58;x&#91;', 'Tel&#58;x&#91;'],
    ['xmailto:y[', 'xmailto:y&#91;', 'xmailto:y&#91;'],
    ['ISBN 123[', 'ISBN 123&#91;', 'ISBN 123&#91;'],
    ['a----[', 'a----&#91;', 'a----&#91;'],
    ['*a[', '&#42;a&#91;', '&#42;a&#91;'],
    [':a[', '&#58;a&#91;', '&#58;a&#91;'],
    ['a!!b[', 'a!!b&#91;', 'a&#33;!b&#91;'],
    ['-a[', '-a&#91;', '&#45;a&#91;'],
    ['+a[', '+a&#91;', '&#43;a&#91;'],
    ['[a_', '&#91;a_', '&#91;a&#95;'],
    ['[a~', '&#91;a~', '&#91;a&#126;'],
    ['_a[', '_a&#91;', '&#95;a&#91;'],
    ['[x~~~y', '&#91;x~~~y', '&#91;x~~&#126;y'],
    ['!a[', '!a&#91;', '&#33;a&#91;'],
    ['a\n!b[', 'a\n!b&#91;', 'a\n&#33;b&#91;'],
    [':Admin', '&#58;Admin', '&#58;Admin'],
    ['Шаблон:ISBN 1;a__b http://x mailto:y', 'Шаблон:ISBN 1&#59;a_&#95;b http&#58;//x mailto&#58;y', 'Шаблон:ISBN 1&#59;a_&#95;b http&#58;//x mailto&#58;y'],
    ['x[mailto:y ISBN 1 -', 'x&#91;mailto&#58;y ISBN 1 -', 'x&#91;mailto&#58;y ISBN 1 -'],
    ['a\n*b\n----', 'a\n&#42;b\n&#45;---', 'a\n&#42;b\n&#45;---'],
  ])('%j: %j in 1.39, %j in 1.43', (input, v139, v143) => {
    expect(escapeWikiText(input, false)).toBe(v139);
    expect(escapeWikiText(input, true)).toBe(v143);
  });

  it("in an error's text: a title part with a leading colon", async () => {
    const res = await api({ action: 'query', list: 'allpages', apnamespace: '2', apfrom: ':Admin', errorformat: 'wikitext', formatversion: '2' });
    expect(JSON.parse(res.text).errors[0]).toMatchObject({ code: 'invalidtitle', text: 'Плохой заголовок «&#58;Admin».' });
  });
});
