import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { Client } from '../support/cookie-client.js';
import { adminAccounts } from '../support/accounts.js';

/**
 * A write answered offline says IN THE BODY what it made up: a bot reads the API's warnings, not
 * `X-Wikitape-Unknown`. An edit whose text equals the page's is `nochange` on a wiki (no new
 * revision: ApiEditPage), which replay cannot know without the page's text, so the success it
 * gives carries a warning saying so.
 */
const ACCOUNTS = adminAccounts({ password: 'pw', rights: ['read', 'edit', 'createpage', 'writeapi', 'block', 'delete', 'move', 'protect', 'rollback', 'upload', 'undelete'] });

let server: RunningServer;
let c: Client;
let csrf: string;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-write-warnings-'));
  await writeFile(join(dir, 'accounts.json'), JSON.stringify(ACCOUNTS));
  server = await startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, 'accounts.json')], clock: TEST_CLOCK, profile: { version: '1.43.0', debugInfo: false } });
  c = new Client(server.url);
  await c.call({ action: 'login', lgname: 'Admin', lgpassword: 'pw', lgtoken: await c.token('login') });
  csrf = await c.token('csrf');
});
afterAll(() => server.close());

const WRITES: Record<string, Record<string, string>> = {
  edit: { title: 'Sandbox', text: 'Hello' },
  move: { from: 'Sandbox', to: 'Sandbox 2' },
  delete: { title: 'Sandbox' },
  undelete: { title: 'Sandbox' },
  protect: { title: 'Sandbox', protections: 'edit=sysop' },
  block: { user: 'Vandal' },
  unblock: { user: 'Vandal' },
  upload: { filename: 'A.png', url: 'http://x/a.png' },
  rollback: { title: 'Sandbox', user: 'Vandal' },
};

describe('a write answered offline', () => {
  it('an edit: the success carries a warning naming nochange and the revision ids it made up (errorformat=plaintext)', async () => {
    const r = await c.call({ action: 'edit', ...WRITES['edit']!, token: csrf, errorformat: 'plaintext' });
    expect(r.body['edit']).toMatchObject({ result: 'Success', title: 'Sandbox' });
    expect(r.body['warnings']).toEqual([
      {
        code: 'wikitape-unknown',
        text: expect.stringMatching(/^wikitape answered this "action=edit" without a wiki: nothing was changed .* it cannot know whether the text differs from the page's current text \(a wiki answers nochange, .*\(oldrevid, newrevid\)\. The values it gives for them are made up \("X-Wikitape-Unknown: edit\.result"\)\.$/),
        module: 'edit',
      },
    ]);
    expect(r.headers.get('x-wikitape-unknown')).toBe('edit.result');
  });

  it.each(Object.keys(WRITES))('%s: the warning in the default error format (bc), under the module, besides the header', async (action) => {
    const r = await c.call({ action, ...WRITES[action]!, token: action === 'rollback' ? await c.token('rollback') : csrf });
    expect(r.body[action], JSON.stringify(r.body)).toBeDefined();
    expect(r.body['warnings'][action].warnings).toMatch(new RegExp(`^wikitape answered this "action=${action}" without a wiki: .* it cannot know .+\\.`));
    expect(r.headers.get('x-wikitape-unknown')).toBe(`${action}.result`);
  });

  it('a refused write carries no such warning (the error is the wiki\'s own)', async () => {
    const r = await c.call({ action: 'edit', title: 'Sandbox', text: 'x', token: 'bad+\\' });
    expect(r.body['error'].code).toBe('badtoken');
    expect(JSON.stringify(r.body)).not.toContain('wikitape');
  });
});
