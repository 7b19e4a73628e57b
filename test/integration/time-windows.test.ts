import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { askReplay, expectComputed, recordedPart } from '../support/recorded-fixture.js';

/**
 * The log read the other way from its first pages, and walks within a time window
 * (docs/decisions/0027-time-windows.md). The cassette holds MediaWiki 1.43's answers, recorded
 * through `wikitape record`: the log's first two pages of ten (newest first; they end at
 * `20261128060306|91`, inside a second that holds six more entries), the log `ledir=newer` from
 * 07:00 to its end, and the blocks `bkdir=newer` from 08:00 to their end (none). The expected
 * bodies are the live wiki's answers to the same questions.
 */
const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'log-windows-1.43.json');
const CLOCK = '2026-11-28T10:00:00Z';
const PROPS = 'ids|timestamp|type|title|user';
const FIRST_PAGES = (key: string) => key.includes('ledir=older&lelimit=10');
const WINDOWS = (key: string) => key.includes('start=');

const cassettes = (keep: (key: string) => boolean) => recordedPart(FIXTURE, keep);
const ask = (dir: string, params: Record<string, string>) => askReplay(dir, CLOCK, params);

const log = (params: Record<string, string>) => ({ list: 'logevents', leprop: PROPS, ...params });
type Entry = [logid: number, ns: number, title: string, pageid: number, logpage: number, revid: number | null, type: string, action: string, timestamp: string];
const entry = ([logid, ns, title, pageid, logpage, revid, type, action, timestamp]: Entry) => ({
  logid,
  ns,
  title,
  pageid,
  logpage,
  ...(revid === null ? {} : { revid }),
  type,
  action,
  user: 'Admin',
  timestamp: `2026-11-28T${timestamp}Z`,
});
const E: Record<number, Entry> = {
  93: [93, 0, 'Лондон', 37, 37, 39, 'create', 'create', '06:03:06'],
  94: [94, 0, 'Ёлкино', 38, 38, 40, 'create', 'create', '06:03:06'],
  95: [95, 0, 'Hunt-writes 1.43 1795851699838-1', 40, 39, 41, 'create', 'create', '07:41:42'],
  96: [96, 0, 'Hunt-writes 1.43 1795851699838-1', 40, 39, 44, 'move', 'move', '07:41:48'],
  97: [97, 2, 'Участник:203.0.113.234', 0, 0, null, 'block', 'block', '07:43:13'],
  98: [98, 2, 'Участник:203.0.113.234', 0, 0, null, 'block', 'unblock', '07:43:28'],
  99: [99, 0, 'Wikitape client sandbox', 41, 41, 46, 'create', 'create', '07:43:40'],
  100: [100, 0, 'Hunt-writes 1.43 1795853742079-1', 43, 42, 47, 'create', 'create', '08:15:44'],
  101: [101, 0, 'Hunt-writes 1.43 1795853742079-1', 43, 42, 50, 'move', 'move', '08:15:51'],
  102: [102, 2, 'Участник:203.0.113.205', 0, 0, null, 'block', 'block', '08:17:21'],
  103: [103, 2, 'Участник:203.0.113.205', 0, 0, null, 'block', 'unblock', '08:17:36'],
  104: [104, 0, 'Hunt-writes 1.43 1795855899510-1', 45, 44, 52, 'create', 'create', '08:51:41'],
  105: [105, 0, 'Hunt-writes 1.43 1795855899510-1', 45, 44, 55, 'move', 'move', '08:51:47'],
  106: [106, 2, 'Участник:203.0.113.178', 0, 0, null, 'block', 'block', '08:53:15'],
  107: [107, 2, 'Участник:203.0.113.178', 0, 0, null, 'block', 'unblock', '08:53:30'],
  108: [108, 0, 'Hunt-writes 1.43 1795857759536-1', 47, 46, 57, 'create', 'create', '09:22:42'],
  109: [109, 0, 'Hunt-writes 1.43 1795857759536-1', 47, 46, 60, 'move', 'move', '09:22:48'],
  110: [110, 2, 'Участник:203.0.113.199', 0, 0, null, 'block', 'block', '09:24:19'],
  111: [111, 2, 'Участник:203.0.113.199', 0, 0, null, 'block', 'unblock', '09:24:36'],
};
const entries = (...ids: number[]) => ids.map((id) => entry(E[id]!));
const page = (ids: number[], next?: string) => ({ batchcomplete: true, ...(next ? { continue: { lecontinue: next, continue: '-||' } } : {}), query: { logevents: entries(...ids) } });

