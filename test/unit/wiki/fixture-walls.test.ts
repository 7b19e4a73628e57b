import { describe, expect, it } from 'vitest';
import { mergeFixture, tooLongForJson } from '../../../src/wiki/fixtures.js';
import { emptyModel } from '../../../src/wiki/model.js';

describe('big fixtures meet no wall of the runtime (wiki/fixtures.ts)', () => {
  it('numbers the links of a second fixture after half a million links of the first (no spread into Math.max)', () => {
    const model = emptyModel();
    const links = Array.from({ length: 500_000 }, (_, i) => `https://example.org/${i}`);
    mergeFixture(model, { pages: [{ pageid: 1, ns: 0, title: 'A', extlinks: links }] }, []);
    mergeFixture(model, { pages: [{ pageid: 2, ns: 0, title: 'B', extlinks: ['https://example.org/b'] }] }, []);
    expect(model.pages[1]!.extlinks[0]!.id).toBe(500_001);
  });

  it('tells a text too long for a string (a JSON file past ~512 MB) from other failures', () => {
    expect(tooLongForJson(new RangeError('Invalid string length'))).toBe(true);
    expect(tooLongForJson(new RangeError('Maximum call stack size exceeded'))).toBe(false);
    expect(tooLongForJson(new SyntaxError('Unexpected token'))).toBe(false);
  });
});
