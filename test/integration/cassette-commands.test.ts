import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listCassettes, showInteraction, verifyCassettes } from '../../src/cassette/commands.js';
import { canonicalKey } from '../../src/request/canonical.js';

const request = { action: 'query', list: 'blocks' };
const interaction = { key: canonicalKey(new Map(Object.entries(request))), request, status: 200, headers: {}, body: { batchcomplete: true, query: { blocks: [] } }, recordedAt: '2024-01-01T00:00:00Z' };
const cassette = (interactions: unknown[]) => ({ meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-01T00:00:00Z', profile: { version: '1.39.17', language: 'ru' } }, interactions, entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] } });

describe('wikitape cassettes', () => {
  it('lists what each cassette holds, per module', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-cmd-'));
    await writeFile(join(dir, 'a.json'), JSON.stringify(cassette([interaction])));
    expect(await listCassettes(dir)).toEqual([
      { name: 'a', interactions: 1, modules: { 'query+blocks': 1 }, version: '1.39.17', language: 'ru', upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-01T00:00:00Z' },
    ]);
    expect(await showInteraction(dir, 'a', '0')).toEqual(interaction);
    expect(await showInteraction(dir, 'a', interaction.key)).toEqual(interaction);
  });

  it('verifies that every file loads and every key is canonical', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-cmd-'));
    await writeFile(join(dir, 'good.json'), JSON.stringify(cassette([interaction])));
    expect(await verifyCassettes(dir)).toEqual([]);
    await writeFile(join(dir, 'broken.json'), '{"meta": ');
    await writeFile(join(dir, 'bad.json'), JSON.stringify(cassette([{ ...interaction, key: 'list=blocks&action=query' }, { ...interaction, body: { debuginfo: {} } }])));
    const problems = await verifyCassettes(dir);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^bad: key "list=blocks&action=query" is not canonical; its request gives "action=query&bkdir=older/);
    expect(problems[1]).toBe(`bad: "${interaction.key}" stores debuginfo`);
    expect(problems[2]).toMatch(/^broken: does not load as JSON/);
  });
});
