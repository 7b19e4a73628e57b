import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyCassettes } from '../../src/cassette/commands.js';
import { KEY_RULES, LIST_ENTITIES } from '../../src/modules/index.js';
import { startServer } from '../../src/server.js';

/** `cassettes verify` reports every problem of a file, entities of the wrong type included; replay refuses such a file. */

const KEY = 'action=query&meta=siteinfo&siprop=general';
const good = { key: KEY, request: { action: 'query', meta: 'siteinfo', siprop: 'general' }, status: 200, headers: {}, body: { batchcomplete: true }, recordedAt: '2024-03-01T00:00:00.000Z' };
const logevent = { logid: 5, ns: 0, title: 'A', pageid: 1, logpage: 1, params: {}, type: 'create', action: 'create', user: 'U', userid: 1, timestamp: '2024-03-01T00:00:00Z', comment: '', tags: [] };

function cassette(interactions: unknown[], entities: Record<string, unknown[]>) {
  return { meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-03-01T00:00:00.000Z', profile: {} }, interactions, entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [], ...entities } };
}

describe('cassettes verify', () => {
  it('reports every problem of a file, and entities of the wrong type', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-verify-'));
    const file = join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify(
        cassette([good, { ...good, key: 'x', status: 999 }, null, { ...good, key: 'list=blocks&action=query', request: { action: 'query', list: 'blocks' } }], {
          logevents: [logevent, { ...logevent, logid: 'x' }, { ...logevent, logid: 7, timestamp: 20240301 }],
          blocks: [{ id: '3', user: 'U', by: 'A', byid: 1, timestamp: '2024-03-01T00:00:00Z', expiry: 'infinity', reason: '', hidden: 'no' }],
          protectedtitles: [{ ns: 0 }],
          pages: [{ pageid: 1, ns: 0, title: 'A', extlinks: [{ id: 'a', url: 'http://x.test/' }, 'http://y.test/'] }],
        }),
      ),
    );
    const problems = await verifyCassettes(dir, KEY_RULES, LIST_ENTITIES);
    const prefix = `bad: cassette file ${file} is not a cassette: `;
    expect(problems).toEqual([
      `${prefix}"entities.logevents[1].logid" is "x", not a whole number`,
      `${prefix}"entities.logevents[2].timestamp" is 20240301, not a string`,
      `${prefix}"entities.blocks[0].id" is "3", not a whole number`,
      `${prefix}"entities.blocks[0].hidden" is "no", not true or false`,
      `${prefix}"entities.protectedtitles[0].title" is missing, not a string`,
      `${prefix}"entities.pages[0].extlinks[0].id" is "a", not a whole number`,
      `${prefix}"entities.pages[0].extlinks[1]" is not an object`,
      `${prefix}interaction 1: "x": "status" is not an HTTP status from 200 to 599`,
      `${prefix}interaction 2: it is not a JSON object`,
      expect.stringMatching(/^bad: key "list=blocks&action=query" is not canonical; its request gives "action=query&bkdir=older/),
    ]);
    // Replay refuses the file at start, naming the first problem (it once served logid "x").
    await expect(startServer({ cassettes: dir })).rejects.toThrow(`cassette file ${file} is not a cassette: "entities.logevents[1].logid" is "x", not a whole number`);
  });
});
