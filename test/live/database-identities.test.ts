import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { startCli } from '../support/cli.js';
import { Client } from '../support/cookie-client.js';
import { convertedBack, wikiTimesAlike } from '../support/database-back.js';
import { login, walk } from '../support/live-walk.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * Two identities recorded into one database cassette (`--store sqlite`,
 * docs/decisions/0006-sessions-are-identities.md, 0018-database-cassettes.md) by two runs of
 * `wikitape record` against a real MediaWiki (1.39 and 1.43), reading only. The first run records
 * a bot whose bot password may block (`Admin@wikitape-admin`: it sees the hidden block, may block)
 * and an anonymous reader; the second run appends to the same database a bot of the same user with
 * basic grants (`Admin@wikitape`: no hidden block, may not even edit) and a log walk of the reader,
 * and is answered what run 1 recorded as the identity that recorded it. Offline, each is answered
 * what the wiki answers it (who it is, its rights, the blocks it may see, what it may do to a
 * page), also where replay computes the answer from that identity's own walk; a question only one
 * identity recorded is never answered from it to another (a miss, or the asker's own answer
 * computed where what it recorded proves it); and the database converts back to the JSON cassette
 * the same two runs wrote.
 */

/** Who the asker is, with its groups and rights (each bot password's grants). */
const WHO = { action: 'query', meta: 'userinfo', uiprop: 'groups|rights' };
/** A walk of the blocks, each block's details: the hidden block shows only to a `hideuser` bot. */
const BLOCKS = { action: 'query', list: 'blocks', bklimit: '4', bkprop: 'id|user|by|timestamp|expiry|reason|flags' };
/** What the asker may do to a page (from its rights). */
const ACTIONS = { action: 'query', prop: 'info', titles: 'Alpha', intestactions: 'edit|block|delete' };
/** Asked by the first bot alone: nobody else recorded it. */
const FIRST_BOT_ONLY = { action: 'query', meta: 'userinfo', uiprop: 'blockinfo|editcount|rights' };
/** The whole log, unfiltered (a walk replay learns every log event from), asked by the reader in the second run only. */
const LOG = { action: 'query', list: 'logevents', lelimit: '50', leprop: 'ids|title|type|user|timestamp|comment|details' };

/** What each identity asks, in which run. */
const FIRST_BOT = [WHO, BLOCKS, ACTIONS, FIRST_BOT_ONLY];
const SECOND_BOT = [WHO, BLOCKS, ACTIONS];
const READER_FIRST = [WHO, BLOCKS, ACTIONS];
const READER_SECOND = [LOG];

/** A question nobody recorded (another limit): replay computes it from the asker's own walk. */
const UNRECORDED = { ...BLOCKS, bklimit: '3' };

type Credentials = { user: string; password: string };

/** A client's questions in a record run: as `bot` (logged in through the recorder) or anonymously, each answered `from` the wiki or the cassette. */
interface Step {
  bot?: Credentials;
  ask: Record<string, string>[];
  from: 'upstream' | 'cassette';
}

/**
 * One `wikitape record` run (`--mode new`: what is recorded is answered from the cassette) into
 * `<root>/<store>` for each store at once (the wiki has less time to change between them): its
 * clients' steps, one after another.
 */
async function recordRun(upstream: string, root: string, steps: Step[]): Promise<void> {
  // Settled, both: a failure in one store's run leaves no recorder of the other running.
  const done = await Promise.allSettled(
    (['sqlite', 'json'] as const).map(async (store) => {
      const recorder = await startCli(['record', '--upstream', upstream, '--cassettes', join(root, store), '--cassette', 'shared', '--store', store, '--quiet']);
      try {
        for (const { bot, ask, from } of steps) {
          const client = new Client(recorder.url);
          if (bot) expect(await login(client, bot.user, bot.password)).toMatchObject({ result: 'Success' });
          for (const q of ask) {
            const { sources } = await walk(recorder.url, q, bot ? client.cookie : undefined);
            expect(sources.every((s) => s === from), `${store}, ${bot?.user ?? 'the reader'}: ${JSON.stringify(q)} answered ${sources.join(', ')}`).toBe(true);
          }
        }
      } finally {
        expect(await recorder.stop(), recorder.stderr()).toBe(0);
      }
      expect(await readdir(join(root, store))).toEqual([`shared.${store}`]);
    }),
  );
  for (const d of done) if (d.status === 'rejected') throw d.reason;
}

