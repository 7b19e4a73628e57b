import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot } from '../../src/record/snapshot.js';
import { startServer } from '../../src/server.js';
import { normalize } from '../support/differential.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

describe.each(LIVE_VERSIONS)('wikitape snapshot of MediaWiki %s', (version) => {
  it('records a complete cassette that replay synthesizes from, and resumes without asking again', async () => {
    const live = await liveWiki(version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-snapshot-'));
    const first = await snapshot({ upstream: live.apiUrl, cassettes: dir });
    expect(first.reused).toBe(0);
    expect(first.entries).toBeGreaterThan(100);
    // every link's el_id learned from continuation tokens
    expect(first.unknownLinkIds).toBe(0);
    const again = await snapshot({ upstream: live.apiUrl, cassettes: dir });
    expect(again.reused).toBe(again.requests);

    const replay = await startServer({ cassettes: dir, onMiss: 'error' });
    for (const q of [
      'action=query&list=logevents&lelimit=3&ledir=newer&format=json',
      'action=query&list=blocks&bklimit=2&bkprop=id|user|range&format=json&formatversion=2',
      'action=query&list=protectedtitles&ptlevel=sysop&format=json',
      // continuation points nobody recorded: they name el_ids, which the snapshot learned
      'action=query&prop=extlinks&titles=Список ссылок|Beta|Alpha&ellimit=3&format=json&formatversion=2',
      'action=query&prop=extlinks&titles=Список ссылок&ellimit=4&elprotocol=https&format=json',
    ]) {
      const ours = await fetch(`${replay.url}?${q}`);
      expect(ours.headers.get('x-wikitape-source')).toBe('synthesized');
      expect(normalize(await ours.text())).toBe(normalize(await (await fetch(`${live.apiUrl}?${q}`)).text()));
    }
    // The snapshot asked where each redirect leads: `Zeta` (moved to `Зета`) is followed exactly.
    const q = 'action=query&prop=extlinks&titles=Zeta|Alpha&redirects=1&format=json';
    const ours = await fetch(`${replay.url}?${q}`);
    expect(ours.headers.get('x-wikitape-unknown')).toBeNull();
    expect(normalize(await ours.text())).toBe(normalize(await (await fetch(`${live.apiUrl}?${q}`)).text()));
    await replay.close();
  }, 300_000);
});
