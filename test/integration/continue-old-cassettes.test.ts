import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { pruneCassettes, readUsage } from '../../src/cassette/commands.js';
import { convertCassette } from '../../src/cassette/convert.js';
import type { Cassette, Interaction } from '../../src/cassette/format.js';
import { databasesUnavailable } from '../../src/cassette/sqlite-driver.js';
import { refiledContinue, warnsUnrecognizedContinue } from '../../src/cassette/stale-continue.js';
import { KEY_RULES, LIST_ENTITIES, MODULES } from '../../src/modules/index.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { parseUrlEncoded } from '../../src/request/params.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * Cassettes recorded before an empty `continue=` was part of a non-query question's key: the
 * recording of `action=spamblacklist&…&continue=` (whose answer warns "Unrecognized parameter:
 * continue.", 1.39.17 and 1.43.9) was filed under the key without it, so the question without
 * `continue` got the stray warning from replay, unflagged. Such a recording is held under the key
 * it answers, in a JSON cassette (scanned, or read whole) and in a database cassette.
 */
const AT = '2026-11-20T10:00:00Z';
const HEADERS = { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' };
const Q = 'action=spamblacklist&url=https%3A%2F%2Fok.test%2F';
const key = (q: string) => canonicalKey(parseUrlEncoded(q), KEY_RULES);

/** The recording of `Q&continue=` as the recorder filed it then: under Q's key, its request without `continue`. */
function oldStyle(body: Interaction['body'] = { warnings: { main: { warnings: 'Unrecognized parameter: continue.' } }, spamblacklist: { result: 'ok' } }): Interaction {
  const params = parseUrlEncoded(Q);
  return { key: key(Q), request: Object.fromEntries(params), status: 200, headers: HEADERS, body, recordedAt: AT };
}

function cassette(interactions: Interaction[]): Cassette {
  return {
    meta: { format: 1, upstream: 'http://127.0.0.1:8089/wiki/api.php', recordedAt: AT, profile: { version: '1.43.9', language: 'en', scriptPath: '/wiki', server: 'http://127.0.0.1:8089', debugInfo: false } },
    interactions,
    entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
  };
}

async function folder(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `wikitape-old-continue-${name}-`));
  await writeFile(join(dir, 'spam.json'), text);
  return dir;
}

async function ask(dir: string, query: string) {
  const res = await request(createApp({ cassettes: dir })).get(`/wiki/api.php?${query}&format=json&formatversion=2`);
  return { source: String(res.headers['x-wikitape-source']), body: JSON.parse(res.text) as Record<string, any> };
}

/** Replay of `dir`: the question with `continue=` gets the recording, the one without is no longer answered with its warning. */
async function expectRefiled(dir: string): Promise<void> {
  const withIt = await ask(dir, `${Q}&continue=`);
  expect(withIt.source).toBe('cassette');
  expect(withIt.body).toEqual({ warnings: { main: { warnings: 'Unrecognized parameter: continue.' } }, spamblacklist: { result: 'ok' } });
  const without = await ask(dir, Q);
  expect(without.source).toBe('miss');
  expect(without.body['error']).toMatchObject({ code: 'wikitape-miss', nearmisses: [{ differences: ['+ continue='] }] });
}

describe('a cassette whose recording of a non-query question with continue= is filed without it', () => {
  it('JSON, in wikitape\'s layout (scanned): held under the key with continue=', async () => {
    await expectRefiled(await folder('scanned', `${JSON.stringify(cassette([oldStyle()]), null, 2)}\n`));
  });

  it('JSON in another layout (read whole): the same', async () => {
    await expectRefiled(await folder('whole', JSON.stringify(cassette([oldStyle()]))));
  });

  it.skipIf(databasesUnavailable() !== null)('a database cassette: the same', async () => {
    const json = await folder('json', `${JSON.stringify(cassette([oldStyle()]), null, 2)}\n`);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-old-continue-db-'));
    await convertCassette(join(json, 'spam.json'), join(dir, 'spam.sqlite'), LIST_ENTITIES);
    await expectRefiled(dir);
  });

  it('a recording filed right beside it is left alone, and one without the warning stays where it is', async () => {
    const right = { ...oldStyle({ spamblacklist: { result: 'ok' } }) };
    const other = { ...oldStyle(), key: key('action=spamblacklist&url=https%3A%2F%2Fother.test%2F'), request: { action: 'spamblacklist', url: 'https://other.test/' } };
    const dir = await folder('mixed', `${JSON.stringify(cassette([right, other]), null, 2)}\n`);
    const without = await ask(dir, Q);
    expect(without.source).toBe('cassette');
    expect(without.body['warnings']).toBeUndefined();
    expect((await ask(dir, 'action=spamblacklist&url=https%3A%2F%2Fother.test%2F&continue=')).source).toBe('cassette');
  });
});

