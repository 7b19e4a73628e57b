import { describe, expect, it } from 'vitest';
import type { Interaction } from '../../../src/cassette/format.js';
import { completeWalks, computeCoverage, isCovered } from '../../../src/cassette/coverage.js';
import { parseUrlEncoded } from '../../../src/request/params.js';
import { MODULES } from '../../../src/modules/index.js';

const LISTS = MODULES.query.list;

const page = (request: Record<string, string>, cont?: string): Interaction => ({
  key: new URLSearchParams(request).toString(),
  request,
  status: 200,
  headers: {},
  body: cont ? { batchcomplete: true, continue: { lecontinue: cont, continue: '-||' }, query: { logevents: [] } } : { batchcomplete: true, query: { logevents: [] } },
  recordedAt: '2024-01-01T00:00:00Z',
});
const base = { action: 'query', list: 'logevents', ledir: 'older', lelimit: '2', leprop: 'comment|details|ids|timestamp|title|type|user' };
const walk = [page(base, 'A|2'), page({ ...base, lecontinue: 'A|2' }, 'B|1'), page({ ...base, lecontinue: 'B|1' })];

describe('the coverage rule', () => {
  it('covers a list when a walk runs from the first page to a page without continue', () => {
    expect([...computeCoverage(walk, LISTS).keys()]).toEqual(['logevents']);
  });

  it('gives the walked parts and their times from one pass over the recordings', () => {
    const once = (function* () {
      yield* walk;
    })();
    expect(completeWalks(once, LISTS)).toEqual({ walks: new Map([['logevents', new Set([''])]]), walkTimes: new Map([['logevents', new Map([['', '2024-01-01T00:00:00Z']])]]), walkPrefixes: new Map() });
  });

  it('does not cover a list whose walk has a gap or stops early', () => {
    expect(computeCoverage([walk[0]!, walk[2]!], LISTS).size).toBe(0);
    expect(computeCoverage([walk[0]!, walk[1]!], LISTS).size).toBe(0);
  });

  it('keeps the first pages of a walk that stops early: where the stretch they show ends', () => {
    const prefix = (pages: Interaction[]) => completeWalks(pages, LISTS).walkPrefixes.get('logevents');
    expect(prefix([walk[0]!, walk[1]!])).toEqual([{ scope: '', dir: 'older', until: 'B|1', recordedAt: '2024-01-01T00:00:00Z' }]);
    // (up to the gap: the page after it starts nowhere the walk reached)
    expect(prefix([walk[0]!, walk[2]!])).toEqual([{ scope: '', dir: 'older', until: 'A|2', recordedAt: '2024-01-01T00:00:00Z' }]);
    // Pages without the first prove no stretch from the list's first entry; a walk without ids names no entry.
    expect(prefix([walk[1]!])).toBeUndefined();
    expect(prefix([page({ ...base, leprop: 'title|type' }, 'A|2')])).toBeUndefined();
  });

  it('takes a filtered walk for its part of the list and every narrower one, never for the whole list or another part', () => {
    const filtered = walk.map((i) => page({ ...i.request, letype: 'block', leuser: 'Admin' }, (i.body['continue'] as Record<string, string> | undefined)?.['lecontinue']));
    const coverage = computeCoverage(filtered, LISTS);
    expect([...(coverage.get('logevents')?.keys() ?? [])]).toEqual(['type=block&user=Admin']);
    for (const qs of [
      'action=query&list=logevents&letype=block&leuser=Admin&lelimit=7',
      'action=query&list=logevents&leuser=Admin&letype=block&ledir=newer&lenamespace=2',
      'action=query&list=logevents&letype=block&leuser=Admin&letag=bot&lestart=2024-01-01T00:00:00Z',
    ]) {
      expect(isCovered(parseUrlEncoded(qs), coverage, LISTS), qs).toBe(true);
    }
    for (const qs of [
      'action=query&list=logevents',
      'action=query&list=logevents&letype=block',
      'action=query&list=logevents&leuser=Admin',
      'action=query&list=logevents&letype=block&leuser=Admin2',
      // leaction sets the type itself: letype beside it filters nothing
      'action=query&list=logevents&letype=block&leuser=Admin&leaction=delete/delete',
    ]) {
      expect(isCovered(parseUrlEncoded(qs), coverage, LISTS), qs).toBe(false);
    }
  });

  it('takes the walks real clients make: with the meta modules and the parameters they add to every page', () => {
    const as = (added: Record<string, string>, first: Record<string, string> = {}) =>
      walk.map((i, n) => page({ ...i.request, ...added, ...(n === 0 ? first : {}) }, (i.body['continue'] as Record<string, string> | undefined)?.['lecontinue']));
    // mwclient: its userinfo on every page (done after the first: `continue=-||userinfo`)
    const mwclient = as({ meta: 'userinfo', uiprop: 'blockinfo|hasmsg', continue: '-||userinfo' }, { continue: '' });
    // wikijs: `redirects`; logged-in bots: `assert`, `assertuser`; jQuery's cache buster (kept in the key by name); a client asking siteinfo beside
    for (const pages of [mwclient, as({ redirects: '1' }), as({ assert: 'user', assertuser: 'Bot' }), as({ _: '' }), as({ meta: 'siteinfo', siprop: 'general' })]) {
      expect(completeWalks(pages, LISTS).walks, JSON.stringify(pages[1]!.request)).toEqual(new Map([['logevents', new Set([''])]]));
    }
    // Beside a module whose part could hold anything, or with a page set: no walk.
    const others: Record<string, string>[] = [{ meta: 'tokens' }, { meta: 'userinfo|tokens' }, { prop: 'info' }, { titles: 'Alpha' }, { uselang: 'en', foo: '1' }];
    for (const added of others) {
      expect(computeCoverage(as(added), LISTS).size, JSON.stringify(added)).toBe(0);
    }
  });

  it('does not take a walk with a time window for a walk of anything', () => {
    const windowed = walk.map((i) => page({ ...i.request, lestart: '2024-01-01T00:00:00Z' }, (i.body['continue'] as Record<string, string> | undefined)?.['lecontinue']));
    expect(computeCoverage(windowed, LISTS).size).toBe(0);
  });

  it('answers other limits, continuation points, directions, filters and prop subsets of a covered list', () => {
    const coverage = computeCoverage(walk, LISTS);
    for (const qs of [
      'action=query&list=logevents&lelimit=7&format=json',
      'action=query&list=logevents&lecontinue=X|9&continue=-||&formatversion=2',
      'action=query&list=logevents&ledir=newer&letype=block&leuser=Admin',
      'action=query&list=logevents&leprop=ids|title',
    ]) {
      expect(isCovered(parseUrlEncoded(qs), coverage, LISTS), qs).toBe(true);
    }
  });

  it('does not answer props the walk did not record, other modules, or other lists', () => {
    const coverage = computeCoverage(walk, LISTS);
    for (const qs of [
      'action=query&list=logevents&leprop=ids|tags',
      'action=query&list=logevents&meta=siteinfo',
      'action=query&list=logevents|blocks',
      'action=query&list=blocks',
      'action=query&list=logevents&foo=1',
    ]) {
      expect(isCovered(parseUrlEncoded(qs), coverage, LISTS), qs).toBe(false);
    }
  });
});
