import { describe, expect, it } from 'vitest';
import { encodeJson } from '../../../src/output/json.js';

/** json_encode without JSON_UNESCAPED_UNICODE: each non-ASCII UTF-16 unit as \uXXXX, lower-case hex. */
const reference = (s: string) => JSON.stringify(s).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('ASCII JSON (formatversion=1)', () => {
  it('escapes every non-ASCII unit, surrogates one by one, in one pass of the exact size', () => {
    for (const s of ['Москва', 'a😀b', 'é\u2028\u2029', '\ud800 lone', 'plain', '', 'ж'.repeat(100_000) + 'x']) {
      expect(encodeJson(s, { ascii: true, pretty: false })).toBe(reference(s));
    }
    // A million Cyrillic letters: one string of the answer's size, not millions of pieces.
    const big = 'Ая|б'.repeat(250_000);
    const out = encodeJson({ summary: big }, { ascii: true, pretty: false });
    expect(out).toBe(`{"summary":${reference(big)}}`);
    expect(out.length).toBe(JSON.stringify({ summary: big }).length + 5 * 750_000);
  });
});
