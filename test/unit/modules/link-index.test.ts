import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { index60, makeIndexes } from '../../../src/wiki/link-index.js';

/** LinkFilter::makeIndexes of MediaWiki 1.39 for each URL (scripts/generate/php/link-index.php). */
const oracle = JSON.parse(readFileSync(new URL('./link-index-php.json', import.meta.url), 'utf8')) as Record<string, string[]>;

describe('el_index (LinkFilter::makeIndexes, 1.39)', () => {
  it.each(Object.entries(oracle))('%s', (url, indexes) => {
    expect(makeIndexes(url)).toEqual(indexes);
  });

  it('cuts el_index_60 at 60 bytes, a character cut in two shown as U+FFFD', () => {
    const index = `http://рф.пример./${'ж'.repeat(40)}`;
    const cut = index60(index);
    expect(Buffer.byteLength(cut.replace(/\uFFFD$/, ''), 'utf8')).toBeLessThanOrEqual(60);
    expect(index60('http://org.example./short')).toBe('http://org.example./short');
    expect(cut.startsWith('http://рф.пример./жж')).toBe(true);
  });
});
