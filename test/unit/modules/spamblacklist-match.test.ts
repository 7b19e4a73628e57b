import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRegexes, matchSpamBlacklist } from '../../../src/modules/spamblacklist-match.js';

/** The live wiki's list (shared/livewiki/setup.sh). */
const LIST = ['# local spam blacklist', 'casino-spam\\.example', 'badpills\\.test', '\\bfree-money\\b'];

describe('matchSpamBlacklist against MediaWiki 1.39.17 action=spamblacklist (recorded)', () => {
  it.each([
    ['http://casino-spam.example/x|http://badpills.test|http://a.casino-spam.example', { result: 'blacklisted', matches: ['casino-spam.example', 'badpills.test'] }],
    ['http://a.casino-spam.example|http://b.casino-spam.example|http://c.badpills.test', { result: 'blacklisted', matches: { 0: 'casino-spam.example', 2: 'badpills.test' } }],
    ['http://free-money.com', { result: 'blacklisted', matches: ['free-money'] }],
    ['http://x.com/free-money', { result: 'ok' }],
    ['https://CASINO-SPAM.EXAMPLE', { result: 'blacklisted', matches: ['CASINO-SPAM.EXAMPLE'] }],
    ['http://casino-spam．example', { result: 'blacklisted', matches: ['casino-spam.example'] }],
    ['//casino-spam.example', { result: 'blacklisted', matches: ['casino-spam.example'] }],
    ['casino-spam.example', { result: 'ok' }],
    ['http://casino-spam.example?u=http://badpills.test', { result: 'blacklisted', matches: ['casino-spam.example'] }],
    ['http://x.free-money', { result: 'blacklisted', matches: ['free-money'] }],
    ['http://x_free-money.org', { result: 'ok' }],
    ['ftp://casino-spam.example', { result: 'blacklisted', matches: ['casino-spam.example'] }],
    ['http:///casino-spam.example', { result: 'blacklisted', matches: ['casino-spam.example'] }],
    ['http://user@casino-spam.example', { result: 'ok' }],
    ['http://a.com|http://b.com', { result: 'ok' }],
    [
      'http://ok.test|http://a.badpills.test|http://b.badpills.test|http://free-money.x|http://free-money.y',
      { result: 'blacklisted', matches: { 0: 'badpills.test', 2: 'free-money' } },
    ],
  ])('%s', (urls, expected) => {
    expect(JSON.stringify(matchSpamBlacklist(urls.split('|'), LIST, []))).toBe(JSON.stringify(expected));
  });

  it('has nothing to check without URLs or lines', () => {
    expect(matchSpamBlacklist([], LIST, [])).toEqual({ result: 'ok' });
    expect(matchSpamBlacklist(['http://casino-spam.example'], ['# only a comment', '', '0'], [])).toEqual({ result: 'ok' });
  });
});

interface PhpCase {
  urls: string[];
  black: string[][];
  white: string[][];
  expected: unknown;
}
const PHP = JSON.parse(readFileSync(new URL('./spamblacklist-php.json', import.meta.url), 'utf8')) as { cases: PhpCase[] };

describe('matchSpamBlacklist = SpamBlacklist::filter run by PHP 8.2 / PCRE2 10.42', () => {
  it.each(PHP.cases.map((c) => [JSON.stringify(c.black).slice(0, 80), JSON.stringify(c.white).slice(0, 40), c] as const))('%s white %s', (_b, _w, c) => {
    expect(JSON.stringify(matchSpamBlacklist(c.urls, c.black, c.white))).toBe(JSON.stringify(c.expected));
  });
});

describe('SpamRegexBatch', () => {
  it('batches lines up to 4096 bytes and escapes slashes', () => {
    const lines = ['a/b', 'c\\/d', 'e\\\\/f', 'ends\\', '  g # comment', ...Array.from({ length: 500 }, (_, i) => `x${i}\\.example`)];
    const regexes = buildRegexes(lines);
    expect(regexes[0]!.source.startsWith('(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(a\\/b|c\\/d|e\\/f|g|x0\\.example|')).toBe(true);
    expect(regexes.map((r) => r.modifiers)).toEqual(['Sim', 'Sim']);
    // Pattern lengths PHP builds for the same lines (the batch itself stays ≤ 4096 bytes).
    expect(regexes.map((r) => Buffer.byteLength(r.source))).toEqual([4124, 2845]);
  });
  it('falls back to one regex per line when a batch does not compile', () => {
    expect(buildRegexes(['a', '(', 'b'])).toEqual([
      { source: '(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(a)', modifiers: 'im' },
      { source: '(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(()', modifiers: 'im' },
      { source: '(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(b)', modifiers: 'im' },
    ]);
  });
});
