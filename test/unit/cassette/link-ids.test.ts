import { describe, expect, it } from 'vitest';
import type { Interaction } from '../../../src/cassette/format.js';
import { idBounds } from '../../../src/wiki/link-bounds.js';
import { learnLinkIds } from '../../../src/cassette/link-ids.js';
import { emptyModel, type Page } from '../../../src/wiki/model.js';

/** External links' el_ids learned from recorded continuation (cassette/link-ids.ts), on 1.43 (tokens are the el_id alone). */
function page(pageid: number, urls: string[]): Page {
  return { pageid, ns: 0, title: `P${pageid}`, extlinks: urls.map((url) => ({ id: 0, url })) };
}

function answer(titles: string, shown: Page[], next: string | null, params: Record<string, string> = {}): Interaction {
  const request = { action: 'query', prop: 'extlinks', titles, format: 'json', formatversion: '2', ...params };
  const body = { batchcomplete: true, ...(next ? { continue: { elcontinue: next, continue: '||' } } : {}), query: { pages: shown.map((p) => ({ pageid: p.pageid, ns: 0, title: p.title, extlinks: p.extlinks.map((l) => ({ url: l.url })) })) } };
  return { key: new URLSearchParams(request).toString(), request, status: 200, headers: {}, body, recordedAt: '2024-03-01T00:00:00Z' };
}

describe('el_ids from continuation (1.43)', () => {
  it('an answer continuing at a token its own question was issued shows the row at it first, even with several links of one page', () => {
    const a = page(1, ['https://a.example/0', 'https://a.example/1', 'https://a.example/2']);
    const b = page(2, ['https://b.example/0']);
    const model = { ...emptyModel(), pages: [a, b] };
    learnLinkIds(model, () => [
      // ellimit=1 from the start: a's first link, then the token of the next row (id 11).
      answer('P1|P2', [{ ...a, extlinks: a.extlinks.slice(0, 1) }], '11', { ellimit: '1' }),
      // From 11, two links: a's other two, all of a; then b's at 13.
      answer('P1|P2', [{ ...a, extlinks: a.extlinks.slice(1) }], '13', { ellimit: '2', elcontinue: '11' }),
    ]);
    // 11 and 12 (no room for another between 11 and 13); a's first below 11.
    expect(idBounds(a, true)).toEqual([{ lo: 1, hi: 10 }, { lo: 11, hi: 11 }, { lo: 12, hi: 12 }]);
  });

  it('a token another question was issued names no row of this one: what it shows is at or after it, not at it', () => {
    const a = page(1, ['https://a.example/0', 'https://a.example/1']);
    const b = page(2, ['https://b.example/0', 'https://b.example/1']);
    const model = { ...emptyModel(), pages: [a, b] };
    learnLinkIds(model, () => [
      // Page 1's walk issues 5 (its second link).
      answer('P1', [{ ...a, extlinks: a.extlinks.slice(0, 1) }], '5', { ellimit: '1' }),
      // Page 2 asked from 5 shows its own first link, whose id is 9 on the wiki: only ≥ 5 is known.
      answer('P2', [{ ...b, extlinks: b.extlinks.slice(0, 1) }], '10', { ellimit: '1', elcontinue: '5' }),
    ]);
    expect(b.extlinks[0]!.id).toBe(0);
    expect(idBounds(b, true)[0]).toEqual({ lo: 5, hi: 9 });
  });
});
