import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { MAX_SUITE_ENGINES } from '../../src/app.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { Client } from '../support/cookie-client.js';
import { adminAccounts } from '../support/accounts.js';

/**
 * Logged-in bots offline: sessions are identities, logins and tokens are answered as MediaWiki
 * answers them, writes are checked and kept in the write log, a request picks its cassettes.
 */

const ACCOUNTS = adminAccounts({ bot: { name: 'wikitape', rights: ['read', 'writeapi', 'apihighlimits'] }, rights: ['read', 'edit', 'createpage', 'writeapi', 'apihighlimits', 'block', 'delete', 'move', 'protect'] });

let server: RunningServer;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-accounts-'));
  await writeFile(join(dir, 'accounts.json'), JSON.stringify(ACCOUNTS));
  server = await startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, 'accounts.json')], clock: TEST_CLOCK, profile: { version: '1.39.17', debugInfo: false } });
});
afterAll(() => server.close());

describe('action=login offline', () => {
  it('answers NeedToken with the deprecation warnings, then WrongToken, Failed and Success as MediaWiki does', async () => {
    const c = new Client(server.url);
    const need = await c.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'x' });
    expect(need.body).toEqual({
      warnings: {
        main: { warnings: 'Subscribe to the mediawiki-api-announce mailing list at <https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/> for notice of API deprecations and breaking changes.' },
        login: { warnings: 'Fetching a token via "action=login" is deprecated. Use "action=query&meta=tokens&type=login" instead.' },
      },
      login: { result: 'NeedToken', token: expect.stringMatching(/^[0-9a-f]{32}[0-9a-f]+\+\\$/) },
    });
    expect(c.jar.has('wikidb_session')).toBe(true);
    expect((await c.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'bot-password', lgtoken: 'abc+\\' })).body).toEqual({ login: { result: 'WrongToken' } });
    const token = await c.token('login');
    expect(token).toBe(need.body['login'].token);
    const wrong = await c.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'nope', lgtoken: token });
    expect(wrong.body).toEqual({ login: { result: 'Failed', reason: 'Incorrect username or password entered. Please try again.' } });
    // Fixtures list every account: an unknown name surely fails, and nothing is flagged.
    const nobody = await c.call({ action: 'login', lgname: 'Nobody@wikitape', lgpassword: 'x', lgtoken: token });
    expect(nobody.body['login'].result).toBe('Failed');
    expect(nobody.headers.get('x-wikitape-unknown')).toBeNull();
    const ok = await c.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'bot-password', lgtoken: token });
    expect(ok.body).toEqual({ login: { result: 'Success', lguserid: 1, lgusername: 'Admin' } });
    // A signed session (docs/decisions/0019-many-processes.md), a well-formed id as MediaWiki's CookieSessionProvider reads them.
    expect(ok.headers.getSetCookie()).toEqual([expect.stringMatching(/^wikidb_BPsession=[A-Za-z0-9_-]{32,}; path=\/; HttpOnly$/)]);
    // From now on the session is the bot's: its rights (the bot password's grants), its tokens.
    const me = await c.call({ action: 'query', meta: 'userinfo', uiprop: 'rights' }, 'GET');
    expect(me.body['query'].userinfo).toEqual({ id: 1, name: 'Admin', rights: ['read', 'writeapi', 'apihighlimits'] });
    expect(await c.token('csrf')).toMatch(/^[0-9a-f]{32}[0-9a-f]+\+\\$/);
    // Another client, anonymous, is still anonymous.
    const anon = await new Client(server.url).call({ action: 'query', meta: 'userinfo', uiprop: 'rights' }, 'GET');
    expect(anon.body['query'].userinfo).toMatchObject({ id: 0, anon: true });
  });

  it('logs a main account in with the main-account deprecation warning and the cookies MediaWiki sets', async () => {
    const c = new Client(server.url);
    const token = await c.token('login');
    const ok = await c.call({ action: 'login', lgname: 'Admin', lgpassword: 'main-password', lgtoken: token });
    expect(ok.body['login']).toEqual({ result: 'Success', lguserid: 1, lgusername: 'Admin' });
    expect(ok.body['warnings'].login.warnings).toMatch(/^Main-account login via "action=login" is deprecated/);
    expect(ok.headers.getSetCookie().map((x) => x.split('=')[0])).toEqual(['wikidb_session', 'wikidbUserID', 'wikidbUserName', 'wikidbToken']);
    expect(ok.headers.getSetCookie()[1]).toMatch(/^wikidbUserID=1; expires=.* GMT; Max-Age=15552000; path=\/; HttpOnly$/);
    const me = await c.call({ action: 'query', meta: 'userinfo', uiprop: 'groups', assert: 'user' }, 'GET');
    expect(me.body['query'].userinfo).toEqual({ id: 1, name: 'Admin', groups: ['*', 'user', 'sysop'] });
  });

  // ApiMain::checkAsserts: `assert` first, then `assertuser` (both live wikis answer so).
  it('checks assert before assertuser, anonymous and logged in', async () => {
    const anon = new Client(server.url);
    const ask = async (c: Client, p: Record<string, string>) => (await c.call({ action: 'query', meta: 'userinfo', ...p }, 'GET')).body['error']?.code as string | undefined;
    expect(await ask(anon, { assert: 'user', assertuser: 'Someone else' })).toBe('assertuserfailed');
    expect(await ask(anon, { assert: 'bot', assertuser: 'Someone else' })).toBe('assertbotfailed');
    expect(await ask(anon, { assert: 'anon', assertuser: 'Someone else' })).toBe('assertnameduserfailed');
    const bot = new Client(server.url);
    await bot.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'bot-password', lgtoken: await bot.token('login') });
    expect(await ask(bot, { assert: 'anon', assertuser: 'Someone else' })).toBe('assertanonfailed');
    expect(await ask(bot, { assert: 'bot', assertuser: 'Someone else' })).toBe('assertbotfailed');
    expect(await ask(bot, { assert: 'user', assertuser: 'Someone else' })).toBe('assertnameduserfailed');
    expect(await ask(bot, { assert: 'user', assertuser: 'Admin' })).toBeUndefined();
  });

  it('needs POST, as ApiLogin does', async () => {
    const r = await new Client(server.url).call({ action: 'login', lgname: 'Admin' }, 'GET');
    expect(r.body['error']).toMatchObject({ code: 'mustbeposted', info: 'The "login" module requires a POST request.' });
  });

  // ApiMain::executeAction's order, as both live wikis answer a GET: the asserts, then the token
  // (setupModule), and only then whether the module must be posted (setupExternalResponse).
  it('checks the asserts and the token before POST', async () => {
    const c = new Client(server.url);
    expect((await c.call({ action: 'login', lgname: 'Admin', assert: 'user' }, 'GET')).body['error']).toMatchObject({ code: 'assertuserfailed' });
    expect((await c.call({ action: 'logout' }, 'GET')).body['error']).toMatchObject({ code: 'missingparam', info: 'The "token" parameter must be set.' });
    expect((await c.call({ action: 'clientlogin' }, 'GET')).body['error']).toMatchObject({ code: 'missingparam', info: 'The "logintoken" parameter must be set.' });
    expect((await c.call({ action: 'logout', token: '+\\' }, 'GET')).body['error']).toMatchObject({ code: 'mustpostparams' });
  });
});

