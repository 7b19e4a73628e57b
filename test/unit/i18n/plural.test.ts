import { describe, expect, it } from 'vitest';
import { convertPlural, expandPlural, pluralIndex } from '../../../src/i18n/plural.js';

describe('plural rules', () => {
  it('use CLDR one/few/many/other for ru and one/other for en', () => {
    expect(['1', '21', '101', '2', '24', '12', '5', '11', '111', '0', '1.5'].map((n) => pluralIndex('ru', n))).toEqual([0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 3]);
    expect(['1', '0', '2', '1.0E+20'].map((n) => pluralIndex('en', n))).toEqual([0, 1, 1, 1]);
    expect(pluralIndex('ru', '1.0E+20')).toBe(3);
  });

  it('pick explicit N= forms first and repeat the last form for short lists', () => {
    expect(convertPlural('ru', '1', ['1=байта', 'байт'])).toBe('байта');
    expect(convertPlural('ru', '21', ['1=байта', 'байт'])).toBe('байт');
    expect(convertPlural('en', '2', ['parameters'])).toBe('parameters');
    expect(convertPlural('ru', '3', ['один'])).toBe('один');
    expect(convertPlural('ru', '12\u00a0345', ['а', 'б', 'в'])).toBe('в');
    expect(convertPlural('en', '1,000', ['a', 'b'])).toBe('b');
    expect(convertPlural('ru', 'abc', ['а', 'б', 'в'])).toBe('в');
  });

  it('expand {{PLURAL:…}} and {{!}} in text, leaving other templates', () => {
    expect(expandPlural('ru', '5 {{PLURAL:5|день|дня|дней}}, {{plural: 2 | a | b }}')).toBe('5 дней, b');
    expect(expandPlural('en', '{{PLURAL:1|[[a|b]]|c}} {{!}} {{SITENAME}}')).toBe('[[a|b]] | {{SITENAME}}');
    expect(expandPlural('en', '{{PLURAL:{{PLURAL:1|1|2}}|one|more}}')).toBe('one');
  });
});
