import { describe, expect, it } from 'vitest';
import { SeenBefore } from '../../../src/util/seen-before.js';

describe('SeenBefore', () => {
  it('says whether a string was seen before', () => {
    const seen = new SeenBefore(1000);
    expect(seen.check('a')).toBe(false);
    expect(seen.check('a')).toBe(true);
    expect(seen.check('b')).toBe(false);
    expect(seen.check('a')).toBe(true);
  });

  it('holds at most two generations of characters, and finds what the last generation saw', () => {
    const seen = new SeenBefore(100);
    for (let i = 0; i < 1000; i++) {
      const s = `question ${i}`;
      expect(seen.check(s)).toBe(false);
      expect(seen.heldChars).toBeLessThanOrEqual(200);
      // The string seen just before, and one seen within the last 100 characters, are still known.
      if (i > 0) expect(seen.check(`question ${i - 1}`)).toBe(true);
    }
    // Long forgotten: seen once more as new.
    expect(seen.check('question 0')).toBe(false);
  });

  it('does not hold a string longer than a generation', () => {
    const seen = new SeenBefore(10);
    const long = 'x'.repeat(11);
    expect(seen.check(long)).toBe(false);
    expect(seen.check(long)).toBe(false);
    expect(seen.heldChars).toBe(0);
  });
});
