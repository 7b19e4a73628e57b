import { request as httpRequest } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { cliTest, runCli } from '../support/cli.js';
import { Client } from '../support/cookie-client.js';
import { adminAccounts } from '../support/accounts.js';

/**
 * A bot's bad days on demand: each fault's answer as MediaWiki 1.39 and 1.43 give it (the texts,
 * data and headers below are what live wikis configured to fail answered: $wgReadOnly,
 * $wgRateLimits, an ApiMaxLagInfo hook; test/live/faults.test.ts compares the same live), which
 * requests each fault can hit, and the triggers.
 */

const ACCOUNTS = adminAccounts({ bot: { name: 'wikitape', rights: ['read', 'writeapi', 'edit', 'bot'] }, groups: ['*', 'user', 'sysop', 'bot'], rights: ['read', 'edit', 'createpage', 'writeapi', 'bot', 'move'] });

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(faults: string[], version = '1.43.5'): Promise<RunningServer> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-faults-'));
  await writeFile(join(dir, 'accounts.json'), JSON.stringify(ACCOUNTS));
  const s = await startServer({ cassettes: NO_CASSETTES, fixtures: [MINI_WIKI, join(dir, 'accounts.json')], clock: TEST_CLOCK, profile: { version, debugInfo: false }, faults });
  servers.push(s);
  return s;
}

async function get(s: RunningServer, params: Record<string, string>, headers: Record<string, string> = {}) {
  const r = await fetch(`${s.url}?${new URLSearchParams({ format: 'json', ...params })}`, { headers });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, body: r.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, any>) : null };
}

async function post(s: RunningServer, params: Record<string, string>) {
  const r = await fetch(s.url, { method: 'POST', body: new URLSearchParams({ format: 'json', ...params }) });
  return { status: r.status, headers: r.headers, body: (await r.json()) as Record<string, any> };
}

const READ = { action: 'query', list: 'logevents', lelimit: '1' };
const EDIT = { action: 'edit', title: 'Sandbox', text: 'x', token: '+\\' };
const RU_PLAIN = { formatversion: '2', errorformat: 'plaintext', uselang: 'ru' };

