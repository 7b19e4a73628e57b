import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/api/result.js';
import { createApp } from '../../src/app.js';
import { emptyHarvest, type Cassette, type Interaction } from '../../src/cassette/format.js';
import { ENTITY_KINDS, KEY_RULES } from '../../src/modules/index.js';
import { harvest } from '../../src/record/harvest.js';
import { canonicalKey, canonicalParams } from '../../src/request/canonical.js';
import { parseKeepingKeyOrder } from '../../src/util/ordered-json.js';
import { readFile } from 'node:fs/promises';

/**
 * A complete walk of the blocks with their flags but without their targets (`bkprop` without
 * `user`): the flags tell which blocks are autoblocks, and every other block shows its `userid`,
 * 0 for an address or range (MediaWiki 1.39: such a walk once answered `bkprop=id|userid` without
 * the userid of every block, as if each were an autoblock). The oracle is the bundled wiki's
 * recording (real MediaWiki 1.43 answers); the walk is recorded from it, as `wikitape record` in
 * front of it stores it.
 */

const BUNDLED = join(process.cwd(), 'cassettes', 'bundled-wiki.json');
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
const temp = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-blocks-without-targets-'));
  made.push(dir);
  return dir;
};

type App = ReturnType<typeof createApp>;
interface Answer {
  source: string | undefined;
  unknown: string | undefined;
  body: JsonObject;
}

async function ask(app: App, query: string): Promise<Answer> {
  const res = await request(app).get(`/wiki/api.php?${query}&format=json&formatversion=2`);
  const { debuginfo: _d, ...body } = JSON.parse(res.text) as JsonObject;
  return { source: res.headers['x-wikitape-source'] as string | undefined, unknown: res.headers['x-wikitape-unknown'] as string | undefined, body };
}

let oracle: App;
let meta: Cassette['meta'];
beforeAll(async () => {
  const dir = await temp();
  await copyFile(BUNDLED, join(dir, 'bundled-wiki.json'));
  oracle = createApp({ cassettes: dir });
  meta = (parseKeepingKeyOrder(await readFile(BUNDLED, 'utf8')) as Cassette).meta;
});

/** A folder with one cassette: the oracle's answers to a walk of `query` from its first page to its last, stored as record mode stores them. */
async function recordedWalk(...queries: string[]): Promise<string> {
  const interactions: Interaction[] = [];
  for (const query of queries) {
    let cont: Record<string, string> = {};
    for (let n = 0; n < 100; n++) {
      const asked = new URLSearchParams(`${query}&${new URLSearchParams(cont)}`);
      const answer = await ask(oracle, asked.toString());
      expect(answer.source, query).toBe('synthesized');
      const req = Object.fromEntries(canonicalParams(new Map(asked), KEY_RULES));
      interactions.push({ key: canonicalKey(new Map(asked), KEY_RULES), request: req, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body: answer.body, recordedAt: meta.recordedAt });
      const next = answer.body['continue'] as Record<string, string> | undefined;
      if (!next) break;
      cont = next;
    }
  }
  const entities = emptyHarvest(ENTITY_KINDS);
  for (const i of interactions) harvest(entities, i.body, i.request);
  const dir = await temp();
  const cassette: Cassette = { meta, interactions: interactions.sort((a, b) => (a.key < b.key ? -1 : 1)), entities };
  await writeFile(join(dir, 'walk.json'), JSON.stringify(cassette, null, 2));
  return dir;
}

describe('a complete walk of the blocks without their targets', () => {
  it('answers their user ids as the whole walk does', async () => {
    const dir = await recordedWalk('action=query&list=blocks&bkprop=id|userid|by|timestamp|expiry|flags&bklimit=max');
    const replay = createApp({ cassettes: dir });
    for (const q of ['action=query&list=blocks&bkprop=id|userid&bklimit=5', 'action=query&list=blocks&bkprop=userid|flags&bkdir=newer&bklimit=max']) {
      const [got, want] = [await ask(replay, q), await ask(oracle, q)];
      expect({ q, source: got.source, unknown: got.unknown }).toEqual({ q, source: 'synthesized', unknown: undefined });
      expect(got.body, q).toEqual(want.body);
      expect(JSON.stringify(want.body), q).toContain('"userid":0');
    }
  });
});
