import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from '../../src/record/snapshot.js';
import { startServer } from '../../src/server.js';
import { Client } from '../support/cookie-client.js';
import { walkOutput } from '../support/client-walk.js';
import { LIVE_VERSIONS, liveWiki, type LiveVersion } from '../support/live-wiki.js';

/**
 * Real client libraries as bots that log in (a bot password that may edit): each logs in with
 * its own login flow, walks every list with its own continuation, reads extlinks, parses a
 * summary, checks the spam blacklist and makes one edit: against the live wiki, through
 * `wikitape record`, through `record --mode new` over that recording (logging in again), and
 * against `wikitape replay` of it (logging in offline, `--on-miss error`; mwn's `Mwn.init` asks
 * its tokens, siteinfo and userinfo in one question), then at limits nobody recorded. The results must be equal; the edit is
 * answered in the same shape and is in replay's write log. mwn also meets the `badtoken` fault in
 * replay and recovers as on a real wiki (asking action=paraminfo for the token's type).
 * wikijs has no login and no edit: it gets the session's cookies, and reads anonymously (origin=*).
 */
const CLIENTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'clients');
const EDIT_TITLE = 'Wikitape client sandbox';
const EDIT_TEXT = 'Edited by the wikitape client checks.';

const clients = [
  { name: 'mwn (npm)', cmd: process.execPath, args: [join(CLIENTS, 'mwn-walk.mjs')] },
  { name: 'mwbot (npm)', cmd: process.execPath, args: [join(CLIENTS, 'mwbot-walk.mjs')] },
  { name: 'nodemw (npm)', cmd: process.execPath, args: [join(CLIENTS, 'nodemw-walk.mjs')] },
  { name: 'mwclient (Debian python3-mwclient)', cmd: '/usr/bin/python3', args: [join(CLIENTS, 'mwclient-walk.py')] },
  // wikijs cannot log in or edit: the bot logs in beside it and gives it the cookies, which its
  // origin=* makes the wiki (and replay) ignore: it reads anonymously.
  { name: 'wikijs (npm)', cmd: process.execPath, args: [join(CLIENTS, 'wikijs-walk.mjs')] },
];
const runs = LIVE_VERSIONS.flatMap((version) => clients.map((client) => ({ ...client, version })));

async function walk(client: (typeof clients)[number], apiUrl: string, login: { user: string; password: string }, limit = '5'): Promise<Record<string, unknown>> {
  return walkOutput(client, { API_URL: apiUrl, LIMIT: limit, LOGIN_USER: login.user, LOGIN_PASSWORD: login.password, EDIT_TITLE, EDIT_TEXT });
}

/** The page the clients edit exists with the text they write: their edits change nothing (no new log event). */
const sandboxReady = new Map<LiveVersion, Promise<void>>();
function sandbox(version: LiveVersion): Promise<void> {
  let p = sandboxReady.get(version);
  if (!p) {
    p = (async () => {
      const live = await liveWiki(version);
      const { user, password } = await live.editorCredentials();
      const c = new Client(live.apiUrl);
      await c.call({ action: 'login', lgname: user, lgpassword: password, lgtoken: await c.token('login') });
      const r = await c.call({ action: 'edit', title: EDIT_TITLE, text: EDIT_TEXT, summary: 'wikitape client checks', token: await c.token('csrf') });
      if (r.body['edit']?.result !== 'Success') throw new Error(`could not make the sandbox page: ${JSON.stringify(r.body)}`);
    })();
    sandboxReady.set(version, p);
  }
  return p;
}

describe.each(runs)('$name, logged in, on MediaWiki $version', (client) => {
  beforeAll(() => sandbox(client.version));

  it('gets the same results live, through record and from replay (logged in offline); the edit is in the write log', async () => {
    const live = await liveWiki(client.version);
    const login = await live.editorCredentials();
    const direct = await walk(client, live.apiUrl, login);
    const editor = !client.name.startsWith('wikijs');
    if (editor) expect(direct['edit']).toEqual({ result: 'Success', title: EDIT_TITLE });
    // wikijs reads with origin=*: the wiki strips its credentials (anon is '' in formatversion 1).
    expect('anon' in (direct['userinfo'] as object)).toBe(!editor);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-client-login-'));
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir });
    expect(await walk(client, recorder.url, login)).toEqual(direct);
    await recorder.close();
    // Again through `record --mode new` (the README's mode for re-running a suite): what is
    // recorded is answered as recorded, the rest asked of the wiki; the bot logs in again and
    // wikitape never touches its session cookie.
    const again = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, recordMode: 'new' });
    try {
      expect(await walk(client, again.url, login)).toEqual(direct);
    } finally {
      await again.close();
    }
    const replay = await startServer({ cassettes: dir, onMiss: 'error' });
    try {
      // Replay cannot check the password (a recording never holds one): it takes any.
      expect(await walk(client, replay.url, { user: login.user, password: 'not the password' })).toEqual(direct);
      if (editor) expect(replay.writes()).toMatchObject([{ action: 'edit', user: login.user, params: { title: EDIT_TITLE, text: EDIT_TEXT } }]);
    } finally {
      await replay.close();
    }
    if (!client.name.startsWith('mwn')) return;
    // A bot's bad day (README): the edit's token is refused once. mwn asks action=paraminfo for
    // the token's type, fetches tokens again and retries, as on a wiki whose session token went
    // stale; from the recording, with misses refused, the bot ends with the same results.
    const faults: string[] = [];
    const stale = await startServer({ cassettes: dir, onMiss: 'error', faults: ['badtoken:first=1'], onRequest: (e) => void faults.push(`${e.source} ${e.key}`) });
    try {
      expect(await walk(client, stale.url, { user: login.user, password: 'not the password' })).toEqual(direct);
      expect(faults.filter((f) => f.startsWith('fault '))).toHaveLength(1);
      expect(faults.some((f) => f.includes('action=paraminfo'))).toBe(true);
      expect(stale.writes()).toMatchObject([{ action: 'edit', user: login.user, params: { title: EDIT_TITLE, text: EDIT_TEXT } }]);
    } finally {
      await stale.close();
    }
  }, 300_000);

  it('at limits nobody recorded, gets from replay what the live wiki gives, computed from the recordings', async () => {
    const live = await liveWiki(client.version);
    const login = await live.editorCredentials();
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-client-login-limits-'));
    await snapshot({ upstream: live.apiUrl, cassettes: dir });
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir });
    await walk(client, recorder.url, login);
    await recorder.close();
    const sources = new Map<string, number>();
    const replay = await startServer({ cassettes: dir, onMiss: 'error', clock: 'real', onRequest: (e) => void sources.set(e.source, (sources.get(e.source) ?? 0) + 1) });
    try {
      expect(await walk(client, replay.url, login, '3')).toEqual(await walk(client, live.apiUrl, login, '3'));
    } finally {
      await replay.close();
    }
    expect(sources.get('synthesized')).toBeGreaterThan(0);
    expect(sources.has('miss')).toBe(false);
  }, 300_000);
});
