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

  it("keeps a log entry's params, tags and hidden parts when a later walk without the props that print them sees it again", () => {
    const into = emptyHarvest(ENTITY_KINDS);
    const params = { duration: '1 day', flags: ['nousertalk'], sitewide: true, expiry: '2026-11-28T19:36:07Z' };
    harvest(into, { query: { logevents: [event(1, { params, tags: ['mw-blank'], commenthidden: true, suppressed: true })] } }, { leprop: 'comment|details|ids|tags|timestamp|title|type' });
    harvest(into, { query: { logevents: [event(1, { user: 'Admin' })] } }, { leprop: 'ids|timestamp|title|type|user' });
    expect(into['logevents']).toEqual([{ ...event(1), params, tags: ['mw-blank'], deleted: 2 | 8, user: 'Admin', known: ['comment', 'details', 'ids', 'tags', 'timestamp', 'title', 'type', 'user'] }]);
    // A later walk that prints the comment and shows it no longer hidden: not hidden, not suppressed.
    harvest(into, { query: { logevents: [event(1, { comment: 'shown' })] } }, { leprop: 'comment|ids|timestamp|title|type' });
    expect(into['logevents']![0]).toMatchObject({ params, tags: ['mw-blank'], comment: 'shown' });
    expect(into['logevents']![0]).not.toHaveProperty('deleted');
  });

  it('finds the entity again when its list was replaced or changed between answers (cassettes diff drops vanished ones)', () => {
    const into = emptyHarvest(ENTITY_KINDS);
    const ts = '2024-01-01T00:00:00Z';
    harvest(into, { query: { blocks: [{ id: 1, user: 'A', timestamp: ts }, { id: 2, user: 'B', timestamp: ts }] } }, { bkprop: 'id|timestamp|user' });
    into['blocks'] = into['blocks']!.filter((b) => (b as { id: number }).id !== 1);
    harvest(into, { query: { blocks: [{ id: 2, by: 'Admin', timestamp: ts }, { id: 3, user: 'C', timestamp: ts }] } }, { bkprop: 'by|id|timestamp' });
    expect(into['blocks']!.map((b) => (b as { id: number }).id)).toEqual([2, 3]);
    expect(into['blocks']![0]).toMatchObject({ id: 2, user: 'B', by: 'Admin', known: ['by', 'id', 'timestamp', 'user'] });
  });

  it('keeps what earlier answers showed of the same version of an entity; a changed version, or one an answer cannot tell, replaces it', () => {
    const into = emptyHarvest(ENTITY_KINDS);
    const pt = (extra: Record<string, unknown>) => ({ ns: 0, title: 'Gone', timestamp: '2024-01-01T00:00:00Z', level: 'sysop', ...extra });
    // A snapshot's walk with every prop, then a default-props walk (timestamp, level) of the same protection.
    harvest(into, { query: { protectedtitles: [pt({ user: 'Admin', userid: 1, comment: 'spam', expiry: 'infinity' })] } }, { ptprop: 'comment|expiry|level|timestamp|user|userid' });
    harvest(into, { query: { protectedtitles: [pt({})] } }, { ptprop: 'level|timestamp' });
    expect(into['protectedtitles']).toEqual([pt({ user: 'Admin', userid: 1, comment: 'spam', expiry: 'infinity', known: ['comment', 'expiry', 'level', 'timestamp', 'user', 'userid'] })]);
    // Protected again (a new timestamp and level): what the first protection showed is no longer known.
    harvest(into, { query: { protectedtitles: [pt({ timestamp: '2024-02-01T00:00:00Z', level: 'autoconfirmed' })] } }, { ptprop: 'level|timestamp' });
    expect(into['protectedtitles']).toEqual([pt({ timestamp: '2024-02-01T00:00:00Z', level: 'autoconfirmed', known: ['level', 'timestamp'] })]);
    // A block seen without its timestamp cannot be told from a changed one.
    harvest(into, { query: { blocks: [{ id: 4, user: 'A', by: 'Admin', timestamp: '2024-01-01T00:00:00Z' }] } }, { bkprop: 'by|id|timestamp|user' });
    harvest(into, { query: { blocks: [{ id: 4, user: 'A' }] } }, { bkprop: 'id|user' });
    expect(into['blocks']).toEqual([{ id: 4, user: 'A', known: ['id', 'user'] }]);
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
