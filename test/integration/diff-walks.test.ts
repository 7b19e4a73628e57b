import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffCassettes } from '../../src/record/diff.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { convertedBack, isPrepared, tabledKinds, timesAlike } from '../support/database-back.js';

/**
 * `cassettes diff` takes a walk (a list's pages from the first to the last, following
 * continuation) as one unit. The upstream is wikitape's own fixture server: a wiki whose data
 * this test changes between the recording and the diff (two new log events at the top, a link
 * removed and one added), so every page boundary of a recorded walk moves.
 */
const PROFILE = { version: '1.39.17', language: 'en', siteName: 'Test', server: 'http://127.0.0.1', scriptPath: '/wiki', cookiePrefix: 'wikidb' };

function logEvent(logid: number) {
  const timestamp = new Date(Date.UTC(2024, 2, 1, 10) + logid * 60_000).toISOString().replace('.000Z', 'Z');
  return { logid, ns: 0, title: `Page ${logid}`, pageid: 1000 + logid, logpage: 1000 + logid, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp, comment: `event ${logid}`, tags: [] };
}

/** The wiki at a time: `events` log events, and one page with these external links. */
function wiki(events: number, links: { id: number; url: string }[]) {
  return {
    profile: PROFILE,
    logevents: Array.from({ length: events }, (_, n) => logEvent(n + 1)),
    pages: [{ pageid: 7, ns: 0, title: 'Linked', extlinks: links }],
  };
}

/** A link and its el_id (a link keeps its id; a new one gets the next). */
const link = (c: string) => ({ id: c.charCodeAt(0) - 96, url: `https://${c}.example/` });
const LINKS_BEFORE = [...'abcdefg'].map(link);
// c is gone, h and i are new
const LINKS_AFTER = [...'abdefghi'].map(link);

async function fixtureServer(dir: string, name: string, data: object): Promise<RunningServer> {
  await writeFile(join(dir, `${name}.json`), JSON.stringify(data));
  return startServer({ cassettes: NO_CASSETTES, fixtures: [join(dir, `${name}.json`)], clock: TEST_CLOCK });
}

type Body = Record<string, any>;

