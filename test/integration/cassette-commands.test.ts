import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listCassettes, pruneCassettes, readUsage, showInteraction, verifyCassettes } from '../../src/cassette/commands.js';
import { canonicalKey, canonicalParams } from '../../src/request/canonical.js';
import { startServer } from '../../src/server.js';
import { KEY_RULES, LIST_ENTITIES, MODULES } from '../../src/modules/index.js';

/** A request as record mode stores it: canonical, defaults explicit. */
const request = Object.fromEntries(canonicalParams(new Map([['action', 'query'], ['list', 'blocks']]), KEY_RULES));
const interaction = { key: canonicalKey(new Map(Object.entries(request)), KEY_RULES), request, status: 200, headers: {}, body: { batchcomplete: true, query: { blocks: [] } }, recordedAt: '2024-01-01T00:00:00Z' };
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
    expect(await verifyCassettes(dir, KEY_RULES, LIST_ENTITIES)).toEqual([]);
    await writeFile(join(dir, 'broken.json'), '{"meta": ');
    await writeFile(join(dir, 'bad.json'), JSON.stringify(cassette([{ ...interaction, key: 'list=blocks&action=query' }, { ...interaction, body: { debuginfo: {} } }])));
    const problems = await verifyCassettes(dir, KEY_RULES, LIST_ENTITIES);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^bad: key "list=blocks&action=query" is not canonical; its request gives "action=query&bkdir=older/);
    expect(problems[1]).toBe(`bad: "${interaction.key}" stores debuginfo`);
    expect(problems[2]).toMatch(/^broken: cassette file \/.*\/broken\.json cannot be read: it is not JSON \(/);
  });
});

describe('usage tracking and prune', () => {
  it('keeps what a test run used (and the walks behind synthesized answers) and removes the rest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-prune-'));
    const other = { action: 'query', list: 'protectedtitles', ptlevel: 'sysop' };
    const otherInteraction = { ...interaction, key: canonicalKey(new Map(Object.entries(other)), KEY_RULES), request: other, body: { batchcomplete: true, query: { protectedtitles: [] } } };
    await writeFile(join(dir, 'c.json'), JSON.stringify(cassette([interaction, otherInteraction])));
    const usageFile = join(await mkdtemp(join(tmpdir(), 'wikitape-usage-')), 'usage.json');
    const wiki = await startServer({ cassettes: dir, trackUsage: usageFile });
    await fetch(`${wiki.url}?action=query&list=blocks&format=json`);
    // The recorded blocks page is a complete walk: another limit is synthesized from it.
    expect((await fetch(`${wiki.url}?action=query&list=blocks&bklimit=1&format=json`)).headers.get('x-wikitape-source')).toBe('synthesized');
    await wiki.close();
    const usage = await readUsage(usageFile);
    expect([...usage].sort()).toEqual([interaction.key, 'list:blocks']);
    // A dry run says what would go, by key.
    expect(await pruneCassettes(dir, usage, MODULES.query.list, true)).toEqual([{ name: 'c', removed: 1, kept: 1, removedKeys: [otherInteraction.key] }]);
    expect((await listCassettes(dir))[0]!.interactions).toBe(2);
    await pruneCassettes(dir, usage, MODULES.query.list);
    expect((await listCassettes(dir))[0]!.interactions).toBe(1);
    // A run that only synthesized from the walk keeps the walk.
    expect(await pruneCassettes(dir, new Set(['list:blocks']), MODULES.query.list, true)).toEqual([{ name: 'c', removed: 0, kept: 1, removedKeys: [] }]);
  });
});
