import { describe, expect, it } from 'vitest';
import { ctypeDigit, phpFloatString, phpFloatVal, phpNumberString, phpRound } from '../../../src/i18n/php-number.js';

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
