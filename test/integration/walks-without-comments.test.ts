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
 * A complete walk without comments, asked for parsed comments: the comment no recording showed
 * cannot be formatted, and the answer is a miss naming it (MediaWiki 1.39, 1.43: a walk of
 * `list=protectedtitles&ptprop=level|userid` asked `ptprop=parsedcomment` once answered an
 * internal error of wikitape's own, `internal_api_error_TypeError`, unflagged). The oracle is the
 * bundled wiki's recording (real MediaWiki 1.43 answers); the walks are recorded from it, as
 * `wikitape record` in front of it stores them.
 */

const BUNDLED = join(process.cwd(), 'cassettes', 'bundled-wiki.json');
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
const temp = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-walks-without-comments-'));
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

/** Asks replay over `dir` each question: each is a miss naming `unknown`, no internal error. */
async function expectRefused(dir: string, questions: readonly string[], unknown: string): Promise<void> {
  const replay = createApp({ cassettes: dir });
  for (const q of questions) {
    const got = await ask(replay, q);
    expect({ q, source: got.source, unknown: got.unknown, code: (got.body['error'] as JsonObject | undefined)?.['code'] }).toEqual({ q, source: 'miss', unknown, code: 'wikitape-miss' });
  }
}

describe('a complete walk without comments, asked for parsed comments', () => {
  it('of the protected titles: a miss naming them', async () => {
    const dir = await recordedWalk('action=query&list=protectedtitles&ptprop=timestamp|level&ptlimit=max');
    await expectRefused(dir, ['action=query&list=protectedtitles&ptprop=parsedcomment&ptlimit=3', 'action=query&list=protectedtitles&ptprop=parsedcomment|level&ptdir=newer'], 'protectedtitles.parsedcomment');
  });

  it('of the log: a miss naming them', async () => {
    const dir = await recordedWalk('action=query&list=logevents&leprop=ids|title|type|timestamp&lelimit=max');
    await expectRefused(dir, ['action=query&list=logevents&leprop=parsedcomment&lelimit=3', 'action=query&list=logevents&leprop=parsedcomment|ids&letype=create'], 'logevents.parsedcomment');
  });
});
