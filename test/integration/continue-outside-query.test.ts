import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette, Interaction } from '../../src/cassette/format.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { parseUrlEncoded } from '../../src/request/params.js';

/**
 * `continue=` is ApiQuery's parameter: in a query an empty one is the same question as none, but
 * any other module leaves it unread and MediaWiki warns "Unrecognized parameter: continue."
 * (1.39.17 and 1.43.9, action=spamblacklist). A recording asked without it does not answer a
 * question with it.
 */
const AT = '2026-11-27T10:00:00Z';
const HEADERS = { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' };
const Q = 'action=spamblacklist&url=https%3A%2F%2Fok.test%2F';

const dir = await mkdtemp(join(tmpdir(), 'wikitape-continue-outside-query-'));
beforeAll(async () => {
  const params = parseUrlEncoded(Q);
  const recorded: Interaction = { key: canonicalKey(params, KEY_RULES), request: Object.fromEntries(params), status: 200, headers: HEADERS, body: { spamblacklist: { result: 'ok' } }, recordedAt: AT };
  const c: Cassette = {
    meta: { format: 1, upstream: 'http://127.0.0.1:8089/wiki/api.php', recordedAt: AT, profile: { version: '1.43.9', language: 'ru', scriptPath: '/wiki', server: 'http://127.0.0.1:8089', debugInfo: false } },
    interactions: [recorded],
    entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
  };
  await writeFile(join(dir, 'spam.json'), JSON.stringify(c, null, 2));
});

async function ask(query: string) {
  const res = await request(createApp({ cassettes: dir })).get(`/wiki/api.php?${query}`);
  return { source: String(res.headers['x-wikitape-source']), body: JSON.parse(res.text) as Record<string, any> };
}

describe('an empty continue outside a query', () => {
  it('without it: the recorded answer', async () => {
    const a = await ask(`${Q}&format=json&formatversion=2`);
    expect(a.source).toBe('cassette');
    expect(a.body).toMatchObject({ spamblacklist: { result: 'ok' } });
    expect(a.body['warnings']).toBeUndefined();
  });

  it('with it: a miss naming the difference, never the recorded answer without the warning the wiki gives', async () => {
    const a = await ask(`${Q}&format=json&formatversion=2&continue=`);
    expect(a.source).toBe('miss');
    expect(a.body['error']).toMatchObject({ code: 'wikitape-miss', nearmisses: [{ differences: ['- continue='] }] });
  });

  it('in a query: the same question as none', () => {
    const key = (q: string) => canonicalKey(parseUrlEncoded(q), KEY_RULES);
    expect(key('action=query&list=logevents&continue=')).toBe(key('action=query&list=logevents'));
    expect(key(`${Q}&continue=`)).not.toBe(key(Q));
  });
});
