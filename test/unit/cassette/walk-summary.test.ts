import { openSync, closeSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createApp } from '../../../src/app.js';
import type { Cassette, Interaction } from '../../../src/cassette/format.js';
import { verifyCassettes } from '../../../src/cassette/commands.js';
import { cassetteProblems } from '../../../src/cassette/problems.js';
import { scanCassette } from '../../../src/cassette/scan.js';
import { FileCassetteStore } from '../../../src/cassette/store.js';
import { storedBytes, summarize } from '../../../src/cassette/walk-summary.js';
import { KEY_RULES, LIST_ENTITIES, MODULES } from '../../../src/modules/index.js';
import { canonicalKey } from '../../../src/request/canonical.js';
import { loadCassettes } from '../../../src/replay/cassette-index.js';
import { buildKnowledge } from '../../../src/replay/knowledge.js';

/**
 * Knowledge from the walks' summaries is knowledge from the answers (docs/decisions/0020): the
 * same Knowledge, and the same model after it (el_ids learned, ids derived), for the bundled
 * cassette and for many cassettes made from it by dropping pages and failing answers. A summary
 * that no longer matches its answer is not used.
 */
const LISTS = MODULES.query.list;
const BUNDLED = fileURLToPath(new URL('../../../cassettes', import.meta.url));

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-walk-summary-'));
  made.push(dir);
  return dir;
}

/** A small deterministic random source (a property test that fails says its seed). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Knowledge and the model after it, from a cassette folder, read whole or through summaries. */
async function knowledgeFrom(dir: string, via: 'answers' | 'summaries') {
  const index = await loadCassettes(new FileCassetteStore(dir, { entities: LIST_ENTITIES }), LISTS);
  const answers = [...index.interactions.values()];
  const read = via === 'answers' ? answers : answers.map((i) => summarize(i) ?? i);
  const knows = buildKnowledge(index.model, LISTS, () => read);
  index.interactions.close();
  return { knows, model: index.model };
}

const bundled = JSON.parse(readFileSync(join(BUNDLED, 'bundled-wiki.json'), 'utf8')) as Cassette;

describe('walk summaries', () => {
  it('teach the bundled cassette what its answers teach', async () => {
    expect(await knowledgeFrom(BUNDLED, 'summaries')).toEqual(await knowledgeFrom(BUNDLED, 'answers'));
  });

  it('teach what the answers teach for cassettes with pages dropped and answers failed (40 seeds)', async () => {
    const dir = await folder();
    for (let seed = 1; seed <= 40; seed++) {
      const r = random(seed);
      const interactions: Interaction[] = [];
      for (const i of bundled.interactions) {
        const x = r();
        if (x < 0.15) continue;
        interactions.push(x < 0.22 ? { ...i, status: 500 } : x < 0.27 ? { ...i, headers: { ...i.headers, 'mediawiki-api-error': 'internal_api_error' } } : x < 0.32 ? { ...i, user: 'Admin' } : i);
      }
      writeFileSync(join(dir, 'c.json'), JSON.stringify({ ...bundled, interactions }, null, 2));
      const fromSummaries = await knowledgeFrom(dir, 'summaries');
      expect(fromSummaries, `seed ${seed}`).toEqual(await knowledgeFrom(dir, 'answers'));
    }
  });

  it('say each answer\'s length as the file store writes it, which the scan measures', async () => {
    const dir = await folder();
    const store = new FileCassetteStore(dir, { entities: LIST_ENTITIES });
    const db = await store.open('w', 'http://wiki.test/w/api.php');
    db.data = { ...bundled, interactions: bundled.interactions.map((i) => ({ ...i, request: { ...i.request, note: 'ünïcödé' } })) };
    await db.write();
    const written = JSON.parse(readFileSync(join(dir, 'w.json'), 'utf8')) as Cassette;
    const fd = openSync(join(dir, 'w.json'), 'r');
    const scanned = scanCassette(fd)!;
    closeSync(fd);
    const lengths = new Map(scanned.interactions.map((s) => [s.key, s.length]));
    expect(written.summaries!.length).toBe(bundled.interactions.filter((i) => summarize(i)).length);
    for (const s of written.summaries!) expect(s.bytes).toBe(lengths.get(s.key));
    for (const i of written.interactions) expect(storedBytes(i)).toBe(lengths.get(i.key));
  });
});

describe('the summaries member', () => {
  it('is checked with the cassette: a list of interactions, each `bytes` a whole number', () => {
    const first = summarize(bundled.interactions.find((i) => summarize(i))!)!;
    expect(cassetteProblems({ ...bundled, summaries: [first] })).toEqual([]);
    expect(cassetteProblems({ ...bundled, summaries: {} })).toEqual(['"summaries" is not a list']);
    expect(cassetteProblems({ ...bundled, summaries: [{ ...first, body: 'x' }] })[0]).toMatch(/^summary 0: .*"body" is not a JSON object/);
    expect(cassetteProblems({ ...bundled, summaries: [{ ...first, bytes: 'many' }] })).toEqual(['summary 0: "bytes" is not a whole number']);
  });
});

