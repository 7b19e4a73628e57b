import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { crawl } from '../support/crawl.js';
import { silentlyWrongByArea } from '../support/differential.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';
import { RECORDED, readQuestions } from '../support/read-questions.js';

/**
 * Read questions as bots ask them (test/support/read-questions.ts), against both live wikis: a
 * bot's walk is recorded through `wikitape record`, then each question is asked of the live wiki
 * and of replay of that walk (misses refused, the default). Each answer is equal (status, the
 * headers clients read and the body, debuginfo, curtimestamp and the HTML page's per-request values
 * aside), flagged (a `wikitape-miss`, or `X-Wikitape-Unknown`) or silently wrong; none may be
 * silently wrong. The counts are printed per area.
 */
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
    try {
      expect(await silentlyWrongByArea(`MediaWiki ${version}`, live.apiUrl, replay.url, readQuestions())).toEqual([]);
    } finally {
      await replay.close();
    }
  });
});
