import { describe, expect, it } from 'vitest';
import { api, builtin, data } from '../support/app.js';

const DOCREF_EN =
  'See http://127.0.0.1:8088/wiki/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.';

async function error(params: Record<string, string>, profile = {}) {
  const res = await api({ action: 'query', ...params }, profile);
  return { res, body: data(res) as { error: Record<string, unknown>; warnings?: Record<string, unknown> } };
}

describe('errors in the default (BC) format', () => {
  it('answers status 200 with the error object, the docref and the MediaWiki-API-Error header', async () => {
    const { res } = await error({ list: 'logevents', ledir: 'up' });
    expect(res.status).toBe(200);
    expect(res.headers['mediawiki-api-error']).toBe('badvalue');
    expect(res.headers['cache-control']).toBe('private, must-revalidate, max-age=0');
    expect(res.text).toBe(`{"error":{"code":"badvalue","info":"Unrecognized value for parameter \\"ledir\\": up.","*":${JSON.stringify(DOCREF_EN)}}}`);
  });

  it.each([
    [{ list: 'logevents', lelimit: 'abc' }, 'badinteger', 'Invalid value "abc" for integer parameter "lelimit".'],
    [{ list: 'logevents', lelimit: '' }, 'badinteger', 'Invalid value "" for integer parameter "lelimit".'],
    [{ list: 'logevents', lelimit: 'MAX' }, 'badinteger', 'Invalid value "MAX" for integer parameter "lelimit".'],
    [{ list: 'logevents', letype: 'bogus' }, 'badvalue', 'Unrecognized value for parameter "letype": bogus.'],
    [{ list: 'logevents', lestart: 'yesterday' }, 'badtimestamp', 'Invalid value "yesterday" for timestamp parameter "lestart".'],
    [{ list: 'logevents', leaction: 'bogus' }, 'unknown_leaction', 'Unrecognized value for parameter "leaction": bogus.'],
    [{ list: 'logevents', letitle: 'a[b' }, 'invalidtitle', 'Bad title "a[b".'],
    [{ list: 'logevents', letitle: 'X', lenamespace: '0' }, 'invalidparammix', 'The parameters "letitle" and "lenamespace" can not be used together.'],
    // named in the module's order of its parameters (title, namespace, prefix), not the order the check lists them
    [{ list: 'logevents', lenamespace: '0', leprefix: 'A' }, 'invalidparammix', 'The parameters "lenamespace" and "leprefix" can not be used together.'],
    [{ list: 'logevents', leprefix: 'A', letitle: 'X', lenamespace: '0' }, 'invalidparammix', 'The parameters "letitle", "lenamespace" and "leprefix" can not be used together.'],
    // in the order the module declares them, not the order it checks them in (1.39 and 1.43)
    [{ list: 'logevents', leprefix: 'A', lenamespace: '0' }, 'invalidparammix', 'The parameters "lenamespace" and "leprefix" can not be used together.'],
    [{ list: 'logevents', leprefix: 'A', lenamespace: '0', letitle: 'X' }, 'invalidparammix', 'The parameters "letitle", "lenamespace" and "leprefix" can not be used together.'],
    // stripMarkup tokenizes HTML: the unterminated "<b…" swallows the rest (as the real 1.39 answers).
    [{ list: 'logevents', leuser: 'a<b' }, 'baduser', 'Invalid value "a'],
    [{ list: 'logevents', lecontinue: 'garbage' }, 'badcontinue', 'Invalid continue param. You should pass the original value returned by the previous query.'],
    [{ list: 'logevents', lecontinue: '20240101000000|abc' }, 'badcontinue', 'Invalid continue param. You should pass the original value returned by the previous query.'],
    [{ list: 'logevents', continue: 'nopipes' }, 'badcontinue', 'Invalid continue param. You should pass the original value returned by the previous query.'],
    [{ list: 'logevents', ledir: '\u001folder' }, 'badvalue', 'Parameter "ledir" accepts only a single value. U+001F multi-value separation may only be used for multi-valued parameters.'],
    [{ list: 'blocks', bkip: 'bogus' }, 'param_ip', 'IP parameter is not valid.'],
    [{ list: 'blocks', bkip: '1.0.0.0/8' }, 'cidrtoobroad', 'IPv4 CIDR ranges broader than /16 are not accepted.'],
    [{ list: 'blocks', bkip: '2001:db8::/16' }, 'cidrtoobroad', 'IPv6 CIDR ranges broader than /19 are not accepted.'],
    [{ list: 'blocks', bkshow: 'account|!account' }, 'show', 'Incorrect parameter - mutually exclusive values may not be supplied.'],
    [{ list: 'blocks', bkids: 'x' }, 'badinteger', 'Invalid value "x" for integer parameter "bkids".'],
    [{ list: 'blocks', bkusers: 'A', bkip: '1.2.3.4' }, 'invalidparammix', 'The parameters "bkusers" and "bkip" can not be used together.'],
    [{ list: 'protectedtitles', ptcontinue: 'a|b' }, 'badcontinue', 'Invalid continue param. You should pass the original value returned by the previous query.'],
    [{ prop: 'extlinks', titles: 'Alpha', pageids: '1' }, 'multisource', 'The "pageids" parameter cannot be used with "titles".'],
    [{ prop: 'extlinks', titles: 'Alpha', elquery: '*' }, 'badquery', 'Invalid query.'],
    // every server's replication lag needs $wgShowHostnames (off by default, as on the live wikis)
    [{ meta: 'siteinfo', siprop: 'general|dbrepllag', sishowalldb: '1' }, 'includeAllDenied', 'Cannot view all servers\' info unless "$wgShowHostnames" is true.'],
  ])('%o → %s', async (params, code, info) => {
    const { res, body } = await error(params);
    expect(res.headers['mediawiki-api-error']).toBe(code);
    expect(body.error['code']).toBe(code);
    expect(body.error['info']).toBe(info);
  });

  it('keeps the warnings recorded before the error', async () => {
    const { body } = await error({ list: 'logevents', lelimit: '0', letype: 'bogus' });
    expect(body).toEqual({
      error: { code: 'badvalue', info: 'Unrecognized value for parameter "letype": bogus.', '*': DOCREF_EN },
      warnings: { logevents: { '*': 'The value "0" for parameter "lelimit" must be between 1 and 500.' } },
    });
  });

  it('reports too many values with the limits as data', async () => {
    const { body } = await error({ prop: 'extlinks', titles: Array.from({ length: 51 }, (_, i) => `T${i}`).join('|') });
    expect(body.error).toMatchObject({ code: 'toomanyvalues', info: 'Too many values supplied for parameter "titles". The limit is 50.', limit: 50, lowlimit: 50, highlimit: 500 });
    expect(body.error.parameter).toBeUndefined();
    // 1.43's ParamValidator names the parameter in the data too (checked against the live 1.43)
    const many = Array.from({ length: 51 }, (_, i) => `T${i}`).join('|');
    const v143 = data(await api({ action: 'query', prop: 'extlinks', titles: many, formatversion: '2' }, { version: '1.43.9' }));
    expect(v143['error']).toMatchObject({ code: 'toomanyvalues', parameter: 'titles', limit: 50, lowlimit: 50, highlimit: 500 });
    expect(Object.keys(v143['error'] as object)).toEqual(['code', 'info', 'parameter', 'limit', 'lowlimit', 'highlimit', 'docref']);
  });

  it('fails an unknown action with badvalue and a missing url with missingparam', async () => {
    expect(data(await api({ action: 'bogus' })).error).toMatchObject({ code: 'badvalue', info: 'Unrecognized value for parameter "action": bogus.' });
    expect(data(await api({ action: 'spamblacklist' })).error).toMatchObject({ code: 'missingparam', info: 'The "url" parameter must be set.' });
  });

  it('distinguishes 1.39 and 1.43 continue parsing', async () => {
    const loose = await api({ action: 'query', list: 'logevents', lecontinue: '20240304080000|10.0', lelimit: '1' });
    expect(data(loose)['query']).toEqual({ logevents: [expect.objectContaining({ logid: 10 })] });
    const strict = await api({ action: 'query', list: 'logevents', lecontinue: '20240304080000|10.0' }, { version: '1.43.9' });
    expect(strict.headers['mediawiki-api-error']).toBe('badcontinue');
    const garbage139 = await api({ action: 'query', list: 'logevents', lecontinue: 'garbage|5' });
    expect(garbage139.headers['mediawiki-api-error']).toBe('internal_api_error_Wikimedia\\Timestamp\\TimestampException');
  });

  // Checked against both live wikis: 1.43 keeps a continue timestamp only if the database gives it
  // back unchanged, 1.39 rolls a month 13 over and fails on a date outside years 0-9999.
  it.each(['20241301000000|10', '20240304250000|10', '00000000000000|10', '99999999999999|10'])('1.43 refuses the continue timestamp %s that does not come back unchanged', async (lecontinue) => {
    const lists: Record<string, string>[] = [{ list: 'logevents', lecontinue }, { list: 'blocks', bkcontinue: lecontinue }, { list: 'protectedtitles', ptcontinue: lecontinue.replace('|10', '|0|X') }];
    for (const list of lists) {
      const res = await api({ action: 'query', ...list }, { version: '1.43.9' });
      expect(res.headers['mediawiki-api-error'], JSON.stringify(list)).toBe('badcontinue');
    }
  });

  it('1.39 fails a continue timestamp outside years 0-9999 in getTimestamp, and rolls a month 13 over', async () => {
    for (const lecontinue of ['00000000000000|10', '99999999999999|10']) {
      const { body } = await error({ list: 'logevents', lecontinue });
      expect(body.error['info']).toBe('[] Exception caught: Wikimedia\\Timestamp\\ConvertibleTimestamp::getTimestamp: The timestamp cannot be represented in the specified format');
    }
    const { body } = await error({ list: 'logevents', lecontinue: 'abc|10' });
    expect(body.error['info']).toBe('[] Exception caught: Wikimedia\\Timestamp\\ConvertibleTimestamp::setTimestamp: Invalid timestamp - abc');
    // 2024-13-01 is 2025-01-01: past every entry, so the whole list from its newest.
    const rolled = data(await api({ action: 'query', list: 'logevents', lecontinue: '20241301000000|10', lelimit: '1', leprop: 'ids' }));
    const first = data(await api({ action: 'query', list: 'logevents', lelimit: '1', leprop: 'ids' }));
    expect(rolled['query']).toEqual(first['query']);
  });
});

