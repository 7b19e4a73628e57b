import { describe, expect, it } from 'vitest';
import type { ApiContext } from '../../../src/api/context.js';
import { needProps, needPropsOfAll } from '../../../src/modules/list-support.js';
import { MemoryEntityTable, tableOver } from '../../../src/wiki/entity-table.js';

/** The table the modules read a list through (made again when the list grew, as tableOf does). */
const table = (all: { known?: string[] }[]) => tableOver(all, 'test', (items) => new MemoryEntityTable(items, () => '', {}));

/** The flags a check raises, with `knows` standing for the knowledge worked out. */
function flags(check: (ctx: ApiContext) => void, knows: object = {}): string[] {
  const out = new Set<string>();
  check({ knows, unknown: (w: string) => out.add(w) } as unknown as ApiContext);
  return [...out].sort();
}

describe('a list flags the props some entity was recorded without (modules/list-support.ts)', () => {
  const props = ['ids', 'user', 'comment', 'tags'];
  it('flags what needProps flags entity by entity, from counts made once per list', () => {
    const all: { known?: string[] }[] = [{ known: ['comment', 'ids', 'user'] }, {}, { known: ['ids', 'tags', 'user'] }, { known: ['ids', 'user', 'user'] }];
    const each = flags((ctx) => {
      for (const e of all) needProps(ctx, 'logevents', e, props);
    });
    expect(flags((ctx) => needPropsOfAll(ctx, 'logevents', table(all), props))).toEqual(each);
    expect(each).toEqual(['logevents.comment', 'logevents.tags']);
  });

  it('counts again when the list grew, or knowledge (which fills in props) was worked out since', () => {
    const knows = {};
    const all: { known?: string[] }[] = [{ known: ['ids'] }];
    expect(flags((ctx) => needPropsOfAll(ctx, 'blocks', table(all), ['ids']), knows)).toEqual([]);
    all.push({ known: [] });
    expect(flags((ctx) => needPropsOfAll(ctx, 'blocks', table(all), ['ids']), knows)).toEqual(['blocks.ids']);
    all[1]!.known = ['ids'];
    expect(flags((ctx) => needPropsOfAll(ctx, 'blocks', table(all), ['ids']), {})).toEqual([]);
  });
});
