import { describe, expect, it } from 'vitest';
import { ctypeDigit, phpFloatString, phpFloatStringByDigits, phpFloatVal, phpNumberString, phpRound } from '../../../src/i18n/php-number.js';

describe('PHP number conversions', () => {
  it('prints floats with precision 14, exponent form and ties to even as PHP does', () => {
    expect(phpFloatString(4.56)).toBe('4.56');
    expect(phpFloatString(0.1 + 0.2)).toBe('0.3');
    expect(phpFloatString(1e15)).toBe('1.0E+15');
    expect(phpFloatString(0.00001)).toBe('1.0E-5');
    expect(phpFloatString(0.0001)).toBe('0.0001');
    expect(phpFloatString(-1.5e20)).toBe('-1.5E+20');
    expect(phpFloatString(12345678901234.5)).toBe('12345678901234');
    expect(phpFloatString(-0)).toBe('-0');
    expect(phpNumberString(12345)).toBe('12345');
    expect(phpNumberString(1.5)).toBe('1.5');
  });

  it('takes its shortcut only where it prints what the exact expansion prints', () => {
    // a fixed sequence (no wall clock, no Math.random): every magnitude, short and long digit strings
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values = [1e-4, 9.999e-5, 1e14, 99999999999999.98, 1e13, 0.1 + 0.2, 5.83, 12345678901234.5, 1200, 0.00012];
    for (let i = 0; i < 20_000; i++) {
      const v = (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
      values.push(v, Math.round(v * 100) / 100, Number(v.toPrecision(1 + Math.floor(next() * 16))));
    }
    for (const v of values) expect(phpFloatString(v)).toBe(phpFloatStringByDigits(v));
  });

  it('reads strings as (float) and ctype_digit do', () => {
    expect(phpFloatVal(' 12abc')).toBe(12);
    expect(phpFloatVal('$1')).toBe(0);
    expect(phpFloatVal('1e3x')).toBe(1000);
    expect(ctypeDigit('0123')).toBe(true);
    expect(ctypeDigit('-1')).toBe(false);
    expect(ctypeDigit('')).toBe(false);
  });

  it('rounds half up after pre-rounding to 15 digits', () => {
    expect(phpRound(1.005, 2)).toBe(1.01);
    expect(phpRound(2.675, 2)).toBe(2.68);
    expect(phpRound(-0.5)).toBe(-1);
    expect(phpRound(1023.995, 2)).toBe(1024);
    expect(phpRound(117.73508, 2)).toBe(117.74);
  });
});
