import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../src/api/result.js';
import { createApp, loadEngine } from '../../src/app.js';
import { emptyHarvest, type Cassette, type Interaction } from '../../src/cassette/format.js';
import { harvest } from '../../src/record/harvest.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';

/**
 * Knowledge, not defaults (docs/decisions/0005): an answer computed from recordings either is the
 * wiki's, or says in X-Wikitape-Unknown what no recording showed. Cassettes here are built the way
 * record mode builds them: the recorded answers (formatversion=2), and the entities harvested from them.
 */
const HEADERS = { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' };

function recorded(params: Record<string, string>, body: JsonObject): Interaction {
  const req = { action: 'query', ...params };
  return { key: canonicalKey(new Map(Object.entries(req)), KEY_RULES), request: req, status: 200, headers: HEADERS, body: { batchcomplete: true, ...body }, recordedAt: '2024-01-05T00:00:00Z' };
}

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

async function cassettes(version: string, interactions: Interaction[]): Promise<string> {
  return cassetteFiles(version, { wiki: { recordedAt: '2024-01-05T00:00:00Z', interactions } });
}

/** A folder of cassettes as record mode writes them, each recorded at its time. */
async function cassetteFiles(version: string, files: Record<string, { recordedAt: string; interactions: Interaction[] }>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-knowledge-'));
  made.push(dir);
  for (const [name, { recordedAt, interactions }] of Object.entries(files)) {
    const entities = emptyHarvest();
    for (const i of interactions) harvest(entities, i.body, i.request);
    const cassette: Cassette = {
      meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt, profile: { version, language: 'ru', scriptPath: '/w', server: 'http://wiki.test', debugInfo: true } },
      interactions: interactions.map((i) => ({ ...i, recordedAt })).sort((a, b) => (a.key < b.key ? -1 : 1)),
      entities,
    };
    await writeFile(join(dir, `${name}.json`), JSON.stringify(cassette, null, 2));
  }
  return dir;
}

/** A question of replay, flagged answers served (`onMiss: 'builtin'`) unless the options say otherwise. */
async function ask(dir: string, query: Record<string, string>, options: { onMiss?: 'error' } = {}) {
  const res = await request(createApp({ cassettes: dir, onMiss: 'builtin', ...options })).get('/w/api.php').query({ action: 'query', format: 'json', formatversion: '2', ...query });
  const body = JSON.parse(res.text) as { query?: Record<string, JsonObject[]>; continue?: Record<string, string>; error?: { code: string; info: string } };
  return { source: res.headers['x-wikitape-source'], unknown: res.headers['x-wikitape-unknown'] as string | undefined, body };
}

/** A block as list=blocks shows it with the props asked. */
const vandal = { id: 2, user: 'Вандал', by: 'Admin', timestamp: '2024-01-02T00:00:00Z', expiry: 'infinity', reason: 'спам' };
const range = { id: 1, user: '192.0.2.0/24', by: 'Admin', timestamp: '2024-01-01T00:00:00Z', expiry: 'infinity', reason: 'прокси' };