describe('warnings', () => {
  it('clamps out-of-range limits with a warning', async () => {
    const body = data(await api({ action: 'query', list: 'logevents', lelimit: '5000', letype: 'move' }));
    expect(body['warnings']).toEqual({ logevents: { '*': 'The value "5000" for parameter "lelimit" must be between 1 and 500.' } });
  });

  it('warns about unrecognized parameters in request order and unknown list values', async () => {
    const body = data(await api({ action: 'query', list: 'logevents|bogus', foo: '1', bar: '2', letype: 'move' }));
    expect(body['warnings']).toEqual({
      main: { '*': 'Unrecognized parameters: foo, bar.' },
      query: { '*': 'Unrecognized value for parameter "list": bogus' },
    });
    // query's warning made `warnings` before batchcomplete went on top; main's later one joins it there.
    expect(Object.keys(body)).toEqual(['batchcomplete', 'warnings', 'query']);
    const only = data(await api({ action: 'query', list: 'logevents', foo: '1', letype: 'move' }));
    expect(Object.keys(only)).toEqual(['warnings', 'batchcomplete', 'query']);
  });

  it('warns that an empty timestamp means now', async () => {
    const body = data(await api({ action: 'query', list: 'logevents', lestart: '', letype: 'move', formatversion: '2' }));
    expect(body['warnings']).toEqual({
      logevents: { warnings: 'Passing "" for timestamp parameter "lestart" has been deprecated. If for some reason you need to explicitly specify the current time without calculating it client-side, use "now".' },
    });
  });
});

