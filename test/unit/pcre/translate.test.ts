import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, fromBytes, pregDelete, toBytes, translatePcre } from '../../../src/pcre/index.js';

describe('translatePcre (byte mode)', () => {
  const bytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
  it('folds ASCII only under i', () => {
    const re = translatePcre('пример|abc', 'i')!;
    expect(re.test(bytes('ПРИМЕР'))).toBe(false);
    expect(new RegExp(re.source).test(bytes('пример'))).toBe(true);
    expect(new RegExp(re.source).test('ABC')).toBe(true);
  });
  it('keeps PCRE meanings of ., \\s, $ and ^', () => {
    expect(new RegExp(translatePcre('a.b', '')!.source).test('a\rb')).toBe(true);
    expect(new RegExp(translatePcre('a\\sb', '')!.source).test('a\u00a0b')).toBe(false);
    expect(new RegExp(translatePcre('a$', 'm')!.source).test('a\rb')).toBe(false);
    expect(new RegExp(translatePcre('^b', 'm')!.source).test('a\nb')).toBe(true);
  });
  it('rejects what PCRE does not compile', () => {
    for (const p of ['(', 'a{2,1}', '[a-\\d]', '(?<=a+)b', '\\x{100}', '*a', '\\i']) expect(translatePcre(p, 'i')).toBeNull();
  });
});

interface PhpCase {
  pattern: string;
  modifiers: string;
  subject: string;
  matched: boolean;
  match: string | null;
  deleted: string;
}

/** What PHP 8.2's PCRE2 (non-UTF mode) answered: scripts/generate/pcre-php.php. */
const PHP = JSON.parse(readFileSync(new URL('./pcre-php.json', import.meta.url), 'utf8')) as PhpCase[];

describe('compiled patterns match as PHP preg_match and preg_replace do', () => {
  it.each(PHP.map((c) => [`/${c.pattern}/${c.modifiers} on ${JSON.stringify(c.subject)}`, c] as const))('%s', (_name, c) => {
    const compiled = compile(c.pattern, c.modifiers)!;
    expect(compiled).not.toBeNull();
    const subject = toBytes(c.subject);
    const m = new RegExp(compiled.re.source, compiled.re.flags.replace('g', '')).exec(subject);
    expect(m !== null).toBe(c.matched);
    // \K moves the reported start: preg_replace shows its effect; the match text is checked without it
    if (m && compiled.kGroups.length === 0) expect(fromBytes(m[0])).toBe(c.match);
    expect(fromBytes(pregDelete(subject, compiled))).toBe(c.deleted);
  });
});
