import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasesUnavailable } from '../../src/cassette/sqlite-driver.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { Client } from '../support/cookie-client.js';
import { convertedBack, timesAlike } from '../support/database-back.js';
import { normalize } from '../support/differential.js';

/**
 * Identities recorded into one database cassette by several record runs, each appending to it
 * (docs/decisions/0006-sessions-are-identities.md, 0018-database-cassettes.md): replay answers each
 * bot and the anonymous reader what the wiki answered it, never another identity's recording, and
 * the database converts back to the JSON cassette the same runs wrote. The wiki is wikitape's
 * fixture server: one user, two bot passwords, one that may see hidden blocks and one that may not.
 * (test/live/database-identities.test.ts does the same against real MediaWikis.)
 */

const PROFILE = { version: '1.39.17', language: 'en', siteName: 'Test', server: 'http://127.0.0.1', scriptPath: '/wiki', cookiePrefix: 'wikidb' };
const HIDER = { user: 'Admin@hider', password: 'hider-password-0123456789' };
const PLAIN = { user: 'Admin@plain', password: 'plain-password-0123456789' };
const ACCOUNT = {
  name: 'Admin',
  id: 1,
  password: 'main-password',
  botPasswords: {
    hider: { password: HIDER.password, rights: ['read', 'writeapi', 'apihighlimits', 'block', 'hideuser'] },
    plain: { password: PLAIN.password, rights: ['read', 'writeapi'] },
  },
  groups: ['*', 'user', 'sysop'],
  rights: ['read', 'edit', 'writeapi', 'apihighlimits', 'block', 'hideuser'],
};
const FLAGS = { automatic: false, anononly: false, nocreate: false, autoblock: true, noemail: false, allowusertalk: false, partial: false };
const block = (id: number, hidden = false) => ({ id, user: `Vandal ${id}`, userid: 10 + id, by: 'Admin', byid: 1, timestamp: `2024-02-0${id}T00:00:00Z`, expiry: 'infinity', reason: `block ${id}`, ...FLAGS, hidden, restrictions: [] });
const event = (logid: number) => ({ logid, ns: 0, title: `Page ${logid}`, pageid: 100 + logid, logpage: 100 + logid, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp: `2024-03-01T10:0${logid}:00Z`, comment: `event ${logid}`, tags: [] });

/** Who the asker is, with its rights (each bot password's grants). */
const WHO = { action: 'query', meta: 'userinfo', uiprop: 'rights' };
/** A walk of the blocks: the hidden one shows only to `hideuser`. */
const BLOCKS = { action: 'query', list: 'blocks', bklimit: '2', bkprop: 'id|user|by|timestamp|expiry|reason|flags' };
/** The blocks at a limit nobody recorded: replay computes them from the asker's own walk. */
const UNRECORDED = { ...BLOCKS, bklimit: '3' };
/** Asked by the hider alone. */
const HIDER_ONLY = { action: 'query', meta: 'userinfo', uiprop: 'editcount|rights' };
/** The whole log, asked by the reader alone. */
const LOG = { action: 'query', list: 'logevents', lelimit: '2', leprop: 'ids|title|type|user|timestamp|comment' };

type Who = 'hider' | 'plain' | 'reader';
const CREDENTIALS: Record<Who, typeof HIDER | null> = { hider: HIDER, plain: PLAIN, reader: null };
/** What each identity asks, when it records. */
const ASKS: Record<Who, Record<string, string>[]> = { hider: [WHO, BLOCKS, HIDER_ONLY], plain: [WHO, BLOCKS], reader: [WHO, BLOCKS, LOG] };

/** A client's walk of `q` (formatversion=2) to its end: each page's normalized text and source. */
async function walk(url: string, q: Record<string, string>, cookie?: string): Promise<{ texts: string[]; sources: (string | null)[]; bodies: Record<string, any>[] }> {
  const out = { texts: [] as string[], sources: [] as (string | null)[], bodies: [] as Record<string, any>[] };
  let cont: Record<string, string> = {};
  for (let n = 0; n < 20; n++) {
    const r = await fetch(`${url}?${new URLSearchParams({ ...q, ...cont, format: 'json', formatversion: '2' })}`, cookie ? { headers: { cookie } } : {});
    const text = await r.text();
    const body = JSON.parse(text) as Record<string, any>;
    out.texts.push(normalize(text));
    out.sources.push(r.headers.get('x-wikitape-source'));
    out.bodies.push(body);
    if (!body['continue']) return out;
    cont = body['continue'] as Record<string, string>;
  }
  throw new Error(`the walk of ${JSON.stringify(q)} did not end`);
}

/** A client of `url` logged in as `who` (any password for replay), or the anonymous reader's. */
async function session(url: string, who: Who, password?: string): Promise<string | undefined> {
  const credentials = CREDENTIALS[who];
  if (!credentials) return undefined;
  const c = new Client(url);
  const login = await c.call({ action: 'login', lgname: credentials.user, lgpassword: password ?? credentials.password, lgtoken: await c.token('login') });
  expect(login.body['login']).toMatchObject({ result: 'Success', lgusername: 'Admin' });
  return c.cookie;
}

