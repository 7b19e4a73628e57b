import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cassette, Interaction } from '../../src/cassette/format.js';
import { startServer } from '../../src/server.js';
import { runCli, startCli } from '../support/cli.js';
import { Client } from '../support/cookie-client.js';
import { convertedBack, wikiTimesAlike } from '../support/database-back.js';
import { login, walk } from '../support/live-walk.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';

/**
 * Database cassettes (`--store sqlite`, docs/decisions/0018-database-cassettes.md) and logged-in
 * bots, against a real MediaWiki (1.39 and 1.43), reading only: a bot logs in through `wikitape
 * record --store sqlite` with a bot password that may see hidden blocks (`hideuser`), reads as
 * itself and reads the same lists anonymously; offline, it logs in again and is answered what the
 * wiki answers it, an anonymous client never gets its answers, and the database file holds no
 * password, token or cookie. Then the wiki "changed" under the recording (the recording is made
 * stale by hand, since the shared wikis are not edited): `cassettes diff --update` with the bot's
 * credentials records the changed walks again into the database, as logged in as they were
 * recorded, and the database converted back to JSON is what the same update makes of the JSON
 * cassette.
 */

/** Props that show each block's details (a hidden block says so in `flags`). */
const BLOCKS = { action: 'query', list: 'blocks', bklimit: '4', bkprop: 'id|user|by|timestamp|expiry|reason|flags' };
/** The whole log, unfiltered: a walk that teaches replay every log event (a filtered walk teaches no list: ListWalk). */
const LOG = { action: 'query', list: 'logevents', lelimit: '50', leprop: 'ids|title|type|user|timestamp|comment|details' };

/** What the bot reads logged in: who it is, then two walks (the blocks list shows it the hidden block, which readers do not see). */
const AS_USER: Record<string, string>[] = [{ action: 'query', meta: 'userinfo', uiprop: 'groups|rights|blockinfo' }, BLOCKS, LOG];
/** What it reads anonymously in the same recording: the same walks. */
const ANONYMOUS: Record<string, string>[] = [BLOCKS, LOG];

/** Questions nobody recorded (another limit, a filter): replay computes them, as the asker's view. */
const UNRECORDED: Record<string, string>[] = [{ ...BLOCKS, bklimit: '3' }, { ...LOG, letype: 'block', lelimit: '15' }];

/** The recording bot: logs in, takes a csrf token, reads as itself and anonymously. Returns its client and every secret it saw. */
async function recordBot(url: string, credentials: { user: string; password: string }): Promise<{ bot: Client; secrets: Set<string> }> {
  const bot = new Client(url);
  const secrets = new Set([credentials.password]);
  secrets.add(await bot.token('login'));
  expect(await login(bot, credentials.user, credentials.password)).toMatchObject({ result: 'Success' });
  secrets.add(await bot.token('csrf'));
  for (const q of AS_USER) expect((await walk(url, q, bot.cookie)).sources.every((s) => s === 'upstream')).toBe(true);
  for (const q of ANONYMOUS) expect((await walk(url, q)).sources.every((s) => s === 'upstream')).toBe(true);
  for (const v of bot.jar.values()) if (v.length >= 8 && v !== 'deleted') secrets.add(v);
  return { bot, secrets };
}

/** The recorded pages of the bot's walk of list `q.list` (one walk of each list per identity), as `user` or anonymous. */
function pagesOf(c: Cassette, q: Record<string, string>, user: string | undefined): Interaction[] {
  return c.interactions.filter((i) => i.user === user && i.request['list'] === q['list']);
}

/**
 * The JSON cassette made stale, as if the wiki had changed since it was recorded (the shared wikis
 * are not edited): the hidden block the bot saw is taken out of its logged-in walk, and the newest
 * log event of the anonymous log walk (and its entity) says another comment. Their summaries go
 * (README "The cassette format": an answer edited by hand). Returns the block's id and the event's.
 */
function makeStale(c: Cassette, user: string): { block: number; logid: number } {
  const edited = new Set<Interaction>();
  const blockPage = pagesOf(c, BLOCKS, user).find((i) => (i.body['query'] as { blocks: { hidden?: boolean }[] }).blocks.some((b) => b.hidden));
  const blocks = (blockPage!.body['query'] as { blocks: { id: number; hidden?: boolean }[] }).blocks;
  const block = blocks.find((b) => b.hidden)!.id;
  blocks.splice(blocks.findIndex((b) => b.id === block), 1);
  edited.add(blockPage!);
  const logPage = pagesOf(c, LOG, undefined).find((i) => i.request['lecontinue'] === undefined)!;
  const event = (logPage.body['query'] as { logevents: { logid: number; comment: string }[] }).logevents[0]!;
  event.comment = 'a comment the wiki no longer shows';
  const entity = (c.entities as unknown as { logevents: { logid: number; comment: string }[] }).logevents.find((e) => e.logid === event.logid)!;
  entity.comment = event.comment;
  edited.add(logPage);
  const summaries = (c as { summaries?: Interaction[] }).summaries;
  if (summaries) (c as { summaries?: Interaction[] }).summaries = summaries.filter((s) => ![...edited].some((i) => i.key === s.key && i.user === s.user));
  return { block, logid: event.logid };
}

