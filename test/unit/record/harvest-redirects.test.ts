import { describe, expect, it } from 'vitest';
import { emptyHarvest } from '../../../src/cassette/format.js';
import { harvest } from '../../../src/record/harvest.js';

describe('harvest of redirects', () => {
  it('keeps what query.redirects shows (fragment and interwiki prefix too), later answers winning, and marks the page', () => {
    const h = emptyHarvest();
    harvest(h, { query: { allpages: [{ pageid: 28, ns: 0, title: 'Zeta' }] } }, { action: 'query', list: 'allpages' });
    harvest(h, { query: { redirects: [{ from: 'Zeta', to: 'Зета' }, { from: 'Раздел', to: 'Alpha', tofragment: 'История' }, { from: 'Внешняя', to: 'wikipedia:Foo', tointerwiki: 'wikipedia' }] } }, { action: 'query', titles: 'Zeta|Раздел|Внешняя', redirects: '1' });
    harvest(h, { query: { redirects: [{ from: 'Zeta', to: 'Зета 2' }] } }, { action: 'query', titles: 'Zeta', redirects: '1' });
    expect(h.redirects).toEqual([
      { from: 'Zeta', to: 'Зета 2' },
      { from: 'Раздел', to: 'Alpha', tofragment: 'История' },
      { from: 'Внешняя', to: 'wikipedia:Foo', tointerwiki: 'wikipedia' },
    ]);
    expect(h.pages.find((p) => p.title === 'Zeta')?.redirect).toBe(true);
  });

  it('learns from an answer with `redirects` that the pages it lists are no redirects; without it, nothing', () => {
    const h = emptyHarvest();
    harvest(h, { query: { pages: [{ pageid: 8, ns: 0, title: 'Alpha' }] } }, { action: 'query', titles: 'Alpha' });
    expect(h.pages[0]?.redirect).toBeUndefined();
    harvest(h, { query: { pages: [{ pageid: 8, ns: 0, title: 'Alpha' }, { ns: 0, title: 'Nope', missing: true }] } }, { action: 'query', titles: 'Alpha|Nope', redirects: '1' });
    expect(h.pages[0]?.redirect).toBe(false);
  });
});
