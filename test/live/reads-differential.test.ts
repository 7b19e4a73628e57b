import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { crawl } from '../support/crawl.js';
import { answerDifferences } from '../support/differential.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';
import { RECORDED, readQuestions, type ReadQuestion } from '../support/read-questions.js';

/**
 * Read questions as bots ask them (test/support/read-questions.ts), against both live wikis: a
 * bot's walk is recorded through `wikitape record`, then each question is asked of the live wiki
 * and of replay of that walk (misses refused, the default). Each answer is equal (status, the
 * headers clients read and the body, debuginfo, curtimestamp and the HTML page's per-request values
 * aside), flagged (a `wikitape-miss`, or `X-Wikitape-Unknown`) or silently wrong; none may be
 * silently wrong. The counts are printed per area.
 */
interface Asked {
  status: number;
  text: string;
  headers: Headers;
  flagged: boolean;
}

async function ask(base: string, question: ReadQuestion): Promise<Asked> {
  const r = typeof question === 'string'
    ? await fetch(`${base}?${question}`)
    : await fetch(`${base}?${question.query}`, { method: 'POST', body: question.form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const flagged = r.headers.get('x-wikitape-source') === 'miss' || r.headers.get('x-wikitape-unknown') !== null;
  return { status: r.status, text: await r.text(), headers: r.headers, flagged };
}

async function recordWalk(apiUrl: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-reads-'));
  const recorder = await startServer({ mode: 'record', upstream: apiUrl, cassettes: dir, cassette: 'walk' });
  try {
    for (const p of RECORDED) await crawl(recorder.url, { action: 'query', ...p });
  } finally {
    await recorder.close();
  }
  return dir;
}

describe.each(LIVE_VERSIONS)('read questions against MediaWiki %s', (version) => {
  it('replayed after a recorded walk: each answer equal or flagged, none silently wrong', { timeout: 600_000 }, async () => {
    const live = await liveWiki(version);
    const replay = await startServer({ cassettes: await recordWalk(live.apiUrl) });
    const silent: string[] = [];
    try {
      for (const [area, questions] of Object.entries(readQuestions())) {
        const counts = { equal: 0, flagged: 0, silent: 0 };
        for (const question of questions) {
          const [a, b] = await Promise.all([ask(live.apiUrl, question), ask(replay.url, question)]);
          const differs = answerDifferences(a, b);
          if (a.status !== b.status) differs.unshift(`status: live ${a.status} / ours ${b.status}`);
          if (differs.length === 0) counts.equal++;
          else if (b.flagged) counts.flagged++;
          else {
            counts.silent++;
            silent.push(`${JSON.stringify(question)}\n  ${differs.join('\n  ')}`);
          }
        }
        console.log(`MediaWiki ${version}, ${area}: ${counts.equal} equal, ${counts.flagged} flagged, ${counts.silent} silently wrong (of ${questions.length})`);
      }
    } finally {
      await replay.close();
    }
    if (silent.length > 0) console.log(`silently wrong:\n${silent.join('\n')}`);
    expect(silent).toEqual([]);
  });
});
