import { describe, expect, it } from 'vitest';
import { languageUcfirst } from '../../../src/util/ucfirst.js';

describe('languageUcfirst (Language::ucfirst as the live wikis apply it to titles)', () => {
  const cases = ['abc', 'ßtraße', 'ǆemal', 'ǅx', 'აბ', 'ﬁx', 'ᾳx', 'ŉx', 'ıx', '_x', '`a', 'ёлка', ''];
  it('1.39: mb_strtoupper of the first character (`titles=ǆemal` → Ǆemal, `ßtraße` → SStraße)', () => {
    expect(cases.map((s) => languageUcfirst(s, false))).toEqual(['Abc', 'SStraße', 'Ǆemal', 'Ǆx', 'Აბ', 'FIx', 'ΑΙx', 'ʼNx', 'Ix', '_x', '`a', 'Ёлка', '']);
  });
  it('1.43: MB_CASE_TITLE (`ǆemal` → ǅemal, `ßtraße` → Sstraße, Georgian unchanged)', () => {
    expect(cases.map((s) => languageUcfirst(s, true))).toEqual(['Abc', 'Sstraße', 'ǅemal', 'ǅx', 'აბ', 'Fix', 'ᾼx', 'ʼNx', 'Ix', '_x', '`a', 'Ёлка', '']);
  });
  it('keeps characters PHP 8.2 does not upper-case though Node does (its Unicode is older)', () => {
    expect(languageUcfirst('ƛx', false)).toBe('ƛx');
    expect('ƛ'.toUpperCase()).not.toBe('ƛ');
  });
});
