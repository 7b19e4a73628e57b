import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';
import { compare, report } from '../support/differential.js';
import { QUESTIONS } from '../support/questions.js';
import { LANGUAGE_QUESTIONS } from '../support/language-questions.js';
import { NO_CASSETTES } from '../support/app.js';

/**
 * The built-in wiki against a real MediaWiki (1.39 and 1.43): the live wiki is crawled into a fixture, then
 * both answer the same questions; bodies must be byte-identical apart from debuginfo, and the
 * headers clients read must match.
 */
const run = promisify(execFile);

/** list=allpages filters on what only a fixture gives (page length, protections, language links: the crawl takes them from prop=info). */
const PAGE_INFO_QUESTIONS = [
  'action=query&format=json&list=allpages&apminsize=300&apmaxsize=600&formatversion=2',
  'action=query&format=json&list=allpages&apprtype=edit|move&apprlevel=sysop',
  'action=query&format=json&list=allpages&apprtype=edit&apprfiltercascade=noncascading&apprexpiry=indefinite',
  'action=query&format=json&list=allpages&apprexpiry=definite',
  'action=query&format=json&list=allpages&apfilterlanglinks=withoutlanglinks&aplimit=3',
  'action=query&format=json&list=allpages&apfilterlanglinks=withlanglinks',
];

describe.each(LIVE_VERSIONS)('the built-in wiki answers like MediaWiki %s', (version) => {
  let live: LiveWiki;
  let ours: RunningServer;
  beforeAll(async () => {
    live = await liveWiki(version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-diff-'));
    const fixture = join(dir, 'live.json');
    await run('node', ['scripts/crawl-fixture.mjs', live.apiUrl, fixture, join(live.dir, 'spam-blacklist.txt')]);
    // The built-in modules alone: no cassettes.
    ours = await startServer({ fixtures: [fixture], cassettes: NO_CASSETTES , onMiss: 'builtin' });
  });
  afterAll(async () => ours?.close());

  it(`gives the live wiki's answer to ${QUESTIONS.length + PAGE_INFO_QUESTIONS.length} questions`, async () => {
    const c = await compare(live.apiUrl, ours.url, [...QUESTIONS, ...PAGE_INFO_QUESTIONS]);
    report(`built-in vs live ${version}`, c);
    expect(c.differences).toEqual([]);
  });

  it(`gives the live wiki's answer in every error format and language: ${LANGUAGE_QUESTIONS.length} questions`, async () => {
    const c = await compare(live.apiUrl, ours.url, LANGUAGE_QUESTIONS);
    report(`built-in vs live ${version}, languages`, c);
    expect(c.differences).toEqual([]);
    // wikitape knows every text it printed: nothing flagged
    expect([...c.flags]).toEqual([]);
  });
});
