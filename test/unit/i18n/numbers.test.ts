import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commaList, formatNum, formatSize, listToText } from '../../../src/i18n/numbers.js';
import { lang as L } from '../../support/lang.js';

/** numbers-php.json (`npm run generate numbers`): Language::formatNum/formatSize/listToText/commaList from MediaWiki 1.39 (PHP 8.2, ICU), in 22 languages (distinct separators, digits, grouping, plural rules), qqx and an unshipped code. */
const fixture = JSON.parse(readFileSync(new URL('./numbers-php.json', import.meta.url), 'utf8')) as {
  formatNum: [string, number, string][];
  formatSize: [string, number, string][];
  listToText: [string, string[], string][];
  commaList: [string, string[], string][];
};

describe('formatNum', () => {
  it('agrees with Language::formatNum', () => {
    expect(fixture.formatNum.filter(([lang, n, want]) => formatNum(L(lang), n) !== want)).toEqual([]);
  });

  it('groups en from four digits, ru from five with a no-break space, and uses U+2212 for minus', () => {
    expect(formatNum(L('en'), 1000)).toBe('1,000');
    expect(formatNum(L('ru'), 9999)).toBe('9999');
    expect(formatNum(L('ru'), 10000)).toBe('10\u00a0000');
    expect(formatNum(L('ru'), 1234.5)).toBe('1234,5');
    expect(formatNum(L('ru'), 12345.678)).toBe('12\u00a0345,678');
    expect(formatNum(L('en'), -12345)).toBe('\u221212,345');
    expect(formatNum(L('ru'), 0.00001)).toBe('1,0E\u22125');
  });
});

describe('formatSize', () => {
  it('agrees with Language::formatSize', () => {
    expect(fixture.formatSize.filter(([lang, n, want]) => formatSize(L(lang), n) !== want)).toEqual([]);
  });

  it('never inflects the byte unit (the PLURAL sees a literal $1) and rounds MB+ to two places', () => {
    expect(formatSize(L('en'), 1)).toBe('1 bytes');
    expect(formatSize(L('ru'), 2)).toBe('2 байт');
    expect(formatSize(L('ru'), 0)).toBe('0 байт');
    expect(formatSize(L('ru'), 1536)).toBe('2 КБ');
    expect(formatSize(L('ru'), 4782080)).toBe('4,56 МБ');
    expect(formatSize(L('en'), 6291456)).toBe('6 MB');
    expect(formatSize(L('ru'), 6e27)).toBe('4,85 RB');
  });
});

describe('lists', () => {
  it('agree with Language::listToText and commaList', () => {
    expect(fixture.listToText.filter(([lang, items, want]) => listToText(L(lang), items) !== want)).toEqual([]);
    expect(fixture.commaList.filter(([lang, items, want]) => commaList(L(lang), items) !== want)).toEqual([]);
  });

  it('put the comma only from three items', () => {
    expect(listToText(L('en'), ['a', 'b'])).toBe('a and b');
    expect(listToText(L('ru'), ['a', 'b', 'c'])).toBe('a, b и c');
    expect(commaList(L('ru'), ['a', 'b'])).toBe('a, b');
  });
});