describe('action=clientlogin offline', () => {
  it('answers PASS, FAIL, a missing return URL and a bad token as MediaWiki does', async () => {
    const c = new Client(server.url);
    const token = await c.token('login');
    const noUrl = await c.call({ action: 'clientlogin', username: 'Admin', password: 'x', logintoken: token });
    expect(noUrl.body['error']).toMatchObject({ code: 'missingparam', info: 'At least one of the parameters "logincontinue" and "loginreturnurl" is required.' });
    // (the error names the module that raised it, as 1.39 and 1.43 do in the other error formats)
    const named = await c.call({ action: 'clientlogin', username: 'Admin', password: 'x', logintoken: token, errorformat: 'plaintext' });
    expect(named.body['errors']).toMatchObject([{ code: 'missingparam', module: 'clientlogin' }]);
    const badToken = await c.call({ action: 'clientlogin', username: 'Admin', password: 'x', logintoken: 'zz', loginreturnurl: 'http://x/' });
    expect(badToken.body['error']).toMatchObject({ code: 'badtoken', info: 'Invalid CSRF token.' });
    const fail = await c.call({ action: 'clientlogin', username: 'Admin', password: 'x', logintoken: token, loginreturnurl: 'http://x/' });
    expect(fail.body).toEqual({ clientlogin: { status: 'FAIL', message: 'Введены неверные имя участника или пароль.\nПопробуйте ещё раз.', messagecode: 'wrongpassword', canpreservestate: false } });
    const pass = await c.call({ action: 'clientlogin', username: 'Admin', password: 'main-password', logintoken: token, loginreturnurl: 'http://x/' });
    expect(pass.body).toEqual({ clientlogin: { status: 'PASS', username: 'Admin' } });
    expect(pass.headers.getSetCookie()[1]).toMatch(/Max-Age=2592000;/);
    expect((await c.call({ action: 'query', meta: 'userinfo' }, 'GET')).body['query'].userinfo).toEqual({ id: 1, name: 'Admin' });
  });
});

describe('meta=tokens offline', () => {
  it('gives an anonymous caller +\\ for CSRF-like tokens and a session-bound login token; type=* gives every type', async () => {
    const c = new Client(server.url);
    const all = (await c.call({ action: 'query', meta: 'tokens', type: '*' }, 'GET')).body['query'].tokens as Record<string, string>;
    expect(Object.keys(all)).toEqual(['createaccounttoken', 'csrftoken', 'logintoken', 'patroltoken', 'rollbacktoken', 'userrightstoken', 'watchtoken']);
    expect(all['csrftoken']).toBe('+\\');
    expect(all['watchtoken']).toBe('+\\');
    expect(all['logintoken']).toMatch(/^[0-9a-f]{32}[0-9a-f]+\+\\$/);
  });
});

