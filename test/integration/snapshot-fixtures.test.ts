import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshot } from '../../src/record/snapshot.js';
import { startServer } from '../../src/server.js';
import { normalize } from '../support/differential.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * `wikitape snapshot` of a wikitape server that serves only fixtures: every list's module says
 * what to walk (ListModule.snapshot), so the crawl records a complete cassette, and replay of it
 * computes the fixture server's answers to questions nobody recorded.
 */
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

const QUESTIONS = [
  'list=logevents&lelimit=3',
  'list=logevents&lelimit=4&ledir=newer&lecontinue=20240301110000|3',
  'list=logevents&leprop=ids|user|userid|tags&letype=block',
  'list=blocks&bklimit=2&bkdir=newer',
  'list=blocks&bkprop=id|user|userid|byid|range|restrictions&bkshow=!account',
  'list=protectedtitles&ptlimit=2&ptprop=user|comment|expiry|level',
  'list=allpages&aplimit=2',
  'list=allpages&aplimit=1&apcontinue=Beta&apdir=descending',
  'list=allpages&apnamespace=6&apfilterredir=nonredirects',
  'prop=extlinks&titles=Список ссылок|Москва&ellimit=4',
  'prop=extlinks&titles=Несуществующая',
];

describe.each(['1.39.17', '1.43.9'])('wikitape snapshot of a fixture server (MediaWiki %s)', (version) => {
  it('records a complete cassette, from which replay answers what the fixture server answers', { timeout: 120_000 }, async () => {
    // The fixture server answers what its fixtures leave open (a user's rate limits), flagged, as a
    // live wiki would answer it: the snapshot records every answer it gives.
    const fixtures = await startServer({ fixtures: [MINI_WIKI], cassettes: NO_CASSETTES, clock: TEST_CLOCK, profile: { version }, onMiss: 'builtin' });
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-snapshot-fixtures-'));
    made.push(dir);
    try {
      const done = await snapshot({ upstream: fixtures.url, cassettes: dir });
      expect(done.unknownLinkIds).toBe(0);
      const cassette = JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8')) as { entities: Record<string, unknown[]> };
      expect(Object.keys(cassette.entities)).toEqual(['logevents', 'blocks', 'protectedtitles', 'pages', 'missing', 'redirects']);
      expect(cassette.entities['pages']!.length).toBe(7);
      const replay = await startServer({ cassettes: dir, clock: TEST_CLOCK, onMiss: 'error' });
      try {
        for (const q of QUESTIONS) {
          const url = `?action=query&format=json&${q}`;
          const [ours, theirs] = await Promise.all([fetch(replay.url + url), fetch(fixtures.url + url)]);
          expect(ours.headers.get('x-wikitape-source'), q).toBe('synthesized');
          expect(normalize(await ours.text()), q).toBe(normalize(await theirs.text()));
        }
      } finally {
        await replay.close();
      }
    } finally {
      await fixtures.close();
    }
  });
});
