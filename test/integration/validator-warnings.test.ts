import { describe, expect, it } from 'vitest';
import { api, builtin, data } from '../support/app.js';

/**
 * Parameters, values and warnings as each version's ParamValidator and ApiMain treat them (every
 * expectation read from the live MediaWiki 1.39 and 1.43 first).
 */
const V139 = { version: '1.39.17' };
const V143 = { version: '1.43.9' };

async function code(params: Record<string, string>, profile: { version: string }): Promise<string | undefined> {
  const res = await api({ action: 'query', ...params }, profile);
  return res.headers['mediawiki-api-error'];
}

describe.each([V139, V143])('MediaWiki $version', (profile) => {
  it.each([
    // UserNameUtils::isValid: `:`, `@`, `=` are valid in a name (only account creation refuses them)
    ['Foo:bar', undefined],
    ['Foo@bar', undefined],
    ['Foo=bar', undefined],
    // anything with `>` is an interwiki name, allowed to leuser
    ['>a', undefined],
    ['a>', undefined],
    ['#123', undefined],
    // shaped like an IPv4 address, so not a name, and not a valid address either
    ['300.300.300.300', 'baduser'],
    ['Foo/bar', 'baduser'],
    ['Talk:Foo', 'baduser'],
    ['a[b', 'baduser'],
    ['', 'baduser'],
  ])('leuser=%s is answered as the user parameter type does (%s)', async (value, expected) => {
    expect(await code({ list: 'logevents', leuser: value }, profile)).toBe(expected);
  });

  it.each([
    ['Foo:bar', undefined],
    ['300.300.300.300', 'baduser'],
    ['a>b', 'baduser'],
    ['#1', 'baduser'],
  ])('bkusers=%s (names, addresses and ranges only) gives %s', async (value, expected) => {
    expect(await code({ list: 'blocks', bkusers: value }, profile)).toBe(expected);
  });

  it('siprop with only unrecognized values warns and adds no empty query object', async () => {
    const res = await api({ action: 'query', meta: 'siteinfo', siprop: 'bogus' }, profile);
    expect(data(res)).toEqual({ batchcomplete: '', warnings: { siteinfo: { '*': 'Unrecognized value for parameter "siprop": bogus' } } });
    const empty = await api({ action: 'query', meta: 'siteinfo', siprop: '' }, profile);
    expect(data(empty)).toEqual({ batchcomplete: '' });
  });
});

describe('user names that look like IP ranges', () => {
  it('1.2.3.4-5.6.7.8 is a user name in 1.39 and refused since 1.42', async () => {
    expect(await code({ list: 'logevents', leuser: '1.2.3.4-5.6.7.8' }, V139)).toBeUndefined();
    expect(await code({ list: 'logevents', leuser: '1.2.3.4-5.6.7.8' }, V143)).toBe('baduser');
  });
});

describe('errorformat=raw: the list of unrecognized parameters', () => {
  const q = { action: 'query', format: 'json', foo: '1', list: 'logevents', lelimit: '1', bar: '2', errorformat: 'raw' };
  const listOf = async (profile: { version: string }) => {
    const res = await builtin(profile).get('/wiki/api.php').query(q);
    const w = (data(res)['warnings'] as Array<{ params: unknown[] }>)[0]!;
    return JSON.stringify(w.params[0]);
  };

  it("keeps each name's place among the request's parameters in 1.39 (PHP's array_diff keys)", async () => {
    expect(await listOf(V139)).toBe('{"list":{"2":"foo","5":"bar"},"type":"comma"}');
  });

  it('lists the names in 1.43', async () => {
    expect(await listOf(V143)).toBe('{"list":["foo","bar"],"type":"comma"}');
  });
});