describe('writes offline, and the write log', () => {
  it('checks POST, the token, the parameters and the rights, answers success, and keeps the write', async () => {
    server.clearWrites();
    const c = new Client(server.url);
    await c.call({ action: 'login', lgname: 'Admin', lgpassword: 'main-password', lgtoken: await c.token('login') });
    const csrf = await c.token('csrf');
    // ApiMain::setupModule checks the token before setupExternalResponse checks POST (both live wikis answer so).
    expect((await c.call({ action: 'edit', title: 'Sandbox', text: 'x', token: csrf }, 'GET')).body['error'].code).toBe('mustpostparams');
    expect((await c.call({ action: 'edit', title: 'Sandbox', text: 'x' }, 'GET')).body['error']).toMatchObject({ code: 'missingparam', info: 'The "token" parameter must be set.' });
    expect((await c.call({ action: 'edit', title: 'Sandbox', text: 'x', token: 'bad+\\' })).body['error']).toMatchObject({ code: 'badtoken', info: 'Invalid CSRF token.' });
    expect((await c.call({ action: 'edit', title: 'Sandbox', text: 'x' })).body['error']).toMatchObject({ code: 'missingparam', info: 'The "token" parameter must be set.' });
    expect((await c.call({ action: 'edit', text: 'x', token: csrf })).body['error']).toMatchObject({ code: 'missingparam', info: 'One of the parameters "title" and "pageid" is required.' });
    const edit = await c.call({ action: 'edit', title: 'sandbox_page', text: 'Hello', summary: 'test', token: csrf });
    expect(edit.body['edit']).toMatchObject({ result: 'Success', title: 'Sandbox page', contentmodel: 'wikitext' });
    // Ids a real write makes are not known: said so.
    expect(edit.headers.get('x-wikitape-unknown')).toBe('edit.result');
    const writes = server.writes();
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ action: 'edit', user: 'Admin', params: { title: 'sandbox_page', text: 'Hello', summary: 'test' } });
    expect(JSON.stringify(writes)).not.toContain(csrf.slice(0, 32));
    const http = (await (await fetch(new URL('/_wikitape/writes', server.url))).json()) as { writes: unknown[] };
    expect(http.writes).toEqual(JSON.parse(JSON.stringify(writes)));
    await fetch(new URL('/_wikitape/writes', server.url), { method: 'DELETE' });
    expect(server.writes()).toEqual([]);
  });

  it('refuses a write the account may not make (a bot password without the grant) with permissiondenied', async () => {
    const c = new Client(server.url);
    await c.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'bot-password', lgtoken: await c.token('login') });
    const r = await c.call({ action: 'edit', title: 'Sandbox', text: 'x', token: await c.token('csrf') });
    expect(r.body['error'].code).toBe('permissiondenied');
    // The wiki's text names the groups that have the right, its own configuration: not known.
    expect(r.headers.get('x-wikitape-unknown')).toBe('permissions.message');
  });

  it("answers a bot-password session's groups with the account's: bot passwords narrow rights by grants, never groups", async () => {
    const c = new Client(server.url);
    await c.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'bot-password', lgtoken: await c.token('login') });
    const r = await c.call({ action: 'query', meta: 'userinfo', uiprop: 'groups|rights', formatversion: '2' }, 'GET');
    // ApiQueryUserInfo: getUserEffectiveGroups of the session's user, the account itself.
    expect(r.headers.get('x-wikitape-unknown')).toBeNull();
    expect(r.body['query'].userinfo).toEqual({ id: 1, name: 'Admin', groups: ['*', 'user', 'sysop'], rights: ['read', 'writeapi', 'apihighlimits'] });
  });

  it('keeps the log bounded under huge writes: long values cut with a marker, always readable over HTTP', { timeout: 60_000 }, async () => {
    server.clearWrites();
    const text = 'x'.repeat(7 << 20);
    for (let i = 0; i < 12; i++) {
      const r = await fetch(server.url, { method: 'POST', body: new URLSearchParams({ action: 'edit', title: `Sandbox ${i}`, text: `${i}${text}`, token: '+\\', format: 'json' }) });
      expect(((await r.json()) as any).edit.result).toBe('Success');
    }
    const r = await fetch(new URL('/_wikitape/writes', server.url));
    expect(r.status).toBe(200);
    const raw = await r.text();
    // 12 writes of 7 MB each: the log keeps 64 K characters of each value.
    expect(raw.length).toBeLessThan(2 << 20);
    const log = JSON.parse(raw) as { writes: { params: Record<string, string> }[]; dropped: number };
    expect(log.dropped).toBe(0);
    expect(log.writes).toHaveLength(12);
    expect(log.writes[3]!.params['text']).toMatch(/^3x{65535}… \[wikitape: cut, 7340033 characters in all\]$/);
    expect(server.writes()[3]!.params['text']).toBe(log.writes[3]!.params['text']);
    server.clearWrites();
  });

  it('keeps a logged-in session through JSONP (answered as anonymous, as MediaWiki does): no new session cookie, no login, no tokens', async () => {
    server.clearWrites();
    const c = new Client(server.url);
    await c.call({ action: 'login', lgname: 'Admin', lgpassword: 'main-password', lgtoken: await c.token('login') });
    const me = async () => (await c.call({ action: 'query', meta: 'userinfo' }, 'GET')).body['query'].userinfo;
    expect(await me()).toEqual({ id: 1, name: 'Admin' });
    const jsonp = async (params: Record<string, string>, extra = 'callback=x') => {
      const r = await fetch(server.url, { method: 'POST', headers: { cookie: c.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: `${new URLSearchParams({ ...params, format: 'json' })}&${extra}` });
      return { setCookie: r.headers.getSetCookie(), text: await r.text() };
    };
    // Checked on MediaWiki 1.39 and 1.43: the answer is anonymous's, the session stays the user's.
    const edit = await jsonp({ action: 'edit', title: 'Sandbox', text: 'x', token: '+\\' });
    expect(edit.setCookie).toEqual([]);
    // (after the warning that says what the offline write made up: write-warnings.test.ts)
    expect(edit.text).toMatch(/^\/\*\*\/x\(\{"warnings":\{"edit":\{"\*":"wikitape answered this (?:[^"\\]|\\.)+"\}\},"edit":\{"result":"Success"/);
    expect(server.writes().map((w) => w.user)).toEqual(['127.0.0.1']);
    expect(await me()).toEqual({ id: 1, name: 'Admin' });
    const login = await jsonp({ action: 'login', lgname: 'Admin', lgpassword: 'main-password', lgtoken: 'x+\\' });
    expect([login.setCookie, login.text]).toEqual([[], '/**/x({"login":{"result":"Aborted","reason":"Cannot log in when the same-origin policy is not applied."}})']);
    const tokens = await jsonp({ action: 'query', meta: 'tokens', type: 'csrf|login' });
    expect([tokens.setCookie, tokens.text]).toEqual([[], '/**/x({"batchcomplete":"","warnings":{"tokens":{"*":"Tokens may not be obtained when the same-origin policy is not applied."}}})']);
    expect(await me()).toEqual({ id: 1, name: 'Admin' });
    // callback[]=x is no JSONP: the user writes, as the user.
    const array = await jsonp({ action: 'edit', title: 'Sandbox', text: 'y', token: await c.token('csrf') }, 'callback[]=x');
    expect(array.setCookie).toEqual([]);
    expect(JSON.parse(array.text)).toMatchObject({ warnings: { main: { '*': 'Parameter "callback" uses unsupported PHP array syntax.' } }, edit: { result: 'Success' } });
    expect(server.writes().map((w) => w.user)).toEqual(['127.0.0.1', 'Admin']);
    expect(await me()).toEqual({ id: 1, name: 'Admin' });
    // An error answer warns of the array too, first (as the wiki's does).
    const refused = await jsonp({ action: 'edit', title: 'Sandbox', text: 'y', token: 'bad+\\' }, 'callback[]=x');
    expect(refused.text).toMatch(/^\{"warnings":\{"main":\{"\*":"Parameter \\"callback\\" uses unsupported PHP array syntax\."\}\},"error":\{"code":"badtoken"/);
    server.clearWrites();
  });

  it('lets an anonymous caller edit with +\\ and refuses assert=user, as the wiki does', async () => {
    const c = new Client(server.url);
    expect((await c.call({ action: 'edit', title: 'Sandbox', text: 'x', token: '+\\', assert: 'user' })).body['error'].code).toBe('assertuserfailed');
    const ok = await c.call({ action: 'edit', title: 'Sandbox', text: 'x', token: '+\\' });
    expect(ok.body['edit'].result).toBe('Success');
  });
});

/** A cassette file holding one question answered for `user` (or anonymously). */
function interaction(key: string, request: Record<string, string>, body: object, user?: string) {
  return { key: user ? `${key} @${encodeURIComponent(user)}` : key, request, status: 200, headers: {}, body, recordedAt: '2024-03-01T00:00:00.000Z', ...(user ? { user } : {}) };
}

async function cassetteDir(files: Record<string, object[]>, version = '1.39.17'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-identities-'));
  for (const [name, interactions] of Object.entries(files)) {
    const sorted = [...interactions].sort((a: any, b: any) => (a.key < b.key ? -1 : 1));
    await writeFile(join(dir, `${name}.json`), JSON.stringify({ meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-03-01T00:00:00.000Z', profile: { version, debugInfo: false } }, interactions: sorted, entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] } }));
  }
  return dir;
}

describe('sessions are identities', () => {
  it('answers a logged-in recording only to a session logged in as that user, never to an anonymous one', async () => {
    const q = { action: 'query', meta: 'userinfo', uiprop: 'rights' };
    const key = 'action=query&meta=userinfo&uiprop=rights';
    const dir = await cassetteDir({
      rec: [
        interaction(key, q, { batchcomplete: true, query: { userinfo: { id: 0, name: '127.0.0.1', anon: true, rights: ['read'] } } }),
        interaction(key, q, { batchcomplete: true, query: { userinfo: { id: 1, name: 'Admin', rights: ['read', 'bot'] } } }, 'Admin@wikitape'),
      ],
    });
    const s = await startServer({ cassettes: dir, onMiss: 'error' });
    try {
      const anon = new Client(s.url);
      expect((await anon.call(q, 'GET')).body['query'].userinfo).toEqual({ id: 0, name: '127.0.0.1', anon: true, rights: ['read'] });
      // Computed for an anonymous caller: never from the user's recorded userinfo.
      const computed = await anon.call({ action: 'query', meta: 'userinfo' }, 'GET');
      expect(computed.body['query'].userinfo).toEqual({ id: 0, name: '127.0.0.1', anon: true });
      // A session cookie nobody logged in offline is anonymous too.
      anon.jar.set('wikidb_BPsession', 'a'.repeat(32));
      expect((await anon.call(q, 'GET')).body['query'].userinfo.anon).toBe(true);
      const bot = new Client(s.url);
      const login = await bot.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'whatever', lgtoken: await bot.token('login') });
      expect(login.body['login']).toEqual({ result: 'Success', lguserid: 1, lgusername: 'Admin' });
      // Known from recordings only: any password is taken, and the answer says it could not check
      // it, in the header and in the body (a bot that reads no header is told too).
      expect(login.headers.get('x-wikitape-unknown')).toBe('login.password');
      expect(login.body['warnings']?.login?.warnings).toMatch(/^wikitape replays this wiki offline and cannot check passwords \(no recording holds one\): any password logs in "Admin"/);
      // JSONP and origin=* strip credentials (ApiMain::lacksSameOriginSecurity): anonymous, as on the wiki.
      expect((await bot.call({ ...q, origin: '*' }, 'GET')).body['query'].userinfo.anon).toBe(true);
      const asBot = (extra: string, headers: Record<string, string> = {}) => fetch(`${s.url}?action=query&meta=userinfo&uiprop=rights&format=json&formatversion=2${extra}`, { headers: { cookie: bot.cookie, ...headers } });
      expect(((await (await asBot('', { 'treat-as-untrusted': '' })).json()) as any).query.userinfo.anon).toBe(true);
      // `callback[]=x` is an array, no JSONP (getCheck is false): the wiki answers as the user, as
      // JSON, with a warning (checked on MediaWiki 1.39 and 1.43).
      const array = await asBot('&callback[]=x');
      expect(array.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(array.headers.get('mediawiki-login-suppressed')).toBeNull();
      expect(await array.json()).toEqual({ warnings: { main: { warnings: 'Parameter "callback" uses unsupported PHP array syntax.' } }, batchcomplete: true, query: { userinfo: { id: 1, name: 'Admin', rights: ['read', 'bot'] } } });
      const mine = await bot.call(q, 'GET');
      expect(mine.headers.get('x-wikitape-source')).toBe('cassette');
      expect(mine.body['query'].userinfo).toEqual({ id: 1, name: 'Admin', rights: ['read', 'bot'] });
      expect((await bot.call({ action: 'query', meta: 'userinfo', assert: 'bot' }, 'GET')).body['query'].userinfo).toEqual({ id: 1, name: 'Admin' });
      // A name no recording shows may exist on the wiki: refused as a miss, not failed.
      const other = new Client(s.url);
      const nobody = await other.call({ action: 'login', lgname: 'Nobody@x', lgpassword: 'y', lgtoken: await other.token('login') });
      expect(nobody.body['error']?.code).toBe('wikitape-miss');
      expect(nobody.body['error']?.info).toContain('login.account');
      expect(nobody.headers.get('x-wikitape-unknown')).toBe('login.account');
    } finally {
      await s.close();
    }
  });
});

describe('a login question with meta=tokens beside other modules', () => {
  it('is recorded without its tokens, and replayed with the session\'s own where MediaWiki puts them', async () => {
    const general = { mainpage: 'Main Page', sitename: 'Test', generator: 'MediaWiki 1.39.17' };
    const userinfo = { id: 1, name: 'Admin', rights: ['read', 'edit', 'writeapi'] };
    // The wiki: the session cookie is Admin's; it answers meta=tokens|siteinfo|userinfo with the session's tokens.
    const wiki = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const q = new URLSearchParams(`${new URL(req.url!, 'http://x').search.slice(1)}&${body}`);
        const admin = req.headers.cookie === 'wikidb_session=s3cr3t';
        const query: Record<string, unknown> = {};
        for (const m of (q.get('meta') ?? '').split('|')) {
          if (m === 'tokens') query['tokens'] = { csrftoken: 'deadbeefdeadbeef+\\' };
          if (m === 'siteinfo') query['general'] = general;
          if (m === 'userinfo') query['userinfo'] = admin ? (q.has('uiprop') ? userinfo : { id: 1, name: 'Admin' }) : { id: 0, name: '127.0.0.1', anon: true };
        }
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ batchcomplete: true, query }));
      });
    });
    await new Promise<void>((r) => wiki.listen(0, '127.0.0.1', r));
    const wikiUrl = `http://127.0.0.1:${(wiki.address() as { port: number }).port}/w/api.php`;
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-login-flow-'));
    const init = '?action=query&meta=tokens|siteinfo|userinfo&type=csrf&siprop=general&uiprop=rights&format=json&formatversion=2';
    const rec = await startServer({ mode: 'record', upstream: wikiUrl, cassettes: dir, recordMode: 'all' });
    try {
      const live = await fetch(`${rec.url}${init}`, { headers: { cookie: 'wikidb_session=s3cr3t' } });
      expect(((await live.json()) as any).query.tokens.csrftoken).toBe('deadbeefdeadbeef+\\');
      await rec.flush();
    } finally {
      await rec.close();
      wiki.close();
    }
    const text = await readFile(join(dir, 'default.json'), 'utf8');
    expect(text).not.toContain('deadbeef');
    expect(JSON.parse(text).interactions.map((i: { key: string }) => i.key)).toContain('action=query&meta=siteinfo%7Cuserinfo&siprop=general&uiprop=rights @Admin');
    const s = await startServer({ cassettes: dir, onMiss: 'error' });
    try {
      const bot = new Client(s.url);
      await bot.call({ action: 'login', lgname: 'Admin', lgpassword: 'x', lgtoken: await bot.token('login') });
      // mwn's getTokensAndSiteInfo, as Mwn.init asks it.
      const asked = await bot.call({ action: 'query', meta: 'tokens|siteinfo|userinfo', type: 'csrf|login', siprop: 'general', uiprop: 'rights' }, 'GET');
      expect(asked.headers.get('x-wikitape-unknown')).toBeNull();
      expect(asked.body).toEqual({ batchcomplete: true, query: { tokens: { csrftoken: expect.stringMatching(/^[0-9a-f]{32,}\+\\$/), logintoken: expect.stringMatching(/\+\\$/) }, general, userinfo } });
      expect(Object.keys(asked.body['query'])).toEqual(['tokens', 'general', 'userinfo']);
      // The token is the session's: an edit with it is taken.
      const edit = await bot.call({ action: 'edit', title: 'Sandbox', text: 'x', token: asked.body['query'].tokens.csrftoken });
      expect(edit.body['edit']?.result).toBe('Success');
      // Anonymous: the user's recording answers nobody else (a miss names what to record).
      const anon = new Client(s.url);
      expect((await anon.call({ action: 'query', meta: 'tokens|siteinfo|userinfo', siprop: 'general', uiprop: 'rights' }, 'GET')).body['error'].code).toBe('wikitape-miss');
    } finally {
      await s.close();
    }
  });
});

