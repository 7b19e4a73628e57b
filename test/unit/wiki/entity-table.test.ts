import { describe, expect, it } from 'vitest';
import { MemoryEntityTable, tableOver, type IndexKey } from '../../../src/wiki/entity-table.js';

const cmp = (a: IndexKey, b: IndexKey) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    if (a[i] === undefined) return -1;
    if (b[i] === undefined) return 1;
    return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
};
type Row = { id: number; ts: string };
const rows: Row[] = [
  { id: 3, ts: '20240102' },
  { id: 1, ts: '20240101' },
  { id: 4, ts: '20240102' },
  { id: 2, ts: '20240101' },
  { id: 5, ts: '20240103' },
];
const table = (items: readonly Row[]) => new MemoryEntityTable(items, (r) => String(r.id), { order: { key: (r: Row) => [r.ts, r.id], compare: cmp } });
const ids = (it: Iterable<Row>) => [...it].map((r) => r.id);

describe('entity tables: by id and in an index order from a point on (wiki/entity-table.ts)', () => {
  it('reads a range in either direction, bounds included, a one-part bound taking every key that starts with it', () => {
    const t = table(rows);
    expect(t.count).toBe(5);
    expect(ids(t.range('order', {}, false))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(t.range('order', {}, true))).toEqual([5, 4, 3, 2, 1]);
    expect(ids(t.range('order', { from: [['20240102']] }, false))).toEqual([3, 4, 5]);
    expect(ids(t.range('order', { to: [['20240102']] }, true))).toEqual([4, 3, 2, 1]);
    // a continuation ([timestamp, id]) and a start together: both hold
    expect(ids(t.range('order', { to: [['20240102', 3]], from: [['20240101']] }, true))).toEqual([3, 2, 1]);
    expect(ids(t.range('order', { from: [['20240102', 4], ['20240101']] }, false))).toEqual([4, 5]);
    expect(ids(t.range('order', { from: [['20240104']] }, false))).toEqual([]);
  });

  it('finds an entity by id, the first of two with one id', () => {
    const t = table([...rows, { id: 3, ts: 'other' }]);
    expect(t.get('3')).toBe(rows[0]);
    expect(t.get('9')).toBeUndefined();
  });

  it('is made once per list, and again when the list grew', () => {
    const list = [...rows];
    const a = tableOver(list, 'order', table);
    expect(tableOver(list, 'order', table)).toBe(a);
    list.push({ id: 6, ts: '20240104' });
    const b = tableOver(list, 'order', table);
    expect(b).not.toBe(a);
    expect(ids(b.range('order', {}, true))[0]).toBe(6);
  });
});
