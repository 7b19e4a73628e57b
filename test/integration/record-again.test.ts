import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../../src/server.js';
import { standInParams } from '../support/stand-in-params.js';

/**
 * A recording never changes another answer (docs/decisions/0015-a-clock-per-recording.md): a bot
 * recorded through `record`, then recorded again with `--mode new` a day later (the clock faked,
 * not waited for), asking one question more. Between the two runs a block expired. Replay under the
 * default clock must give every earlier answer, recorded or computed, byte for byte as before.
 */
const T0 = Date.parse('2025-03-10T08:00:00Z');
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const BLOCKS = [
  { id: 30, user: 'Вандал', expiry: iso(T0 + 12 * 3600_000) },
  { id: 20, user: 'Спамер', expiry: 'infinity' },
  { id: 10, user: 'Тролль', expiry: iso(T0 + 3 * DAY) },
].map((b) => ({
  ...b, by: 'Admin', timestamp: '2025-03-01T00:00:00Z', reason: 'вандализм',
  automatic: false, anononly: false, nocreate: true, autoblock: true, noemail: false, hidden: false, allowusertalk: false, partial: false,
}));

/** A small wiki that answers as of the (faked) real time: an expired block is not listed (bl_expiry > now). */
function answer(q: URLSearchParams): object {
  if (q.get('meta') === 'siteinfo') {
    return { batchcomplete: true, query: { general: { sitename: 'Тест', lang: 'ru', generator: 'MediaWiki 1.43.0', server: 'http://wiki.test', scriptpath: '/w', time: iso(Date.now()) } } };
  }
  if (q.get('list') === 'blocks') {
    const live = BLOCKS.filter((b) => b.expiry === 'infinity' || Date.parse(b.expiry) > Date.now());
    const from = Number(q.get('bkcontinue') ?? Infinity);
    const rows = live.filter((b) => b.id <= from);
    const limit = Number(q.get('bklimit') ?? 10);
    const page = rows.slice(0, limit);
    const rest = rows[limit];
    return { ...(rest ? { continue: { bkcontinue: String(rest.id), continue: '-||' } } : { batchcomplete: true }), query: { blocks: page } };
  }
  if (q.get('list') === 'logevents') return { batchcomplete: true, query: { logevents: [] } };
  return { error: { code: 'badvalue', info: 'not in this wiki' } };
}

let upstream: Server;
let url: string;
beforeAll(async () => {
  upstream = createServer(async (req, res) => {
    const q = await standInParams(req, 'set');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, must-revalidate, max-age=0' });
    res.end(JSON.stringify(answer(q)));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/w/api.php`;
});
afterAll(() => upstream.close());
afterEach(() => vi.useRealTimers());

const J = { format: 'json', formatversion: '2' };
/** What the bot asks: the site, a walk of the blocks two at a time (curtimestamp and maxage on its first page). */
const BOT = [
  { action: 'query', meta: 'siteinfo', siprop: 'general', curtimestamp: '1', ...J },
  { action: 'query', list: 'blocks', bklimit: '2', maxage: '60', ...J },
  { action: 'query', list: 'blocks', bklimit: '2', bkcontinue: '10', ...J },
];
/** Answers computed from the walk (nobody asked them). */
const COMPUTED = [
  { action: 'query', list: 'blocks', bklimit: '1', curtimestamp: '1', ...J },
  { action: 'query', list: 'blocks', bklimit: '10', bkdir: 'newer', ...J },
];

/** Runs the bot through `record` with the clock at `at`; `extra` are the questions it asks besides. */
async function record(dir: string, at: number, extra: Record<string, string>[] = []): Promise<void> {
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  const s = await startServer({ mode: 'record', upstream: url, cassettes: dir, cassette: 'bot' });
  try {
    for (const q of [...BOT, ...extra]) expect((await fetch(`${s.url}?${new URLSearchParams(q)}`)).status).toBe(200);
    await s.flush();
  } finally {
    await s.close();
    vi.useRealTimers();
  }
}

/** Every answer replay gives to `questions` under the default clock: status, headers and body bytes. */
async function replayed(dir: string, questions: Record<string, string>[]): Promise<string[]> {
  const s = await startServer({ cassettes: dir });
  try {
    const out: string[] = [];
    for (const q of questions) {
      // twice: the printed answer (a hit template) says the same as the first
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${s.url}?${new URLSearchParams(q)}`);
        const headers: string[] = [];
        res.headers.forEach((v, k) => headers.push(`${k}: ${v}`));
        out.push(`${res.status}\n${headers.join('\n')}\n\n${await res.text()}`);
      }
    }
    return out;
  } finally {
    await s.close();
  }
}

describe('recording again with --mode new a day later', () => {
  it('leaves every earlier answer byte-identical, recorded or computed, though a block expired in between', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-record-again-'));
    await record(dir, T0);
    const before = await replayed(dir, [...BOT, ...COMPUTED]);
    // The walk lists all three blocks as recorded, and so do the answers computed from it.
    expect(before[2]).toContain('Вандал');
    expect(before[6]).toContain('Вандал');
    expect(before[0]).toContain('"curtimestamp":"2025-03-10T08:00:00Z"');

    await record(dir, T0 + DAY, [{ action: 'query', list: 'logevents', ...J }]);
    const cassette = JSON.parse(await readFile(join(dir, 'bot.json'), 'utf8')) as { meta: { recordedAt: string }; interactions: { recordedAt: string }[] };
    // The second run recorded its one new question and moved the cassette's recording time.
    expect(cassette.interactions.map((i) => i.recordedAt).sort()).toEqual([...Array(3).fill(iso(T0)), iso(T0 + DAY)].map((t) => t.replace('Z', '.000Z')));
    expect(cassette.meta.recordedAt).toBe(new Date(T0 + DAY).toISOString());

    const after = await replayed(dir, [...BOT, ...COMPUTED]);
    for (let i = 0; i < before.length; i++) expect(after[i], `answer ${i}`).toBe(before[i]);
  });
});
