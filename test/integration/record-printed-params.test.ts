import { createServer, type Server } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { standInParams } from '../support/stand-in-params.js';

/**
 * What record mode stores of a question asked with parameters wikitape prints itself (the key
 * leaves them out): the answer the other spellings of that question get, so not what the wiki
 * wrote for them. The stand-in answers as MediaWiki 1.39 and 1.43 do (checked on both): it echoes
 * `requestid`, writes `curtimestamp`, `uselang`/`errorlang` (`responselanginfo`), sets
 * Cache-Control from `maxage`, and warns about `_` without a `callback` and `wrappedhtml` outside
 * an HTML format.
 */
const PAGE = { pageid: 8, ns: 0, title: 'Alpha', contentmodel: 'wikitext', pagelanguage: 'ru', pagelanguagehtmlcode: 'ru', pagelanguagedir: 'ltr', touched: '2026-11-27T08:00:00Z', lastrevid: 12, length: 167 };
const SITEINFO = { batchcomplete: true, query: { general: { generator: 'MediaWiki 1.43.9', sitename: 'T', lang: 'ru' } } };

function answer(q: URLSearchParams): { body: Record<string, unknown>; cacheControl: string } {
  if (q.get('meta') === 'siteinfo') return { body: SITEINFO, cacheControl: 'private, must-revalidate, max-age=0' };
  const html = (q.get('format') ?? 'jsonfm').endsWith('fm');
  const unread = [...q.keys()].filter((k) => (k === '_' && !q.has('callback')) || (k === 'wrappedhtml' && !html));
  const body: Record<string, unknown> = {};
  if (unread.length > 0) body['warnings'] = { main: { warnings: `Unrecognized parameter${unread.length > 1 ? 's' : ''}: ${unread.join(', ')}.` } };
  body['batchcomplete'] = true;
  if (q.has('requestid')) body['requestid'] = q.get('requestid');
  if (q.has('curtimestamp')) body['curtimestamp'] = '2026-11-27T09:00:00Z';
  if (q.has('responselanginfo')) Object.assign(body, { uselang: 'ru', errorlang: 'ru' });
  body['query'] = { pages: [PAGE] };
  const maxage = Number(q.get('maxage') ?? 0);
  return { body, cacheControl: maxage > 0 ? `s-maxage=${maxage}, max-age=${maxage}, public` : 'private, must-revalidate, max-age=0' };
}

let upstream: Server;
let url: string;
beforeAll(async () => {
  upstream = createServer(async (req, res) => {
    const q = await standInParams(req);
    const a = answer(q);
    const json = JSON.stringify(a.body);
    const callback = q.get('callback');
    const jsonp = callback !== null && q.get('format') === 'json';
    res.writeHead(200, { 'content-type': jsonp ? 'text/javascript; charset=utf-8' : 'application/json; charset=utf-8', 'cache-control': a.cacheControl, vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' }).end(jsonp ? `/**/${callback}(${json})` : json);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/w/api.php`;
});
afterAll(() => void upstream?.close());

const Q = 'action=query&prop=info&titles=Alpha';

/** Records `asked` through a fresh recorder, then asks replay the plain question and `then`. */
async function recordThenAsk(asked: string, then: string): Promise<{ plain: { body: unknown; cacheControl: string | null; source: string | null }; then: unknown }> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-printed-params-'));
  const recorder = await startServer({ mode: 'record', upstream: url, cassettes: dir, cassette: 'c' });
  try {
    await (await fetch(`${recorder.url}?${asked}`)).text();
  } finally {
    await recorder.close();
  }
  const replay = await startServer({ cassettes: dir });
  try {
    const p = await fetch(`${replay.url}?${Q}&format=json&formatversion=2`);
    const plain = { body: await p.json(), cacheControl: p.headers.get('cache-control'), source: p.headers.get('x-wikitape-source') };
    return { plain, then: await (await fetch(`${replay.url}?${then}`)).json() };
  } finally {
    await replay.close();
  }
}

describe('record mode stores the answer to the question without the parameters replay prints', () => {
  it('a formatversion=2 JSON client sending requestid, curtimestamp, responselanginfo and maxage: the plain question gets none of them', async () => {
    const r = await recordThenAsk(`${Q}&format=json&formatversion=2&requestid=abc&curtimestamp=1&responselanginfo=1&maxage=60&smaxage=60`, `${Q}&format=json&formatversion=2&requestid=other`);
    expect(r.plain.source).toBe('cassette');
    expect(r.plain.body).toEqual({ batchcomplete: true, query: { pages: [PAGE] } });
    expect(r.plain.cacheControl).toBe('private, must-revalidate, max-age=0');
    expect(r.then).toEqual({ batchcomplete: true, requestid: 'other', query: { pages: [PAGE] } });
  });

  it('an HTML page asked with a callback and a cache buster, wrapped for ApiSandbox: the plain question gets no warning', async () => {
    const r = await recordThenAsk(`${Q}&format=jsonfm&formatversion=2&callback=cb&_=1764236400000&wrappedhtml=1`, `${Q}&format=json&formatversion=2&_=1764236499999`);
    expect(r.plain.body).toEqual({ batchcomplete: true, query: { pages: [PAGE] } });
    // without a callback the cache buster is another question, which nobody recorded
    expect(r.then).toMatchObject({ error: { code: 'wikitape-miss' } });
  });
});