describe('nobody in a bot-password session', () => {
  it('has `*`\'s rights within the bot password\'s grants (JSONP, origin=*), as on MediaWiki 1.39 and 1.43', async () => {
    const key = 'action=query&meta=userinfo&uiprop=rights';
    const q = { action: 'query', meta: 'userinfo', uiprop: 'rights' };
    const everyone = ['createaccount', 'read', 'edit', 'writeapi', 'viewmywatchlist'];
    const dir = await cassetteDir({
      rec: [
        interaction(key, q, { batchcomplete: true, query: { userinfo: { id: 0, name: '127.0.0.1', anon: true, rights: everyone } } }),
        interaction('action=query&meta=userinfo&uiprop=groups%7Crights', { ...q, uiprop: 'groups|rights' }, { batchcomplete: true, query: { userinfo: { id: 1, name: 'Admin', groups: ['*', 'user'], rights: ['read', 'edit', 'writeapi', 'bot'] } } }, 'Admin@wikitape'),
        interaction(key, q, { batchcomplete: true, query: { userinfo: { id: 1, name: 'Admin', rights: ['read', 'edit', 'writeapi', 'bot'] } } }, 'Admin'),
      ],
    });
    const s = await startServer({ cassettes: dir });
    try {
      const rights = async (c: Client | null) => ((await (await fetch(`${s.url}?${key}&format=json&formatversion=2&origin=*`, { headers: c ? { cookie: c.cookie } : {} })).json()) as any).query.userinfo;
      const bot = new Client(s.url);
      await bot.call({ action: 'login', lgname: 'Admin@wikitape', lgpassword: 'x', lgtoken: await bot.token('login') });
      expect(await rights(bot)).toEqual({ id: 0, name: '127.0.0.1', anon: true, rights: ['read', 'edit', 'writeapi'] });
      // A main-account session allows every right: nobody in it is anybody.
      const main = new Client(s.url);
      await main.call({ action: 'login', lgname: 'Admin', lgpassword: 'x', lgtoken: await main.token('login') });
      expect((await rights(main)).rights).toEqual(everyone);
      expect((await rights(null)).rights).toEqual(everyone);
    } finally {
      await s.close();
    }
  });

  /**
   * Replay of an anonymous `uiprop=<prop>` recording and of bot passwords whose grants allow these
   * rights; `ask` logs in as one and asks `uiprop=<prop>` with origin=*: [userinfo or error code, X-Wikitape-Unknown].
   */
  async function botPasswords(prop: string, anon: object, grants: Record<string, string[]>, version: string, run: (ask: (lgname: string) => Promise<unknown[]>) => Promise<void>) {
    const key = `action=query&meta=userinfo&uiprop=${prop}`;
    const q = { action: 'query', meta: 'userinfo', uiprop: prop };
    const groupsRights = ([user, rights]: [string, string[]]) => interaction('action=query&meta=userinfo&uiprop=groups%7Crights', { ...q, uiprop: 'groups|rights' }, { batchcomplete: true, query: { userinfo: { id: 1, name: 'Admin', groups: ['*', 'user'], rights } } }, user);
    const dir = await cassetteDir({ rec: [interaction(key, q, { batchcomplete: true, query: { userinfo: { id: 0, name: '127.0.0.1', anon: true, ...anon } } }), ...Object.entries(grants).map(groupsRights)] }, version);
    const s = await startServer({ cassettes: dir });
    try {
      await run(async (lgname) => {
        const bot = new Client(s.url);
        await bot.call({ action: 'login', lgname, lgpassword: 'x', lgtoken: await bot.token('login') });
        const r = await fetch(`${s.url}?${key}&format=json&formatversion=2&origin=*`, { headers: { cookie: bot.cookie } });
        const body = (await r.json()) as any;
        return [body.query?.userinfo ?? body.error?.code, r.headers.get('x-wikitape-unknown')];
      });
    } finally {
      await s.close();
    }
  }

  it('flags cancreateaccount where the grants leave out createaccount (1.43 answers badaccess-groups, naming the groups that have it)', async () => {
    await botPasswords('cancreateaccount', { cancreateaccount: true }, { 'Admin@wikitape': ['read', 'apihighlimits'], 'Admin@creator': ['read', 'createaccount'] }, '1.43.5', async (ask) => {
      expect(await ask('Admin@wikitape')).toEqual(['wikitape-miss', 'userinfo.cancreateaccount']);
      expect(await ask('Admin@creator')).toEqual([{ id: 0, name: '127.0.0.1', anon: true, cancreateaccount: true }, null]);
    });
  });

  it('shows no email where the grants leave out viewmyprivateinfo (1.43 printed the anonymous recording\'s email beside origin=*)', async () => {
    await botPasswords('email', { email: '' }, { 'Admin@wikitape': ['read', 'apihighlimits'], 'Admin@private': ['read', 'viewmyprivateinfo'] }, '1.39.17', async (ask) => {
      expect(await ask('Admin@wikitape')).toEqual([{ id: 0, name: '127.0.0.1', anon: true }, null]);
      expect(await ask('Admin@private')).toEqual([{ id: 0, name: '127.0.0.1', anon: true, email: '' }, null]);
    });
  });
});