describe('cassettes prune after a run that used such a recording', () => {
  it('keeps it: the run noted the key replay holds it under (JSON and database cassettes)', async () => {
    const dir = await folder('prune', `${JSON.stringify(cassette([oldStyle()]), null, 2)}\n`);
    const usageFile = join(await mkdtemp(join(tmpdir(), 'wikitape-old-continue-usage-')), 'usage.json');
    const wiki = await startServer({ cassettes: dir, trackUsage: usageFile });
    expect((await fetch(`${wiki.url}?${Q}&continue=&format=json`)).headers.get('x-wikitape-source')).toBe('cassette');
    await wiki.close();
    const usage = await readUsage(usageFile);
    expect([...usage]).toEqual([key(`${Q}&continue=`)]);
    expect(await pruneCassettes(dir, usage, MODULES.query.list, true)).toEqual([{ name: 'spam', removed: 0, kept: 1, removedKeys: [] }]);
    if (databasesUnavailable() !== null) return;
    const db = await mkdtemp(join(tmpdir(), 'wikitape-old-continue-prune-db-'));
    await convertCassette(join(dir, 'spam.json'), join(db, 'spam.sqlite'), LIST_ENTITIES);
    expect(await pruneCassettes(db, usage, MODULES.query.list, true)).toEqual([{ name: 'spam', removed: 0, kept: 1, removedKeys: [] }]);
  });
});

describe('record --mode new in front of such a cassette', () => {
  let upstream: RunningServer;
  beforeAll(async () => {
    upstream = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: NO_CASSETTES });
  });
  afterAll(async () => upstream?.close());

  it('asks the wiki the question without continue instead of answering it with the recording\'s warning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-old-continue-record-'));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'spam.json'), `${JSON.stringify(cassette([oldStyle()]), null, 2)}\n`);
    const recorder = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'spam' });
    try {
      const res = await fetch(`${recorder.url}?${Q}&format=json&formatversion=2`);
      expect(res.headers.get('x-wikitape-source')).not.toBe('cassette');
      expect(((await res.json()) as Record<string, unknown>)['warnings']).toBeUndefined();
    } finally {
      await recorder.close();
    }
  });
});

describe('what tells such a recording (cassette/stale-continue.ts)', () => {
  it.each([
    ['bc, English', { warnings: { main: { warnings: 'Unrecognized parameter: continue.' } } }, true],
    ['bc, another warning first', { warnings: { main: { warnings: 'Parameter <var>x</var> uses unsupported PHP array syntax.\nUnrecognized parameters: foo, continue.' } } }, true],
    ['bc, Russian', { warnings: { main: { warnings: 'Нераспознанный параметр: continue.' } } }, true],
    ['plaintext', { warnings: [{ code: 'unrecognizedparams', text: 'Unrecognized parameter: continue.', module: 'main' }] }, true],
    ['html', { warnings: [{ code: 'unrecognizedparams', html: 'x', text: 'Unrecognized parameters: <kbd>foo</kbd>, <kbd>continue</kbd>.', module: 'main' }] }, true],
    ['raw, a list', { warnings: [{ code: 'unrecognizedparams', key: 'apierror-unrecognizedparams', params: [{ list: ['continue'], type: 'comma' }, 1], module: 'main' }] }, true],
    ['raw, 1.39\'s keyed list', { warnings: [{ code: 'unrecognizedparams', key: 'apierror-unrecognizedparams', params: [{ list: { '3': 'continue' }, type: 'comma' }, 1], module: 'main' }] }, true],
    ['another parameter', { warnings: { main: { warnings: 'Unrecognized parameter: continuez.' } } }, false],
    ['another module\'s warning', { warnings: { parse: { warnings: 'continue' } } }, false],
    ['another code', { warnings: [{ code: 'badutf8', text: 'continue', module: 'main' }] }, false],
    ['none', {}, false],
  ])('%s', (_what, body, warns) => {
    expect(warnsUnrecognizedContinue(body as Interaction['body'])).toBe(warns);
  });

  it('the key it is refiled under is the canonical key of its question with continue=, a user\'s key too', () => {
    for (const q of [Q, 'action=parse&prop=&summary=x&title=A', 'action=help', '_=1&action=paraminfo&modules=main']) {
      const i = { ...oldStyle(), key: key(q), request: Object.fromEntries(parseUrlEncoded(q)) };
      expect(refiledContinue(i)?.key).toBe(key(`${q}&continue=`));
      expect(refiledContinue({ ...i, key: `${key(q)} @Bot%40x`, user: 'Bot@x' })?.key).toBe(`${key(`${q}&continue=`)} @Bot%40x`);
    }
    const query = 'action=query&list=logevents';
    expect(refiledContinue({ ...oldStyle(), key: key(query), request: Object.fromEntries(parseUrlEncoded(query)) })).toBeNull();
  });
});
