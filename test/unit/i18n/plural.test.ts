import { describe, expect, it } from 'vitest';
import { convertPlural, expandPlural, pluralIndex } from '../../../src/i18n/plural.js';
import { lang as L } from '../../support/lang.js';

describe('plural rules', () => {
  it('use CLDR one/few/many/other for ru and one/other for en', () => {
    expect(['1', '21', '101', '2', '24', '12', '5', '11', '111', '0', '1.5'].map((n) => pluralIndex(L('ru'), n))).toEqual([0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 3]);
    expect(['1', '0', '2', '1.0E+20'].map((n) => pluralIndex(L('en'), n))).toEqual([0, 1, 1, 1]);
    expect(pluralIndex(L('ru'), '1.0E+20')).toBe(3);
  });

  it('pick explicit N= forms first and repeat the last form for short lists', () => {
    expect(convertPlural(L('ru'), '1', ['1=байта', 'байт'])).toBe('байта');
    expect(convertPlural(L('ru'), '21', ['1=байта', 'байт'])).toBe('байт');
    expect(convertPlural(L('en'), '2', ['parameters'])).toBe('parameters');
    expect(convertPlural(L('ru'), '3', ['один'])).toBe('один');
    expect(convertPlural(L('ru'), '12\u00a0345', ['а', 'б', 'в'])).toBe('в');
    expect(convertPlural(L('en'), '1,000', ['a', 'b'])).toBe('b');
    expect(convertPlural(L('ru'), 'abc', ['а', 'б', 'в'])).toBe('в');
  });

  it('expand {{PLURAL:…}} and {{!}} in text, leaving other templates', () => {
    expect(expandPlural(L('ru'), '5 {{PLURAL:5|день|дня|дней}}, {{plural: 2 | a | b }}')).toBe('5 дней, b');
    expect(expandPlural(L('en'), '{{PLURAL:1|[[a|b]]|c}} {{!}} {{SITENAME}}')).toBe('[[a|b]] | {{SITENAME}}');
    expect(expandPlural(L('en'), '{{PLURAL:{{PLURAL:1|1|2}}|one|more}}')).toBe('one');
  });
});
