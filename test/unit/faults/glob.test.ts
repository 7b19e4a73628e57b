import { describe, expect, it } from 'vitest';
import { Glob } from '../../../src/faults/glob.js';
import { parseFault, ArmedFault } from '../../../src/faults/spec.js';

/** The meaning of a `*`-only glob, by dynamic programming (for small inputs only). */
function reference(glob: string, value: string): boolean {
  let row = new Array<boolean>(value.length + 1).fill(false);
  row[0] = true;
  for (const c of glob) {
    const next = new Array<boolean>(value.length + 1).fill(false);
    for (let j = 0; j <= value.length; j++) {
      if (c === '*') next[j] = row[j]! || (j > 0 && next[j - 1]!);
      else next[j] = j > 0 && row[j - 1]! && value[j - 1] === c;
    }
    row = next;
  }
  return row[value.length]!;
}

/** A small PRNG, so the cases are the same each run. */
function random(seed: number): () => number {
  let a = seed;
  return () => ((a = (a * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('fault match globs', () => {
  it('match as `*`-only globs do: 20,000 random globs and values agree with the definition', () => {
    const r = random(7);
    const pick = (alphabet: string, n: number) => Array.from({ length: Math.floor(r() * n) }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    for (let i = 0; i < 20_000; i++) {
      const glob = pick('ab**', 9);
      const value = pick('ab', 12);
      expect(new Glob(glob).matches(value), `${glob} ~ ${value}`).toBe(reference(glob, value));
    }
    for (const [glob, value, want] of [
      ['', '', true], ['*', '', true], ['a*', 'abc', true], ['*c', 'abc', true], ['a*c', 'ac', true], ['ab*bc', 'abc', false],
      ['Моск*', 'Москва', true], ['*.*', 'a.b', true], ['a.c', 'abc', false], ['(x)*', '(x)|y', true], ['*', 'a\nb', true], ['a', 'A', false],
    ] as const) expect(new Glob(glob).matches(value), `${glob} ~ ${value}`).toBe(want);
  });

  it('cost at most 2 × value + 2 × glob comparisons, whatever their shape (10 stars against 3,000 characters)', () => {
    const value = 'a'.repeat(3000);
    const shapes = [
      `${'*aa'.repeat(10)}*b`, // 10 stars, a tail that fails last (exponential as a regular expression)
      `${'*aa'.repeat(10)}*b*`, // the failing piece searched for through the whole value
      `${'*a'.repeat(19)}ab*`, // pieces that nearly match everywhere
      `*${'a'.repeat(38)}b*`, // one long piece, KMP's worst case
      '*'.repeat(40),
      `${'a*'.repeat(20)}`,
    ];
    for (const glob of shapes) {
      const counter = { steps: 0 };
      const started = process.cpuUsage();
      new Glob(glob).matches(value, counter);
      new Glob(glob).matches(`${value}b`, counter);
      const cpu = process.cpuUsage(started);
      expect(counter.steps, glob).toBeLessThanOrEqual(2 * (2 * (value.length + 1) + 2 * glob.length));
      // Microseconds in fact; the bound is generous against a busy machine (the regular expression took minutes).
      expect((cpu.user + cpu.system) / 1000, glob).toBeLessThan(100);
    }
  });

  it('back a fault\'s match=PARAM=GLOB', () => {
    const f = new ArmedFault(parseFault(`maxlag:match=titles=${'*aa'.repeat(10)}*b`));
    expect(f.matches(new Map([['titles', 'a'.repeat(3000)]]))).toBe(false);
    expect(f.matches(new Map([['titles', `${'a'.repeat(3000)}b`]]))).toBe(true);
    expect(f.matches(new Map([['list', 'b']]))).toBe(false);
  });
});