describe('the log read newer from inside its recorded first pages (MediaWiki 1.43)', () => {
  it.each([
    [{ ledir: 'newer', lestart: '2026-11-28T07:00:00Z', lelimit: '5' }, page([95, 96, 97, 98, 99], '20261128081544|100')],
    // A start one second after the stretch's last second: none of that second's entries is read.
    [{ ledir: 'newer', lestart: '2026-11-28T06:03:07Z', lelimit: '3' }, page([95, 96, 97], '20261128074328|98')],
    // A continuation point inside that second, after the stretch's end.
    [{ ledir: 'newer', lecontinue: '20261128060306|93', lelimit: '4' }, page([93, 94, 95, 96], '20261128074313|97')],
  ])('%j is computed as the wiki answers it', async (params, expected) => {
    expectComputed(await ask(await cassettes(FIRST_PAGES), log(params)), expected);
  });

  it.each<Record<string, string>>([
    // The stretch's last second: it holds entries after the stretch's end (86-91).
    { ledir: 'newer', lestart: '2026-11-28T06:03:06Z' },
    { ledir: 'newer', lecontinue: '20261128060306|91' },
    { ledir: 'newer' },
  ])('%j reaches past the stretch: refused', async (params) => {
    const { source, unknown } = await ask(await cassettes(FIRST_PAGES), log({ ...params, lelimit: '3' }));
    expect(unknown).toContain('logevents.entries');
    expect(source).toBe('miss');
  });
});

describe('walks within a time window (MediaWiki 1.43)', () => {
  it.each([
    [log({ ledir: 'newer', lestart: '2026-11-28T08:00:00Z', lelimit: '3' }), page([100, 101, 102], '20261128081736|103')],
    [log({ leend: '2026-11-28T08:30:00Z' }), page([111, 110, 109, 108, 107, 106, 105, 104])],
    [{ list: 'logevents', lelimit: '4', leprop: 'ids|timestamp' }, { batchcomplete: true, continue: { lecontinue: '20261128085330|107', continue: '-||' }, query: { logevents: entries(111, 110, 109, 108).map(({ logid, pageid, logpage, revid, timestamp }) => ({ logid, pageid, logpage, ...(revid === undefined ? {} : { revid }), timestamp })) } }],
    [log({ letype: 'block', ledir: 'newer', lestart: '2026-11-28T08:00:00Z' }), page([102, 103, 106, 107, 110, 111])],
    [{ list: 'blocks', bkdir: 'newer', bkstart: '2026-11-28T09:00:00Z', bkprop: 'id|user|timestamp|expiry' }, { batchcomplete: true, query: { blocks: [] } }],
  ])('%j is computed as the wiki answers it', async (params, expected) => {
    expectComputed(await ask(await cassettes(WINDOWS), params), expected);
  });

  it.each([
    // Before the window's start.
    log({ ledir: 'newer', lestart: '2026-11-28T06:30:00Z', lelimit: '3' }),
    // Newest first, past the window's start.
    log({ lelimit: '50' }),
    log({ leend: '2026-11-28T06:00:00Z', lelimit: '20' }),
    { list: 'blocks', bkprop: 'id|user|timestamp|expiry' },
  ])('%j reaches past the window: refused', async (params) => {
    const { source, unknown } = await ask(await cassettes(WINDOWS), params);
    expect(unknown).toMatch(/(logevents|blocks)\.entries/);
    expect(source).toBe('miss');
  });
});
