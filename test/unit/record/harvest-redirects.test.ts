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

  it('reads the pages once for an answer naming many redirects, not once per redirect (a snapshot asks 50 at a time)', () => {
    const h = emptyHarvest();
    const titles = Array.from({ length: 400 }, (_, n) => `Page ${n}`);
    harvest(h, { query: { allpages: titles.map((title, n) => ({ pageid: n + 1, ns: 0, title })) } }, { action: 'query', list: 'allpages' });
    let reads = 0;
    h.pages = new Proxy(h.pages, {
      get(target, prop, receiver) {
        if (typeof prop === 'string' && /^\d+$/.test(prop)) reads++;
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const redirects = titles.slice(0, 50).map((from) => ({ from, to: 'Target' }));
    harvest(h, { query: { redirects } }, { action: 'query', titles: titles.slice(0, 50).join('|'), redirects: '1' });
    const harvestReads = reads;
    expect(h.pages.filter((p) => p.redirect === true)).toHaveLength(50);
    expect(h.pages.filter((p) => p.redirect === undefined)).toHaveLength(350);
    // One pass over the 400 pages, and each of the 50 marked pages read again to be replaced.
    expect(harvestReads).toBeLessThan(2 * 400);
  });
});