describe('what replay knows from recordings', () => {
  it('flags a field no recording showed, and fills it once another answer shows it', async () => {
    const walk = recorded({ list: 'blocks', bkprop: 'id|user|by|timestamp|expiry|reason' }, { query: { blocks: [vandal, range] } });
    const dir = await cassettes('1.39.17', [walk]);
    const byid = await ask(dir, { list: 'blocks', bkprop: 'id|byid', bklimit: '1' });
    expect(byid.unknown).toBe('blocks.byid');
    expect(byid.source).toBe('builtin');
    // The same question under --on-miss error (the default) names what is missing and how to record it.
    const miss = await ask(dir, { list: 'blocks', bkprop: 'id|byid', bklimit: '1' }, { onMiss: 'error' });
    expect(miss.source).toBe('miss');
    expect(miss.body.error?.code).toBe('wikitape-miss');
    expect(miss.body.error?.info).toContain('blocks.byid');
    expect(miss.body.error?.info).toContain('wikitape snapshot --upstream http://wiki.test/w/api.php');
    // A log event that shows Admin's id settles every block Admin made.
    const log = recorded({ list: 'logevents', leprop: 'ids|user|userid|timestamp|type' }, { query: { logevents: [{ logid: 5, ns: 0, title: 'X', pageid: 3, logpage: 3, type: 'block', action: 'block', user: 'Admin', userid: 1, timestamp: '2024-01-02T00:00:00Z' }] } });
    const known = await ask(await cassettes('1.39.17', [walk, log]), { list: 'blocks', bkprop: 'id|byid', bklimit: '1' });
    expect(known.unknown).toBeUndefined();
    expect(known.source).toBe('synthesized');
    expect(known.body.query?.['blocks']).toEqual([{ id: 2, byid: 1 }]);
  });

  it('works out a range from the block target, a sitewide block from its flags, and an IP user id of 0', async () => {
    const flags = { automatic: false, anononly: false, nocreate: true, autoblock: true, noemail: false, hidden: false, allowusertalk: false, partial: false };
    const walk = recorded({ list: 'blocks', bkprop: 'id|user|by|timestamp|expiry|reason|flags' }, { query: { blocks: [{ ...vandal, ...flags }, { ...range, ...flags, anononly: true, autoblock: false }] } });
    const dir = await cassettes('1.39.17', [walk]);
    const r = await ask(dir, { list: 'blocks', bkprop: 'id|range|restrictions', bkdir: 'newer' });
    expect(r.unknown).toBeUndefined();
    expect(r.body.query?.['blocks']).toEqual([
      { id: 1, rangestart: '192.0.2.0', rangeend: '192.0.2.255', restrictions: [] },
      { id: 2, rangestart: '0.0.0.0', rangeend: '0.0.0.0', restrictions: [] },
    ]);
    expect((await ask(dir, { list: 'blocks', bkprop: 'id|userid', bkdir: 'newer', bklimit: '1' })).body.query?.['blocks']).toEqual([{ id: 1, userid: 0 }]);
    // The account's id was never shown.
    expect((await ask(dir, { list: 'blocks', bkprop: 'id|userid' })).unknown).toBe('blocks.userid');
  });

  it('knows a list only from a complete walk: a filtered recording leaves other entries possible', async () => {
    const filtered = recorded({ list: 'blocks', bkusers: 'Вандал', bkprop: 'id|user|by|timestamp|expiry|reason' }, { query: { blocks: [vandal] } });
    const dir = await cassettes('1.39.17', [filtered]);
    const r = await ask(dir, { list: 'blocks', bkprop: 'id' });
    expect(r.unknown).toContain('blocks.entries');
    expect(r.source).toBe('builtin');
  });

  it("a list recorded without its entries' timestamps: a page that continues is flagged (the order and the token need them), never a crash", async () => {
    // A bot that asked for no timestamps (bkprop=id|user|expiry, leprop=ids|type, ptprop=level): its walks
    // are whole, but the next page's token (`<timestamp>|<id>`) and the order are the timestamps'.
    const blocks = recorded({ list: 'blocks', bkprop: 'id|user|expiry' }, { query: { blocks: [{ id: 2, user: 'Вандал', expiry: 'infinity' }, { id: 1, user: '192.0.2.0/24', expiry: 'infinity' }] } });
    const log = recorded({ list: 'logevents', leprop: 'ids|type' }, { query: { logevents: [{ logid: 5, ns: 0, title: 'X', pageid: 3, logpage: 3, type: 'block' }, { logid: 4, ns: 0, title: 'Y', pageid: 0, logpage: 0, type: 'block' }] } });
    const titles = recorded({ list: 'protectedtitles', ptprop: 'level' }, { query: { protectedtitles: [{ ns: 0, title: 'A', level: 'sysop' }, { ns: 0, title: 'B', level: 'sysop' }] } });
    const dir = await cassettes('1.43.9', [blocks, log, titles]);
    for (const [q, field] of [
      [{ list: 'blocks', bkprop: 'id|user|expiry', bklimit: '1' }, 'blocks.timestamp'],
      [{ list: 'blocks', bkprop: 'id|expiry', bkids: '1|2' }, 'blocks.timestamp'],
      [{ list: 'logevents', leprop: 'ids|type', lelimit: '1' }, 'logevents.timestamp'],
      [{ list: 'protectedtitles', ptprop: 'level', ptlimit: '1' }, 'protectedtitles.timestamp'],
    ] as const) {
      const flagged = await ask(dir, q);
      expect([q, flagged.source, flagged.unknown?.split(', ').includes(field), flagged.body.error]).toEqual([q, 'builtin', true, undefined]);
      const miss = await ask(dir, q, { onMiss: 'error' });
      expect([q, miss.source, miss.body.error?.code, miss.body.error?.info]).toEqual([q, 'miss', 'wikitape-miss', expect.stringContaining(field)]);
    }
  });

  it('learns el_ids from the tokens of a walk (1.43: the id; 1.39: page, index and id) and continues where MediaWiki does', async () => {
    const page = (links: string[]) => ({ query: { pages: [{ pageid: 7, ns: 0, title: 'Ссылки', extlinks: links.map((url) => ({ url })) }] } });
    const urls = ['https://a.example/', 'https://b.example/', 'https://c.example/'];
    // 1.43: ellimit=1 walk; each token names the next link's id. The first link's id stays unknown.
    const walk43 = [
      recorded({ prop: 'extlinks', titles: 'Ссылки', ellimit: '1' }, { continue: { elcontinue: '41', continue: '||' }, ...page(urls.slice(0, 1)) }),
      recorded({ prop: 'extlinks', titles: 'Ссылки', ellimit: '1', elcontinue: '41' }, { continue: { elcontinue: '45', continue: '||' }, ...page(urls.slice(1, 2)) }),
      recorded({ prop: 'extlinks', titles: 'Ссылки', ellimit: '1', elcontinue: '45' }, page(urls.slice(2))),
    ];
    const dir43 = await cassettes('1.43.5', walk43);
    const two = await ask(dir43, { prop: 'extlinks', titles: 'Ссылки', ellimit: '2' });
    expect(two.unknown).toBeUndefined();
    expect(two.source).toBe('synthesized');
    expect(two.body.continue).toEqual({ elcontinue: '45', continue: '||' });
    // A continuation point between two known ids: the first link at or after it is the third.
    const from = await ask(dir43, { prop: 'extlinks', titles: 'Ссылки', elcontinue: '43' });
    expect(from.unknown).toBeUndefined();
    expect(from.body.query?.['pages']?.[0]?.['extlinks']).toEqual([{ url: 'https://c.example/' }]);
    // Below the second link's id, the first link's unknown id decides: flagged.
    expect((await ask(dir43, { prop: 'extlinks', titles: 'Ссылки', elcontinue: '20' })).unknown).toBe('extlinks.id');

    // 1.39, several pages: tokens `<pageid>|<el_index_60>|<el_id>`.
    const two39 = (links: string[], pageid: number, title: string) => ({ pageid, ns: 0, title, ...(links.length ? { extlinks: links.map((url) => ({ url })) } : {}) });
    const titles = 'Ссылки|Другая';
    const walk39 = [
      recorded({ prop: 'extlinks', titles, ellimit: '1' }, { continue: { elcontinue: '7|https://example.b./|12', continue: '||' }, query: { pages: [two39([urls[0]!], 7, 'Ссылки'), two39([], 8, 'Другая')] } }),
      recorded({ prop: 'extlinks', titles, ellimit: '1', elcontinue: '7|https://example.b./|12' }, { continue: { elcontinue: '8|http://org.example./|30', continue: '||' }, query: { pages: [two39([urls[1]!], 7, 'Ссылки'), two39([], 8, 'Другая')] } }),
      recorded({ prop: 'extlinks', titles, ellimit: '1', elcontinue: '8|http://org.example./|30' }, { query: { pages: [two39([], 7, 'Ссылки'), two39(['http://example.org/'], 8, 'Другая')] } }),
    ];
    const dir39 = await cassettes('1.39.17', walk39);
    const next = await ask(dir39, { prop: 'extlinks', titles, ellimit: '2' });
    expect(next.unknown).toBeUndefined();
    expect(next.body.continue).toEqual({ elcontinue: '8|http://org.example./|30', continue: '||' });
    const single = await ask(dir39, { prop: 'extlinks', titles: 'Другая', ellimit: '1' });
    expect(single.source).toBe('synthesized');
  });

  it("1.43, several pages whose el_ids nobody showed: exact when all links fit (each page's listed under it), flagged where the limit cuts", async () => {
    const one = (pageid: number, title: string, urls: string[]) =>
      recorded({ prop: 'extlinks', titles: title, ellimit: 'max' }, { query: { pages: [{ pageid, ns: 0, title, extlinks: urls.map((url) => ({ url })) }] } });
    const dir = await cassettes('1.43.5', [one(7, 'Ссылки', ['https://a.example/', 'https://b.example/']), one(8, 'Другая', ['https://c.example/'])]);
    const all = await ask(dir, { prop: 'extlinks', titles: 'Ссылки|Другая', ellimit: 'max' });
    expect(all.unknown).toBeUndefined();
    expect(all.source).toBe('synthesized');
    expect(all.body.query?.['pages']).toEqual([
      { pageid: 7, ns: 0, title: 'Ссылки', extlinks: [{ url: 'https://a.example/' }, { url: 'https://b.example/' }] },
      { pageid: 8, ns: 0, title: 'Другая', extlinks: [{ url: 'https://c.example/' }] },
    ]);
    // Which two of the three come first is el_id order across the pages: not known.
    expect((await ask(dir, { prop: 'extlinks', titles: 'Ссылки|Другая', ellimit: '2' })).unknown).toBe('extlinks.id');
  });

  it('flags a spam check whose answer depends on the blacklist no recording showed', async () => {
    const dir = await cassettes('1.39.17', [recorded({ list: 'blocks' }, { query: { blocks: [] } })]);
    const res = await request(createApp({ cassettes: dir })).get('/w/api.php').query({ action: 'spamblacklist', url: 'http://casino.example/', format: 'json' });
    expect(res.headers['x-wikitape-unknown']).toBe('spamblacklist.patterns');
  });

  it('flags format=rawfm, which prints what wikitape does not keep', async () => {
    const walk = recorded({ list: 'blocks', bkprop: 'id|user|by|timestamp|expiry|reason' }, { query: { blocks: [vandal] } });
    const dir = await cassettes('1.39.17', [walk]);
    const res = await request(createApp({ cassettes: dir })).get('/w/api.php').query({ action: 'query', list: 'blocks', bkprop: 'id', format: 'rawfm' });
    expect(res.headers['x-wikitape-unknown']).toBe('format.rawfm');
  });

  it.each(['xml', 'xmlfm', 'php', 'phpfm'])('flags format=%s, which wikitape prints as JSON', async (format) => {
    const walk = recorded({ list: 'blocks', bkprop: 'id|user|by|timestamp|expiry|reason' }, { query: { blocks: [vandal] } });
    const dir = await cassettes('1.39.17', [walk]);
    const res = await request(createApp({ cassettes: dir })).get('/w/api.php').query({ action: 'query', list: 'blocks', bkprop: 'id', format });
    expect(res.headers['x-wikitape-unknown']).toBe(`format.${format}`);
  });
});

