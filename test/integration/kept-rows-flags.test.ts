import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette } from '../../src/cassette/format.js';

/**
 * A list's rows are built once and kept (docs/decisions/0021-rows-printed-once.md). What building
 * a row flagged (a parsed comment linking a page whose existence no recording shows:
 * `pages.existence`) is flagged each time the row is shown: the same question asked again was
 * answered from the kept row as `synthesized`, unflagged, with the link red as a guess.
 */
const AT = '2026-11-20T10:00:00Z';
const EVENT = { logid: 7, ns: 0, title: 'Alpha', pageid: 0, logpage: 0, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp: '2026-11-01T10:00:00Z', comment: 'see [[Nowhere known]]', tags: [] };
const QUESTION = '/wiki/api.php?action=query&format=json&formatversion=2&list=logevents&leprop=ids|parsedcomment&lelimit=1';

let dir = '';
let fixture = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-kept-rows-'));
  // A recording of something else: replay then knows only what recordings show of pages (no walk of a namespace).
  const c: Cassette = {
    meta: { format: 1, upstream: 'http://127.0.0.1:8089/wiki/api.php', recordedAt: AT, profile: { version: '1.43.9', language: 'en', scriptPath: '/wiki', server: 'http://127.0.0.1:8089', debugInfo: false } },
    interactions: [{ key: 'action=spamblacklist&url=https%3A%2F%2Fok.test%2F', request: { action: 'spamblacklist', url: 'https://ok.test/' }, status: 200, headers: {}, body: { spamblacklist: { result: 'ok' } }, recordedAt: AT }],
    entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
  };
  await writeFile(join(dir, 'other.json'), `${JSON.stringify(c, null, 2)}\n`);
  fixture = join(await mkdtemp(join(tmpdir(), 'wikitape-kept-rows-fixture-')), 'wiki.json');
  await writeFile(fixture, JSON.stringify({ logevents: [EVENT] }));
});

describe('a kept row whose build flagged what it needed', () => {
  it('--on-miss builtin: every answer of the same question is flagged, not the first alone', async () => {
    const app = createApp({ cassettes: dir, fixtures: [fixture], onMiss: 'builtin', clock: '2026-12-01T00:00:00Z' });
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get(QUESTION);
      expect({ source: res.headers['x-wikitape-source'], unknown: res.headers['x-wikitape-unknown'] }).toEqual({ source: 'builtin', unknown: 'pages.existence' });
      expect(res.text).toContain('Nowhere known');
    }
  });

  it('--on-miss error (the default): every answer is the miss', async () => {
    const app = createApp({ cassettes: dir, fixtures: [fixture], clock: '2026-12-01T00:00:00Z' });
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get(QUESTION);
      expect({ source: res.headers['x-wikitape-source'], unknown: res.headers['x-wikitape-unknown'] }).toEqual({ source: 'miss', unknown: 'pages.existence' });
    }
  });
});
