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
 * A walk of the log without `ids`, or of the blocks without `id`, shows rows that name no entry
 * (harvest keeps none of them): however complete, it proves nothing about its list, and a
 * question about that list is a miss naming its entries, never an answer computed from other,
 * narrower walks (MediaWiki 1.39, 1.43: a walk of the whole log with
 * leprop=comment|details|tags|timestamp|type|userid beside one of `letype=create` once answered
 * every question about the whole log with the create entries alone). The oracle is the bundled
 * wiki's recording (real MediaWiki 1.43 answers); the walks are recorded from it, as `wikitape
 * record` in front of it stores them.
 */

const BUNDLED = join(process.cwd(), 'cassettes', 'bundled-wiki.json');
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
const temp = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-walks-without-ids-'));
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

/** Asks replay over `dir` and the oracle each question: each answer of replay is the oracle's, computed (synthesized) and unflagged. */
async function expectAnswered(dir: string, questions: readonly string[]): Promise<void> {
  const replay = createApp({ cassettes: dir });
  for (const q of questions) {
    const [got, want] = [await ask(replay, q), await ask(oracle, q)];
    expect({ q, source: got.source, unknown: got.unknown }).toEqual({ q, source: 'synthesized', unknown: undefined });
    expect(got.body, q).toEqual(want.body);
  }
}

/** Asks replay over `dir` each question: each is a miss naming the list's entries. */
async function expectRefused(dir: string, list: string, questions: readonly string[]): Promise<void> {
  const replay = createApp({ cassettes: dir });
  for (const q of questions) {
    const got = await ask(replay, q);
    expect({ q, source: got.source, unknown: got.unknown, code: (got.body['error'] as JsonObject | undefined)?.['code'] }).toEqual({ q, source: 'miss', unknown: `${list}.entries`, code: 'wikitape-miss' });
  }
}

const LOG = 'action=query&list=logevents';
const BLOCKS = 'action=query&list=blocks';

describe('a complete walk whose rows show no ids', () => {
  it('of the whole log, beside a walk of one type: questions about the whole log refused, about that type answered', async () => {
    const dir = await recordedWalk(`${LOG}&leprop=comment|details|tags|timestamp|type|userid&lelimit=max`, `${LOG}&letype=protect&leprop=ids|title|type|user|timestamp|comment|details&lelimit=max`);
    await expectRefused(dir, 'logevents', [`${LOG}&leprop=type|timestamp&lelimit=3`, `${LOG}&leprop=type&letype=block`, `${LOG}&leprop=timestamp&ledir=newer&lelimit=5`]);
    await expectAnswered(dir, [`${LOG}&letype=protect&leprop=type|timestamp&lelimit=3`]);
  });

  it('of the blocks: questions about them refused', async () => {
    const dir = await recordedWalk(`${BLOCKS}&bkprop=user|by|timestamp|expiry|reason|flags&bklimit=max`);
    await expectRefused(dir, 'blocks', [`${BLOCKS}&bkprop=user|timestamp&bklimit=2`, `${BLOCKS}&bkprop=user&bkdir=newer`]);
  });
});
