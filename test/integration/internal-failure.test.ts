import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, loadEngine } from '../../src/app.js';
import { ReplayEngine } from '../../src/engine.js';
import { paraminfo } from '../../src/modules/paraminfo.js';
import { Recorder } from '../../src/record/recorder.js';
import { startServer } from '../../src/server.js';
import type { ApiContext } from '../../src/api/context.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * An answer whose computation throws (a bug of wikitape's own) is no answer the wiki gives: it
 * says it is wikitape's, `X-Wikitape-Unknown: wikitape.internal`, even when nothing else was
 * unknown (it was served unflagged: `internal_api_error_TypeError`, or `wikitape-setup` for a
 * failure outside the API). The bug is injected as a module or the engine that throws.
 */
const QUESTION = '/wiki/api.php?action=paraminfo&modules=main&format=json';

function app(onMiss?: 'builtin' | 'error') {
  return request(createApp({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: NO_CASSETTES, ...(onMiss ? { onMiss } : {}) }));
}

/** paraminfo throws a TypeError after noting `before` as unknown. */
function crashParaminfo(before: string[] = []) {
  vi.spyOn(paraminfo, 'execute').mockImplementation((ctx: ApiContext) => {
    for (const u of before) ctx.unknown(u);
    throw new TypeError("Cannot read properties of undefined (reading 'secret')");
  });
}

afterEach(() => void vi.restoreAllMocks());

describe('a computation that throws, nothing else unknown', () => {
  it.each([['error (the default)', undefined], ['builtin', 'builtin' as const]])('--on-miss %s: MediaWiki\'s internal_api_error shape, flagged wikitape.internal', async (_what, onMiss) => {
    crashParaminfo();
    const res = await app(onMiss).get(QUESTION);
    expect(res.status).toBe(200);
    expect(res.headers['mediawiki-api-error']).toBe('internal_api_error_TypeError');
    expect(res.headers['x-wikitape-unknown']).toBe('wikitape.internal');
    expect(res.headers['x-wikitape-source']).toBe('builtin');
    const body = JSON.parse(res.text) as { error: Record<string, unknown> };
    expect(body.error).toEqual({ code: 'internal_api_error_TypeError', info: '[wikitape] Caught exception of type TypeError', errorclass: 'TypeError' });
    // never the exception's message or a stack trace
    expect(res.text).not.toMatch(/secret|\n\s+at |\.ts:\d+/);
  });

  it('in the modern error format too, and in the HTML page', async () => {
    crashParaminfo();
    const res = await app().get(`${QUESTION}&errorformat=plaintext&formatversion=2`);
    expect(res.headers['x-wikitape-unknown']).toBe('wikitape.internal');
    expect((JSON.parse(res.text) as { errors: { code: string; data: unknown }[] }).errors[0]).toMatchObject({ code: 'internal_api_error_TypeError', data: { errorclass: 'TypeError' } });
    const page = await app().get('/wiki/api.php?action=paraminfo&modules=main');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['x-wikitape-unknown']).toBe('wikitape.internal');
  });

  it('served by a running server (its hot path declines it to the app): flagged the same', async () => {
    crashParaminfo();
    const s = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: NO_CASSETTES });
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${s.url}?action=paraminfo&modules=main&format=json`);
        expect(res.headers.get('mediawiki-api-error')).toBe('internal_api_error_TypeError');
        expect(res.headers.get('x-wikitape-unknown')).toBe('wikitape.internal');
      }
    } finally {
      await s.close();
    }
  });

  it('explain names it among what the answer did not know', async () => {
    crashParaminfo();
    const engine = await loadEngine({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: NO_CASSETTES });
    expect(engine.explain('action=paraminfo&modules=main&format=json')).toMatchObject({ source: 'builtin', error: 'internal_api_error_TypeError', unknown: ['wikitape.internal'] });
  });
});

describe('a computation that throws after it needed what the recordings lack', () => {
  it('--on-miss error (the default): the miss names what to record, not wikitape.internal', async () => {
    crashParaminfo(['pages.existence']);
    const res = await app().get(QUESTION);
    expect(res.headers['x-wikitape-source']).toBe('miss');
    expect(res.headers['mediawiki-api-error']).toBe('wikitape-miss');
    expect(res.headers['x-wikitape-unknown']).toBe('pages.existence');
    expect(res.text).not.toContain('wikitape.internal');
  });

  it('--on-miss builtin: the internal error, flagged with both', async () => {
    crashParaminfo(['pages.existence']);
    const res = await app('builtin').get(QUESTION);
    expect(res.headers['mediawiki-api-error']).toBe('internal_api_error_TypeError');
    expect(res.headers['x-wikitape-unknown']).toBe('pages.existence, wikitape.internal');
  });
});

describe('a failure outside the API (the engine or the recorder throws)', () => {
  it('wikitape-setup, 500, the reason without a stack, flagged wikitape.internal', async () => {
    vi.spyOn(ReplayEngine.prototype, 'handle').mockImplementation(() => {
      throw new TypeError("Cannot read properties of undefined (reading 'body')");
    });
    const res = await app().get(QUESTION);
    expect(res.status).toBe(500);
    expect(res.headers['mediawiki-api-error']).toBe('wikitape-setup');
    expect(res.headers['x-wikitape-source']).toBe('internal');
    expect(res.headers['x-wikitape-unknown']).toBe('wikitape.internal');
    expect(JSON.parse(res.text)).toEqual({ error: { code: 'wikitape-setup', info: "Cannot read properties of undefined (reading 'body')" } });
    expect(res.text).not.toMatch(/\n\s+at |\.ts:\d+/);
  });

  it('record mode: the client is answered so (it was left waiting)', async () => {
    vi.spyOn(Recorder.prototype, 'recorded').mockImplementation(() => {
      throw new TypeError('recorded() failed');
    });
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-record-crash-'));
    // The wiki is never asked: the recorder fails before.
    const s = await startServer({ mode: 'record', upstream: 'http://127.0.0.1:9/w/api.php', cassettes: dir });
    try {
      const res = await fetch(`${s.url}?action=query&meta=siteinfo&format=json`, { signal: AbortSignal.timeout(20_000) });
      expect(res.status).toBe(500);
      expect(res.headers.get('mediawiki-api-error')).toBe('wikitape-setup');
      expect(res.headers.get('x-wikitape-unknown')).toBe('wikitape.internal');
      expect(await res.json()).toEqual({ error: { code: 'wikitape-setup', info: 'recorded() failed' } });
    } finally {
      await s.close();
    }
  });

  it('replay that could not start says so the same way', async () => {
    const res = await request(createApp({ cassettes: '/nonexistent/cassettes' })).get(QUESTION);
    expect(res.status).toBe(500);
    expect(res.headers['mediawiki-api-error']).toBe('wikitape-setup');
    expect(res.headers['x-wikitape-unknown']).toBe('wikitape.internal');
  });
});
