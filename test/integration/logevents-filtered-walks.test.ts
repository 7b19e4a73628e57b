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
 * A complete walk of a filtered log (`letype=protect`, `leuser=Admin` …) answers every question
 * about that part of the log or a narrower one (other limits, continuation points, directions,
 * more filters, fewer props) as the whole log's walk does, and nothing else. The oracle is the
 * bundled wiki's recording (real MediaWiki 1.43 answers), whose whole walk of the log answers
 * any of these questions; the filtered walks are recorded from it, as `wikitape record` in front
 * of it stores them.
 */

const BUNDLED = join(process.cwd(), 'cassettes', 'bundled-wiki.json');
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
const temp = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-filtered-walks-'));
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
async function expectAnsweredAsTheWholeLog(dir: string, questions: readonly string[]): Promise<void> {
  const replay = createApp({ cassettes: dir });
  for (const q of questions) {
    const [got, want] = [await ask(replay, q), await ask(oracle, q)];
    expect({ q, source: got.source, unknown: got.unknown }).toEqual({ q, source: 'synthesized', unknown: undefined });
    expect(got.body, q).toEqual(want.body);
  }
}

/** Asks replay over `dir` each question: each is a miss naming the log's entries. */
async function expectRefused(dir: string, questions: readonly string[]): Promise<void> {
  const replay = createApp({ cassettes: dir });
  for (const q of questions) {
    const got = await ask(replay, q);
    expect({ q, source: got.source, unknown: got.unknown, code: (got.body['error'] as JsonObject | undefined)?.['code'] }).toEqual({ q, source: 'miss', unknown: 'logevents.entries', code: 'wikitape-miss' });
  }
}

const LOG = 'action=query&list=logevents';

describe('a complete walk of a filtered log', () => {
  it('answers other limits, continuation points, directions, time windows, more filters and fewer props of its part', async () => {
    const dir = await recordedWalk(`${LOG}&letype=protect&lelimit=4`);
    const first = await ask(oracle, `${LOG}&letype=protect&lelimit=3`);
    const cont = (first.body['continue'] as Record<string, string>)['lecontinue']!;
    const newest = ((first.body['query'] as JsonObject)['logevents'] as JsonObject[])[1]!['timestamp'] as string;
    await expectAnsweredAsTheWholeLog(dir, [
      `${LOG}&letype=protect&lelimit=3`,
      `${LOG}&letype=protect&lelimit=max`,
      `${LOG}&letype=protect&lelimit=1&lecontinue=${encodeURIComponent(cont)}`,
      `${LOG}&letype=protect&lelimit=5&ledir=newer`,
      `${LOG}&letype=protect&leend=${encodeURIComponent(newest)}&lelimit=2`,
      `${LOG}&letype=protect&leuser=Admin&lelimit=6`,
      `${LOG}&letype=protect&lenamespace=0&lelimit=4`,
      `${LOG}&letype=protect&letitle=${encodeURIComponent('Москва')}`,
      `${LOG}&letype=protect&leprop=ids|title&lelimit=7`,
      `${LOG}&letype=protect&leuser=Nobody`,
    ]);
  });

  it('refuses the whole log, other parts and wider ones, and an action that sets the type itself', async () => {
    const dir = await recordedWalk(`${LOG}&letype=protect&leuser=Admin&lelimit=max`);
    await expectRefused(dir, [
      `${LOG}&lelimit=3`,
      `${LOG}&letype=protect&lelimit=3`,
      `${LOG}&leuser=Admin&lelimit=3`,
      `${LOG}&letype=block&leuser=Admin`,
      `${LOG}&letype=protect&leuser=Admin&leaction=delete/delete`,
    ]);
    await expectAnsweredAsTheWholeLog(dir, [`${LOG}&leuser=Admin&letype=protect&lelimit=2&ledir=newer`]);
  });

  it('answers from walks of two parts each question about either, and refuses the other parts', async () => {
    const dir = await recordedWalk(`${LOG}&letype=block&lelimit=max`, `${LOG}&leaction=move/move`);
    await expectAnsweredAsTheWholeLog(dir, [`${LOG}&letype=block&lelimit=3`, `${LOG}&leaction=move/move&lelimit=1`, `${LOG}&leaction=move/move&letype=delete`]);
    await expectRefused(dir, [`${LOG}&letype=move`, `${LOG}&letype=delete`, `${LOG}&leaction=block/block`]);
  });
});