describe('evidence that lasts: a later recording of the same version takes nothing away', () => {
  const pt = (title: string, extra: Record<string, unknown> = {}) => ({ ns: 0, title, timestamp: '2024-01-01T00:00:00Z', level: 'sysop', ...extra });
  const full = (title: string) => pt(title, { user: 'Admin', userid: 1, comment: 'spam', parsedcomment: 'spam', expiry: 'infinity' });
  const snapshot = recorded({ list: 'protectedtitles', ptlimit: 'max', ptprop: 'comment|expiry|level|parsedcomment|timestamp|user|userid' }, { query: { protectedtitles: [full('B'), full('A')] } });

  it('a default-props walk after a snapshot (another cassette, recorded later) leaves the snapshot\'s fields known', async () => {
    const crawl = recorded({ list: 'protectedtitles' }, { query: { protectedtitles: [pt('B'), pt('A')] } });
    // `crawl` is read first (its name sorts first), but recorded after the snapshot.
    const dir = await cassetteFiles('1.43.9', { crawl: { recordedAt: '2024-01-06T00:00:00Z', interactions: [crawl] }, snapshot: { recordedAt: '2024-01-05T00:00:00Z', interactions: [snapshot] } });
    const r = await ask(dir, { list: 'protectedtitles', ptprop: 'user|comment', ptlimit: '1' });
    expect(r.unknown).toBeUndefined();
    expect(r.source).toBe('synthesized');
    expect(r.body.query?.['protectedtitles']).toEqual([{ ns: 0, title: 'B', user: 'Admin', userid: 1, comment: 'spam' }]);
  });

  it('a later walk showing a changed protection (a new timestamp) makes what the snapshot showed of it unknown', async () => {
    const crawl = recorded({ list: 'protectedtitles' }, { query: { protectedtitles: [pt('B', { timestamp: '2024-01-05T12:00:00Z' }), pt('A')] } });
    const dir = await cassetteFiles('1.43.9', { crawl: { recordedAt: '2024-01-06T00:00:00Z', interactions: [crawl] }, snapshot: { recordedAt: '2024-01-05T00:00:00Z', interactions: [snapshot] } });
    expect((await ask(dir, { list: 'protectedtitles', ptprop: 'user', ptlimit: '1' })).unknown).toBe('protectedtitles.user, protectedtitles.userid');
    // A. unchanged, is still known.
    const a = await ask(dir, { list: 'protectedtitles', ptprop: 'user', ptlimit: '1', ptcontinue: '20240101000000|0|A' });
    expect(a.unknown).toBeUndefined();
    expect(a.body.query?.['protectedtitles']).toEqual([{ ns: 0, title: 'A', user: 'Admin', userid: 1 }]);
  });
});

