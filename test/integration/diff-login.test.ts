import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { cliTest, runCli } from '../support/cli.js';
import { Client } from '../support/cookie-client.js';

/**
 * `cassettes diff` on what was recorded logged in: checked by logging in as the identity it was
 * recorded as (a bot password from the environment or a file), or reported unchecked with its own
 * exit code (3), never "fresh". The upstream is wikitape's fixture server, whose log this test
 * changes between the recording and the diff.
 */
const BOT = 'Admin@diffbot';
const PASSWORD = 'bot-pw-0123456789abcdef';
const PROFILE = { version: '1.39.17', language: 'en', siteName: 'Test', server: 'http://127.0.0.1', scriptPath: '/wiki', cookiePrefix: 'wikidb' };
const ACCOUNT = {
  name: 'Admin',
  id: 1,
  password: 'main-password',
  botPasswords: { diffbot: { password: PASSWORD, rights: ['read', 'writeapi', 'apihighlimits'] } },
  groups: ['*', 'user', 'sysop'],
  rights: ['read', 'edit', 'writeapi', 'apihighlimits', 'block'],
};

function logEvent(logid: number) {
  const minute = String(logid).padStart(2, '0');
  return { logid, ns: 0, title: `Page ${logid}`, pageid: 100 + logid, logpage: 100 + logid, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp: `2024-03-01T10:${minute}:00Z`, comment: `event ${logid}`, tags: [] };
}

async function wiki(dir: string, name: string, events: number): Promise<RunningServer> {
  await writeFile(join(dir, `${name}.json`), JSON.stringify({ profile: PROFILE, accounts: [ACCOUNT], logevents: Array.from({ length: events }, (_, n) => logEvent(n + 1)) }));
  // A stand-in for the wiki: it answers every question, as a wiki does (what fixtures leave open, e.g. a
  // bot session's implicit groups, is answered flagged rather than refused).
  return startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, `${name}.json`)], clock: TEST_CLOCK, onMiss: 'builtin' });
}

const LOG_WALK = { action: 'query', list: 'logevents', lelimit: '5', leprop: 'ids|title|type|user|timestamp|comment' };

/** A bot's session: logged in with its bot password, then the log walked page by page; the pages' entries. */
async function botWalk(url: string, password: string, limit = LOG_WALK.lelimit): Promise<{ logids: number[][]; sources: (string | null)[] }> {
  const bot = new Client(url);
  const login = await bot.call({ action: 'login', lgname: BOT, lgpassword: password, lgtoken: await bot.token('login') });
  expect(login.body['login'].result).toBe('Success');
  const logids: number[][] = [];
  const sources: (string | null)[] = [];
  let cont: Record<string, string> = { continue: '' };
  for (let n = 0; n < 20; n++) {
    const q = new URLSearchParams({ ...LOG_WALK, lelimit: limit, ...cont, format: 'json', formatversion: '2' });
    const r = await fetch(`${url}?${q}`, { headers: { cookie: bot.cookie } });
    const body = (await r.json()) as { query: { logevents: { logid: number }[] }; continue?: Record<string, string> };
    logids.push(body.query.logevents.map((e) => e.logid));
    sources.push(r.headers.get('x-wikitape-source'));
    if (!body.continue) return { logids, sources };
    cont = body.continue;
  }
  throw new Error('the walk did not end');
}

const NO_CREDENTIALS = { WIKITAPE_DIFF_USER: undefined, WIKITAPE_DIFF_PASSWORD: undefined };

