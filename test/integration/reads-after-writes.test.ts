import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { standInParams } from '../support/stand-in-params.js';

/**
 * A bot reads a page, creates it, and reads it again. The wiki answers the second read with the
 * new page; replay applies no write, so what it recorded is the page before (missing). Before,
 * the recorder (`--mode new`) answered the second read from its own recording of the first, and
 * replay answered it as recorded: both a 200 with `missing`, unflagged. This stand-in wiki keeps
 * the page's state as a wiki does.
 */
let created = false;

const paramsOf = (req: IncomingMessage) => standInParams(req);

function answerOf(q: URLSearchParams): object {
  if (q.get('action') === 'edit') {
    const made = !created;
    created = true;
    return { edit: { ...(made ? { new: true } : {}), result: 'Success', pageid: 7, title: 'Sandbox', contentmodel: 'wikitext', oldrevid: 0, newrevid: 70, newtimestamp: '2024-03-10T00:00:00Z' } };
  }
  if ((q.get('meta') ?? '').includes('siteinfo')) return { batchcomplete: true, query: { general: { generator: 'MediaWiki 1.43.9', lang: 'en', sitename: 'Test' } } };
  const page = created ? { pageid: 7, ns: 0, title: 'Sandbox', revisions: [{ revid: 70, parentid: 0 }] } : { ns: 0, title: 'Sandbox', missing: true };
  return { batchcomplete: true, query: { pages: [page] } };
}

const wiki = createServer(async (req, res) => {
  const body = answerOf(await paramsOf(req));
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
});

const READ = { action: 'query', prop: 'revisions', titles: 'Sandbox', rvprop: 'ids', format: 'json', formatversion: '2' };
const EDIT = { action: 'edit', title: 'Sandbox', text: 'x', token: '+\\', format: 'json', formatversion: '2' };

async function call(url: string, params: Record<string, string>, method: 'GET' | 'POST' = 'GET'): Promise<{ body: any; source: string | null; unknown: string | null }> {
  const form = new URLSearchParams(params);
  const r = method === 'GET' ? await fetch(`${url}?${form}`) : await fetch(url, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  return { body: await r.json(), source: r.headers.get('x-wikitape-source'), unknown: r.headers.get('x-wikitape-unknown') };
}

let dir: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => wiki.listen(0, '127.0.0.1', resolve));
  dir = await mkdtemp(join(tmpdir(), 'wikitape-after-writes-'));
});
afterAll(async () => {
  wiki.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reads after a write', () => {
  it('through the recorder are what the wiki says after the write, and are not stored among the recordings of the wiki before it', async () => {
    const recorder = await startServer({ mode: 'record', upstream: `http://127.0.0.1:${(wiki.address() as AddressInfo).port}/w/api.php`, cassettes: dir, cassette: 'walk' });
    try {
      expect((await call(recorder.url, READ)).body.query.pages[0]).toEqual({ ns: 0, title: 'Sandbox', missing: true });
      expect((await call(recorder.url, EDIT, 'POST')).body.edit.result).toBe('Success');
      const after = await call(recorder.url, READ);
      expect(after.source).toBe('upstream');
      expect(after.body.query.pages[0]).toEqual({ pageid: 7, ns: 0, title: 'Sandbox', revisions: [{ revid: 70, parentid: 0 }] });
    } finally {
      await recorder.close();
    }
    const stored = JSON.parse(await readFile(join(dir, 'walk.json'), 'utf8')) as { interactions: { key: string; body: any }[] };
    const reads = stored.interactions.filter((i) => i.key.includes('prop=revisions'));
    expect(reads.map((i) => i.body.query.pages[0].missing)).toEqual([true]);
  });

  it('from replay are refused, naming the write, until the write log is emptied; anonymous readers and the hot path alike', async () => {
    const replay = await startServer({ cassettes: dir, onMiss: 'error' });
    try {
      expect(await call(replay.url, READ)).toMatchObject({ source: 'cassette', body: { query: { pages: [{ missing: true }] } } });
      expect((await call(replay.url, EDIT, 'POST')).body.edit.result).toBe('Success');
      const after = await call(replay.url, READ);
      expect(after).toMatchObject({ source: 'miss', unknown: 'writes.applied', body: { error: { code: 'wikitape-miss' } } });
      expect(after.body.error.info).toContain('action=edit');
      expect(after.body.error.info).toContain('Sandbox');
      // A question nobody recorded, computed from the recordings, is the wiki before the write too.
      expect(await call(replay.url, { ...READ, rvprop: 'ids|size' })).toMatchObject({ source: 'miss', unknown: 'writes.applied' });
      // The session's tokens are no content: a write does not change them.
      expect((await call(replay.url, { action: 'query', meta: 'tokens', format: 'json', formatversion: '2' })).body.query.tokens.csrftoken).toBe('+\\');
      replay.clearWrites();
      expect(await call(replay.url, READ)).toMatchObject({ source: 'cassette', body: { query: { pages: [{ missing: true }] } } });
    } finally {
      await replay.close();
    }
  });

  it('from replay with --on-miss builtin are answered as recorded, flagged', async () => {
    const replay = await startServer({ cassettes: dir, onMiss: 'builtin' });
    try {
      await call(replay.url, EDIT, 'POST');
      expect(await call(replay.url, READ)).toMatchObject({ source: 'cassette', unknown: 'writes.applied', body: { query: { pages: [{ missing: true }] } } });
    } finally {
      await replay.close();
    }
  });
});
