import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mwn } from 'mwn';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { api, builtin, data, MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { adminAccounts } from '../support/accounts.js';
import { Client } from '../support/cookie-client.js';
import { login } from '../support/live-walk.js';

/**
 * action=paraminfo offline: a client's token and parameter discovery (mwn's badtoken recovery
 * asks it), answered from the data captured from the real wikis; what that data cannot know is
 * flagged. (Every answer is compared byte for byte with the live wikis in test/live/paraminfo.test.ts.)
 */

const ACCOUNTS = adminAccounts({ bot: { name: 'mybot', rights: ['read', 'edit', 'writeapi', 'apihighlimits'] }, rights: ['read', 'edit', 'createpage', 'writeapi', 'apihighlimits'] });

let wiki: RunningServer | undefined;
afterEach(async () => {
  await wiki?.close();
  wiki = undefined;
});

async function accounts(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-paraminfo-'));
  const file = join(dir, 'accounts.json');
  await writeFile(file, JSON.stringify(ACCOUNTS));
  return file;
}

describe.each(['1.39.17', '1.43.9'])('mwn on MediaWiki %s, offline', (version) => {
  it('recovers from a badtoken fault as on a real wiki: asks paraminfo for the token type, fetches tokens, retries the edit', async () => {
    const seen: string[] = [];
    wiki = await startServer({
      cassettes: NO_CASSETTES,
      fixtures: [MINI_WIKI, await accounts()],
      clock: TEST_CLOCK,
      profile: { version },
      onMiss: 'error',
      faults: ['badtoken:first=1'],
      onRequest: (e) => void seen.push(`${e.source} ${e.key}`),
    });
    const bot = await Mwn.init({ apiUrl: wiki.url, username: 'Admin@mybot', password: 'bot-password', silent: true, retryPause: 0 });
    const saved = await bot.save('Sandbox', 'Hello', 'test');
    expect(saved).toMatchObject({ result: 'Success', title: 'Sandbox' });
    // the first edit got badtoken; the retried one is the one write the log holds
    expect(seen.filter((s) => s.startsWith('fault '))).toHaveLength(1);
    expect(wiki.writes()).toMatchObject([{ action: 'edit', user: 'Admin@mybot', params: { title: 'Sandbox', text: 'Hello' } }]);
    const asked = seen.find((s) => s.includes('action=paraminfo'));
    // answered built in, nothing unknown (with misses refused, an unknown would be a miss); asked logged in
    expect(asked).toBe('builtin action=paraminfo&modules=edit @Admin%40mybot');
  });
});

describe('paraminfo', () => {
  it("answers mwn's question with the token parameter and its type, nothing flagged", async () => {
    for (const [version, tokentype] of [['1.39.17', 'csrf'], ['1.43.9', 'csrf']] as const) {
      const res = await api({ action: 'paraminfo', modules: 'edit|rollback', formatversion: '2' }, { version });
      expect(res.headers['x-wikitape-unknown']).toBeUndefined();
      const [edit, rollback] = (data(res)['paraminfo'] as { modules: { parameters: { name: string; tokentype?: string }[] }[] }).modules;
      expect(edit!.parameters.find((p) => p.name === 'token')).toMatchObject({ name: 'token', type: 'string', required: true, sensitive: true, tokentype });
      expect(rollback!.parameters.find((p) => p.name === 'token')?.tokentype).toBe('rollback');
      expect(res.headers['cache-control']).toBe('private, must-revalidate, max-age=0');
    }
  });

  it('describes the wiki it serves: the license link on its server, under its script path, in its content language', async () => {
    const ru = data(await builtin({ version: '1.43.9', server: 'https://wiki.example', scriptPath: '/w' }).get('/w/api.php').query({ action: 'paraminfo', modules: 'query+tokens', format: 'json', formatversion: '2' }));
    expect(JSON.stringify(ru)).toContain('"licenselink":"https://wiki.example/w/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%92%D0%B5%D1%80%D1%81%D0%B8%D1%8F/License/MediaWiki"');
    const en = data(await api({ action: 'paraminfo', modules: 'spamblacklist', formatversion: '2' }, { version: '1.43.9', language: 'en' }));
    expect(JSON.stringify(en)).toContain('"licenselink":"http://127.0.0.1:8088/wiki/index.php/Special:Version/License/SpamBlacklist"');
  });

  it('prints html help links under the profile script path', async () => {
    const res = await builtin({ version: '1.43.9', scriptPath: '/w' }).get('/w/api.php').query({ action: 'paraminfo', modules: 'edit', helpformat: 'html', format: 'json', formatversion: '2' });
    expect(res.headers['x-wikitape-unknown']).toBeUndefined();
    const text = JSON.stringify(data(res));
    expect(text).toContain('<a href=\\"/w/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:ApiHelp/query%2Btokens\\"');
    expect(text).not.toContain('/wiki/index.php');
  });

  it('flags help texts it has not captured (another language) instead of printing English', async () => {
    const de = await api({ action: 'paraminfo', modules: 'edit', helpformat: 'wikitext', uselang: 'de', formatversion: '2' }, { version: '1.43.9' });
    expect(de.headers['x-wikitape-unknown']).toBe('paraminfo.help');
    // helpformat=none is data, in any language
    const none = await api({ action: 'paraminfo', modules: 'edit', uselang: 'de' }, { version: '1.43.9' });
    expect(none.headers['x-wikitape-unknown']).toBeUndefined();
    // a module served in helpformat=none only
    const cat = await api({ action: 'paraminfo', modules: 'query+categories', helpformat: 'wikitext' }, { version: '1.43.9' });
    expect(cat.headers['x-wikitape-unknown']).toBe('paraminfo.help');
    expect(data(await api({ action: 'paraminfo', modules: 'query+categories' }, { version: '1.43.9' }))['paraminfo']).toMatchObject({ modules: [{ name: 'categories', prefix: 'cl' }] });
  });

  it('flags help that names the content language pages when the wiki has another, and html help whose links the wiki would color otherwise', async () => {
    const en = await api({ action: 'paraminfo', modules: 'delete', helpformat: 'raw' }, { version: '1.43.9', language: 'en' });
    expect(en.headers['x-wikitape-unknown']).toBe('paraminfo.help');
    // parse's help links the page "API", missing on the captured wiki: a wiki that has it shows a blue link
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-paraminfo-'));
    await writeFile(join(dir, 'api-page.json'), JSON.stringify({ pages: [{ pageid: 99, ns: 0, title: 'API', extlinks: [] }] }));
    const blue = await startServer({ cassettes: NO_CASSETTES, fixtures: [MINI_WIKI, join(dir, 'api-page.json')], clock: TEST_CLOCK, profile: { version: '1.43.9' } });
    try {
      const r = await fetch(`${blue.url}?action=paraminfo&modules=parse&helpformat=html&format=json`);
      expect(r.headers.get('x-wikitape-unknown')).toBe('paraminfo.help');
      const w = await fetch(`${blue.url}?action=paraminfo&modules=parse&helpformat=wikitext&format=json`);
      expect(w.headers.get('x-wikitape-unknown')).toBeNull();
    } finally {
      await blue.close();
    }
  });

  it('answers 1.44 from 1.43 data, flagged paraminfo.version; with misses refused, a miss naming it', async () => {
    const res = await api({ action: 'paraminfo', modules: 'edit' }, { version: '1.44.0' });
    expect(res.headers['x-wikitape-unknown']).toBe('paraminfo.version');
    wiki = await startServer({ cassettes: NO_CASSETTES, fixtures: [MINI_WIKI], clock: TEST_CLOCK, profile: { version: '1.44.0' }, onMiss: 'error' });
    const miss = await (await fetch(`${wiki.url}?action=paraminfo&modules=edit&format=json`)).json();
    expect(miss.error.code).toBe('wikitape-miss');
    expect(miss.error.info).toContain('paraminfo.version');
  });

  it('warns about paths it cannot find and deprecated parameters as MediaWiki does', async () => {
    const res = data(await api({ action: 'paraminfo', modules: 'foo|edit+*', querymodules: 'tokens|bogus', mainmodule: '0', formatversion: '2', errorformat: 'plaintext' }, { version: '1.43.9' }));
    expect(res['warnings']).toEqual([
      { code: 'deprecation', text: 'Параметр «querymodules» устарел.', data: { feature: 'action=paraminfo&querymodules' }, module: 'paraminfo' },
      { code: 'deprecation-help', text: expect.stringContaining('mediawiki-api-announce'), module: 'main' },
      { code: 'unrecognizedvalues', text: expect.stringContaining('bogus'), data: { values: ['bogus'] }, module: 'paraminfo' },
      { code: 'deprecation', text: 'Параметр «mainmodule» устарел.', data: { feature: 'action=paraminfo&mainmodule' }, module: 'paraminfo' },
      { code: 'badmodule', text: 'У модуля "edit" нет подмодулей.', module: 'paraminfo' },
      { code: 'badmodule', text: 'У модуля "main" нет подмодуля «foo».', module: 'paraminfo' },
    ]);
    // mainmodule=0 is false to PHP: no mainmodule member
    expect(Object.keys(res['paraminfo'] as object)).toEqual(['helpformat', 'querymodules']);
  });

  it("shows a multi-value parameter's limit as the caller has it: 500 with apihighlimits, 50 without (live 1.39 and 1.43, logged in as a bot)", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-paraminfo-'));
    const file = join(dir, 'accounts.json');
    // Admin@high may ask 500 values, Admin@low 50.
    const doc = adminAccounts({ rights: ['read'] });
    doc.accounts[0] = { ...doc.accounts[0]!, botPasswords: { high: { password: 'bot-password', rights: ['read', 'apihighlimits'] }, low: { password: 'bot-password', rights: ['read'] } } } as (typeof doc.accounts)[0];
    await writeFile(file, JSON.stringify(doc));
    wiki = await startServer({ cassettes: NO_CASSETTES, fixtures: [MINI_WIKI, file], clock: TEST_CLOCK, profile: { version: '1.43.9' }, onMiss: 'error' });
    const limits = async (bot: string | null) => {
      const c = new Client(wiki!.url);
      if (bot) expect((await login(c, `Admin@${bot}`, 'bot-password'))['result']).toBe('Success');
      const r = await c.call({ action: 'paraminfo', modules: 'query+siteinfo' }, 'GET');
      expect(r.headers.get('x-wikitape-unknown')).toBeNull();
      const prop = (r.body['paraminfo'].modules[0].parameters as { name: string; limit: number; lowlimit: number; highlimit: number }[]).find((p) => p.name === 'prop')!;
      return [prop.lowlimit, prop.highlimit, prop.limit];
    };
    expect(await limits('high')).toEqual([50, 500, 500]);
    expect(await limits('low')).toEqual([50, 500, 50]);
    expect(await limits(null)).toEqual([50, 500, 50]);
  });
});
