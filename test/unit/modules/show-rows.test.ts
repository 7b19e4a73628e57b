import { describe, expect, it } from 'vitest';
import type { ApiContext } from '../../../src/api/context.js';
import { holdsFrozen, isFrozenJson } from '../../../src/api/frozen.js';
import { ApiResult, type JsonObject } from '../../../src/api/result.js';
import { showRows } from '../../../src/modules/list-support.js';

/** A page of `entities` put into a fresh answer by showRows; the rows and how many were built. */
function show(entities: object[], variant: string, name = 'logevents'): { rows: JsonObject[]; built: number; ctx: ApiContext } {
  const ctx = { result: new ApiResult() } as unknown as ApiContext;
  let built = 0;
  showRows(ctx, name, entities, variant, (e) => {
    built++;
    return { ...(e as JsonObject), variant };
  });
  return { rows: ctx.result.query()[name] as JsonObject[], built, ctx };
}

describe('showRows: a list page of rows kept per entity and variant', () => {
  it('builds a row once per entity and variant, and puts the page into the answer marked for the printer', () => {
    const a = { logid: 1, known: ['ids'] };
    const b = { logid: 2, known: ['ids'] };
    const first = show([a, b], 'ids');
    expect(first.built).toBe(2);
    expect(first.rows).toEqual([{ logid: 1, known: ['ids'], variant: 'ids' }, { logid: 2, known: ['ids'], variant: 'ids' }]);
    // shown once, the page is printed in one pass; shown again, from the rows' kept texts
    expect([holdsFrozen(first.ctx.result.query()), holdsFrozen(first.rows), isFrozenJson(first.rows[0]!)]).toEqual([false, false, false]);
    const again = show([b, a], 'ids');
    expect(again.built).toBe(0);
    expect(again.rows[0]).toBe(first.rows[1]);
    expect([holdsFrozen(again.ctx.result.query()), holdsFrozen(again.rows), isFrozenJson(again.rows[0]!), isFrozenJson(again.rows[1]!)]).toEqual([true, true, true, true]);
    // another variant (other props, rights, language) or another list: built for it
    expect(show([a], 'ids|title').built).toBe(1);
    expect(show([a], 'ids', 'blocks').built).toBe(1);
  });

  it('keeps rows frozen: a change to one throws instead of changing later answers', () => {
    const { rows } = show([{ logid: 3 }], 'x');
    expect(() => {
      rows[0]!['logid'] = 4;
    }).toThrow(TypeError);
  });

  it('builds again when the entity learned a prop (a derivation filled a field in)', () => {
    const e: { logid: number; known: string[]; userid?: number } = { logid: 5, known: ['user'] };
    expect(show([e], 'user|userid').rows[0]).not.toHaveProperty('userid');
    e.userid = 7;
    e.known = ['user', 'userid'];
    const after = show([e], 'user|userid');
    expect(after.built).toBe(1);
    expect(after.rows[0]).toMatchObject({ userid: 7 });
  });

  it('flags again, each time a kept row is shown, what its build flagged', () => {
    const e = { logid: 9 };
    const flagged = () => {
      const unknown: string[] = [];
      const ctx = { result: new ApiResult(), unknown: (what: string, how?: string) => void unknown.push(how ? `${what} (${how})` : what) } as unknown as ApiContext;
      let built = 0;
      showRows(ctx, 'logevents', [e], 'flags', (row, c) => {
        built++;
        c.unknown('pages.existence');
        c.unknown('login.password', 'said');
        return { ...row };
      });
      return { unknown, built };
    };
    expect(flagged()).toEqual({ unknown: ['pages.existence', 'login.password (said)'], built: 1 });
    expect(flagged()).toEqual({ unknown: ['pages.existence', 'login.password (said)'], built: 0 });
  });

  it('builds again over another model or knowledge (a row reads which pages exist)', () => {
    const e = { logid: 10 };
    const over = (knows: object) => {
      let built = 0;
      showRows({ result: new ApiResult(), knows } as unknown as ApiContext, 'logevents', [e], 'k', (row) => (built++, { ...row }));
      return built;
    };
    const readers = {};
    expect([over(readers), over(readers), over({}), over(readers)]).toEqual([1, 0, 1, 1]);
  });

  it('keeps the rows of the entities shown last only: memory does not grow with the wiki', () => {
    const early = { logid: 0 };
    show([early], 'v');
    for (let i = 0; i < 20; i++) show(Array.from({ length: 1000 }, (_, j) => ({ logid: i * 1000 + j + 1 })), 'v');
    expect(show([early], 'v').built).toBe(1);
  });
});
