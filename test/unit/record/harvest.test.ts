import { describe, expect, it } from 'vitest';
import { emptyHarvest } from '../../../src/cassette/format.js';
import { ENTITY_KINDS } from '../../../src/modules/index.js';
import { harvest } from '../../../src/record/harvest.js';

const event = (logid: number, extra: Record<string, unknown> = {}) => ({ logid, ns: 0, title: 'X', type: 'create', action: 'create', timestamp: '2024-01-01T00:00:00Z', ...extra });

describe('harvest: entities into the cassette, each once, as its list module reads and merges them', () => {
  it('merges an entity seen again into the one held: its fields added, the props both answers showed known', () => {
    const into = emptyHarvest(ENTITY_KINDS);
    harvest(into, { query: { logevents: [event(1), event(2)] } }, { leprop: 'ids|title|timestamp|type' });
    harvest(into, { query: { logevents: [event(2, { user: 'Admin', userid: 1 })] } }, { leprop: 'user|userid|timestamp' });
    expect(into['logevents']).toEqual([
      { tags: [], params: {}, ...event(1), known: ['ids', 'timestamp', 'title', 'type'] },
      { tags: [], params: {}, ...event(2), user: 'Admin', userid: 1, known: ['ids', 'timestamp', 'title', 'type', 'user', 'userid'] },
    ]);
  });

  it('finds the entity again when its list was replaced or changed between answers (cassettes diff drops vanished ones)', () => {
    const into = emptyHarvest(ENTITY_KINDS);
    harvest(into, { query: { blocks: [{ id: 1, user: 'A' }, { id: 2, user: 'B' }] } }, { bkprop: 'id|user' });
    into['blocks'] = into['blocks']!.filter((b) => (b as { id: number }).id !== 1);
    harvest(into, { query: { blocks: [{ id: 2, by: 'Admin' }, { id: 3, user: 'C' }] } }, { bkprop: 'id|by' });
    expect(into['blocks']!.map((b) => (b as { id: number }).id)).toEqual([2, 3]);
    expect(into['blocks']![0]).toMatchObject({ id: 2, user: 'B', by: 'Admin', known: ['by', 'id', 'user'] });
  });

  it('marks the pages a walk of redirects shows, and keeps the mark when a later answer lists them plainly', () => {
    const into = emptyHarvest(ENTITY_KINDS);
    harvest(into, { query: { allpages: [{ pageid: 9, ns: 0, title: 'Beta' }] } }, { list: 'allpages', apfilterredir: 'redirects' });
    harvest(into, { query: { allpages: [{ pageid: 8, ns: 0, title: 'Alpha' }, { pageid: 9, ns: 0, title: 'Beta' }] } }, { list: 'allpages' });
    expect(into.pages).toEqual([
      { pageid: 9, ns: 0, title: 'Beta', extlinks: [], redirect: true },
      { pageid: 8, ns: 0, title: 'Alpha', extlinks: [] },
    ]);
  });
});