describe('knowledge is worked out where the engine is built, and only when needed', () => {
  it('a cassette hit never works it out; the first computed answer does, once, and hands it to the modules', async () => {
    const walk = recorded({ list: 'blocks', bkprop: 'id|user|by|timestamp|expiry|reason' }, { query: { blocks: [vandal, range] } });
    const engine = await loadEngine({ cassettes: await cassettes('1.39.17', [walk]) });
    const knows = vi.spyOn(engine, 'knows');
    const get = (q: string) => engine.handle({ method: 'GET', url: `/w/api.php?${q}`, headers: {}, body: Buffer.alloc(0), startedAt: process.hrtime.bigint() });
    expect(get('action=query&list=blocks&bkprop=id|user|by|timestamp|expiry|reason&format=json').source).toBe('cassette');
    expect(knows).not.toHaveBeenCalled();
    const computed = get('action=query&list=blocks&bkprop=id|user&bklimit=1&format=json');
    expect(computed.source).toBe('synthesized');
    expect(knows).toHaveBeenCalledTimes(1);
    const first = knows.mock.results[0]!.value as ReturnType<typeof engine.knows>;
    expect(first?.walks.get('blocks')?.has('')).toBe(true);
    get('action=query&list=blocks&bkprop=id|user&bklimit=2&format=json');
    expect(knows.mock.results[1]!.value).toBe(first);
    engine.close();
  });
});