/** A client's walk: the first page, then each `continue` followed to the end; each page's data (debuginfo and the clock aside). */
async function walk(url: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<Body[]> {
  const pages: Body[] = [];
  let cont: Record<string, string> = {};
  for (let n = 0; n < 50; n++) {
    const r = await fetch(`${url}?${new URLSearchParams({ ...params, ...cont, format: 'json', formatversion: '2' })}`, { headers });
    const body = (await r.json()) as Body;
    delete body['debuginfo'];
    delete body['curtimestamp'];
    pages.push({ source: r.headers.get('x-wikitape-source'), unknown: r.headers.get('x-wikitape-unknown'), body });
    if (!body['continue']) return pages;
    cont = body['continue'] as Record<string, string>;
  }
  throw new Error('the walk did not end');
}

const LOG_WALK = { action: 'query', list: 'logevents', lelimit: '5', leprop: 'ids|title|type|user|timestamp|comment' };
const LINK_WALK = { action: 'query', prop: 'extlinks', titles: 'Linked', ellimit: '3' };

/** The same walk of the live wiki and of replay: every page the same, and each page an answer replay vouches for. */
async function expectSameWalk(live: string, replay: string, params: Record<string, string>): Promise<void> {
  const want = await walk(live, params);
  const got = await walk(replay, params);
  expect(got.map((p) => p.body)).toEqual(want.map((p) => p.body));
  for (const p of got) {
    expect(['cassette', 'synthesized']).toContain(p.source);
    expect(p.unknown).toBeNull();
  }
}

/** A cassette `suite` recorded from a fixture server of `data`: each walk (JSON of its parameters) walked through the recorder, of the pages given. */
async function recordedFrom(data: object, walks: Record<string, number>, stores: readonly ('json' | 'sqlite')[] = ['json']): Promise<{ dir: string; cassettes: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-diff-walks-'));
  const cassettes = join(dir, 'cassettes');
  const before = await fixtureServer(dir, 'before', data);
  // (each store in a folder of its own: `cassettes`, the first; `cassettes-<store>`, the others)
  for (const [n, store] of stores.entries()) {
    const rec = await startServer({ mode: 'record', upstream: before.url, cassettes: n === 0 ? cassettes : `${cassettes}-${store}`, cassette: 'suite', store });
    for (const [params, pages] of Object.entries(walks)) expect((await walk(rec.url, JSON.parse(params) as Record<string, string>)).length).toBe(pages);
    await rec.close();
  }
  await before.close();
  return { dir, cassettes };
}

describe('cassettes diff: a walk is one unit', () => {
  it('reports a walk whose pages moved as one changed walk; --update records it again from its first page to its last, and replay then walks as the wiki does', { timeout: 60_000 }, async () => {
    const { dir, cassettes } = await recordedFrom(wiki(12, LINKS_BEFORE), { [JSON.stringify(LOG_WALK)]: 3, [JSON.stringify(LINK_WALK)]: 3 });

    const after = await fixtureServer(dir, 'after', wiki(14, LINKS_AFTER));
    try {
      const found = await diffCassettes({ upstream: after.url, cassettes });
      const logWalk = found.find((e) => e.key.startsWith('action=query&ledir'))!;
      expect(logWalk.status).toBe('changed');
      const updated = await diffCassettes({ upstream: after.url, cassettes, update: true });
      expect(updated.find((e) => e.key.startsWith('action=query&ledir'))?.updated).toBe(true);
      expect(updated.filter((e) => e.status !== 'equal').every((e) => e.updated)).toBe(true);
      const replay = await startServer({ cassettes, onMiss: 'error' });
      try {
        await expectSameWalk(after.url, replay.url, LOG_WALK);
        await expectSameWalk(after.url, replay.url, { ...LOG_WALK, lelimit: '4' });
        await expectSameWalk(after.url, replay.url, LINK_WALK);
        // Every link on one page: computed from the walk (c gone, h and i in the wiki's order).
        await expectSameWalk(after.url, replay.url, { ...LINK_WALK, ellimit: '10' });
        // Pages of 2 continue at links whose el_id no recording shows: replay says so, and invents none.
        const [unknown] = await walk(replay.url, { ...LINK_WALK, ellimit: '2' });
        expect(unknown!.body['error']?.code).toBe('wikitape-miss');
        expect(unknown!.body['error']?.info).toContain('extlinks.id');
      } finally {
        await replay.close();
      }
      const again = await diffCassettes({ upstream: after.url, cassettes });
      expect(again.find((e) => e.key.startsWith('action=query&ledir'))?.status).toBe('equal');
      expect(again.map((e) => e.status)).toEqual(again.map(() => 'equal'));
    } finally {
      await after.close();
    }
  });
});

describe('cassettes diff --update of a database cassette', () => {
  it('leaves the database what the JSON store writes for the same update (pages gone, a log event gone, a link removed and two added), its kinds in their tables and prepared', { timeout: 60_000 }, async () => {
    const { dir, cassettes } = await recordedFrom(wiki(12, LINKS_BEFORE), { [JSON.stringify(LOG_WALK)]: 3, [JSON.stringify(LINK_WALK)]: 3 }, ['json', 'sqlite']);
    const database = join(`${cassettes}-sqlite`, 'suite.sqlite');
    const tabled = tabledKinds(database);
    expect(tabled).toContain('logevents');
    // Three new log events, and one of the recorded ones gone (deleted since): it leaves the entities, those after it move up.
    const now = wiki(15, LINKS_AFTER);
    const after = await fixtureServer(dir, 'after', { ...now, logevents: now.logevents.filter((e) => e.logid !== 5) });
    try {
      const updated = await diffCassettes({ upstream: after.url, cassettes, update: true });
      expect(updated.filter((e) => e.updated).length).toBeGreaterThan(1);
      expect(await diffCassettes({ upstream: after.url, cassettes: `${cassettes}-sqlite`, update: true })).toEqual(updated);
      const json = timesAlike(await readFile(join(cassettes, 'suite.json'), 'utf8'));
      expect((JSON.parse(json) as { entities: { logevents: { logid: number }[] } }).entities.logevents.map((e) => e.logid)).toEqual([12, 11, 10, 9, 8, 7, 6, 4, 3, 2, 1, 15, 14, 13]);
      expect(await convertedBack(database)).toBe(json);
      expect(tabledKinds(database)).toEqual(tabled);
      expect(isPrepared(database)).toBe(true);
      const replay = await startServer({ cassettes: `${cassettes}-sqlite`, onMiss: 'error' });
      try {
        await expectSameWalk(after.url, replay.url, { ...LINK_WALK, ellimit: '10' });
        await expectSameWalk(after.url, replay.url, { ...LOG_WALK, lelimit: '4' });
      } finally {
        await replay.close();
      }
    } finally {
      await after.close();
    }
  });
});

describe('cassettes diff: a walk too long to follow', () => {
  it('a walk recorded to its end that now goes on past 100 pages is reported changed, and --update leaves it as it was rather than record part of it', { timeout: 60_000 }, async () => {
    const { dir, cassettes } = await recordedFrom(wiki(3, LINKS_BEFORE), { [JSON.stringify(LOG_WALK)]: 1 });
    const recorded = await readFile(join(cassettes, 'suite.json'), 'utf8');

    // 510 events at 5 a page: 102 pages
    const after = await fixtureServer(dir, 'after', wiki(510, LINKS_BEFORE));
    try {
      const entry = (await diffCassettes({ upstream: after.url, cassettes, update: true })).find((e) => e.key.includes('list=logevents'));
      expect(entry!.status).toBe('changed');
      expect(entry!.livePages).toBe(100);
      expect(entry!.updated).toBeUndefined();
      expect(entry!.details).toContain('the walk goes on past 100 pages (1 recorded): not followed further');
      expect(entry!.details).toContain('not recorded again: the walk was not followed to its end');
      expect(await readFile(join(cassettes, 'suite.json'), 'utf8')).toBe(recorded);
    } finally {
      await after.close();
    }
  });
});
