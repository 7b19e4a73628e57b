import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette } from '../../src/cassette/format.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { startServer } from '../../src/server.js';

/**
 * One clock per answer (docs/decisions/0008-one-clock-per-answer.md): a cassette recorded on
 * 5 January 2024, replayed when the real time (faked here) is June 2026.
 */
const RECORDED = '2024-01-05T00:00:00Z';
const REAL = '2026-06-01T12:00:00Z';
const req = { action: 'query', list: 'protectedtitles', ptlimit: '1' };
const cassette: Cassette = {
  meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: RECORDED, profile: { version: '1.39.17', language: 'ru', scriptPath: '/w', server: 'http://wiki.test', debugInfo: false } },
  interactions: [
    { key: canonicalKey(new Map(Object.entries(req)), KEY_RULES), request: req, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' }, body: { batchcomplete: true, query: { protectedtitles: [] } }, recordedAt: RECORDED },
  ],
  entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
};
const asked = { ...req, format: 'json', maxage: '60', smaxage: '30', curtimestamp: '1' };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-clock-'));
  await writeFile(join(dir, 'wiki.json'), JSON.stringify(cassette));
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(REAL) });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A fetch answer's headers as a plain object. */
function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/** Date, Expires, max-age and curtimestamp of an answer. */
function times(headers: Record<string, string | string[] | undefined>, body: string) {
  return {
    date: headers['date'],
    expires: headers['expires'],
    cacheControl: headers['cache-control'],
    curtimestamp: (JSON.parse(body) as { curtimestamp: string }).curtimestamp,
  };
}

const AS_RECORDED = { date: 'Fri, 05 Jan 2024 00:00:00 GMT', expires: 'Fri, 05 Jan 2024 00:00:30 GMT', cacheControl: 's-maxage=30, max-age=60, public', curtimestamp: '2024-01-05T00:00:00Z' };

describe('Date, Expires and curtimestamp follow one clock', () => {
  it('under --clock recorded, a recorded answer replayed years later says the recording time in all of them', async () => {
    const res = await request(createApp({ cassettes: dir })).get('/w/api.php').query(asked);
    expect(res.headers['x-wikitape-source']).toBe('cassette');
    expect(times(res.headers, res.text)).toEqual(AS_RECORDED);
  });

  it('so does an answer printed from a hit template, on every request', async () => {
    const wiki = await startServer({ cassettes: dir });
    try {
      const url = `${wiki.url}?${new URLSearchParams(asked)}`;
      for (let i = 0; i < 2; i++) {
        const res = await fetch(url);
        expect(res.headers.get('x-wikitape-source')).toBe('cassette');
        expect(times(headersOf(res), await res.text())).toEqual(AS_RECORDED);
      }
    } finally {
      await wiki.close();
    }
  });

  it('under --clock real, the real time in all of them, fresh at each request', async () => {
    const wiki = await startServer({ cassettes: dir, clock: 'real' });
    try {
      const url = `${wiki.url}?${new URLSearchParams(asked)}`;
      const first = await fetch(url);
      expect(times(headersOf(first), await first.text())).toEqual({ date: 'Mon, 01 Jun 2026 12:00:00 GMT', expires: 'Mon, 01 Jun 2026 12:00:30 GMT', cacheControl: 's-maxage=30, max-age=60, public', curtimestamp: '2026-06-01T12:00:00Z' });
      vi.setSystemTime(new Date('2026-06-01T12:05:00Z'));
      const later = await fetch(url);
      expect(times(headersOf(later), await later.text())).toMatchObject({ date: 'Mon, 01 Jun 2026 12:05:00 GMT', expires: 'Mon, 01 Jun 2026 12:05:30 GMT', curtimestamp: '2026-06-01T12:05:00Z' });
      // an answer without Expires, kept as a template across seconds, still gets the Date of each request
      const plain = `${wiki.url}?${new URLSearchParams({ ...req, format: 'json' })}`;
      await fetch(plain);
      vi.setSystemTime(new Date('2026-06-01T13:00:00Z'));
      expect((await fetch(plain)).headers.get('date')).toBe('Mon, 01 Jun 2026 13:00:00 GMT');
    } finally {
      await wiki.close();
    }
  });

  it('the built-in wiki under a fixed clock: the same instant in the headers and the parser report', async () => {
    const res = await request(createApp({ cassettes: dir, clock: '2025-03-01T10:00:00Z', onMiss: 'builtin' })).get('/w/api.php').query({ action: 'parse', summary: 'x', format: 'json', formatversion: '2', maxage: '60', smaxage: '60', uselang: 'ru', curtimestamp: '1' });
    expect(res.headers['date']).toBe('Sat, 01 Mar 2025 10:00:00 GMT');
    expect(res.headers['expires']).toBe('Sat, 01 Mar 2025 10:01:00 GMT');
    const body = JSON.parse(res.text) as { curtimestamp: string; parse: { text: string } };
    expect(body.curtimestamp).toBe('2025-03-01T10:00:00Z');
    expect(body.parse.text).toContain('Cached time: 20250301100000');
  });
});

describe('a clock per recording (docs/decisions/0015-a-clock-per-recording.md)', () => {
  const LATER = '2024-02-20T12:00:00Z';
  const other = { action: 'query', list: 'protectedtitles', ptlimit: '2' };
  let two: string;
  beforeAll(async () => {
    two = await mkdtemp(join(tmpdir(), 'wikitape-clock-two-'));
    const later = { ...cassette.interactions[0]!, key: canonicalKey(new Map(Object.entries(other)), KEY_RULES), request: other, recordedAt: LATER };
    await writeFile(join(two, 'wiki.json'), JSON.stringify({ ...cassette, meta: { ...cassette.meta, recordedAt: LATER }, interactions: [cassette.interactions[0], later] }));
  });

  it('each recorded answer carries its own recording time in Date, Expires and curtimestamp, printed in full or from a template', async () => {
    const wiki = await startServer({ cassettes: two });
    try {
      for (let i = 0; i < 2; i++) {
        const early = await fetch(`${wiki.url}?${new URLSearchParams(asked)}`);
        expect(times(headersOf(early), await early.text())).toEqual(AS_RECORDED);
        const late = await fetch(`${wiki.url}?${new URLSearchParams({ ...other, format: 'json', maxage: '60', smaxage: '30', curtimestamp: '1' })}`);
        expect(times(headersOf(late), await late.text())).toEqual({ date: 'Tue, 20 Feb 2024 12:00:00 GMT', expires: 'Tue, 20 Feb 2024 12:00:30 GMT', cacheControl: 's-maxage=30, max-age=60, public', curtimestamp: '2024-02-20T12:00:00Z' });
      }
      // through Express (a request with a cookie is printed afresh)
      const res = await request(createApp({ cassettes: two })).get('/w/api.php').set('cookie', 'x=1').query(asked);
      expect(times(res.headers, res.text)).toEqual(AS_RECORDED);
    } finally {
      await wiki.close();
    }
  });
});