describe('accounts from fixtures and from recordings', () => {
  it('fixtures that declare accounts declare them all: an identity only recordings show does not log in', async () => {
    const q = { action: 'query', meta: 'userinfo' };
    const key = 'action=query&meta=userinfo';
    const dir = await cassetteDir({
      rec: [
        interaction(key, q, { batchcomplete: true, query: { userinfo: { id: 7, name: 'Other' } } }, 'Other@bot'),
        interaction(key, q, { batchcomplete: true, query: { userinfo: { id: 1, name: 'Admin' } } }, 'Admin@recorded'),
      ],
    });
    const accounts = join(dir, 'accounts.json');
    await writeFile(accounts, JSON.stringify(ACCOUNTS));
    const login = async (s: RunningServer, lgname: string, lgpassword: string) => {
      const c = new Client(s.url);
      const r = await c.call({ action: 'login', lgname, lgpassword, lgtoken: await c.token('login') });
      return [r.body['login'].result, r.headers.get('x-wikitape-unknown')];
    };
    const declared = await startServer({ cassettes: dir, cassetteNames: ['rec'], fixtures: [accounts] });
    try {
      expect(await login(declared, 'Other@bot', 'any password')).toEqual(['Failed', null]);
      expect(await login(declared, 'Admin@recorded', 'any password')).toEqual(['Failed', null]);
      expect(await login(declared, 'Admin@wikitape', 'bot-password')).toEqual(['Success', null]);
    } finally {
      await declared.close();
    }
    // Without declared accounts, what recordings show logs in with any password, flagged.
    const recorded = await startServer({ cassettes: dir, cassetteNames: ['rec'] });
    try {
      expect(await login(recorded, 'Other@bot', 'any password')).toEqual(['Success', 'login.password']);
      expect(await login(recorded, 'Admin@recorded', 'any password')).toEqual(['Success', 'login.password']);
    } finally {
      await recorded.close();
    }
  });
});

