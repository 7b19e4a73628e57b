import { describe, expect, it } from 'vitest';
import { getLanguage } from '../../../src/i18n/language.js';
import { megabyteParts } from '../../../src/i18n/numbers.js';
import { megabytes, newFigure } from '../../../src/replay/hit-template.js';

// A template's heap figures are kept while the heap stays within the sizes that print the same
// (hot path): they must print what megabyteParts prints for every size, across every boundary.
describe('heap figures of a template answer', () => {
  const MB = 1048576;
  it.each([
    ['en', '1.43.0'],
    ['de', '1.43.0'],
    ['ru', '1.39.17'],
  ])('print what megabyteParts prints, size after size (%s)', (code, release) => {
    const lang = getLanguage(code, release);
    const last = newFigure();
    // across figure boundaries (x.xx5 MB), the 1 MB and 1000 MB edges, going up, down and jumping
    const sizes: number[] = [];
    for (const base of [0.99 * MB, 4.99 * MB, 999.98 * MB]) for (let b = base; b < base + 0.04 * MB; b += 997) sizes.push(Math.round(b));
    const order = [...sizes, ...[...sizes].reverse(), ...sizes.map((_, i) => sizes[(i * 7919) % sizes.length]!)];
    for (const bytes of order) expect(megabytes(last, lang, bytes)).toBe(megabyteParts(lang, bytes)?.num ?? null);
  });
});