describe('cassettes diff on a logged-in cassette', () => {
  it('without credentials: says which identity was not checked and exits 3; with them: logs in, finds the change (exit 1), --update records it as that identity; secrets shown nowhere', cliTest(6), async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-diff-login-'));
    const cassettes = join(dir, 'cassettes');
    const before = await wiki(dir, 'before', 12);
    const rec = await startServer({ mode: 'record', upstream: before.url, cassettes, cassette: 'bot' });
    expect((await botWalk(rec.url, PASSWORD)).logids.length).toBe(3);
    await rec.close();
    await before.close();
    const recorded = JSON.parse(await readFile(join(cassettes, 'bot.json'), 'utf8')) as { interactions: { user?: string; request: Record<string, string> }[] };
    expect(recorded.interactions.filter((i) => i.request['list'] === 'logevents').map((i) => i.user)).toEqual([BOT, BOT, BOT]);

    const after = await wiki(dir, 'after', 14);
    const diff = (env: Record<string, string | undefined>, ...more: string[]) => runCli(['cassettes', 'diff', '--cassettes', cassettes, '--upstream', after.url, ...more], { env });
    const withPassword = { WIKITAPE_DIFF_USER: BOT, WIKITAPE_DIFF_PASSWORD: PASSWORD };
    try {
      const unchecked = await diff(NO_CREDENTIALS);
      expect(unchecked.code).toBe(3);
      expect(unchecked.stdout).toContain(`unchecked\tbot\t`);
      expect(unchecked.stdout).toContain(`recorded logged in as ${BOT}, and no credentials for ${BOT} were given (WIKITAPE_DIFF_USER and WIKITAPE_DIFF_PASSWORD, or --credentials FILE)`);
      expect(unchecked.stdout).toMatch(/^\d+ walks \(\d+ recorded pages\): 0 equal, 0 changed, 0 gone, \d+ unchecked\nnot fresh: \d+ walk\(s\) not checked \(exit 3\)\n$/m);

      const wrong = await diff({ WIKITAPE_DIFF_USER: BOT, WIKITAPE_DIFF_PASSWORD: 'not-the-password' });
      expect(wrong.code).toBe(3);
      expect(wrong.stdout).toContain(`could not log in as ${BOT}: Failed`);
      expect(wrong.stdout + wrong.stderr).not.toContain('not-the-password');

      const changed = await diff(withPassword);
      expect(changed.code).toBe(1);
      expect(changed.stdout).toMatch(/^changed\tbot\taction=query&[^\n]*list=logevents @Admin%40diffbot\n {4}a walk of 3 pages recorded, 3 now\n(?: {4}.*\n)* {4}\+ query\.logevents\[logid=14\]: /m);
      const file = join(dir, 'credentials.json');
      await writeFile(file, JSON.stringify([{ user: BOT, password: PASSWORD }]));
      const updated = await diff(NO_CREDENTIALS, '--update', '--credentials', file);
      expect(updated.stdout).toContain('changed (recorded again)\tbot\t');
      expect(updated.code).toBe(0);
      const again = await diff(withPassword);
      expect([again.code, again.stdout]).toEqual([0, expect.stringMatching(/^\d+ walks \(\d+ recorded pages\): \d+ equal, 0 changed, 0 gone, 0 unchecked\n$/)]);
      for (const r of [unchecked, changed, updated, again]) expect(r.stdout + r.stderr).not.toContain(PASSWORD);
      const cassette = await readFile(join(cassettes, 'bot.json'), 'utf8');
      expect(cassette).not.toContain(PASSWORD);
      expect(cassette).not.toMatch(/_session=|_BPsession=/);

      // Replay, logged in as the bot, walks the log as the wiki does now, at the recorded limit and another.
      const replay = await startServer({ cassettes, onMiss: 'error' });
      try {
        for (const limit of ['5', '3']) {
          const want = await botWalk(after.url, PASSWORD, limit);
          const got = await botWalk(replay.url, 'any', limit);
          expect(got.logids).toEqual(want.logids);
          expect(got.logids.flat()).toEqual(Array.from({ length: 14 }, (_, n) => 14 - n));
          for (const s of got.sources) expect(['cassette', 'synthesized']).toContain(s);
        }
      } finally {
        await replay.close();
      }
    } finally {
      await after.close();
    }
  });
});