describe('many suites on one server', () => {
  it('answers /<cassette>/… and X-Wikitape-Cassette from those recordings only', async () => {
    const q = { action: 'query', meta: 'siteinfo', siprop: 'general' };
    const key = 'action=query&meta=siteinfo&siprop=general';
    const site = (name: string) => ({ batchcomplete: true, query: { general: { sitename: name } } });
    const dir = await cassetteDir({ a: [interaction(key, q, site('A'))], b: [interaction(key, q, site('B'))] });
    const s = await startServer({ cassettes: dir, suites: { both: ['b', 'a'] } });
    try {
      const c = new Client(s.url);
      const origin = new URL(s.url).origin;
      const name = async (url: string, headers: Record<string, string> = {}) => ((await (await fetch(`${url}?action=query&meta=siteinfo&siprop=general&format=json`, { headers })).json()) as any).query.general.sitename;
      expect(await name(`${origin}/a/wiki/api.php`)).toBe('A');
      expect(await name(`${origin}/b/wiki/api.php`)).toBe('B');
      expect(await name(`${origin}/both/wiki/api.php`)).toBe('B');
      expect(await name(s.url, { 'x-wikitape-cassette': 'a' })).toBe('A');
      // The unprefixed path still answers from every cassette (the first that has the question).
      expect(['A', 'B']).toContain((await c.call(q, 'GET')).body['query'].general.sitename);
      // A cassette the server does not have is the client's mistake: a 404 in MediaWiki's error
      // shape that names no path of the server.
      for (const header of ['nope', 'a,nope', 'constructor', '../a', '__proto__']) {
        const missing = await fetch(s.url, { headers: { 'x-wikitape-cassette': header } });
        expect(missing.status, header).toBe(404);
        expect(missing.headers.get('mediawiki-api-error')).toBe('wikitape-nosuchcassette');
        const info = ((await missing.json()) as any).error.info as string;
        expect(info).toMatch(/^no cassette /);
        expect(info).not.toContain(dir);
      }
    } finally {
      await s.close();
    }
  });

  it('shares one engine among the spellings of one choice, and keeps at most MAX_SUITE_ENGINES', { timeout: 60_000 }, async () => {
    const q = { action: 'query', meta: 'siteinfo', siprop: 'general' };
    const key = 'action=query&meta=siteinfo&siprop=general';
    const names = ['a', 'b', 'c', 'd', 'e'];
    const dir = await cassetteDir(Object.fromEntries(names.map((n) => [n, [interaction(key, q, { batchcomplete: true, query: { general: { sitename: n } } })]])));
    const s = await startServer({ cassettes: dir });
    try {
      const origin = new URL(s.url).origin;
      const edit = (header: string) => fetch(s.url, { method: 'POST', headers: { 'x-wikitape-cassette': header }, body: new URLSearchParams({ action: 'edit', title: 'Sandbox', text: header, token: '+\\', format: 'json' }) });
      const log = async (headers: Record<string, string>, path = '/_wikitape/writes') => ((await (await fetch(`${origin}${path}`, { headers })).json()) as { writes: { params: { text: string } }[] }).writes.map((w) => w.params.text);
      await edit('a');
      // Every spelling of the choice `a` is one engine: one write log (as the path /a/ is).
      for (const spelling of ['a', 'a,a', ' a , a', 'a,,a ,a']) expect(await log({ 'x-wikitape-cassette': spelling }), spelling).toEqual(['a']);
      expect(await log({}, '/a/_wikitape/writes')).toEqual(['a']);
      // Order is kept (cassettes are consulted in order): `b,a` is another choice than `a,b`.
      await edit('a,b');
      expect(await log({ 'x-wikitape-cassette': 'a, b, a' })).toEqual(['a,b']);
      expect(await log({ 'x-wikitape-cassette': 'b,a' })).toEqual([]);
      // Past the bound, the least recently used engine is let go (its write log with it).
      const sets: string[] = [];
      for (const x of names) for (const y of names) for (const z of names) for (const w of names) if (new Set([x, y, z, w]).size === 4) sets.push(`${x},${y},${z},${w}`);
      expect(sets.length).toBeGreaterThan(MAX_SUITE_ENGINES);
      for (const set of sets.slice(0, MAX_SUITE_ENGINES)) expect(await log({ 'x-wikitape-cassette': set })).toEqual([]);
      expect(await log({ 'x-wikitape-cassette': 'a' })).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('reads the folder again for a cassette added later (path and header agree); Object.prototype names are no suites', async () => {
    const q = { action: 'query', meta: 'siteinfo', siprop: 'general' };
    const key = 'action=query&meta=siteinfo&siprop=general';
    const site = (name: string) => [interaction(key, q, { batchcomplete: true, query: { general: { sitename: name } } })];
    const dir = await cassetteDir({ a: site('A') });
    const s = await startServer({ cassettes: dir, suites: { both: ['a', 'a'] } });
    try {
      const origin = new URL(s.url).origin;
      const ask = (path: string, headers: Record<string, string> = {}) => fetch(`${origin}${path}?action=query&meta=siteinfo&siprop=general&format=json`, { headers });
      expect((await ask('/later/wiki/api.php')).status).toBe(404);
      expect((await ask('/wiki/api.php', { 'x-wikitape-cassette': 'later' })).status).toBe(404);
      const other = await cassetteDir({ later: site('Later') });
      await writeFile(join(dir, 'later.json'), await readFile(join(other, 'later.json')));
      for (const r of [await ask('/later/wiki/api.php'), await ask('/wiki/api.php', { 'x-wikitape-cassette': 'later' })]) {
        expect(r.status).toBe(200);
        expect(((await r.json()) as any).query.general.sitename).toBe('Later');
      }
      expect(((await (await ask('/both/wiki/api.php')).json()) as any).query.general.sitename).toBe('A');
      for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
        const r = await ask(`/${name}/wiki/api.php`);
        expect(r.status, name).toBe(404);
        expect(await r.text()).not.toContain('join');
      }
    } finally {
      await s.close();
    }
  });
});

describe('record --mode new', () => {
  let upstream: Server;
  let url: string;
  const asked: string[] = [];
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      if (q.get('list') === 'logevents') asked.push(q.get('lelimit') ?? '');
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ batchcomplete: true, query: { logevents: [] } }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/w/api.php`;
  });
  afterAll(() => upstream.close());

  it('asks the wiki only the questions the cassette does not hold', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-mode-new-'));
    const ask = async (s: RunningServer, limit: string) => {
      const r = await fetch(`${s.url}?action=query&list=logevents&lelimit=${limit}&format=json&formatversion=2`);
      return r.headers.get('x-wikitape-source');
    };
    const first = await startServer({ mode: 'record', upstream: url, cassettes: dir, recordMode: 'all' });
    expect(await ask(first, '1')).toBe('upstream');
    expect(await ask(first, '2')).toBe('upstream');
    await first.close();
    expect(asked).toEqual(['1', '2']);
    const second = await startServer({ mode: 'record', upstream: url, cassettes: dir });
    expect(await ask(second, '1')).toBe('cassette');
    expect(await ask(second, '3')).toBe('upstream');
    // Recorded in this run: answered from the cassette once it is stored.
    await second.flush();
    expect(await ask(second, '3')).toBe('cassette');
    expect(await ask(second, '2')).toBe('cassette');
    await second.close();
    expect(asked).toEqual(['1', '2', '3']);
  });

  it('answers a recording as recorded, for the session\'s user, never computed and without touching its cookies', async () => {
    // The wiki: the session cookie belongs to Admin; every other question is counted.
    const other: string[] = [];
    const wiki = createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (q.get('meta') === 'userinfo' && !q.has('uiprop')) {
        const admin = req.headers.cookie === 'wikidb_session=s3cr3t';
        res.end(JSON.stringify({ batchcomplete: true, query: { userinfo: admin ? { id: 1, name: 'Admin' } : { id: 0, name: '127.0.0.1', anon: true } } }));
        return;
      }
      other.push(q.toString());
      res.end(JSON.stringify({ batchcomplete: true, query: { blocks: [] } }));
    });
    await new Promise<void>((r) => wiki.listen(0, '127.0.0.1', r));
    const wikiUrl = `http://127.0.0.1:${(wiki.address() as { port: number }).port}/w/api.php`;
    // Admin's list of blocks, recorded on 1 March with a block that expired on 2 March; the
    // cassette was recorded into since (its clock is April's).
    const block = { id: 7, user: 'Vandal', by: 'Admin', timestamp: '2024-02-01T00:00:00Z', expiry: '2024-03-02T00:00:00Z', reason: 'spam' };
    const request = { action: 'query', assert: 'user', bklimit: '10', list: 'blocks' };
    const key = 'action=query&assert=user&bkdir=older&bklimit=10&bkprop=by%7Cexpiry%7Cflags%7Cid%7Creason%7Ctimestamp%7Cuser&list=blocks';
    const dir = await cassetteDir({ default: [interaction(key, request, { batchcomplete: true, query: { blocks: [block] } }, 'Admin')] });
    const file = join(dir, 'default.json');
    const c = JSON.parse(await readFile(file, 'utf8'));
    c.meta.recordedAt = '2024-04-01T00:00:00.000Z';
    c.meta.upstream = wikiUrl;
    await writeFile(file, JSON.stringify(c));
    const s = await startServer({ mode: 'record', upstream: wikiUrl, cassettes: dir });
    try {
      const r = await fetch(`${s.url}?action=query&list=blocks&bklimit=10&assert=user&format=json&formatversion=2`, { headers: { cookie: 'wikidb_session=s3cr3t' } });
      expect(r.headers.get('x-wikitape-source')).toBe('cassette');
      expect(await r.json()).toEqual({ batchcomplete: true, query: { blocks: [block] } });
      expect(r.headers.getSetCookie()).toEqual([]);
      expect(r.headers.get('x-wikitape-unknown')).toBeNull();
      expect(other).toEqual([]);
      // In a format wikitape cannot print as the wiki does, the wiki answers it (never JSON in XML's place).
      const xml = await fetch(`${s.url}?action=query&list=blocks&bklimit=10&assert=user&format=xml`, { headers: { cookie: 'wikidb_session=s3cr3t' } });
      expect(xml.headers.get('x-wikitape-source')).toBe('upstream');
      expect(xml.headers.get('x-wikitape-unknown')).toBeNull();
      await xml.text();
      await s.flush();
      expect(other.some((q) => new URLSearchParams(q).get('format') === 'xml')).toBe(true);
    } finally {
      await s.close();
      wiki.close();
    }
  });

  it('asks the wiki again a question whose credentials MediaWiki strips (origin=*) while its session stays', async () => {
    // The wiki: an anonymous caller's rights; in a bot password's session (its credentials
    // stripped by origin=*), the same anonymous caller's rights narrowed to the bot's grants.
    const wiki = createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      const rights = req.headers.cookie === 'wikidb_session=botsession' ? ['read', 'edit'] : ['createaccount', 'read', 'edit', 'editmyoptions'];
      res.end(JSON.stringify({ batchcomplete: true, query: { userinfo: { id: 0, name: '127.0.0.1', anon: true, ...(q.get('uiprop') === 'rights' ? { rights } : {}) } } }));
    });
    await new Promise<void>((r) => wiki.listen(0, '127.0.0.1', r));
    const wikiUrl = `http://127.0.0.1:${(wiki.address() as { port: number }).port}/w/api.php`;
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-mode-new-stripped-'));
    const question = '?action=query&meta=userinfo&uiprop=rights&format=json&formatversion=2';
    try {
      const first = await startServer({ mode: 'record', upstream: wikiUrl, cassettes: dir });
      await fetch(`${first.url}${question}`);
      await first.close();
      const again = await startServer({ mode: 'record', upstream: wikiUrl, cassettes: dir });
      try {
        const plain = await fetch(`${again.url}${question}`);
        expect(plain.headers.get('x-wikitape-source')).toBe('cassette');
        const stripped = await fetch(`${again.url}${question}&origin=*`, { headers: { cookie: 'wikidb_session=botsession' } });
        expect(stripped.headers.get('x-wikitape-source')).toBe('upstream');
        expect(((await stripped.json()) as { query: { userinfo: { rights: string[] } } }).query.userinfo.rights).toEqual(['read', 'edit']);
      } finally {
        await again.close();
      }
    } finally {
      wiki.close();
    }
  });

  it('refuses an upstream that is not an api.php URL, naming the one meant', async () => {
    await expect(startServer({ mode: 'record', upstream: 'http://host.test/wiki/', cassettes: NO_CASSETTES })).rejects.toThrow(
      "--upstream must be the wiki's api.php URL, ending in /api.php (http://host.test/wiki/ is not; did you mean http://host.test/wiki/api.php?)",
    );
  });
});

