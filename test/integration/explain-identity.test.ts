import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngine } from '../../src/app.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { cliTest, runCli } from '../support/cli.js';

/**
 * `cassettes explain` asks a logged-in question: `--as USER` (the library: `explain(query, { identity })`),
 * or the log line's form, the identity after ` @` as the logs print it (`… @Admin%40bot`).
 */
const Q = 'action=query&list=blocks&bklimit=5';
const KEY = canonicalKey(new Map(new URLSearchParams(Q)), KEY_RULES);
const ID = 'Admin@bot';
const rec = (user?: string) => ({
  key: user ? `${KEY} @${encodeURIComponent(user)}` : KEY,
  request: { action: 'query', list: 'blocks', bklimit: '5' },
  status: 200,
  headers: {},
  body: { batchcomplete: true, query: { blocks: [] } },
  recordedAt: '2024-03-01T00:00:00.000Z',
  ...(user ? { user } : {}),
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-explain-as-'));
  const cassette = {
    meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-03-01T00:00:00.000Z', profile: { version: '1.43.5', language: 'en', scriptPath: '/w', debugInfo: false } },
    interactions: [rec(ID)],
    entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
  };
  await writeFile(join(dir, 'bot.json'), JSON.stringify(cassette));
});

describe('cassettes explain, logged in', () => {
  it('the library: the identity as an option, or after " @" as the logs print it; anonymous is another question', async () => {
    const engine = await loadEngine({ cassettes: dir });
    try {
      const asBot = engine.explain(Q, { identity: ID });
      expect(asBot).toMatchObject({ key: `${KEY} @Admin%40bot`, source: 'cassette', used: `the recording ${KEY} @Admin%40bot`, unknown: [] });
      expect(engine.explain(`${Q} @Admin%40bot`)).toEqual(asBot);
      expect(engine.explain(`?${Q} @${ID}`)).toEqual(asBot);
      // The recording is the bot's: an anonymous question is not answered from it, and its closest recording is none of the bot's.
      const anon = engine.explain(Q);
      expect(anon.source).not.toBe('cassette');
      expect(anon.key).toBe(KEY);
      expect(() => engine.explain(`${Q} @Other`, { identity: ID })).toThrow('names the identity Other (after " @") and the option names Admin@bot');
    } finally {
      engine.close();
    }
  });

  it('the CLI: --as USER, and the log line pasted as it is', cliTest(3), async () => {
    const as = await runCli(['cassettes', 'explain', Q, '--as', ID, '--cassettes', dir]);
    expect(as.stdout).toBe(`question: ${KEY} @Admin%40bot\nanswer: cassette, HTTP 200\nfrom: the recording ${KEY} @Admin%40bot\nunknown: nothing\n`);
    expect(as.code).toBe(0);
    const pasted = await runCli(['cassettes', 'explain', `${KEY} @Admin%40bot`, '--cassettes', dir]);
    expect(pasted.stdout).toBe(as.stdout);
    expect(pasted.code).toBe(0);
    const anon = await runCli(['cassettes', 'explain', Q, '--cassettes', dir]);
    expect(anon.stdout).toContain(`question: ${KEY}\n`);
    expect(anon.code).toBe(1);
  });
});
