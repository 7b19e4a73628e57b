import { describe, expect, it } from 'vitest';
import { MODULES } from '../../../src/modules/index.js';
import { mergeModel } from '../../../src/replay/replay-model.js';
import { mergeFixture } from '../../../src/wiki/fixtures.js';
import { emptyModel } from '../../../src/wiki/model.js';
import { ownKinds } from '../../../src/api/list-module.js';

/** Loading a big wiki in memory (issue 25): merges are linear, and no list is spread into a call. */
describe('merging models', () => {
  const LISTS = MODULES.query.list;
  const redirects = (from: number, n: number, to: string) => Array.from({ length: n }, (_, i) => ({ from: `R${from + i}`, to }));

  it('merges 60k redirects into 60k held, and 300k spam lines, in linear time, the recorded redirect kept', () => {
    const into = { ...emptyModel(), redirects: redirects(0, 60_000, 'Recorded') };
    const fixture = { ...emptyModel(), redirects: redirects(30_000, 60_000, 'Fixture'), spamBlacklist: Array.from({ length: 300_000 }, (_, i) => `spam${i}\\.example`) };
    const t = performance.now();
    mergeModel(into, fixture, LISTS);
    expect(performance.now() - t).toBeLessThan(2000);
    expect(into.redirects).toHaveLength(90_000);
    expect(into.redirects!.find((r) => r.from === 'R40000')!.to).toBe('Recorded');
    expect(into.redirects!.at(-1)).toEqual({ from: 'R89999', to: 'Fixture' });
    expect(into.spamBlacklist).toHaveLength(300_000);
  });

  it('reads a fixture of 300k spam lines (no call stack wall)', () => {
    const model = emptyModel();
    mergeFixture(model, { spamWhitelist: Array.from({ length: 300_000 }, (_, i) => `ok${i}`) }, ownKinds(LISTS));
    expect(model.spamWhitelist).toHaveLength(300_000);
  });
});