describe.each(LIVE_VERSIONS)('two identities recorded into one database cassette in two runs, from a live MediaWiki %s', (version) => {
  it('answers each bot and the reader from their own recordings, and another identity never from them', { timeout: 240_000 }, async () => {
    const live = await liveWiki(version);
    const first = await live.adminCredentials();
    const second = await live.credentials();
    expect(first.user).not.toBe(second.user);
    const root = await mkdtemp(join(tmpdir(), 'wikitape-live-db-identities-'));
    await Promise.all(['sqlite', 'json'].map((store) => mkdir(join(root, store))));
    const database = join(root, 'sqlite');

    // Run 1: the first bot and the reader.
    await recordRun(live.apiUrl, root, [
      { bot: first, ask: FIRST_BOT, from: 'upstream' },
      { ask: READER_FIRST, from: 'upstream' },
    ]);
    // Offline between the runs: the first bot is known, the second is not yet.
    const between = await startServer({ cassettes: database, onMiss: 'error' });
    try {
      const offline = new Client(between.url);
      expect(await login(offline, first.user, 'a password replay cannot check')).toMatchObject({ result: 'Success' });
      expect((await walk(between.url, WHO, offline.cookie)).bodies[0]?.['query']?.['userinfo']?.['rights']).toContain('hideuser');
      const unknown = new Client(between.url);
      const lgtoken = await unknown.token('login');
      const refused = await unknown.call({ action: 'login', lgname: second.user, lgpassword: 'any', lgtoken });
      expect([refused.body['error']?.code, refused.headers.get('x-wikitape-unknown')]).toEqual(['wikitape-miss', 'login.account']);
    } finally {
      await between.close();
    }

    // Run 2, appending to the same database: the second bot, asked of the wiki though the first bot
    // and the reader recorded the same questions; the reader's new walk; and what the reader and the
    // first bot recorded in run 1, each answered its own recording.
    await recordRun(live.apiUrl, root, [
      { bot: second, ask: SECOND_BOT, from: 'upstream' },
      { ask: READER_SECOND, from: 'upstream' },
      { ask: READER_FIRST, from: 'cassette' },
      { bot: first, ask: FIRST_BOT, from: 'cassette' },
    ]);
    expect(await convertedBack(join(database, 'shared.sqlite')).then(wikiTimesAlike)).toBe(wikiTimesAlike(await readFile(join(root, 'json', 'shared.json'), 'utf8')));

    // Each identity as the wiki answers it now, and its replayed session.
    const direct = { first: new Client(live.apiUrl), second: new Client(live.apiUrl) };
    expect(await login(direct.first, first.user, first.password)).toMatchObject({ result: 'Success' });
    expect(await login(direct.second, second.user, second.password)).toMatchObject({ result: 'Success' });
    const replay = await startServer({ cassettes: database, onMiss: 'error' });
    try {
      const offline = { first: new Client(replay.url), second: new Client(replay.url) };
      expect(await login(offline.first, first.user, 'any')).toMatchObject({ result: 'Success', lgusername: 'Admin' });
      expect(await login(offline.second, second.user, 'any')).toMatchObject({ result: 'Success', lgusername: 'Admin' });
      const identities = [
        { who: first.user, wiki: direct.first.cookie, own: offline.first.cookie, recorded: FIRST_BOT },
        { who: second.user, wiki: direct.second.cookie, own: offline.second.cookie, recorded: SECOND_BOT },
        { who: 'the reader', wiki: undefined, own: undefined, recorded: [...READER_FIRST, ...READER_SECOND] },
      ];
      // Every question each recorded, page by page as the wiki answers it, from the cassette; and
      // the question nobody recorded, computed from each one's own walk as the wiki answers each.
      for (const { who, wiki, own, recorded } of identities) {
        for (const q of recorded) {
          const [want, got] = [await walk(live.apiUrl, q, wiki), await walk(replay.url, q, own)];
          expect(got.texts, `${who}: ${JSON.stringify(q)}`).toEqual(want.texts);
          expect(got.sources.every((s) => s === 'cassette'), `${who}: ${JSON.stringify(q)}`).toBe(true);
        }
        const [want, got] = [await walk(live.apiUrl, UNRECORDED, wiki), await walk(replay.url, UNRECORDED, own)];
        expect([got.sources.every((s) => s === 'synthesized'), got.texts], `${who}: ${JSON.stringify(UNRECORDED)}`).toEqual([true, want.texts]);
      }

      // The log walk only the reader recorded: the second bot sees the log as readers do, and is
      // answered it computed, as the wiki answers it; the first bot may see more of it (it may hide
      // users), and is never answered what the reader was shown: a miss.
      const log = await walk(replay.url, LOG, offline.second.cookie);
      expect([log.sources.every((s) => s === 'synthesized'), log.texts]).toEqual([true, (await walk(live.apiUrl, LOG, direct.second.cookie)).texts]);
      const wider = await walk(replay.url, LOG, offline.first.cookie);
      expect([wider.sources, wider.bodies[0]?.['query'], wider.bodies[0]?.['error']?.['code']]).toEqual([['miss'], undefined, 'wikitape-miss']);

      // What the three were shown differs: who they are, their rights, the hidden block, what they may do.
      const seen = async (cookie?: string) => {
        const info = (await walk(replay.url, WHO, cookie)).bodies[0]!['query']['userinfo'] as { id: number; name: string; rights: string[] };
        const blocks = (await walk(replay.url, BLOCKS, cookie)).bodies.flatMap((b) => (b['query'] as { blocks: { hidden: boolean }[] }).blocks);
        const actions = (await walk(replay.url, ACTIONS, cookie)).bodies[0]!['query']['pages'][0]['actions'] as Record<string, boolean>;
        return { id: info.id, hideuser: info.rights.includes('hideuser'), hidden: blocks.filter((b) => b.hidden).length, actions };
      };
      expect(await seen(offline.first.cookie)).toEqual({ id: 1, hideuser: true, hidden: 1, actions: { edit: true, block: true, delete: false } });
      expect(await seen(offline.second.cookie)).toEqual({ id: 1, hideuser: false, hidden: 0, actions: { edit: false, block: false, delete: false } });
      expect(await seen()).toEqual({ id: 0, hideuser: false, hidden: 0, actions: { edit: true, block: false, delete: false } });

      // The question only the first bot recorded, never answered from its recording: the second bot
      // is missed (nothing it recorded shows its edit count), the reader is computed from its own
      // recorded userinfo (nobody, no edits), as the wiki answers it.
      const other = await walk(replay.url, FIRST_BOT_ONLY, offline.second.cookie);
      expect([other.sources, other.bodies[0]?.['query'], other.bodies[0]?.['error']?.['code']]).toEqual([['miss'], undefined, 'wikitape-miss']);
      const reader = await walk(replay.url, FIRST_BOT_ONLY);
      expect([reader.sources, reader.texts]).toEqual([['synthesized'], (await walk(live.apiUrl, FIRST_BOT_ONLY)).texts]);
      expect(reader.bodies[0]?.['query']?.['userinfo']).toMatchObject({ id: 0, anon: true, editcount: 0 });
    } finally {
      await replay.close();
    }
  });
});
