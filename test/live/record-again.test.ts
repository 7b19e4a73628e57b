import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer } from '../../src/server.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * A recording never changes another answer (docs/decisions/0015-a-clock-per-recording.md), against
 * a real MediaWiki: a bot recorded through `wikitape record`, then again with `--mode new` on a
 * clock a day later (faked, not waited for) asking one question more. Every answer replay gave
 * before, recorded or computed from a walk, is the same byte for byte after (debuginfo aside).
 */
const DAY = 86_400_000;
const J = { format: 'json', formatversion: '2' };
/** The bot's walks (followed to their end) and single questions. */
const WALKS = [
  { action: 'query', list: 'blocks', bklimit: '4', ...J },
  { action: 'query', list: 'logevents', lelimit: '20', ...J },
];
const SINGLES = [
  { action: 'query', meta: 'siteinfo', siprop: 'general', curtimestamp: '1', ...J },
  { action: 'parse', summary: '/* Раздел */ [[Москва]]', prop: '', ...J },
  { action: 'query', list: 'blocks', bklimit: '4', maxage: '60', smaxage: '30', ...J },
];
/** Questions nobody asked, computed from the walks. */
const COMPUTED = [
  { action: 'query', list: 'blocks', bklimit: '1', curtimestamp: '1', ...J },
  { action: 'query', list: 'blocks', bklimit: '50', bkdir: 'newer', ...J },
  { action: 'query', list: 'logevents', lelimit: '7', letype: 'block', ...J },
];
/** What the second run asks besides. */
const ADDED = { action: 'query', list: 'protectedtitles', ptlimit: '5', ...J };

/** The body without debuginfo (fresh in every answer: time, memory). */
const withoutDebug = (text: string) => text.replace(/,"debuginfo":\{[\s\S]*\}\}$/, '}');

/** Asks the questions through `base`, following each walk to its end; the URLs asked, in order. */
async function bot(base: string, extra: Record<string, string>[] = []): Promise<string[]> {
  const asked: string[] = [];
  for (const w of WALKS) {
    let cont: Record<string, string> = {};
    for (let i = 0; i < 50; i++) {
      const q = new URLSearchParams({ ...w, ...cont }).toString();
      asked.push(q);
      const body = JSON.parse(await (await fetch(`${base}?${q}`)).text()) as { continue?: Record<string, string> };
      if (!body.continue) break;
      cont = body.continue;
    }
  }
  for (const q of [...SINGLES, ...extra]) {
    const r = await fetch(`${base}?${new URLSearchParams(q)}`);
    expect(r.status).toBe(200);
    asked.push(new URLSearchParams(q).toString());
  }
  return asked;
}

/** Replay's answers to these query strings under the default clock: status, headers, body without debuginfo. */
async function replayed(dir: string, questions: string[]): Promise<string[]> {
  const s = await startServer({ cassettes: dir });
  try {
    const out: string[] = [];
    for (const q of questions) {
      const res = await fetch(`${s.url}?${q}`);
      const headers: string[] = [];
      // Content-Length counts the debuginfo too
      res.headers.forEach((v, k) => k !== 'content-length' && headers.push(`${k}: ${v}`));
      out.push(`${q}\n${res.status}\n${headers.join('\n')}\n\n${withoutDebug(await res.text())}`);
    }
    return out;
  } finally {
    await s.close();
  }
}

afterEach(() => vi.useRealTimers());

describe.each(LIVE_VERSIONS)('recording again with --mode new a day later, against MediaWiki %s', (version) => {
  it('leaves every earlier answer byte-identical (debuginfo aside)', async () => {
    const live = await liveWiki(version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-live-again-'));
    const first = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'bot' });
    let asked: string[];
    try {
      asked = await bot(first.url);
    } finally {
      await first.close();
    }
    const questions = [...asked, ...COMPUTED.map((q) => new URLSearchParams(q).toString())];
    const before = await replayed(dir, questions);
    expect(before.some((a) => a.includes('x-wikitape-source: synthesized'))).toBe(true);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + DAY });
    const second = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'bot' });
    try {
      await bot(second.url, [ADDED]);
    } finally {
      await second.close();
    }
    const stamps = (JSON.parse(await readFile(join(dir, 'bot.json'), 'utf8')) as { interactions: { key: string; recordedAt: string }[] }).interactions;
    // the second run recorded only its added question, a day later
    const later = stamps.filter((i) => Date.parse(i.recordedAt) > Date.now() - DAY / 2);
    expect(later.map((i) => i.key)).toEqual([expect.stringContaining('list=protectedtitles')]);
    vi.useRealTimers();

    const after = await replayed(dir, questions);
    for (let i = 0; i < before.length; i++) expect(after[i]).toBe(before[i]);
  });
});