describe.each(LIVE_VERSIONS)('a logged-in bot recorded into a database cassette from a live MediaWiki %s', (version) => {
  let live: LiveWiki;
  let credentials: { user: string; password: string };
  let root: string;
  const dir = (name: string) => join(root, name);
  beforeAll(async () => {
    live = await liveWiki(version);
    credentials = await live.adminCredentials();
    root = await mkdtemp(join(tmpdir(), 'wikitape-live-db-login-'));
  });

  it('replays it offline logged in as the wiki answers, never to an anonymous client, and the file holds no secret', { timeout: 120_000 }, async () => {
    // The same bot into a database and into a JSON cassette, at once (the wiki has less time to change between them).
    // Settled, both: a failure in one store's run leaves no recorder of the other running.
    const settled = await Promise.allSettled(
      (['sqlite', 'json'] as const).map(async (store) => {
        await mkdir(dir(store));
        const recorder = await startCli(['record', '--upstream', live.apiUrl, '--cassettes', dir(store), '--cassette', 'bot', '--store', store, '--quiet']);
        let seen: Awaited<ReturnType<typeof recordBot>>;
        try {
          seen = await recordBot(recorder.url, credentials);
        } finally {
          expect(await recorder.stop(), recorder.stderr()).toBe(0);
        }
        expect(await readdir(dir(store))).toEqual([`bot.${store}`]);
        return seen;
      }),
    );
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const recorded = settled.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof recordBot>>>).value);
    const { bot, secrets } = recorded[0]!;
    expect(await convertedBack(join(dir('sqlite'), 'bot.sqlite')).then(wikiTimesAlike)).toBe(wikiTimesAlike(await readFile(join(dir('json'), 'bot.json'), 'utf8')));

    // The file's bytes: the identity is there, no password, token or cookie value (nor URL-encoded).
    const bytes = await readFile(join(dir('sqlite'), 'bot.sqlite'));
    expect(bytes.includes(credentials.user)).toBe(true);
    expect(secrets.size).toBeGreaterThanOrEqual(4);
    for (const s of secrets) expect([s.slice(0, 4), bytes.includes(s) || bytes.includes(encodeURIComponent(s))]).toEqual([s.slice(0, 4), false]);

    const direct = new Client(live.apiUrl);
    expect(await login(direct, credentials.user, credentials.password)).toMatchObject({ result: 'Success' });
    const replay = await startServer({ cassettes: dir('sqlite'), onMiss: 'error' });
    try {
      const offline = new Client(replay.url);
      expect(await login(offline, credentials.user, 'a password replay cannot check')).toEqual({ result: 'Success', lguserid: 1, lgusername: credentials.user.split('@')[0] });
      // Logged in: every recorded walk page by page as the wiki answers the bot now.
      for (const q of AS_USER) {
        const [want, got] = [await walk(live.apiUrl, q, direct.cookie), await walk(replay.url, q, offline.cookie)];
        expect(got.texts, JSON.stringify(q)).toEqual(want.texts);
        expect(got.sources.every((s) => s === 'cassette')).toBe(true);
      }
      // Anonymous, the same walks: the reader's answers (no hidden block), never the bot's.
      for (const q of ANONYMOUS) {
        const [want, got] = [await walk(live.apiUrl, q), await walk(replay.url, q)];
        expect(got.texts, JSON.stringify(q)).toEqual(want.texts);
        expect(got.sources.every((s) => s === 'cassette')).toBe(true);
      }
      // (what the two identities were shown differs: the hidden block is the bot's alone)
      const hidden = async (cookie?: string) => (await walk(replay.url, BLOCKS, cookie)).bodies.flatMap((b) => (b['query'] as { blocks: { hidden: boolean }[] }).blocks).filter((b) => b.hidden).length;
      expect([await hidden(offline.cookie), await hidden()]).toEqual([1, 0]);
      // Unrecorded questions, computed for each as the wiki answers each.
      for (const q of UNRECORDED) {
        for (const [cookie, own] of [[direct.cookie, offline.cookie], [undefined, undefined]] as const) {
          const [want, got] = [await walk(live.apiUrl, q, cookie), await walk(replay.url, q, own)];
          expect(got.texts, `${JSON.stringify(q)} ${cookie ? 'logged in' : 'anonymous'}`).toEqual(want.texts);
        }
      }
      // Who am I, anonymously or with the cookies the bot had on the wiki: never the bot.
      const stolen = new Client(replay.url);
      stolen.jar = new Map(bot.jar);
      for (const cookie of [undefined, stolen.cookie]) {
        const who = await walk(replay.url, AS_USER[0]!, cookie);
        expect([who.sources, who.bodies[0]?.['query']?.['userinfo']?.['id']]).toEqual([['miss'], undefined]);
        const blocks = await walk(replay.url, BLOCKS, cookie);
        expect(blocks.texts).toEqual((await walk(replay.url, BLOCKS)).texts);
      }
      // Replay's own csrf token, not the one the wiki gave the bot.
      const csrf = await offline.token('csrf');
      expect([csrf.endsWith('+\\'), secrets.has(csrf)]).toEqual([true, false]);
    } finally {
      await replay.close();
    }
  });

  it('cassettes diff --update records the changed walks into the database, logged in as recorded, as it does into the JSON cassette', { timeout: 120_000 }, async () => {
    const cassette = JSON.parse(await readFile(join(dir('json'), 'bot.json'), 'utf8')) as Cassette;
    const { block, logid } = makeStale(cassette, credentials.user);
    await Promise.all(['stale-json', 'stale-sqlite'].map((d) => mkdir(dir(d))));
    await writeFile(join(dir('stale-json'), 'bot.json'), JSON.stringify(cassette, null, 2));
    const converted = await runCli(['cassettes', 'convert', join(dir('stale-json'), 'bot.json'), join(dir('stale-sqlite'), 'bot.sqlite')]);
    expect([converted.code, converted.stderr]).toEqual([0, '']);

    // Both at once (the wiki has less time to change between them), logged in as the walks were recorded.
    const env = { WIKITAPE_DIFF_USER: credentials.user, WIKITAPE_DIFF_PASSWORD: credentials.password };
    const run = (d: string, more: string[]) => runCli(['cassettes', 'diff', '--cassettes', dir(d), '--upstream', live.apiUrl, ...more], { env, runMs: 100_000 });
    const diff = (...more: string[]) => Promise.all([run('stale-sqlite', more), run('stale-json', more)]);
    const [dbDiff, jsonDiff] = await diff();
    expect([dbDiff.code, dbDiff.stdout]).toEqual([1, jsonDiff.stdout]);
    expect(dbDiff.stdout).toMatch(new RegExp(`^changed\\tbot\\taction=query&bkdir=older&bklimit=4&[^\\n]*&list=blocks @${encodeURIComponent(credentials.user)}\\n(?: {4}.*\\n)* {4}\\+ query\\.blocks\\[id=${block}\\]: \\{"id":${block},"user":"[^"]+",`, 'm'));
    expect(dbDiff.stdout).toMatch(new RegExp(`^ {4}query\\.logevents\\[logid=${logid}\\]\\.comment: "a comment the wiki no longer shows" → `, 'm'));
    expect(dbDiff.stdout).toMatch(/ 2 changed, 0 gone, 0 unchecked\n$/);

    const [dbUpdate, jsonUpdate] = await diff('--update');
    expect([dbUpdate.code, dbUpdate.stdout, dbUpdate.stderr.includes(credentials.password)]).toEqual([0, jsonUpdate.stdout, false]);
    expect(dbUpdate.stdout).toContain('2 recorded again');
    expect(await readdir(dir('stale-sqlite'))).toEqual(['bot.sqlite']);
    // The database converted back is the JSON cassette the same update wrote.
    expect(await convertedBack(join(dir('stale-sqlite'), 'bot.sqlite')).then(wikiTimesAlike)).toBe(wikiTimesAlike(await readFile(join(dir('stale-json'), 'bot.json'), 'utf8')));
    expect((await readFile(join(dir('stale-sqlite'), 'bot.sqlite'))).includes(credentials.password)).toBe(false);

    // Replay from the updated database: the bot's blocks walk has the hidden block again, the log its comment, as the wiki.
    const direct = new Client(live.apiUrl);
    expect(await login(direct, credentials.user, credentials.password)).toMatchObject({ result: 'Success' });
    const replay = await startServer({ cassettes: dir('stale-sqlite'), onMiss: 'error' });
    try {
      const offline = new Client(replay.url);
      expect(await login(offline, credentials.user, 'any')).toMatchObject({ result: 'Success' });
      for (const [q, cookie, own] of [[BLOCKS, direct.cookie, offline.cookie], [LOG, undefined, undefined], ...UNRECORDED.map((u) => [u, direct.cookie, offline.cookie] as const)] as const) {
        const [want, got] = [await walk(live.apiUrl, q, cookie), await walk(replay.url, q, own)];
        expect(got.texts, JSON.stringify(q)).toEqual(want.texts);
      }
    } finally {
      await replay.close();
    }
  });
});