describe('maxlag', () => {
  it.each(['1.39.17', '1.43.5'])('answers a request that sends maxlag as ApiMain::checkMaxLag does (%s)', async (version) => {
    const s = await serve(['maxlag:lag=7,host=db1'], version);
    const r = await get(s, { ...READ, maxlag: '5' });
    expect(r.status).toBe(200);
    expect([r.headers.get('retry-after'), r.headers.get('x-database-lag'), r.headers.get('mediawiki-api-error')]).toEqual(['5', '7', 'maxlag']);
    expect(r.headers.get('x-wikitape-source')).toBe('fault');
    expect(r.headers.get('x-wikitape-fault')).toBe('maxlag:lag=7,host=db1');
    expect(r.body!['error']).toMatchObject({ code: 'maxlag', info: 'Waiting for a database server: 7 seconds lagged.', host: 'db1', lag: 7, type: 'db' });
    expect(r.body!['error']['*']).toMatch(/^See http:\/\/.*\/api\.php for API usage\. Subscribe to the mediawiki-api-announce/);
    const ru = await get(s, { ...READ, maxlag: '5', ...RU_PLAIN });
    expect(ru.body!['errors']).toEqual([{ code: 'maxlag', text: 'Ожидание сервера базы данных: 7 секунд задержки.', data: { host: 'db1', lag: 7, type: 'db' }, module: 'main' }]);
    // Retry-After is the larger of maxlag and 5 seconds
    expect((await get(s, { ...READ, maxlag: '2' })).headers.get('retry-after')).toBe('5');
    // a request without maxlag, or one that allows more lag than there is, is answered as usual
    const plain = await get(s, READ);
    expect([plain.status, plain.headers.get('x-wikitape-source'), plain.body!['query'] !== undefined]).toEqual([200, 'builtin', true]);
    expect((await get(s, { ...READ, maxlag: '7' })).body!['query']).toBeDefined();
  });

  it('reports one second more than the request allows when no lag is given, in JSONP and formatversion=2 too', async () => {
    const s = await serve(['maxlag']);
    const r = await get(s, { ...READ, maxlag: '10' });
    expect(r.body!['error']).toMatchObject({ code: 'maxlag', info: 'Waiting for a database server: 11 seconds lagged.', lag: 11, host: 'localhost' });
    expect([r.headers.get('retry-after'), r.headers.get('x-database-lag')]).toEqual(['10', '11']);
    const fv2 = await get(s, { ...READ, maxlag: '10', formatversion: '2', callback: 'cb' });
    expect(fv2.text).toMatch(/^\/\*\*\/cb\(\{"error":\{"code":"maxlag","info":"Waiting for a database server: 11 seconds lagged\.","host":"localhost","lag":11,"type":"db","docref":"See /);
    // parameters fail before the lag is checked, as in ApiMain
    expect((await get(s, { ...READ, maxlag: 'abc' })).body!['error'].code).toBe('badinteger');
  });
});

describe('readonly', () => {
  it.each(['1.39.17', '1.43.5'])('fails writes and logins with the reason, never reads (%s)', async (version) => {
    const s = await serve(['readonly:reason=Обслуживание базы'], version);
    const edit = await post(s, EDIT);
    expect(edit.headers.get('mediawiki-api-error')).toBe('readonly');
    expect(edit.body['error']).toMatchObject({ code: 'readonly', info: 'The wiki is currently in read-only mode.', readonlyreason: 'Обслуживание базы' });
    const ru = await post(s, { ...EDIT, ...RU_PLAIN });
    expect(ru.body['errors']).toEqual([{ code: 'readonly', text: 'Эта вики находится в режиме «только для чтения».', data: { readonlyreason: 'Обслуживание базы' }, module: 'main' }]);
    const login = await post(s, { action: 'login', lgname: 'Admin@wikitape', lgpassword: 'bot-password', lgtoken: '+\\' });
    expect(login.body['error'].code).toBe('readonly');
    expect((await get(s, READ)).body!['query']).toBeDefined();
    // a bad token still fails first (setupModule comes before checkExecutePermissions)
    expect((await post(s, { ...EDIT, token: 'nonsense+\\' })).body['error'].code).toBe('badtoken');
  });
});

describe('ratelimited', () => {
  it('fails an edit with EditPage\'s text in 1.39 and apierror-ratelimited in 1.43; module edit', async () => {
    const old = await serve(['ratelimited'], '1.39.17');
    const e39 = await post(old, EDIT);
    expect(e39.body['error']).toMatchObject({
      code: 'ratelimited',
      info: 'As an anti-abuse measure, you are limited from performing this action too many times in a short space of time, and you have exceeded this limit. Please try again in a few minutes.',
    });
    expect((await post(old, { ...EDIT, ...RU_PLAIN })).body['errors']).toEqual([
      { code: 'ratelimited', text: 'Вы исчерпали установленное для борьбы со злоупотреблениями ограничение на количество выполнений запрошенного действия за короткий промежуток времени. Пожалуйста, повторите попытку через несколько минут.', module: 'edit' },
    ]);
    const move39 = await post(old, { action: 'move', from: 'Sandbox', to: 'Sandbox 2', token: '+\\' });
    expect(move39.body['error']).toMatchObject({ code: 'ratelimited', info: "You've exceeded your rate limit. Please wait some time and try again." });
    const now = await serve(['ratelimited'], '1.43.5');
    expect((await post(now, EDIT)).body['error']).toMatchObject({ code: 'ratelimited', info: "You've exceeded your rate limit. Please wait some time and try again." });
    expect((await post(now, { ...EDIT, ...RU_PLAIN })).body['errors']).toEqual([
      { code: 'ratelimited', text: 'Вы превысили ваше ограничение скорости. Пожалуйста, подождите некоторое время и попробуйте снова.', module: 'edit' },
    ]);
    // a read is not rate-limited by default, nor is a delete (asked last: a read after a write is refused)
    expect((await get(now, READ)).body!['query']).toBeDefined();
    expect((await post(now, { action: 'delete', title: 'Sandbox', token: '+\\' })).body['error']?.code).not.toBe('ratelimited');
  });
});

describe('badtoken, assertuserfailed, assertbotfailed', () => {
  it('fails a write whose token was good, and asserts after a session loss', async () => {
    const s = await serve(['badtoken', 'assertuserfailed:first=1', 'assertbotfailed:first=1']);
    expect((await post(s, EDIT)).body['error']).toMatchObject({ code: 'badtoken', info: 'Invalid CSRF token.' });
    const c = new Client(s.url);
    const lg = await c.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'bot-password', lgtoken: await c.token('login') });
    expect(lg.body['login'].result).toBe('Success');
    const lost = await c.call({ action: 'query', meta: 'userinfo', assert: 'user' }, 'GET');
    expect(lost.body['error']).toMatchObject({ code: 'assertuserfailed', info: 'You are no longer logged in, so the action could not be completed.' });
    expect((await c.call({ action: 'query', meta: 'userinfo', assert: 'user' }, 'GET')).body['query'].userinfo.name).toBe('Admin');
    expect((await c.call({ action: 'query', meta: 'userinfo', assert: 'bot' }, 'GET')).body['error']).toMatchObject({
      code: 'assertbotfailed',
      info: 'You do not have the "bot" right, so the action could not be completed.',
    });
    expect((await c.call({ action: 'query', meta: 'userinfo', assert: 'bot' }, 'GET')).body['query'].userinfo.name).toBe('Admin');
  });
});

describe('internal_api_error', () => {
  it('answers with the class and a request id, as ApiMain does without exception details', async () => {
    const s = await serve(['internal_api_error', 'internal_api_error:class=MWException,match=list=blocks']);
    const r = await get(s, READ);
    expect(r.body!['error']).toEqual({
      code: 'internal_api_error_DBQueryError',
      info: `[${r.headers.get('x-request-id')}] Caught exception of type Wikimedia\\Rdbms\\DBQueryError`,
      errorclass: 'Wikimedia\\Rdbms\\DBQueryError',
    });
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f]{24}$/);
    const ru = await get(s, { ...READ, ...RU_PLAIN });
    expect(ru.body!['errors'][0]).toMatchObject({ code: 'internal_api_error_DBQueryError', data: { errorclass: 'Wikimedia\\Rdbms\\DBQueryError' } });
  });
});