describe('the first pages of a walk of blocks, under the recorded clock', () => {
  it('answer a page within them as of when they were recorded: a block that expired since still lists', async () => {
    const show = { by: 'Admin', reason: 'r', expiry: 'infinity' };
    const c = { ...show, id: 3, user: 'C', timestamp: '2024-01-01T03:00:00Z' };
    const a = { ...show, id: 2, user: 'A', timestamp: '2024-01-01T02:00:00Z', expiry: '2024-01-03T00:00:00Z' };
    const props = { list: 'blocks', bkprop: 'id|user|by|timestamp|expiry|reason', bklimit: '2' };
    // The first page of two (C and A; the row after them, B, blocked at 01:00 with id 1), recorded on the 2nd; another answer on the 5th, after A expired.
    const page = recorded(props, { continue: { bkcontinue: '20240101010000|1', continue: '-||' }, query: { blocks: [c, a] } });
    const later = recorded({ list: 'logevents', leprop: 'ids|timestamp|type', lelimit: '1' }, { query: { logevents: [] } });
    const dir = await cassetteFiles('1.39.17', { walk: { recordedAt: '2024-01-02T00:00:00Z', interactions: [page] }, later: { recordedAt: '2024-01-05T00:00:00Z', interactions: [later] } });
    const one = await ask(dir, { list: 'blocks', bkprop: 'id|user|expiry', bklimit: '1' }, { onMiss: 'error' });
    expect({ source: one.source, unknown: one.unknown }).toEqual({ source: 'synthesized', unknown: undefined });
    expect(one.body.query?.['blocks']).toEqual([{ id: 3, user: 'C', expiry: 'infinity' }]);
    expect(one.body.continue).toEqual({ bkcontinue: '20240101020000|2', continue: '-||' });
    // The page the recording did not reach: refused.
    const two = await ask(dir, { list: 'blocks', bkprop: 'id|user', bklimit: '2' }, { onMiss: 'error' });
    expect({ source: two.source, unknown: two.unknown }).toEqual({ source: 'miss', unknown: 'blocks.entries' });
  });
});
