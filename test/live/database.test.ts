import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { runCli, startCli } from '../support/cli.js';
import { convertedBack, wikiTimesAlike as steady } from '../support/database-back.js';
import { compare, normalize } from '../support/differential.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';

/**
 * Database cassettes (`--store sqlite`, docs/decisions/0018-database-cassettes.md) written from a
 * real MediaWiki (1.39 and 1.43), through the commands a user runs: `wikitape snapshot --store
 * sqlite` converts back (`cassettes convert`) to the JSON snapshot of the same wiki and passes
 * `cassettes verify`; a bot recorded into that database through `wikitape record --store sqlite`
 * is answered offline as the wiki answered it, and a question nobody recorded is computed as the
 * wiki answers it, or is a miss.
 */

/** How long a snapshot of a live wiki may take (about 15 s for 1.39's ~180 requests, 6 s for 1.43's ~65, on an idle machine). */
const SNAPSHOT_MS = 240_000;

/** The bot's walks (followed to their end): log pages and their continuation, a page's links over several answers. */
const WALKS: Record<string, string>[] = [
  { action: 'query', list: 'logevents', lelimit: '30', leprop: 'ids|title|type|user|timestamp|comment|details', formatversion: '2' },
  { action: 'query', list: 'logevents', letype: 'block', lelimit: '20' },
  { action: 'query', prop: 'extlinks', titles: 'Список ссылок|Alpha|Beta', ellimit: '15' },
];
/** Its single questions: titles normalized (first letter, underscores, a namespace's local name) and redirected (`Zeta` moved to `Зета`). */
const SINGLES: Record<string, string>[] = [
  { action: 'query', prop: 'info', titles: 'zeta|москва|Список_ссылок|Alpha|Несуществующая|Talk:alpha', redirects: '1' },
  { action: 'query', prop: 'extlinks', titles: 'zeta|Alpha', redirects: '1', ellimit: 'max', formatversion: '2' },
];

/** Questions nobody recorded, which what the snapshot holds answers (replay computes them). */
const COMPUTED = [
  'action=query&list=logevents&lelimit=7&letype=protect&format=json',
  'action=query&list=logevents&lelimit=4&leuser=Admin&ledir=newer&format=json&formatversion=2',
  'action=query&list=blocks&bklimit=3&bkprop=id|user|range|expiry&format=json',
  'action=query&list=protectedtitles&ptlimit=4&format=json&formatversion=2',
  'action=query&prop=extlinks&titles=Beta|Список ссылок&ellimit=4&elprotocol=https&format=json',
  'action=query&prop=extlinks&titles=зета|Alpha&redirects=1&ellimit=3&format=json&formatversion=2',
];
/** Unrecorded questions whose continuation is asked too (from the wiki's own token). */
const CONTINUED = ['action=query&list=logevents&lelimit=9&leprop=ids|title|type|timestamp&format=json&formatversion=2', 'action=query&prop=extlinks&titles=Список ссылок|Alpha&ellimit=6&format=json'];
/** What no snapshot learns (the API never shows the spam blacklist): a miss. */
const UNKNOWABLE = 'action=spamblacklist&url=http://casino-spam.example/x&format=json';

/** Asks the bot's questions through `base`, each walk to its end; the query strings asked, each answered by the wiki (`upstream`). */
async function bot(base: string): Promise<string[]> {
  const asked: string[] = [];
  const ask = async (params: Record<string, string>) => {
    const q = new URLSearchParams({ format: 'json', ...params }).toString();
    const r = await fetch(`${base}?${q}`);
    expect([q, r.status, r.headers.get('x-wikitape-source')]).toEqual([q, 200, 'upstream']);
    asked.push(q);
    return JSON.parse(await r.text()) as { continue?: Record<string, string> };
  };
  for (const walk of WALKS) {
    let cont: Record<string, string> = {};
    for (let page = 0; page < 50; page++) {
      const body = await ask({ ...walk, ...cont });
      if (!body.continue) break;
      cont = body.continue;
    }
  }
  for (const single of SINGLES) await ask(single);
  return asked;
}

/** The second page of each question, as the wiki's first answer's token names it. */
async function secondPages(live: LiveWiki, questions: readonly string[]): Promise<string[]> {
  const pages: string[] = [];
  for (const q of questions) {
    const cont = ((await (await fetch(`${live.apiUrl}?${q}`)).json()) as { continue?: Record<string, string> }).continue;
    expect(cont, q).toBeDefined();
    pages.push(`${q}&${new URLSearchParams(cont)}`);
  }
  return pages;
}