describe('a logged-in user\'s userinfo from the recordings', () => {
  it("answers a user's cancreateaccounterror only in the error format and language it was recorded in (MediaWiki 1.43 says it in the request's)", async () => {
    const q = { action: 'query', meta: 'userinfo', uiprop: 'cancreateaccount' };
    // What MediaWiki 1.43.5 answered the bot password Admin@wikitape-admin (its grants leave out createaccount).
    const error = [{ message: 'badaccess-groups', params: [{ list: ['*', '[[Тестовая вики:Администраторы|Администраторы]]'], type: 'comma' }, 2], code: 'permissiondenied', type: 'error' }];
    const dir = await cassetteDir({
      rec: [
        interaction('action=query&meta=userinfo&uiprop=groups%7Crights', { ...q, uiprop: 'groups|rights' }, { batchcomplete: true, query: { userinfo: { id: 1, name: 'Admin', groups: ['*', 'user', 'sysop'], rights: ['read', 'block'] } } }, 'Admin@wikitape-admin'),
        interaction('action=query&meta=userinfo&uiprop=cancreateaccount', q, { batchcomplete: true, query: { userinfo: { id: 1, name: 'Admin', cancreateaccount: false, cancreateaccounterror: error } } }, 'Admin@wikitape-admin'),
      ],
    }, '1.43.5');
    const s = await startServer({ cassettes: dir });
    try {
      const bot = new Client(s.url);
      await bot.call({ action: 'login', lgname: 'Admin@wikitape-admin', lgpassword: 'x', lgtoken: await bot.token('login') });
      const ask = async (p: Record<string, string>) => {
        const r = await bot.call({ ...q, ...p }, 'GET');
        return [r.body['query']?.userinfo ?? r.body['error']?.code ?? r.body['errors']?.[0]?.code, r.headers.get('x-wikitape-unknown')];
      };
      // Computed from the recordings (no recording of this very question): in the recorded form, as recorded.
      expect(await ask({ uiprop: 'cancreateaccount|groups' })).toEqual([{ id: 1, name: 'Admin', groups: ['*', 'user', 'sysop'], cancreateaccount: false, cancreateaccounterror: error }, null]);
      // In another form: MediaWiki would say it otherwise ({code, key, params} in raw; a text in plaintext).
      expect(await ask({ uiprop: 'cancreateaccount|groups', errorformat: 'raw' })).toEqual(['wikitape-miss', 'userinfo.cancreateaccount']);
      expect(await ask({ uiprop: 'cancreateaccount|groups', uselang: 'en' })).toEqual(['wikitape-miss', 'userinfo.cancreateaccount']);
    } finally {
      await s.close();
    }
  });
});
