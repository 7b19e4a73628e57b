import { closeSync, openSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Cassette, Interaction } from '../../../src/cassette/format.js';
import { emptyCassette } from '../../../src/cassette/format.js';
import { MODULES } from '../../../src/modules/index.js';
import { readInteraction, scanCassette } from '../../../src/cassette/scan.js';
import { FileCassetteStore } from '../../../src/cassette/store.js';
import { loadCassettes } from '../../../src/replay/cassette-index.js';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../../../src/util/ordered-json.js';

const interaction = (n: number): Interaction => ({
  key: `action=query&list=logevents&lelimit=${n}`,
  request: { action: 'query', list: 'logevents', lelimit: String(n) },
  status: 200,
  headers: { 'cache-control': 'private, must-revalidate, max-age=0' },
  // nested objects, Cyrillic, a "}" and a line break inside strings, integer-like keys out of order
  body: { batchcomplete: true, query: { logevents: [{ logid: n, title: `Страница }\n ${'x'.repeat(n * 37)}`, params: { '-1': 'a', '0': 'b' } }] } },
  recordedAt: '2026-11-23T00:00:00.000Z',
});

function cassetteOf(n: number): Cassette {
  const c = emptyCassette('http://wiki.test/w/api.php', new Date('2026-11-23T00:00:00Z'));
  c.interactions = Array.from({ length: n }, (_, i) => interaction(i + 1));
  c.entities.missing.push({ ns: 0, title: 'Нет' });
  return c;
}

async function written(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-scan-'));
  await writeFile(join(dir, 'c.json'), text);
  return dir;
}

function scan(dir: string) {
  const fd = openSync(join(dir, 'c.json'), 'r');
  try {
    return { s: scanCassette(fd) };
  } finally {
    closeSync(fd);
  }
}

describe('scanning a cassette file', () => {
  it('finds every interaction of a file wikitape wrote, byte for byte, even with a window smaller than one interaction', async () => {
    const c = cassetteOf(40);
    const dir = await written(`${stringifyKeepingKeyOrder(c, 2)}\n`);
    for (const windowBytes of [64, 1000, 8 << 20]) {
      const fd = openSync(join(dir, 'c.json'), 'r');
      const s = scanCassette(fd, windowBytes)!;
      expect(s.interactions.map((i) => i.key)).toEqual(c.interactions.map((i) => i.key));
      for (const [n, where] of s.interactions.entries()) {
        expect(stringifyKeepingKeyOrder(readInteraction(fd, where))).toBe(stringifyKeepingKeyOrder(c.interactions[n]));
      }
      expect(stringifyKeepingKeyOrder(s.rest)).toBe(stringifyKeepingKeyOrder({ meta: c.meta, entities: c.entities }));
      closeSync(fd);
    }
  });

  it('reads a file without a final line break, and one without interactions', async () => {
    const a = scan(await written(stringifyKeepingKeyOrder(cassetteOf(3), 2))).s;
    expect(a?.interactions).toHaveLength(3);
    const b = scan(await written(`${stringifyKeepingKeyOrder(cassetteOf(0), 2)}\n`)).s;
    expect(b?.interactions).toEqual([]);
    expect(b?.rest.entities.missing).toEqual([{ ns: 0, title: 'Нет' }]);
  });

  it('declines files in another layout, which then load whole', async () => {
    const c = cassetteOf(3);
    for (const text of [JSON.stringify(c), stringifyKeepingKeyOrder(c, 4), stringifyKeepingKeyOrder({ ...c, interactions: c.interactions.map(({ request, ...i }) => ({ request, ...i })) }, 2)]) {
      const dir = await written(text);
      expect(scan(dir).s).toBeNull();
      const index = await loadCassettes(new FileCassetteStore(dir), MODULES.query.list);
      expect([...index.interactions.keys()]).toEqual(c.interactions.map((i) => i.key));
      const inFile = (parseKeepingKeyOrder(text) as Cassette).interactions[1];
      expect(stringifyKeepingKeyOrder(index.interactions.get(c.interactions[1]!.key))).toBe(stringifyKeepingKeyOrder(inFile));
    }
  });

  it('loads a scanned cassette lazily: the same interactions as a whole parse, read when asked for', async () => {
    const c = cassetteOf(30);
    const dir = await written(`${stringifyKeepingKeyOrder(c, 2)}\n`);
    const index = await loadCassettes(new FileCassetteStore(dir), MODULES.query.list);
    expect(index.interactions.size).toBe(30);
    expect(index.upstream).toBe('http://wiki.test/w/api.php');
    for (const i of c.interactions) expect(stringifyKeepingKeyOrder(index.interactions.get(i.key))).toBe(stringifyKeepingKeyOrder(i));
    expect([...index.interactions.values((k) => k.endsWith('=7'))].map((i) => i.key)).toEqual(['action=query&list=logevents&lelimit=7']);
    expect(index.interactions.get('action=query&list=blocks')).toBeUndefined();
    index.interactions.close();
  });

  it('keeps the entities of each kind a cassette lists, and takes a kind it lacks (recorded before its list was added) as none', async () => {
    const c = cassetteOf(2);
    c.entities['blocks'] = [{ id: 3, user: 'Вандал' }];
    const index = await loadCassettes(new FileCassetteStore(await written(`${stringifyKeepingKeyOrder(c, 2)}\n`)), MODULES.query.list);
    expect(index.model.entities.get('blocks')).toEqual([{ id: 3, user: 'Вандал' }]);
    expect(index.model.entities.get('logevents') ?? []).toEqual([]);
    expect(index.model.missing).toEqual([{ ns: 0, title: 'Нет' }]);
    index.interactions.close();
  });
});
