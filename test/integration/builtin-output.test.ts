import { describe, expect, it } from 'vitest';
import { api, builtin, data } from '../support/app.js';

const q = { action: 'query', list: 'protectedtitles', ptlimit: '1' };

describe('formats', () => {
  it('escapes non-ASCII in fv1 unless utf8, and keeps it in fv2 unless ascii', async () => {
    expect((await api(q)).text).toContain('"title":"\\u041c\\u0433\\u043d');
    expect((await api({ ...q, utf8: '1' })).text).toContain('"title":"Мгновенная защита"');
    expect((await api({ ...q, formatversion: '2' })).text).toContain('"title":"Мгновенная защита"');
    expect((await api({ ...q, formatversion: '2', ascii: '' })).text).toContain('"title":"\\u041c');
  });

  it('wraps JSONP in the filtered callback name, as text/javascript', async () => {
    const res = await api({ ...q, callback: 'my.cb<script>[0]' });
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.text.startsWith('/**/my.cbscript[0]({"batchcomplete":"","continue":')).toBe(true);
    expect(res.text.endsWith('})')).toBe(true);
    expect(res.headers['mediawiki-login-suppressed']).toBe('true');
  });

  it('shows the HTML "API result" page without format, advising format=json', async () => {
    const res = await builtin().get('/wiki/api.php').query(q);
    expect(res.status).toBe(200);
    // OutputPage's own Content-type replaces the printer's.
    expect(res.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(res.text).toContain('<title>Результат MediaWiki API — Тестовая вики</title>');
    expect(res.text).toContain('<kbd>format=json</kbd>');
    expect(res.text).toMatch(/<pre class="api-pretty-content">\{\n {4}"batchcomplete": "",\n {4}"continue": \{\n {8}"ptcontinue": "20240305101200\|6\|\\u0417\\u0430/);
  });

  it('shows jsonfm as the same page and format=none as an empty body', async () => {
    const fm = await api({ ...q, format: 'jsonfm' });
    expect(fm.text).toContain('<pre class="api-pretty-content">');
    const none = await api({ ...q, format: 'none' });
    expect(none.text).toBe('');
    expect(none.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('shows an error status only as a sentence on the HTML page', async () => {
    const res = await builtin().get('/wiki/api.php').query({ action: 'query', list: 'logevents', ledir: 'up' });
    expect(res.status).toBe(200);
    expect(res.headers['mediawiki-api-error']).toBe('badvalue');
    expect(res.text).toContain('"code": "badvalue"');
  });
});

describe('headers', () => {
  it('sends the headers every MediaWiki API answer has', async () => {
    const res = await api(q);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-disposition']).toBe('inline; filename=api-result.json');
    expect(res.headers['vary']).toBe('Accept-Encoding, Treat-as-Untrusted, Cookie');
    expect(res.headers['cache-control']).toBe('private, must-revalidate, max-age=0');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-wikitape-source']).toBe('builtin');
  });

  it('answers a public module with uselang and maxage as publicly cacheable', async () => {
    const res = await api({ ...q, uselang: 'ru', maxage: '30', smaxage: '60' });
    expect(res.headers['cache-control']).toBe('s-maxage=60, max-age=30, public');
    expect(res.headers['expires']).toMatch(/GMT$/);
  });

  it('keeps the maxage asked for an error once the module is set up (1.39), not before: a failed assert or action is max-age=0; from 1.43 on never', async () => {
    const cache = async (params: Record<string, string>, version = '1.39.17') => (await api({ maxage: '60', ...params }, { version })).headers['cache-control'];
    expect(await cache({ action: 'query', list: 'logevents', lelimit: 'abc' })).toBe('private, must-revalidate, max-age=60');
    expect(await cache({ action: 'query', list: 'allpages', assert: 'bot' })).toBe('private, must-revalidate, max-age=0');
    expect(await cache({ action: 'bogus' })).toBe('private, must-revalidate, max-age=0');
    expect(await cache({ action: 'query', errorformat: 'bogus' })).toBe('private, must-revalidate, max-age=0');
    // an action's own parameters (and the page set's) are read while the module is set up; its later checks are not
    expect(await cache({ action: 'paraminfo', modules: 'query', helpformat: 'bogus' })).toBe('private, must-revalidate, max-age=0');
    expect(await cache({ action: 'spamblacklist' })).toBe('private, must-revalidate, max-age=0');
    expect(await cache({ action: 'query', pageids: 'abc' })).toBe('private, must-revalidate, max-age=0');
    expect(await cache({ action: 'parse', summary: 'x', useskin: 'bogus' })).toBe('private, must-revalidate, max-age=0');
    expect(await cache({ action: 'parse', summary: 'x', section: 'x' })).toBe('private, must-revalidate, max-age=60');
    expect(await cache({ action: 'query', titles: 'a', pageids: '1' })).toBe('private, must-revalidate, max-age=60');
    expect(await cache({ action: 'query', list: 'logevents', lelimit: 'abc' }, '1.43.9')).toBe('private, must-revalidate, max-age=0');
  });

  it('gives an out-of-range warning both bounds as number parameters, \'\' for the one the range lacks (1.43 smaxage=-1)', async () => {
    const raw = data(await api({ action: 'query', smaxage: '-1', errorformat: 'raw' }, { version: '1.43.9' }));
    expect((raw['warnings'] as Record<string, unknown>[])[0]!['params']).toEqual([{ plaintext: 'smaxage' }, { plaintext: '-1' }, { num: 0 }, { num: '' }]);
    const text = data(await api({ action: 'query', smaxage: '-1', errorformat: 'plaintext', uselang: 'en', formatversion: '2' }, { version: '1.43.9' }));
    expect((text['warnings'] as Record<string, unknown>[])[0]!['text']).toBe('The value "-1" for parameter "smaxage" must be no less than 0.');
  });

  it('names meta=tokens by its path in a warning that tokens are not given cross-origin', async () => {
    const raw = data(await api({ action: 'query', meta: 'tokens', origin: '*', errorformat: 'raw' }));
    expect(raw['warnings']).toEqual([{ code: 'tokens-origin', key: 'apiwarn-tokens-origin', params: [], module: 'query+tokens' }]);
    const bc = data(await api({ action: 'query', meta: 'tokens', origin: '*' }));
    expect(bc['warnings']).toEqual({ tokens: { '*': 'Tokens may not be obtained when the same-origin policy is not applied.' } });
  });

  it('sends CORS headers for origin=*', async () => {
    const res = await api({ ...q, origin: '*' });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBe('false');
  });

  it('refuses an origin the Origin header does not name, a JSONP request still told its login is suppressed', async () => {
    for (const [callback, suppressed] of [['cb', 'true'], [undefined, undefined]] as const) {
      const res = await api({ ...q, origin: 'http://example.org', ...(callback ? { callback } : {}) });
      expect(res.status).toBe(403);
      expect(res.text).toBe("'origin' parameter does not match Origin header\n");
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['mediawiki-login-suppressed']).toBe(suppressed);
    }
  });
});

describe('sessions', () => {
  it('replaces a well-formed session id that is not in the store with a new session cookie', async () => {
    const res = await builtin().get('/wiki/api.php').query({ ...q, format: 'json' }).set('Cookie', `wikidb_session=${'a'.repeat(32)}`);
    const cookies = res.headers['set-cookie'] as unknown as string[];
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^wikidb_session=[0-9a-v]{32}; path=\/; HttpOnly$/);
    expect(cookies[0]).not.toContain('a'.repeat(32));
    expect(res.headers['cache-control']).toBe('private, must-revalidate, max-age=0');
  });

  it('deletes a malformed session cookie and the login cookies that came with it', async () => {
    const res = await builtin().get('/wiki/api.php').query({ ...q, format: 'json' }).set('Cookie', 'wikidb_session=short; wikidbUserID=5; forceHTTPS=1');
    expect(res.headers['set-cookie']).toEqual([
      'wikidb_session=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly',
      'wikidbUserID=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly',
      'forceHTTPS=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly',
    ]);
  });
});

describe('debuginfo', () => {
  it('is the last key, with every field of the spec, when the profile has it on', async () => {
    const body = JSON.parse((await api({ ...q, formatversion: '2' })).text) as Record<string, unknown>;
    expect(Object.keys(body).pop()).toBe('debuginfo');
    const d = body['debuginfo'] as Record<string, unknown>;
    expect(Object.keys(d)).toEqual(['mwVersion', 'phpEngine', 'phpVersion', 'gitRevision', 'gitBranch', 'gitViewUrl', 'time', 'log', 'debugLog', 'queries', 'request', 'memory', 'memoryPeak', 'includes']);
    expect(d['mwVersion']).toBe('1.39.17');
    expect(d['memory']).toMatch(/^\d+(,\d+)? (КБ|МБ)$/);
    expect((d['includes'] as { size: string }[])[0]!.size).toMatch(/^\d+(,\d+)? (байт|КБ)$/);
    expect((d['queries'] as { sql: string }[]).some((x) => x.sql.includes('protected_titles'))).toBe(true);
  });

  it("shows list=logevents leaving out the log types the profile restricts, in the profile's order", async () => {
    const sql = async (profile: { restrictedLogTypes?: string[] }) => {
      const d = JSON.parse((await api({ action: 'query', list: 'logevents', lelimit: '1' }, profile)).text).debuginfo as { queries: { sql: string }[] };
      return d.queries.map((x) => x.sql).find((s) => s.includes('FROM "logging"'));
    };
    expect(await sql({})).toContain("WHERE (log_type NOT IN ('spamblacklist','suppress'))");
    expect(await sql({ restrictedLogTypes: ['spamblacklist', 'titleblacklist', 'suppress'] })).toContain("WHERE (log_type NOT IN ('spamblacklist','titleblacklist','suppress'))");
  });

  it('is generated fresh for each request, from that request', async () => {
    const a = JSON.parse((await builtin().get('/wiki/api.php').query({ ...q, format: 'json' }).set('X-Test', 'one')).text).debuginfo;
    const b = JSON.parse((await builtin().get('/wiki/api.php').query({ ...q, format: 'json', requestid: 'r2' }).set('X-Test', 'two')).text).debuginfo;
    expect(a.time).not.toBe(b.time);
    expect(a.request.headers['X-TEST']).toBe('one');
    expect(b.request.headers['X-TEST']).toBe('two');
    expect(b.request.params).toMatchObject({ requestid: 'r2', list: 'protectedtitles' });
    expect(b.request.method).toBe('GET');
    expect(a.debugLog[0]).toMatch(/^\n\nStart request GET \/wiki\/api\.php\?/);
  });

  it('is absent from errors and when the profile has it off', async () => {
    expect(JSON.parse((await api({ action: 'query', list: 'logevents', ledir: 'up' })).text)).not.toHaveProperty('debuginfo');
    expect(JSON.parse((await api(q, { debugInfo: false })).text)).not.toHaveProperty('debuginfo');
  });

  it("is in the HTML page of an error as the debug toolbar's, as MediaWiki prints it (only getDebugHTML's log line)", async () => {
    const page = (await builtin().get('/wiki/api.php').query({ action: 'query', list: 'logevents', ledir: 'up' })).text;
    const m = /mw\.config\.set\((\{"debugInfo":.*?\})\);mw\.log/s.exec(page);
    expect(m).not.toBeNull();
    const info = JSON.parse(m![1]!).debugInfo;
    expect(info.log).toEqual([{ msg: 'MWDebug output complete', type: 'log', caller: 'MWDebug::getDebugHTML' }]);
    expect(info.request.params).toEqual({ action: 'query', list: 'logevents', ledir: 'up' });
    // the error shown in the page has none of its own
    expect(page).not.toContain('&quot;debuginfo&quot;');
  });

  it('answers wrappedhtml (ApiSandbox) with the page content as JSON: status, pre, modules, continue, time', async () => {
    const res = await builtin({ debugInfo: false }).get('/wiki/api.php').query({ action: 'query', list: 'protectedtitles', ptlimit: '1', format: 'jsonfm', wrappedhtml: '1' });
    expect(res.headers['content-type']).toBe('text/mediawiki-api-prettyprint-wrapped; charset=utf-8');
    const wrapped = JSON.parse(res.text) as Record<string, unknown>;
    expect(Object.keys(wrapped)).toEqual(['status', 'statustext', 'html', 'modules', 'continue', 'time']);
    expect(wrapped).toMatchObject({ status: 200, statustext: 'OK', modules: ['mediawiki.apipretty'] });
    expect(wrapped['html']).toMatch(/^<pre class="api-pretty-content">\{\n {4}"batchcomplete": "",[\s\S]*\}<\/pre>$/);
    expect(wrapped['continue']).toEqual(JSON.parse(/\{[\s\S]*\}/.exec(String(wrapped['html']))![0].replace(/&lt;/g, '<').replace(/&amp;/g, '&'))['continue']);
    expect(typeof wrapped['time']).toBe('number');
  });

  it('keeps the data identical apart from debuginfo', async () => {
    expect(data(await api(q))).toEqual(data(await api(q)));
  });
});
