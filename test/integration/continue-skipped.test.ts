import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';

/**
 * A module `continue` names as finished (`-||blocks`), or a prop module once the page set is done
 * (`-||`), is not run, but ApiContinuationManager reads its parameters first: a bad value fails the
 * request, and a limit of `max` is printed under `limits` (before the limits of the modules that
 * run). The cassette holds MediaWiki 1.43's recorded walks of list=blocks and
 * list=protectedtitles and of Alpha's links; the expected bodies are the live wiki's answers.
 */
const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'continue-skipped-1.43.json');
const CLOCK = '2026-11-27T08:00:00Z';
let cassettes: string;
beforeAll(async () => {
  cassettes = await mkdtemp(join(tmpdir(), 'wikitape-continue-skipped-'));
  await copyFile(FIXTURE, join(cassettes, 'recorded.json'));
});

async function ask(params: Record<string, string>) {
  const res = await request(createApp({ cassettes, clock: CLOCK })).get('/wiki/api.php').query({ action: 'query', format: 'json', formatversion: '2', ...params });
  const body = JSON.parse(res.text) as Record<string, unknown>;
  delete body['debuginfo'];
  return { body, source: res.headers['x-wikitape-source'] as string, unknown: res.headers['x-wikitape-unknown'] as string | undefined };
}

const pt = (ns: number, title: string, timestamp: string, level: string) => ({ ns, title, timestamp: `2026-11-27T03:09:${timestamp}Z`, level });
const DOCREF =
  'See http://127.0.0.1:8089/wiki/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.';

describe('modules continue skips still read their parameters (MediaWiki 1.43)', () => {
  it('a finished list with a limit of max is in limits, the next page of the other list computed', async () => {
    const { body, source, unknown } = await ask({ list: 'blocks|protectedtitles', bklimit: 'max', ptlimit: '2', continue: '-||blocks', ptcontinue: '20261127030929|0|Ёлка' });
    expect(unknown).toBeUndefined();
    expect(source).toBe('synthesized');
    expect(body).toEqual({
      batchcomplete: true,
      continue: { ptcontinue: '20261127030928|0|Omega', continue: '-||blocks' },
      limits: { blocks: 500 },
      query: { protectedtitles: [pt(0, 'Ёлка', '29', 'autoconfirmed'), pt(12, 'Справка:Закрыто', '28', 'autoconfirmed')] },
    });
  });

  it('the skipped module\'s limit comes first, whatever the order asked', async () => {
    const { body } = await ask({ list: 'protectedtitles|blocks', bklimit: 'max', ptlimit: 'max', continue: '-||blocks', bkprop: 'id' });
    expect(Object.keys(body)).toEqual(['batchcomplete', 'limits', 'query']);
    expect(body['limits']).toEqual({ blocks: 500, protectedtitles: 500 });
    expect((body['query'] as { protectedtitles: unknown[] }).protectedtitles).toHaveLength(14);
  });

  it('a bad value of a skipped module fails the request', async () => {
    const { body } = await ask({ list: 'blocks', bklimit: 'abc', continue: '-||blocks' });
    expect(body).toEqual({ error: { code: 'badinteger', info: 'Invalid value "abc" for integer parameter "bklimit".', docref: DOCREF } });
  });

  it.each(['-||extlinks', '-||'])('prop=extlinks with ellimit=max and continue=%s prints its limit and no pages', async (cont) => {
    const { body } = await ask({ prop: 'extlinks', titles: 'Alpha', ellimit: 'max', continue: cont });
    expect(body).toEqual({ batchcomplete: true, limits: { extlinks: 500 } });
  });
});