let wiki: RunningServer;
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-db-identities-wiki-'));
  const blocks = [block(4), block(3, true), block(2), block(1)];
  await writeFile(join(dir, 'wiki.json'), JSON.stringify({ profile: PROFILE, accounts: [ACCOUNT], blocks, logevents: [5, 4, 3, 2, 1].map(event) }));
  wiki = await startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, 'wiki.json')], clock: TEST_CLOCK, onMiss: 'builtin' });
});
afterAll(() => wiki.close());

describe.skipIf(databasesUnavailable() !== null)('identities recorded into one database cassette by several runs', () => {
  it.each([
    { runs: [['hider', 'reader'], ['plain']] as Who[][], order: 'a bot and the reader, then another bot' },
    { runs: [['reader'], ['plain'], ['hider']] as Who[][], order: 'the reader, then one bot, then another' },
  ])('answers each its own recordings, never another identity: $order', async ({ runs }) => {
    const root = await mkdtemp(join(tmpdir(), 'wikitape-db-identities-'));
    for (const store of ['sqlite', 'json'] as const) {
      await mkdir(join(root, store));
      for (const run of runs) {
        const recorder = await startServer({ mode: 'record', upstream: wiki.url, cassettes: join(root, store), cassette: 'shared', store });
        try {
          for (const who of run) {
            const cookie = await session(recorder.url, who);
            for (const q of ASKS[who]) expect((await walk(recorder.url, q, cookie)).sources.every((s) => s === 'upstream'), `${who}: ${JSON.stringify(q)}`).toBe(true);
          }
          await recorder.flush();
        } finally {
          await recorder.close();
        }
      }
      expect(await readdir(join(root, store))).toEqual([`shared.${store}`]);
    }
    expect(await convertedBack(join(root, 'sqlite', 'shared.sqlite'))).toBe(timesAlike(await readFile(join(root, 'json', 'shared.json'), 'utf8')));

    const replay = await startServer({ cassettes: join(root, 'sqlite'), onMiss: 'error' });
    try {
      const own: Record<Who, string | undefined> = { hider: await session(replay.url, 'hider', 'any'), plain: await session(replay.url, 'plain', 'any'), reader: undefined };
      const theirs: Record<Who, string | undefined> = { hider: await session(wiki.url, 'hider'), plain: await session(wiki.url, 'plain'), reader: undefined };
      // Each identity's recorded walks, page by page as the wiki answers it, from the cassette; and
      // the blocks at a limit nobody recorded, computed from each one's own walk as the wiki answers each.
      for (const who of ['hider', 'plain', 'reader'] as const) {
        for (const q of ASKS[who]) {
          const [want, got] = [await walk(wiki.url, q, theirs[who]), await walk(replay.url, q, own[who])];
          expect(got.texts, `${who}: ${JSON.stringify(q)}`).toEqual(want.texts);
          expect(got.sources.every((s) => s === 'cassette'), `${who}: ${JSON.stringify(q)}`).toBe(true);
        }
        const [want, got] = [await walk(wiki.url, UNRECORDED, theirs[who]), await walk(replay.url, UNRECORDED, own[who])];
        expect([got.sources.every((s) => s === 'synthesized'), got.texts], `${who}: ${JSON.stringify(UNRECORDED)}`).toEqual([true, want.texts]);
      }
      // What each was shown: its rights, and the hidden block to the hider alone.
      const seen = async (cookie?: string) => ({
        hideuser: ((await walk(replay.url, WHO, cookie)).bodies[0]!['query']['userinfo']['rights'] as string[]).includes('hideuser'),
        blocks: (await walk(replay.url, BLOCKS, cookie)).bodies.flatMap((b) => (b['query']['blocks'] as { id: number }[]).map((x) => x.id)),
      });
      expect(await seen(own.hider)).toEqual({ hideuser: true, blocks: [4, 3, 2, 1] });
      expect(await seen(own.plain)).toEqual({ hideuser: false, blocks: [4, 2, 1] });
      expect(await seen()).toEqual({ hideuser: false, blocks: [4, 2, 1] });
      // The hider's own question: a miss for the other bot (nothing it recorded shows its edit
      // count), and for the reader computed from its own recorded userinfo, as the wiki answers it.
      const other = await walk(replay.url, HIDER_ONLY, own.plain);
      expect([other.sources, other.bodies[0]!['error']?.['code']]).toEqual([['miss'], 'wikitape-miss']);
      const reader = await walk(replay.url, HIDER_ONLY);
      expect([reader.sources, reader.texts]).toEqual([['synthesized'], (await walk(wiki.url, HIDER_ONLY)).texts]);
      // The log walk the reader alone recorded: the plain bot sees the log as readers do and is
      // answered it computed, as the wiki answers it; the hider may see more of it (it may hide
      // users), and is never answered what the reader was shown: a miss.
      const log = await walk(replay.url, LOG, own.plain);
      expect([log.sources.every((s) => s === 'synthesized'), log.texts]).toEqual([true, (await walk(wiki.url, LOG, theirs.plain)).texts]);
      const wider = await walk(replay.url, LOG, own.hider);
      expect([wider.sources, wider.bodies[0]!['error']?.['code']]).toEqual([['miss'], 'wikitape-miss']);
    } finally {
      await replay.close();
    }
  });
});