describe('triggers', () => {
  const faulted = async (s: RunningServer, n: number, params: Record<string, string> = { ...READ, maxlag: '5' }) => {
    const out: boolean[] = [];
    for (let i = 0; i < n; i++) out.push((await get(s, params)).headers.get('x-wikitape-source') === 'fault');
    return out;
  };

  it('first=N hits the first N requests the fault can hit, and no other', async () => {
    const s = await serve(['maxlag:first=2']);
    expect(await faulted(s, 1, READ)).toEqual([false]); // no maxlag: not one the fault can hit, not counted
    expect(await faulted(s, 4)).toEqual([true, true, false, false]);
  });

  it('rate=R,seed=S repeats: the same seed gives the same requests in a new server, another seed others', async () => {
    const a = await faulted(await serve(['maxlag:rate=0.5,seed=7']), 24);
    const b = await faulted(await serve(['maxlag:rate=0.5,seed=7']), 24);
    const c = await faulted(await serve(['maxlag:rate=0.5,seed=8']), 24);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a.filter(Boolean).length).toBeGreaterThan(4);
    expect(a.filter(Boolean).length).toBeLessThan(20);
  });

  it('match=PARAM=VALUE (with * for any text) picks the requests', async () => {
    const s = await serve(['503:match=list=block*']);
    expect((await get(s, { action: 'query', list: 'blocks' })).status).toBe(503);
    expect((await get(s, { action: 'query', list: 'logevents' })).status).toBe(200);
    const t = await serve(['503:match=leprop']);
    expect((await get(t, { ...READ, leprop: 'ids' })).status).toBe(503);
    expect((await get(t, READ)).status).toBe(200);
  });

  it('X-Wikitape-Fault gives one request its fault; a bad one is refused in MediaWiki\'s shape', async () => {
    const s = await serve([]);
    const r = await get(s, { ...READ, maxlag: '5' }, { 'X-Wikitape-Fault': 'maxlag:lag=9' });
    expect(r.body!['error']).toMatchObject({ code: 'maxlag', lag: 9 });
    expect((await get(s, { ...READ, maxlag: '5' })).body!['query']).toBeDefined();
    const two = await get(s, { action: 'query', list: 'blocks', maxlag: '5' }, { 'X-Wikitape-Fault': 'latency:ms=1, 503:retry-after=9' });
    expect([two.status, two.headers.get('retry-after')]).toEqual([503, '9']);
    const bad = await get(s, READ, { 'X-Wikitape-Fault': 'maxlag:lagg=3' });
    expect(bad.status).toBe(400);
    expect(bad.body!['error']).toEqual({ code: 'wikitape-badfault', info: 'X-Wikitape-Fault: fault maxlag has no key "lagg" (in "maxlag:lagg=3"); its keys are first, rate, seed, match, lag, host' });
  });
});

