import { describe, expect, it } from 'vitest';
import { encodeJson } from '../../../src/output/json.js';

/** json_encode without JSON_UNESCAPED_UNICODE: each non-ASCII UTF-16 unit as \uXXXX, lower-case hex. */
const reference = (s: string) => JSON.stringify(s).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('ASCII JSON (formatversion=1)', () => {
  it('escapes every non-ASCII unit, surrogates one by one, in one pass', () => {
    // CJK (3 UTF-8 bytes a unit) and lone surrogates of either half: the buffer is sized from the UTF-8 length.
    for (const s of ['Москва', 'a😀b', 'é\u2028\u2029', '\ud800 lone', 'lone \udc00', 'end \ud83d', '漢字テスト', '漢😀ж\udfff', 'plain', '', 'ж'.repeat(100_000) + 'x', '漢'.repeat(50_000)]) {
      expect(encodeJson(s, { ascii: true, pretty: false })).toBe(reference(s));
    }
    // A million Cyrillic letters: one string of the answer's size, not millions of pieces.
    const big = 'Ая|б'.repeat(250_000);
    const out = encodeJson({ summary: big }, { ascii: true, pretty: false });
    expect(out).toBe(`{"summary":${reference(big)}}`);
    expect(out.length).toBe(JSON.stringify({ summary: big }).length + 5 * 750_000);
  });
});
