import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/api/result.js';
import { toFormatVersion1 } from '../../../src/output/formatversion.js';
import { MODULES } from '../../../src/modules/index.js';
import { generatorOrders } from '../../../src/api/registry.js';

/** The lists whose entries are assoc-typed, as the registry says (ListModule.assocEntries). */
const ASSOC: ReadonlySet<string> = new Set(MODULES.query.list.filter((l) => l.assocEntries).map((l) => l.name));
import { encodeWithOrder } from '../../../src/output/ordered.js';

const RU = { lang: 'ru' as const, metaNamespace: 'Тестовая_вики' };
/** The formatversion=1 page ids, in the order printed, of a formatversion=2 answer to `params`. */
function v1Ids(query: JsonObject, params: Record<string, string>): string[] {
  const v1 = toFormatVersion1({ query }, ASSOC, { params: new Map(Object.entries(params)), titles: RU, generatorOrders: generatorOrders(MODULES) });
  const text = encodeWithOrder(v1, (v) => JSON.stringify(v), false);
  return [...text.matchAll(/"(-?\d+)":\{/g)].map((m) => m[1]!);
}
const page = (pageid: number, ns: number, title: string) => ({ pageid, ns, title });

describe('the order of formatversion=1 query.pages (as the live 1.39 and 1.43 print it)', () => {
  it('titles: namespace by namespace in the order first named, DB keys in byte order', () => {
    const q = { pages: [page(8, 0, 'Alpha'), page(9, 0, 'Beta'), page(17, 12, 'Справка:Справка'), page(19, 10, 'Шаблон:Инфобокс')] };
    expect(v1Ids(q, { titles: 'Справка:Справка|Beta|Шаблон:Инфобокс|Alpha' })).toEqual(['17', '8', '9', '19']);
    expect(v1Ids(q, { titles: 'Beta|Справка:Справка|Alpha|Шаблон:Инфобокс' })).toEqual(['8', '9', '17', '19']);
  });

  it('counts a missing title’s namespace, as the lookup does', () => {
    const q = { pages: [{ ns: 12, title: 'Справка:Nope', missing: true }, page(8, 0, 'Alpha'), page(17, 12, 'Справка:Справка')] };
    expect(v1Ids(q, { titles: 'Help:Nope|Alpha|Справка:Справка' })).toEqual(['-1', '17', '8']);
  });

  it('pageids: found by id, missing ids in the order asked', () => {
    const q = { pages: [{ pageid: -5, missing: true }, { pageid: 0, missing: true }, page(2, 0, 'Москва'), page(8, 0, 'Alpha'), { pageid: 999, missing: true }] };
    expect(v1Ids(q, { pageids: '8|999|0|2|-5' })).toEqual(['999', '0', '-5', '2', '8']);
  });

  it('redirect targets after the pages asked for, round by round', () => {
    const q = { redirects: [{ from: 'Zeta', to: 'Зета' }], pages: [page(8, 0, 'Alpha'), page(13, 0, 'Зета'), page(20, 0, 'Яблоко')] };
    expect(v1Ids(q, { titles: 'Zeta|Яблоко|Alpha', redirects: '1' })).toEqual(['8', '20', '13']);
    expect(v1Ids(q, { pageids: '28|20|8', redirects: '1' })).toEqual(['8', '20', '13']);
  });
});
