import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette, Interaction } from '../../src/cassette/format.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { canonicalParams } from '../../src/request/canonical.js';
import { parseUrlEncoded } from '../../src/request/params.js';

/**
 * Parameters wikitape prints itself that MediaWiki reads only in some requests: `_` beside a
 * `callback` (jQuery's cache buster), `wrappedhtml` in an HTML format, `crossorigin` from 1.44 on.
 * Elsewhere the wiki answers with "Unrecognized parameter: _." (checked on 1.39.17 and 1.43.9),
 * so a recording without it is not that answer. The bodies are what MediaWiki 1.43.9 answered.
 */
const AT = '2026-11-27T09:40:00Z';
const HEADERS = { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' };
const INFO = { pageid: 2, ns: 0, title: 'Москва', contentmodel: 'wikitext', pagelanguage: 'ru', pagelanguagehtmlcode: 'ru', pagelanguagedir: 'ltr', touched: '2026-11-27T08:00:00Z', lastrevid: 30, length: 167 };
const Q = 'action=query&prop=info&titles=Москва';
function recorded(query: string, body: Interaction['body']): Interaction {
  const canonical = canonicalParams(parseUrlEncoded(query), KEY_RULES);
  return { key: new URLSearchParams(canonical).toString().replace(/\+/g, '%20'), request: Object.fromEntries(canonical), status: 200, headers: HEADERS, body, recordedAt: AT };
}
const unrecognized = (name: string) => ({ warnings: { main: { warnings: `Unrecognized parameter: ${name}.` } }, batchcomplete: true, query: { pages: [INFO] } });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-unread-'));
  const cassette: Cassette = {
    meta: { format: 1, upstream: 'http://127.0.0.1:8089/wiki/api.php', recordedAt: AT, profile: { version: '1.43.9', language: 'ru', scriptPath: '/wiki', server: 'http://127.0.0.1:8089', debugInfo: false } },
    interactions: [recorded(Q, { batchcomplete: true, query: { pages: [INFO] } })],
    entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
  };
  await writeFile(join(dir, 'recorded.json'), JSON.stringify(cassette, null, 2));
  const withWarnings: Cassette = { ...cassette, interactions: [recorded(`${Q}&_=1700000000000`, unrecognized('_')), recorded(`${Q}&format=json&wrappedhtml=1`, unrecognized('wrappedhtml'))] };
  await writeFile(join(dir, 'warned.json'), JSON.stringify(withWarnings, null, 2));
});

async function ask(query: string, cassette = 'recorded'): Promise<{ source: string; body: Record<string, any> | string }> {
  const res = await request(createApp({ cassettes: dir })).get(`/${cassette}/wiki/api.php?${query}`);
  let body: Record<string, any> | string = res.text;
  try {
    body = JSON.parse(res.text) as Record<string, any>;
  } catch {
    // JSONP: compared as text
  }
  return { source: String(res.headers['x-wikitape-source']), body };
}

describe('rendering parameters MediaWiki does not read in the request', () => {
  it('a cache buster without a callback is not answered by the recording without it: the wiki warns about it', async () => {
    const a = await ask(`${Q}&format=json&formatversion=2&_=1764236400000`);
    expect(a.source).toBe('miss');
    expect((a.body as Record<string, any>)['error']['code']).toBe('wikitape-miss');
  });

  it('a cache buster beside a callback is read by the printer: the recording answers', async () => {
    const a = await ask(`${Q}&format=json&formatversion=2&callback=cb&_=1764236400000`);
    expect(a.source).toBe('cassette');
    expect(a.body).toBe(`/**/cb(${JSON.stringify({ batchcomplete: true, query: { pages: [INFO] } })})`);
  });

  it('a recording of a cache buster without a callback answers it whatever its value, with the warning', async () => {
    const a = await ask(`${Q}&format=json&formatversion=2&_=1764236499999`, 'warned');
    expect(a.source).toBe('cassette');
    expect(a.body).toEqual(unrecognized('_'));
  });

  it('wrappedhtml outside an HTML format is not answered by the recording without it', async () => {
    expect((await ask(`${Q}&format=json&formatversion=2&wrappedhtml=1`)).source).toBe('miss');
    expect((await ask(`${Q}&format=json&formatversion=2&wrappedhtml=1`, 'warned')).body).toEqual(unrecognized('wrappedhtml'));
    expect((await ask(`${Q}&format=jsonfm&formatversion=2&wrappedhtml=1`)).source).toBe('cassette');
  });

  it('crossorigin, which 1.39 and 1.43 do not know, is not answered by the recording without it', async () => {
    expect((await ask(`${Q}&format=json&formatversion=2&crossorigin=1`)).source).toBe('miss');
  });
});