describe('a formatversion the printer does not know (ApiMain::handleException: the error printer fails too)', () => {
  const DOCREF = 'See http://127.0.0.1:8088/wiki/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.';

  it('answers the printer\'s badvalue with its two warnings, printed with the printer\'s defaults', async () => {
    const res = await api({ action: 'query', list: 'logevents', lelimit: '1', formatversion: '3' });
    expect(res.headers['mediawiki-api-error']).toBe('badvalue');
    expect(data(res)).toEqual({
      warnings: { json: { '*': 'Unrecognized value for parameter "formatversion": 3.' }, main: { '*': 'Error printer failed. Will retry without params.' } },
      error: { code: 'badvalue', info: 'Unrecognized value for parameter "formatversion": 3.', '*': DOCREF },
    });
    expect(Object.keys(data(res))).toEqual(['warnings', 'error']);
  });

  it('keeps warnings made before the error below it, and adds its own to them', async () => {
    const res = await api({ action: 'query', list: 'logevents', lelimit: '1', formatversion: '3', foo: '1' });
    const body = data(res);
    expect(Object.keys(body)).toEqual(['error', 'warnings']);
    expect(body['warnings']).toEqual({ json: { '*': 'Unrecognized value for parameter "formatversion": 3.' }, main: { '*': 'Unrecognized parameter: foo.\nError printer failed. Will retry without params.' } });
  });

  it('keeps the first error of a failed call and prints without the callback (still login-suppressed)', async () => {
    const res = await api({ action: 'query', list: 'logevents', ledir: 'up', formatversion: '2', callback: 'cb', errorformat: 'raw' });
    expect(res.status).toBe(200);
    const bad = await api({ action: 'query', list: 'logevents', ledir: 'up', formatversion: '3', callback: 'cb', errorformat: 'raw' });
    expect(bad.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(bad.headers['mediawiki-login-suppressed']).toBe('true');
    const body = data(bad) as { warnings: Array<{ code: string; module: string }>; errors: Array<{ code: string; module: string }> };
    expect(body.errors.map((e) => [e.code, e.module])).toEqual([['badvalue', 'query+logevents']]);
    expect(body.warnings.map((w) => [w.code, w.module])).toEqual([['errorprinterfailed', 'main'], ['badvalue', 'json']]);
  });
});

describe.each([V139, V143])('action values of MediaWiki $version', (profile) => {
  it('refuses action=tokens (no such module) as badvalue, not as a module wikitape lacks', async () => {
    const res = await api({ action: 'tokens' }, profile);
    expect(res.headers['mediawiki-api-error']).toBe('badvalue');
  });
});

describe('the module an error names (ApiBase::dieWithError: the module that dies)', () => {
  it.each([
    [{ list: 'blocks', bkshow: 'account|!account' }, 'query+blocks'],
    [{ list: 'logevents', lecontinue: 'garbage' }, 'query+logevents'],
    [{ list: 'protectedtitles', ptcontinue: 'a|b' }, 'query+protectedtitles'],
    [{ prop: 'extlinks', titles: 'Alpha', elquery: '*' }, 'query+extlinks'],
    [{ prop: 'extlinks', titles: 'Alpha', pageids: '1' }, 'query'],
  ])('%o → %s', async (params, module) => {
    const body = data(await api({ action: 'query', errorformat: 'raw', ...params })) as { errors: Array<{ module: string }> };
    expect(body.errors[0]!.module).toBe(module);
  });

  it('names parse, with the title escaped as wikitext', async () => {
    const body = data(await api({ action: 'parse', summary: 'x', title: 'a[b', errorformat: 'raw' })) as { errors: Array<{ module: string; params: unknown[] }> };
    expect(body.errors[0]).toMatchObject({ module: 'parse', params: ['a&#91;b'] });
  });
});

describe('PARAM_ALL (`*` alone for every value) and multi-value limits', () => {
  it('takes * for every namespace of a multi-valued namespace parameter (NamespaceDef), on both versions', async () => {
    for (const profile of [V139, V143]) {
      const body = data(await api({ action: 'query', list: 'protectedtitles', ptnamespace: '*', ptprop: 'level' }, profile));
      expect(body['warnings']).toBeUndefined();
      expect(body['query']).toEqual(data(await api({ action: 'query', list: 'protectedtitles', ptprop: 'level' }, profile))['query']);
    }
  });

  it('takes uiprop=* and flags every prop the built-in wiki does not make', async () => {
    const res = await api({ action: 'query', meta: 'userinfo', uiprop: '*' });
    expect(data(res)['warnings']).toBeUndefined();
    expect(res.headers['x-wikitape-unknown']).toContain('userinfo.options');
    expect(res.headers['x-wikitape-unknown']).toContain('userinfo.ratelimits');
    const built = await api({ action: 'query', meta: 'userinfo', uiprop: 'blockinfo|hasmsg|groups|rights' });
    expect(built.headers['x-wikitape-unknown']).toBeUndefined();
  });

  it('names the parameter in toomanyvalues data from 1.43 on', async () => {
    const bkids = Array.from({ length: 51 }, (_, i) => String(i + 1)).join('|');
    const old = data(await api({ action: 'query', list: 'blocks', bkids }, V139))['error'] as Record<string, unknown>;
    const modern = data(await api({ action: 'query', list: 'blocks', bkids }, V143))['error'] as Record<string, unknown>;
    expect(old['parameter']).toBeUndefined();
    expect(Object.keys(modern).slice(0, 5)).toEqual(['code', 'info', 'parameter', 'limit', 'lowlimit']);
  });

  it('keeps bkids as given: 0 and -1 name no block, without a warning', async () => {
    const body = data(await api({ action: 'query', list: 'blocks', bkids: '0|-1', bkprop: 'id' }));
    expect(body).toEqual({ batchcomplete: '', query: { blocks: [] } });
  });

  it('keeps maxage and smaxage at 0 or more from 1.43 on (a warning, and private caching)', async () => {
    const res = await api({ action: 'query', list: 'protectedtitles', ptlimit: '1', smaxage: '-1' }, V143);
    expect(data(res)['warnings']).toEqual({ main: { '*': 'The value "-1" for parameter "smaxage" must be no less than 0.' } });
    expect(res.headers['cache-control']).toBe('private, must-revalidate, max-age=0');
    const old = await api({ action: 'query', list: 'protectedtitles', ptlimit: '1', smaxage: '-1' }, V139);
    expect(data(old)['warnings']).toBeUndefined();
  });
});

describe('action=query&export (an XML dump of the pages)', () => {
  it('is refused as not implemented, not answered without the export', async () => {
    const res = await api({ action: 'query', list: 'protectedtitles', export: '1' });
    expect(res.headers['mediawiki-api-error']).toBe('wikitape-notimplemented');
    // exportnowrap alone changes nothing: ApiQuery reads it only when exporting.
    expect((await api({ action: 'query', list: 'protectedtitles', exportnowrap: '1' })).headers['mediawiki-api-error']).toBeUndefined();
  });
});
