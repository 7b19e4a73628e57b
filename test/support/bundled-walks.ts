import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';
import type { JsonObject } from '../../src/api/result.js';
import { createApp } from '../../src/app.js';
import { emptyHarvest, type Cassette, type Interaction } from '../../src/cassette/format.js';
import { ENTITY_KINDS, KEY_RULES } from '../../src/modules/index.js';
import { harvest } from '../../src/record/harvest.js';
import { canonicalKey, canonicalParams } from '../../src/request/canonical.js';
import { parseKeepingKeyOrder } from '../../src/util/ordered-json.js';

/**
 * Walks recorded from the bundled wiki's recording (real MediaWiki 1.43 answers), as `wikitape
 * record` in front of it stores them, and replay of them held against that recording (the
 * oracle: its whole walks answer any question about its lists). Registers the test file's hooks:
 * the oracle is made before its tests, the folders are removed after them.
 */

const BUNDLED = join(process.cwd(), 'cassettes', 'bundled-wiki.json');

type App = ReturnType<typeof createApp>;

/** What a test reads of an answer: where it came from, what it flags, its body without debuginfo. */
export interface WalkAnswer {
  source: string | undefined;
  unknown: string | undefined;
  body: JsonObject;
}

/** Asks `app` a query (JSON, formatversion=2). */
async function ask(app: App, query: string): Promise<WalkAnswer> {
  const res = await request(app).get(`/wiki/api.php?${query}&format=json&formatversion=2`);
  const { debuginfo: _d, ...body } = JSON.parse(res.text) as JsonObject;
  return { source: res.headers['x-wikitape-source'] as string | undefined, unknown: res.headers['x-wikitape-unknown'] as string | undefined, body };
}

/** The oracle and the walks of one test file; `prefix` names its temporary folders. */
export function bundledWalks(prefix: string) {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });
  const temp = async () => {
    const dir = await mkdtemp(join(tmpdir(), `wikitape-${prefix}-`));
    made.push(dir);
    return dir;
  };
  let oracle: App;
  let meta: Cassette['meta'];
  beforeAll(async () => {
    const dir = await temp();
    await copyFile(BUNDLED, join(dir, 'bundled-wiki.json'));
    oracle = createApp({ cassettes: dir });
    meta = (parseKeepingKeyOrder(await readFile(BUNDLED, 'utf8')) as Cassette).meta;
  });

  /** A folder with one cassette: the oracle's answers to walks of `queries`, each followed for up to `pages` pages, stored as record mode stores them. */
  async function recorded(queries: readonly string[], pages: number): Promise<string> {
    const interactions: Interaction[] = [];
    for (const query of queries) {
      let cont: Record<string, string> = {};
      for (let n = 0; n < pages; n++) {
        const asked = new URLSearchParams(`${query}&${new URLSearchParams(cont)}`);
        const answer = await ask(oracle, asked.toString());
        expect(['synthesized', 'cassette'], query).toContain(answer.source);
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

  return {
    /** Asks the oracle. */
    askOracle: (query: string) => ask(oracle, query),

    /** A folder with one cassette: the oracle's answers to walks of `queries`, each from its first page to its last, stored as record mode stores them. */
    recordedWalk: (...queries: string[]): Promise<string> => recorded(queries, 100),

    /** The same with each walk's first `pages` pages alone (a bot that read no further). */
    recordedFirstPages: (pages: number, ...queries: string[]): Promise<string> => recorded(queries, pages),

    /** Asks replay over `dir` and the oracle each question: each answer of replay is the oracle's, computed (synthesized) and unflagged. */
    async expectAnswered(dir: string, questions: readonly string[]): Promise<WalkAnswer[]> {
      const replay = createApp({ cassettes: dir });
      const wanted: WalkAnswer[] = [];
      for (const q of questions) {
        const [got, want] = [await ask(replay, q), await ask(oracle, q)];
        expect({ q, source: got.source, unknown: got.unknown }).toEqual({ q, source: 'synthesized', unknown: undefined });
        expect(got.body, q).toEqual(want.body);
        wanted.push(want);
      }
      return wanted;
    },

    /** Asks replay over `dir` each question: each is a miss naming `unknown` (no internal error). */
    async expectRefused(dir: string, questions: readonly string[], unknown: string): Promise<void> {
      const replay = createApp({ cassettes: dir });
      for (const q of questions) {
        const got = await ask(replay, q);
        expect({ q, source: got.source, unknown: got.unknown, code: (got.body['error'] as JsonObject | undefined)?.['code'] }).toEqual({ q, source: 'miss', unknown, code: 'wikitape-miss' });
      }
    },
  };
}
