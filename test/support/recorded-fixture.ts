import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect } from 'vitest';
import { createApp } from '../../src/app.js';
import type { JsonObject } from '../../src/api/result.js';
import { emptyHarvest } from '../../src/cassette/format.js';
import { ENTITY_KINDS } from '../../src/modules/index.js';
import { harvest } from '../../src/record/harvest.js';

/**
 * A cassette folder holding the interactions of a recorded cassette file (test/fixtures) that
 * `keep` lets through, with the entities they show, as the recorder harvests them: what a
 * recording of those questions alone would have written.
 */
export async function recordedPart(fixture: string, keep: (key: string) => boolean = () => true): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-recorded-part-'));
  const c = JSON.parse(await readFile(fixture, 'utf8')) as { interactions: { key: string; request: Record<string, string>; body: JsonObject }[]; entities: unknown };
  c.interactions = c.interactions.filter((i) => keep(i.key));
  const entities = emptyHarvest(ENTITY_KINDS);
  for (const i of c.interactions) harvest(entities, i.body, i.request);
  c.entities = entities;
  await writeFile(join(dir, 'recorded.json'), JSON.stringify(c));
  return dir;
}

/** Asks replay over `dir` (at `clock`) a query in formatversion=2 JSON: its body without debuginfo, its source and what it flagged. */
export async function askReplay(dir: string, clock: string, params: Record<string, string>) {
  const res = await request(createApp({ cassettes: dir, clock })).get('/wiki/api.php').query({ action: 'query', format: 'json', formatversion: '2', ...params });
  const body = JSON.parse(res.text) as Record<string, unknown>;
  delete body['debuginfo'];
  return { body, source: res.headers['x-wikitape-source'] as string, unknown: res.headers['x-wikitape-unknown'] as string | undefined };
}

/** That replay computed the answer (`synthesized`, nothing flagged) and it is `expected`, the live wiki's. */
export function expectComputed(answer: Awaited<ReturnType<typeof askReplay>>, expected: unknown): void {
  expect(answer.unknown).toBeUndefined();
  expect(answer.source).toBe('synthesized');
  expect(answer.body).toEqual(expected);
}
