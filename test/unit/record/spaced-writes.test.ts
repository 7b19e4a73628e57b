import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Low } from 'lowdb';
import type { Cassette } from '../../../src/cassette/format.js';
import type { CassetteStore } from '../../../src/cassette/store.js';
import { SpacedWrites } from '../../../src/record/spaced-writes.js';

/** A store of one cassette whose write takes `ms` (on the fake clock) and is counted. */
function slowStore(ms: number): { store: CassetteStore; writes: () => number } {
  let writes = 0;
  const db = {
    data: {},
    write: () => {
      vi.advanceTimersByTime(ms);
      writes++;
      return Promise.resolve();
    },
  } as unknown as Low<Cassette>;
  return { store: { list: () => Promise.resolve(['s']), open: () => Promise.resolve(db) }, writes: () => writes };
}

describe('snapshot writes its cassette in bounded batches (record/spaced-writes.ts)', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('waits spacing × the last write before the next one, so writing stays a bounded share of the time', async () => {
    const { store, writes } = slowStore(100);
    const spaced = new SpacedWrites(9);
    const db = await spaced.wrap(store).open('s', '');
    await db.write();
    expect(writes()).toBe(1);
    const second = db.write();
    await vi.advanceTimersByTimeAsync(899);
    expect(writes()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await second;
    expect(writes()).toBe(2);
  });

  it('writes at once after hurry(), the pause under way included (the last write of a snapshot)', async () => {
    const { store, writes } = slowStore(100);
    const spaced = new SpacedWrites(9);
    const db = await spaced.wrap(store).open('s', '');
    await db.write();
    const pending = db.write();
    await vi.advanceTimersByTimeAsync(10);
    spaced.hurry();
    await pending;
    expect(writes()).toBe(2);
    await db.write();
    expect(writes()).toBe(3);
  });

  it('keeps the rest of the store as it is', async () => {
    const { store } = slowStore(1);
    expect(await new SpacedWrites(9).wrap(store).list()).toEqual(['s']);
  });
});