describe('replay with walk summaries', () => {
  const base = { action: 'query', list: 'logevents', ledir: 'older', lelimit: '1', leprop: 'ids|timestamp|title|type|user' };
  const event = (logid: number) => ({ logid, ns: 0, title: `T${logid}`, pageid: logid, logpage: logid, type: 'delete', action: 'delete', user: 'Admin', timestamp: `2024-01-0${logid}T00:00:00Z` });
  const answer = (request: Record<string, string>, logid: number, next?: string): Interaction => ({
    key: canonicalKey(new Map(Object.entries(request)), KEY_RULES),
    request,
    status: 200,
    headers: {},
    body: { batchcomplete: true, ...(next ? { continue: { lecontinue: next, continue: '-||' } } : {}), query: { logevents: [event(logid)] } },
    recordedAt: '2024-01-05T00:00:00Z',
  });
  /** A complete walk of two pages, written by the file store (so with its summaries). */
  async function walked(): Promise<string> {
    const dir = await folder();
    const db = await new FileCassetteStore(dir, { entities: LIST_ENTITIES }).open('walk', 'http://wiki.test/w/api.php');
    const interactions = [answer(base, 2, '20240101000000|1'), answer({ ...base, lecontinue: '20240101000000|1' }, 1)];
    db.data.interactions = interactions.sort((a, b) => (a.key < b.key ? -1 : 1));
    db.data.entities.logevents = [1, 2].map((id) => ({ ...event(id), known: ['ids', 'timestamp', 'title', 'type', 'user'] }));
    await db.write();
    return dir;
  }
  const ask = async (dir: string) => {
    const res = await request(createApp({ cassettes: dir, onMiss: 'builtin' })).get('/wiki/api.php').query({ action: 'query', list: 'logevents', lelimit: '5', leprop: 'ids|title', format: 'json', formatversion: '2' });
    return { source: res.headers["x-wikitape-source"], ids: (JSON.parse(res.text) as { query?: { logevents: { logid: number }[] } }).query?.logevents.map((e) => e.logid) };
  };

  it('works knowledge out from the summaries, without reading the answers', async () => {
    // (the suite's check works it out from the answers too: not here, where they are spoiled)
    vi.stubEnv('WIKITAPE_CHECK_SUMMARIES', '');
    onTestFinished(() => void vi.unstubAllEnvs());
    const dir = await walked();
    const file = join(dir, 'walk.json');
    const app = createApp({ cassettes: dir, onMiss: 'builtin' });
    // Loaded (an exact hit answers), then each list answer's text is spoiled in place: reading one would fail.
    const hit = await request(app).get('/wiki/api.php').query({ ...base, format: 'json', formatversion: '2' });
    expect(hit.headers['x-wikitape-source']).toBe('cassette');
    const fd = openSync(file, 'r+');
    for (const s of scanCassette(fd)!.interactions) writeSync(fd, Buffer.alloc(s.length, ' '), 0, s.length, s.offset);
    closeSync(fd);
    const res = await request(app).get('/wiki/api.php').query({ action: 'query', list: 'logevents', lelimit: '5', leprop: 'ids|title', format: 'json', formatversion: '2' });
    expect(res.headers['x-wikitape-source']).toBe('synthesized');
    expect((JSON.parse(res.text) as { query: { logevents: { logid: number }[] } }).query.logevents.map((e) => e.logid)).toEqual([2, 1]);
  });

  it('`cassettes verify` names a summary that says otherwise than its answer of the same length (edited by hand)', async () => {
    const dir = await walked();
    expect(await verifyCassettes(dir, KEY_RULES, LIST_ENTITIES)).toEqual([]);
    const file = join(dir, 'walk.json');
    const c = JSON.parse(readFileSync(file, 'utf8')) as Cassette;
    const first = c.summaries!.find((s) => s.body['continue'])!;
    (first.body['continue'] as Record<string, string>)['lecontinue'] = '20240101000000|9';
    writeFileSync(file, JSON.stringify(c, null, 2));
    expect(await verifyCassettes(dir, KEY_RULES, LIST_ENTITIES)).toEqual([`walk: the summary of "${first.key}" says otherwise than its answer (remove the "summaries" member: wikitape makes it again)`]);
  });

  it('reads an answer again when it no longer matches its summary (edited after the summary was written)', async () => {
    const dir = await walked();
    expect(await ask(dir)).toEqual({ source: 'synthesized', ids: [2, 1] });
    // The last page edited to continue (to a page nobody recorded): the walk is no longer complete.
    const file = join(dir, 'walk.json');
    const c = JSON.parse(readFileSync(file, 'utf8')) as Cassette;
    const last = c.interactions.find((i) => i.request['lecontinue'])!;
    last.body['continue'] = { lecontinue: '20231231000000|0', continue: '-||' };
    writeFileSync(file, JSON.stringify(c, null, 2));
    expect(c.summaries!.find((s) => s.key === last.key)!.body['continue']).toBeUndefined();
    expect(await ask(dir)).toEqual({ source: 'builtin', ids: [2, 1] });
  });
});