describe.each(LIVE_VERSIONS)('database cassettes written from a live MediaWiki %s', (version) => {
  let live: LiveWiki;
  let root: string;
  const db = () => join(root, 'db');
  const json = () => join(root, 'json');
  beforeAll(async () => {
    live = await liveWiki(version);
    root = await mkdtemp(join(tmpdir(), 'wikitape-live-db-'));
  });

  it('takes a snapshot into a database that converts back to the JSON snapshot of the wiki and passes cassettes verify', { timeout: SNAPSHOT_MS + 60_000 }, async () => {
    // Both at once: the wiki has less time to change between them (other tests block and edit).
    const [intoDb, intoJson] = await Promise.all([
      runCli(['snapshot', '--upstream', live.apiUrl, '--cassettes', db(), '--store', 'sqlite'], { runMs: SNAPSHOT_MS }),
      runCli(['snapshot', '--upstream', live.apiUrl, '--cassettes', json()], { runMs: SNAPSHOT_MS }),
    ]);
    expect([intoDb.code, intoDb.stderr.split('\n').filter((l) => /error|fail/i.test(l))]).toEqual([0, []]);
    expect(intoJson.code).toBe(0);
    expect(intoDb.stdout).toMatch(/ entries recorded in .*snapshot\.sqlite\n/);
    // Run again (no --store: the database there keeps its format), it asks the wiki nothing.
    const again = await runCli(['snapshot', '--upstream', live.apiUrl, '--cassettes', db()], { runMs: SNAPSHOT_MS });
    const [, requests, reused] = /: (\d+) requests \((\d+) from an earlier run\), \d+ entries recorded in .*snapshot\.sqlite\n/.exec(again.stdout) ?? [];
    expect([again.code, Number(requests) > 50, reused]).toEqual([0, true, requests]);
    // The file alone holds it all (nothing left in SQLite's write-ahead log beside it).
    expect(await readdir(db())).toEqual(['snapshot.sqlite']);

    await mkdir(join(root, 'back'));
    const back = join(root, 'back', 'snapshot.json');
    const converted = await runCli(['cassettes', 'convert', join(db(), 'snapshot.sqlite'), back]);
    expect(converted.code, converted.stderr).toBe(0);
    const [ours, theirs] = [steady(await readFile(back, 'utf8')), steady(await readFile(join(json(), 'snapshot.json'), 'utf8'))];
    expect(ours.length).toBeGreaterThan(100_000);
    expect(ours).toBe(theirs);

    const verified = await runCli(['cassettes', 'verify', '--cassettes', db()]);
    expect([verified.code, verified.stdout, verified.stderr]).toEqual([0, 'all cassettes are sound\n', '']);
  });

  it('records a bot into the database through wikitape record --store sqlite, and replays it offline as the wiki answered', { timeout: 180_000 }, async () => {
    // The same bot into both snapshots: the database still converts back to the JSON store's file.
    let asked: string[] = [];
    for (const [dir, store] of [[db(), 'sqlite'], [json(), 'json']] as const) {
      const recorder = await startCli(['record', '--upstream', live.apiUrl, '--cassettes', dir, '--cassette', 'snapshot', '--store', store, '--quiet']);
      asked = await bot(recorder.url);
      expect(await recorder.stop(), recorder.stderr()).toBe(0);
      expect(await readdir(dir)).toEqual([`snapshot.${store}`]);
    }
    expect(asked.length).toBeGreaterThan(8);
    expect(await convertedBack(join(db(), 'snapshot.sqlite')).then(steady)).toBe(steady(await readFile(join(json(), 'snapshot.json'), 'utf8')));
    const verified = await runCli(['cassettes', 'verify', '--cassettes', db()]);
    expect([verified.code, verified.stderr]).toEqual([0, '']);

    const replay = await startServer({ cassettes: db(), onMiss: 'error' });
    try {
      // Every recorded answer from the database, as the wiki gives it now (debuginfo and times apart).
      const recorded = await compare(live.apiUrl, replay.url, asked);
      expect(recorded.differences).toEqual([]);
      expect(recorded.flags).toEqual(new Map());
      for (const q of asked) expect([q, (await fetch(`${replay.url}?${q}`)).headers.get('x-wikitape-source')]).toEqual([q, 'cassette']);

      // Questions nobody asked: computed from the database, each as the wiki answers it.
      const unasked = [...COMPUTED, ...CONTINUED, ...(await secondPages(live, CONTINUED))];
      const computed = await compare(live.apiUrl, replay.url, unasked);
      expect(computed.differences).toEqual([]);
      expect(computed.flags).toEqual(new Map());
      for (const q of unasked) expect([q, (await fetch(`${replay.url}?${q}`)).headers.get('x-wikitape-source')]).toEqual([q, 'synthesized']);

      const miss = await fetch(`${replay.url}?${UNKNOWABLE}`);
      expect(miss.headers.get('x-wikitape-source')).toBe('miss');
      expect(normalize(await miss.text())).toMatch(/^\{"error":\{"code":"wikitape-miss"/);
    } finally {
      await replay.close();
    }
  });
});