describe('transport faults', () => {
  it('503 and 429: a front cache\'s HTML page with Retry-After', async () => {
    const s = await serve(['503:first=1', '429:retry-after=30']);
    const a = await get(s, READ);
    expect([a.status, a.headers.get('retry-after'), a.headers.get('content-type')]).toEqual([503, '5', 'text/html; charset=utf-8']);
    expect(a.text).toContain('Error: 503, Service Unavailable');
    const b = await get(s, READ);
    expect([b.status, b.headers.get('retry-after')]).toEqual([429, '30']);
    expect(b.text).toContain('Error: 429, Too Many Requests');
  });

  it('reset closes the connection without an answer; cutoff announces the whole body and sends part of it', async () => {
    const s = await serve(['reset:match=list=blocks', 'cutoff:at=0.25,match=list=logevents']);
    await expect(fetch(`${s.url}?action=query&list=blocks&format=json`)).rejects.toThrow();
    const { length, received } = await new Promise<{ length: number; received: number }>((resolve, reject) => {
      const req = httpRequest(`${s.url}?action=query&list=logevents&format=json`, (res) => {
        let received = 0;
        res.on('data', (d: Buffer) => (received += d.length));
        res.on('error', () => resolve({ length: Number(res.headers['content-length']), received }));
        res.on('end', () => resolve({ length: Number(res.headers['content-length']), received }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(length).toBeGreaterThan(100);
    expect(received).toBe(Math.floor(length * 0.25));
    expect((await get(s, { action: 'query', meta: 'siteinfo' })).status).toBe(200);
  });

  it('latency delays the answer by at least the time asked', async () => {
    const s = await serve(['latency:ms=150']);
    const t = performance.now();
    expect((await get(s, READ)).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(150);
  });
});

describe('asking for faults wrongly', () => {
  it('the library refuses an unknown fault or key, and faults while recording', async () => {
    await expect(startServer({ cassettes: NO_CASSETTES, faults: ['lagged'] })).rejects.toThrow('unknown fault "lagged" in "lagged"; faults are maxlag, readonly');
    await expect(startServer({ cassettes: NO_CASSETTES, faults: ['503:rate=2'] })).rejects.toThrow('rate must be a number from 0 to 1, not "2"');
    await expect(startServer({ mode: 'record', upstream: 'http://127.0.0.1:9/w/api.php', cassettes: NO_CASSETTES, faults: ['503'] })).rejects.toThrow('faults are served in replay');
  });

  it('never shows the value of a secret parameter a fault matches on', async () => {
    const s = await serve(['503:match=lgpassword=hunter2-secret']);
    const hit = await fetch(s.url, { method: 'POST', body: new URLSearchParams({ action: 'login', lgname: 'Admin', lgpassword: 'hunter2-secret', format: 'json' }) });
    expect([hit.status, hit.headers.get('x-wikitape-fault')]).toEqual([503, '503:match=lgpassword=***']);
    const bad = await get(s, READ, { 'X-Wikitape-Fault': '503:match=lgtoken=abc123-secret,nokey=1' });
    expect(bad.body!['error'].info).toContain('(in "503:match=lgtoken=***,nokey=1")');
    expect(bad.text).not.toContain('abc123-secret');
  });

  it('the CLI says what is wrong and exits non-zero', cliTest(1), async () => {
    const r = await runCli(['replay', '--port', '0', '--fault', 'latency']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('latency needs ms=N or ms=MIN-MAX (milliseconds)');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
