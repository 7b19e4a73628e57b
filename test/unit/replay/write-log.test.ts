import { describe, expect, it } from 'vitest';
import type { WriteEntry } from '../../../src/api/session.js';
import { WRITE_LOG_LIMITS, WriteLog } from '../../../src/replay/write-log.js';

const entry = (i: number, params: Record<string, string> = {}): WriteEntry => ({ action: 'edit', user: '127.0.0.1', params: { title: `P${i}`, ...params }, timestamp: '2024-03-10T00:00:00Z', result: { result: 'Success' } });

describe('the write log', () => {
  it(`keeps at most ${WRITE_LOG_LIMITS.entries} writes, dropping the oldest and counting them`, () => {
    const log = new WriteLog();
    for (let i = 0; i < WRITE_LOG_LIMITS.entries + 50; i++) log.add(entry(i));
    const kept = log.writes();
    expect(kept).toHaveLength(WRITE_LOG_LIMITS.entries);
    expect(kept[0]!.params['title']).toBe('P50');
    expect(kept.at(-1)!.params['title']).toBe(`P${WRITE_LOG_LIMITS.entries + 49}`);
    expect(log.dropped).toBe(50);
    log.clear();
    expect([log.writes(), log.dropped]).toEqual([[], 0]);
  });

  it('cuts a long value with a marker, and keeps the whole log under its byte bound', () => {
    const log = new WriteLog();
    const huge = 'ж'.repeat(7_000_000);
    // Each write: 20 values of 64 K characters after the cut (1 M in all), 2 bytes each in UTF-8.
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, `${i}${huge}`]));
    for (let i = 0; i < 40; i++) log.add(entry(i, many));
    const kept = log.writes();
    const json = JSON.stringify({ writes: kept, dropped: log.dropped });
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(WRITE_LOG_LIMITS.bytes + 100);
    expect(log.dropped).toBeGreaterThan(0);
    expect(kept.length + log.dropped).toBe(40);
    const p0 = kept[0]!.params['p0']!;
    expect(p0.startsWith('0жж')).toBe(true);
    expect(p0.endsWith(`… [wikitape: cut, 7000001 characters in all]`)).toBe(true);
    expect(p0.length).toBeLessThan(WRITE_LOG_LIMITS.value + 100);
    // Past a write's budget of value characters, values are only the marker.
    expect(kept[0]!.params['p29']).toBe('… [wikitape: cut, 7000002 characters in all]');
    // Short values stay as they were.
    expect(kept[0]!.params['title']).toBe(`P${log.dropped}`);
  });

  it('never cuts a surrogate pair in half', () => {
    const log = new WriteLog();
    log.add(entry(0, { text: `${'a'.repeat(WRITE_LOG_LIMITS.value - 1)}😀${'b'.repeat(10)}` }));
    const text = log.writes()[0]!.params['text']!;
    expect(text.startsWith(`${'a'.repeat(WRITE_LOG_LIMITS.value - 1)}…`)).toBe(true);
  });
});