describe('other error formats and languages', () => {
  it('answers plaintext in the user language (Russian by default), fv1 and fv2', async () => {
    const fv2 = data(await api({ action: 'query', list: 'logevents', ledir: 'up', errorformat: 'plaintext', formatversion: '2' }));
    expect(fv2).toEqual({
      errors: [{ code: 'badvalue', text: 'Нераспознанное значение параметра «ledir»: up.', module: 'query+logevents' }],
      docref: expect.stringMatching(/^См\. http:\/\/127\.0\.0\.1:8088\/wiki\/api\.php для использования API\. Подпишитесь/),
    });
    const fv1 = await api({ action: 'query', list: 'logevents', ledir: 'up', errorformat: 'plaintext' });
    expect(fv1.text.startsWith('{"errors":[{"code":"badvalue","module":"query+logevents","*":"\\u041d')).toBe(true);
  });

  it('follows errorlang and uselang', async () => {
    const en = data(await api({ action: 'query', list: 'logevents', ledir: 'up', errorformat: 'wikitext', uselang: 'en', formatversion: '2' }));
    expect((en['errors'] as Record<string, unknown>[])[0]!['text']).toBe('Unrecognized value for parameter "ledir": up.');
    const errorlang = data(await api({ action: 'query', list: 'logevents', ledir: 'up', errorformat: 'plaintext', errorlang: 'en', formatversion: '2' }));
    expect((errorlang['errors'] as Record<string, unknown>[])[0]!['text']).toBe('Unrecognized value for parameter "ledir": up.');
  });

  it('html: a value the client sent is escaped, never parsed (no link, no French space, no template)', async () => {
    // (as MediaWiki 1.39.17 and 1.43 answer: the values are plaintext parameters, inserted after the
    // parser ran; replay once made `[[Foo]]` a red link and the space before `»` a no-break space)
    const errors = async (p: Record<string, string>) => data(await api({ action: 'query', errorformat: 'html', formatversion: '2', ...p }));
    const html = async (p: Record<string, string>) => ((await errors(p))['errors'] as { html: string }[])[0]!.html;
    expect(await html({ list: 'logevents', leuser: 'a&amp;b[[Foo]]' })).toBe('Некорректное значение «a&amp;amp;b[[Foo]]» параметра участника <var>leuser</var>.');
    expect(await html({ list: 'logevents', leuser: '2001:DB8:0:0:0:0:0:0/64 ' })).toBe('Некорректное значение «2001:DB8:0:0:0:0:0:0/64 » параметра участника <var>leuser</var>.');
    // A list of them (the values not recognized): each item escaped, none parsed.
    const warned = await errors({ meta: 'siteinfo', siprop: 'general|[[x]]|a :|{{SITENAME}}' });
    expect((warned['warnings'] as { html: string }[])[0]!.html).toBe('Нераспознанные значения параметра «siprop»: [[x]], a :, {{SITENAME}}');
  });

  it('gives key and params in raw, nothing in none', async () => {
    const raw = data(await api({ action: 'query', list: 'logevents', ledir: 'up', errorformat: 'raw', formatversion: '2' }));
    expect((raw['errors'] as unknown[])[0]).toEqual({
      code: 'badvalue',
      key: 'paramvalidator-badvalue-enumnotmulti',
      params: [{ plaintext: 'ledir' }, { plaintext: 'up' }, { list: [{ plaintext: 'newer' }, { plaintext: 'older' }], type: 'text' }, { num: 2 }],
      module: 'query+logevents',
    });
    const none = data(await api({ action: 'query', list: 'logevents', ledir: 'up', errorformat: 'none', formatversion: '2' }));
    expect((none['errors'] as unknown[])[0]).toEqual({ code: 'badvalue', module: 'query+logevents' });
  });

  it('never answers bad input with a 5xx or a stack trace', async () => {
    const inputs: Record<string, string>[] = [
      { action: 'query', list: 'logevents', lelimit: '9'.repeat(400) },
      { action: 'query', list: 'blocks', bkip: '::::' },
      { action: 'query', prop: 'extlinks', titles: '\u0000' },
      { action: 'query', list: 'logevents', lestart: '99999999999999' },
      { action: 'query', list: 'protectedtitles', ptcontinue: '|||' },
      { action: 'query', 'titles[]': 'x', prop: 'extlinks' },
    ];
    for (const params of inputs) {
      const res = await api(params);
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/at .*\.js:\d+/);
      expect(() => JSON.parse(res.text)).not.toThrow();
    }
    const big = await builtin().post('/wiki/api.php').type('form').send({ action: 'parse', format: 'json', summary: '[['.repeat(200_000) });
    expect(big.status).toBe(200);
    expect(data(big)['parse']).toMatchObject({ title: 'API', pageid: 0 });
  });
});
