import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { NO_CASSETTES } from '../support/app.js';
import { crawl } from '../support/crawl.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';
import { pagesetQuestions } from '../support/pageset-questions.js';
import { HEADERS } from '../support/questions.js';

/**
 * The page set (titles, pageids, redirects, interwiki titles, indexpageids) against both live
 * wikis: every question of test/support/pageset-questions.ts is asked of the live wiki once, then
 * of the built-in wiki over a crawled fixture, and of replay after a crawl recorded through
 * `wikitape record` (with siteinfo and the redirects; and without them). Bodies are compared as
 * text, debuginfo cut out, so that formatversion=1's order of page ids counts; and the headers
 * clients read. Each answer is equal, flagged (`X-Wikitape-Unknown`) or silently wrong; none may
 * be silently wrong.
 */
const run = promisify(execFile);

/** The text without the top-level `"debuginfo": …` (the rest byte for byte, key order kept). */
function withoutDebugInfo(text: string): string {
  const at = text.indexOf('"debuginfo":');
  if (at < 0) return text;
  let depth = 0;
  let inString = false;
  let end = at + '"debuginfo":'.length;
  for (; end < text.length; end++) {
    const c = text[end];
    if (inString) {
      if (c === '\\') end++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) break;
    }
  }
  const start = text[at - 1] === ',' ? at - 1 : at;
  return text.slice(0, start) + text.slice(end + 1);
}

interface Answer {
  text: string;
  headers: Record<string, string | null>;
  flag: string | null;
}

async function ask(base: string, q: string): Promise<Answer> {
  const res = await fetch(`${base}?${q}`);
  const text = withoutDebugInfo(await res.text());
  return { text, headers: Object.fromEntries(HEADERS.map((h) => [h, res.headers.get(h)])), flag: res.headers.get('x-wikitape-unknown') };
}

/** Asks wikitape every question and prints equal / flagged / silently wrong, each difference under it. */
async function judge(title: string, live: Map<string, Answer>, oursUrl: string): Promise<{ equal: number; flagged: number; silent: number }> {
  const counts = { equal: 0, flagged: 0, silent: 0 };
  for (const [q, a] of live) {
    const b = await ask(oursUrl, q);
    const diffs = HEADERS.filter((h) => a.headers[h] !== b.headers[h]).map((h) => `header ${h}: live ${a.headers[h]} / ours ${b.headers[h]}`);
    if (a.text !== b.text) {
      let i = 0;
      while (a.text[i] === b.text[i]) i++;
      diffs.unshift(`live: …${a.text.slice(Math.max(0, i - 60), i + 120)}\n  ours: …${b.text.slice(Math.max(0, i - 60), i + 120)}`);
    }
    if (diffs.length === 0) counts.equal++;
    else if (b.flag !== null) counts.flagged++;
    else counts.silent++;
    if (diffs.length > 0) console.log(`${b.flag === null ? 'SILENTLY WRONG' : `flagged ${b.flag}:`} ${decodeURIComponent(q)}\n  ${diffs.join('\n  ')}`);
  }
  console.log(`${title}: ${counts.equal} equal, ${counts.flagged} flagged, ${counts.silent} silently wrong (of ${live.size})`);
  return counts;
}

/** What a bot's crawl records: siteinfo (with the interwiki table and special page names), every page, the redirects and where they lead, every page's links. */
async function recordCrawl(liveUrl: string, full: boolean): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-pageset-'));
  const recorder = await startServer({ mode: 'record', upstream: liveUrl, cassettes: dir, cassette: 'crawl' });
  const q = (params: Record<string, string>) => crawl(recorder.url, { action: 'query', ...params });
  try {
    if (full) await q({ meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases|specialpagealiases|interwikimap' });
    const titles: string[] = [];
    const redirects: string[] = [];
    for (let ns = 0; ns <= 15; ns++) {
      for (const a of await q({ list: 'allpages', apnamespace: String(ns), aplimit: 'max' })) titles.push(...a['query']['allpages'].map((p: { title: string }) => p.title));
      if (!full) continue;
      for (const a of await q({ list: 'allpages', apnamespace: String(ns), aplimit: 'max', apfilterredir: 'redirects' })) redirects.push(...a['query']['allpages'].map((p: { title: string }) => p.title));
    }
    if (redirects.length > 0) await q({ titles: redirects.join('|'), redirects: '1' });
    for (const t of titles) await q({ prop: 'extlinks', titles: t, ellimit: 'max' });
    // One question in another spelling than the held-out ones ask it (the same cassette key).
    if (full) await q({ titles: 'zeta', redirects: '1', prop: 'extlinks', ellimit: 'max' });
  } finally {
    await recorder.close();
  }
  return dir;
}

describe.each(LIVE_VERSIONS)('the page set of MediaWiki %s', (version) => {
  let live: LiveWiki;
  const answers = new Map<string, Answer>();
  beforeAll(async () => {
    live = await liveWiki(version);
    for (const q of pagesetQuestions()) answers.set(q, await ask(live.apiUrl, q));
  }, 300_000);

  it('built in, over a crawled fixture: at least 97% equal, the rest flagged, none silently wrong', { timeout: 300_000 }, async () => {
    const fixture = join(await mkdtemp(join(tmpdir(), 'wikitape-pageset-fx-')), 'live.json');
    await run('node', ['scripts/crawl-fixture.mjs', live.apiUrl, fixture]);
    const ours = await startServer({ fixtures: [fixture], cassettes: NO_CASSETTES , onMiss: 'builtin' });
    try {
      const r = await judge(`MediaWiki ${version}, built-in page set vs live`, answers, ours.url);
      expect(r.silent).toBe(0);
      expect(r.equal / answers.size).toBeGreaterThanOrEqual(0.97);
    } finally {
      await ours.close();
    }
  });

  it('replayed after a crawl with siteinfo and the redirects: at least 97% equal, the rest flagged, none silently wrong', { timeout: 300_000 }, async () => {
    const replay = await startServer({ cassettes: await recordCrawl(live.apiUrl, true) , onMiss: 'builtin' });
    try {
      const r = await judge(`MediaWiki ${version}, replay of a crawl with siteinfo and redirects vs live`, answers, replay.url);
      expect(r.silent).toBe(0);
      expect(r.equal / answers.size).toBeGreaterThanOrEqual(0.97);
    } finally {
      await replay.close();
    }
  });

  it('replayed after a crawl of the pages alone: what it did not record is flagged, nothing silently wrong', { timeout: 300_000 }, async () => {
    const replay = await startServer({ cassettes: await recordCrawl(live.apiUrl, false) , onMiss: 'builtin' });
    try {
      const r = await judge(`MediaWiki ${version}, replay of a crawl of the pages alone vs live`, answers, replay.url);
      expect(r.silent).toBe(0);
      expect(r.flagged).toBeGreaterThan(0);
    } finally {
      await replay.close();
    }
  });
});
