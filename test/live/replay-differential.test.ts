import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { compare, report } from '../support/differential.js';
import { liveWiki, type LiveWiki } from '../support/live-wiki.js';
import { QUESTIONS } from '../support/questions.js';

/**
 * Replay against the live wiki: a crawl at default limits is recorded through `wikitape record`,
 * then `wikitape replay` answers questions nobody recorded — other limits and whole walks in both
 * directions, filters, prop subsets, formats, errors — and each answer is compared with the
 * live wiki's. An answer may differ only where it says what no recording showed (X-Wikitape-Unknown).
 */
let live: LiveWiki;
let replay: RunningServer;

async function crawl(base: string, params: Record<string, string>): Promise<Record<string, any>[]> {
  const pages: Record<string, any>[] = [];
  let cont: Record<string, string> = {};
  for (let i = 0; i < 200; i++) {
    const body = (await (await fetch(`${base}?${new URLSearchParams({ format: 'json', formatversion: '2', ...params, ...cont })}`)).json()) as Record<string, any>;
    pages.push(body);
    if (!body['continue']) break;
    cont = body['continue'];
  }
  return pages;
}

/** Walks a list at some limit and direction: one question per page. */
async function walkQuestions(base: string, list: string, prefix: string, limit: string, dir: string): Promise<string[]> {
  const qs: string[] = [];
  let cont: Record<string, string> = {};
  for (let i = 0; i < 50; i++) {
    const q = new URLSearchParams({ action: 'query', format: 'json', list, [`${prefix}limit`]: limit, [`${prefix}dir`]: dir, ...cont }).toString();
    qs.push(q);
    const body = (await (await fetch(`${base}?${q}`)).json()) as Record<string, any>;
    if (!body['continue']) break;
    cont = body['continue'];
  }
  return qs;
}

beforeAll(async () => {
  live = await liveWiki();
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-replay-diff-'));
  const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'crawl' });
  // A complete crawl at default limits, every prop on: each list, then every page of every namespace.
  await crawl(recorder.url, { action: 'query', list: 'logevents', leprop: 'ids|title|type|user|userid|timestamp|comment|parsedcomment|details|tags' });
  await crawl(recorder.url, { action: 'query', list: 'blocks', bkprop: 'id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions' });
  await crawl(recorder.url, { action: 'query', list: 'protectedtitles', ptprop: 'timestamp|user|userid|comment|parsedcomment|expiry|level' });
  const pages: { title: string }[] = [];
  for (let ns = 0; ns <= 15; ns++) {
    pages.push(...(await crawl(recorder.url, { action: 'query', list: 'allpages', apnamespace: String(ns), aplimit: 'max' })).flatMap((p) => p['query']['allpages'] as { title: string }[]));
  }
  for (const p of pages) await crawl(recorder.url, { action: 'query', prop: 'extlinks', titles: p.title, ellimit: 'max' });
  await recorder.close();
  replay = await startServer({ cassettes: dir });
});
afterAll(async () => replay?.close());

describe('replay answers what the live wiki would have said', () => {
  it('answers at least 100 unrecorded questions like the live wiki, except what no recording can know', async () => {
    const walks = [
      ...(await walkQuestions(live.apiUrl, 'logevents', 'le', '7', 'older')),
      ...(await walkQuestions(live.apiUrl, 'logevents', 'le', '25', 'newer')),
      ...(await walkQuestions(live.apiUrl, 'blocks', 'bk', '3', 'newer')),
      ...(await walkQuestions(live.apiUrl, 'protectedtitles', 'pt', '4', 'older')),
    ];
    const questions = [...QUESTIONS, ...walks];
    expect(questions.length).toBeGreaterThanOrEqual(100);
    const c = await compare(live.apiUrl, replay.url, questions);
    report('replay vs live', c);
    // Every answer that differs from the live wiki's must say what it could not know.
    const silent = c.differences.filter((d) => !c.flags.has(d.question));
    console.log(`replay vs live: ${c.equal} equal, ${c.differences.length - silent.length} flagged, ${silent.length} silently wrong`);
    expect(silent).toEqual([]);
  });
});
