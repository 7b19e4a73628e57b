import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bcp47, getLanguage, isValidCode, sanitizeLangCode, userLanguage } from '../../../src/i18n/language.js';
import { convertPlural, pluralIndex } from '../../../src/i18n/plural.js';
import { formatNum } from '../../../src/i18n/numbers.js';
import { message } from '../../../src/i18n/message.js';
import { OWN } from '../../../src/i18n/messages.js';
import { messageKeys } from '../../../src/wiki/language-data.js';
import { lang as L } from '../../support/lang.js';

const P139 = { language: 'ru', version: '1.39.17' };

describe('the user language (ApiMain, RequestContext::sanitizeLangCode), as the live wikis read uselang', () => {
  it.each([
    [undefined, 'ru'],
    ['user', 'ru'],
    ['content', 'ru'],
    ['', 'ru'],
    ['De', 'de'],
    ['EN', 'en'],
    ['qqq', 'ru'],
    ['a/b', 'ru'],
    ['a%2Fb', 'ru'],
    ['x<y', 'ru'],
    ['als', 'gsw'],
    ['zh-classical', 'lzh'],
    ['no', 'nb'],
    ['simple', 'en'],
    ['xx-bogus', 'xx-bogus'],
    ['de ', 'de '],
    ['qqx', 'qqx'],
  ])('uselang=%j is %j', (uselang, code) => {
    expect(userLanguage(uselang, P139).code).toBe(code);
  });

  it('reads an unshipped code as English underneath, keeping its code', () => {
    const x = userLanguage('xx-bogus', P139);
    expect([x.shipped, x.chain(), message(x, 'apierror-badquery')]).toEqual([false, ['xx-bogus', 'en'], 'Invalid query.']);
    expect(sanitizeLangCode('A'.repeat(129), 'ru')).toBe('ru');
    expect(isValidCode('de-x-foo')).toBe(true);
    expect(isValidCode("d'e")).toBe(false);
  });
});

describe('language data generated from MediaWiki (l10n/languages.json)', () => {
  it('follows each fallback chain', () => {
    expect(L('zh-hans').chain()).toEqual(['zh-hans', 'zh-cn', 'zh', 'zh-hant', 'en']);
    expect(L('de-formal').chain()).toEqual(['de-formal', 'de', 'en']);
    expect(L('en').chain()).toEqual(['en']);
    // zh has no texts of its own: they come from zh-hans
    expect(message(L('zh'), 'apierror-badquery')).toBe(message(L('zh-hans'), 'apierror-badquery'));
  });

  it('knows direction and HTML codes', () => {
    expect(['ar', 'he', 'fa', 'en-rtl', 'de', 'ja'].map((c) => L(c).dir)).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'ltr', 'ltr']);
    expect([L('ar').arrow, L('de').arrow, L('he').dirMark, L('de').dirMark]).toEqual(['←', '→', '\u200f', '\u200e']);
    expect(['zh-hans', 'de-formal', 'sr-ec', 'ru'].map((c) => L(c).htmlCode)).toEqual(['zh-Hans', 'de-x-formal', 'sr-Cyrl', 'ru']);
    expect([bcp47('xx-latn-ab'), bcp47('en-x-foo'), L('ab-cd-efgh').htmlCode]).toEqual(['xx-Latn-AB', 'en-x-foo', 'ab-CD-Efgh']);
  });

  it('evaluates each language\'s CLDR plural rules', () => {
    const forms = ['zero', 'one', 'two', 'few', 'many', 'other'];
    expect(['0', '1', '2', '3', '11', '100', '1.5'].map((n) => convertPlural(L('ar'), n, forms))).toEqual(['zero', 'one', 'two', 'few', 'many', 'other', 'other']);
    expect(['1', '2', '20', '3'].map((n) => pluralIndex(L('he', '1.39.17'), n))).toEqual([0, 1, 2, 3]);
    expect(['0', '1', '2'].map((n) => convertPlural(L('fr'), n, ['un', 'plusieurs']))).toEqual(['un', 'un', 'plusieurs']);
    expect(['1', '3', '5', '21', '1.5'].map((n) => pluralIndex(L('uk'), n))).toEqual([0, 1, 2, 0, 3]);
    expect(['1', '2'].map((n) => convertPlural(L('ja'), n, ['件', '件数']))).toEqual(['件', '件数']);
    // LanguageKsh: 1 → the first form, 0 → the third, else the second
    expect(['1', '0', '7'].map((n) => convertPlural(L('ksh'), n, ['ein', 'viele', 'kein']))).toEqual(['ein', 'kein', 'viele']);
  });

  it('formats numbers with each language\'s separators, digits and grouping', () => {
    expect(formatNum(L('de'), 1234567.5)).toBe('1.234.567,5');
    expect(formatNum(L('fr'), 1234567.5)).toBe('1\u00a0234\u00a0567,5');
    expect(formatNum(L('ar'), -1234.5)).toBe('\u2212١٬٢٣٤٫٥');
    expect(formatNum(L('hi'), 1234567)).toBe('१२,३४,५६७');
    expect(formatNum(L('es'), 1234)).toBe('1234');
    expect(formatNum(L('ja'), 1234567)).toBe('1,234,567');
    expect(formatNum(L('qqx'), 1234)).toBe('1,234');
  });

  it('differs per MediaWiki version where the wikis differ', () => {
    expect(message(L('de', '1.39.17'), 'duration-months', [{ num: 2 }])).toBe('⧼duration-months⧽');
    expect(message(L('de', '1.43.9'), 'duration-months', [{ num: 2 }])).toBe('2 Monate');
    expect(getLanguage('de', '1.44.0')).toBe(getLanguage('de', '1.43.9'));
  });
});

/** Message keys named in src (quoted, of the families MediaWiki's i18n files hold). */
function keysInSource(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...keysInSource(p));
    else if (p.endsWith('.ts')) for (const m of readFileSync(p, 'utf8').matchAll(/'((?:apierror|apiwarn|paramvalidator|title-invalid|api-format|api-usage|duration|size)-[a-z0-9-]+)'/g)) out.push(m[1]!);
  }
  return out;
}

describe('the message keys', () => {
  it('the data holds every key src names (add a missing one to `keys` and run `npm run generate -- --write l10n`)', () => {
    const keys = new Set(messageKeys());
    const named = [...new Set(keysInSource(fileURLToPath(new URL('../../../src', import.meta.url))))].filter((k) => !(k in OWN) && k !== 'duration-l10n');
    expect(named.length).toBeGreaterThan(60);
    expect(named.filter((k) => !keys.has(k))).toEqual([]);
  });
});
