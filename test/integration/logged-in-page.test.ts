import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { adminAccounts } from '../support/accounts.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { Client } from '../support/cookie-client.js';
import { login } from '../support/live-walk.js';

/**
 * The HTML page (`format=jsonfm`) of a logged-in caller: MediaWiki's page scripts hold the user's
 * name, groups, id, edit count and registration and the session's tokens (RLCONF, `user.options`;
 * read on the live 1.39 and 1.43), none of which wikitape knows. It must not print a reader's page
 * as if it were the user's: the page is flagged `page.user` (a miss by default).
 */
describe.each(['1.39.17', '1.43.9'])('the HTML page of a logged-in caller on MediaWiki %s', (version) => {
  let wiki: RunningServer;
  let file: string;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-page-user-'));
    file = join(dir, 'accounts.json');
    await writeFile(file, JSON.stringify(adminAccounts({ bot: { name: 'mybot', rights: ['read', 'apihighlimits'] }, rights: ['read', 'writeapi'] })));
    wiki = await startServer({ cassettes: NO_CASSETTES, fixtures: [MINI_WIKI, file], clock: TEST_CLOCK, profile: { version }, onMiss: 'builtin' });
  });
  afterAll(() => wiki.close());

  const page = async (c: Client) => fetch(`${wiki.url}?action=query&meta=siteinfo&format=jsonfm`, c.jar.size > 0 ? { headers: { cookie: c.cookie } } : {});

  it('is flagged page.user, with what else is unknown', async () => {
    const c = new Client(wiki.url);
    expect((await login(c, 'Admin@mybot', 'bot-password'))['result']).toBe('Success');
    const r = await page(c);
    expect(r.headers.get('x-wikitape-unknown')?.split(', ')).toContain('page.user');
    // The JSON itself, the same in format=json, is not flagged.
    const json = await fetch(`${wiki.url}?action=query&meta=siteinfo&format=json`, { headers: { cookie: c.cookie } });
    expect(json.headers.get('x-wikitape-unknown')).toBeNull();
  });

  it("is a reader's page, not flagged, for an anonymous caller", async () => {
    const r = await page(new Client(wiki.url));
    expect(r.headers.get('x-wikitape-unknown')).toBeNull();
    expect(await r.text()).toContain('"wgUserName":null');
  });

  it('is a miss by default for a logged-in caller', async () => {
    const strict = await startServer({ cassettes: NO_CASSETTES, fixtures: [MINI_WIKI, file], clock: TEST_CLOCK, profile: { version } });
    try {
      const c = new Client(strict.url);
      expect((await login(c, 'Admin@mybot', 'bot-password'))['result']).toBe('Success');
      const r = await fetch(`${strict.url}?action=query&meta=siteinfo&format=jsonfm`, { headers: { cookie: c.cookie } });
      expect(r.headers.get('x-wikitape-source')).toBe('miss');
      expect(await r.text()).toContain('wikitape-miss');
    } finally {
      await strict.close();
    }
  });
});
