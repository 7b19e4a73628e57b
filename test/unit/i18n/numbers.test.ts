import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commaList, formatNum, formatSize, listToText } from '../../../src/i18n/numbers.js';
import type { Lang } from '../../../src/wiki/profile.js';

/** numbers-php.json (`npm run generate numbers`): Language::formatNum/formatSize/listToText/commaList from MediaWiki 1.39 (PHP 8.2, ICU). */
const fixture = JSON.parse(readFileSync(new URL('./numbers-php.json', import.meta.url), 'utf8')) as {
  formatNum: [Lang, number, string][];
  formatSize: [Lang, number, string][];
  listToText: [Lang, string[], string][];
  commaList: [Lang, string[], string][];
};

describe('formatNum', () => {
  it('agrees with Language::formatNum', () => {
    expect(fixture.formatNum.filter(([lang, n, want]) => formatNum(lang, n) !== want)).toEqual([]);
  });

  it('groups en from four digits, ru from five with a no-break space, and uses U+2212 for minus', () => {
    expect(formatNum('en', 1000)).toBe('1,000');
    expect(formatNum('ru', 9999)).toBe('9999');
    expect(formatNum('ru', 10000)).toBe('10\u00a0000');
    expect(formatNum('ru', 1234.5)).toBe('1234,5');
    expect(formatNum('ru', 12345.678)).toBe('12\u00a0345,678');
    expect(formatNum('en', -12345)).toBe('\u221212,345');
    expect(formatNum('ru', 0.00001)).toBe('1,0E\u22125');
  });
});

describe('formatSize', () => {
  it('agrees with Language::formatSize', () => {
    expect(fixture.formatSize.filter(([lang, n, want]) => formatSize(lang, n) !== want)).toEqual([]);
  });

  it('never inflects the byte unit (the PLURAL sees a literal $1) and rounds MB+ to two places', () => {
    expect(formatSize('en', 1)).toBe('1 bytes');
    expect(formatSize('ru', 2)).toBe('2 байт');
    expect(formatSize('ru', 0)).toBe('0 байт');
    expect(formatSize('ru', 1536)).toBe('2 КБ');
    expect(formatSize('ru', 4782080)).toBe('4,56 МБ');
    expect(formatSize('en', 6291456)).toBe('6 MB');
    expect(formatSize('ru', 6e27)).toBe('4,85 RB');
  });
});

describe('lists', () => {
  it('agree with Language::listToText and commaList', () => {
    expect(fixture.listToText.filter(([lang, items, want]) => listToText(lang, items) !== want)).toEqual([]);
    expect(fixture.commaList.filter(([lang, items, want]) => commaList(lang, items) !== want)).toEqual([]);
  });

  it('put the comma only from three items', () => {
    expect(listToText('en', ['a', 'b'])).toBe('a and b');
    expect(listToText('ru', ['a', 'b', 'c'])).toBe('a, b и c');
    expect(commaList('ru', ['a', 'b'])).toBe('a, b');
  });
});
