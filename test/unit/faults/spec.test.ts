import { describe, expect, it } from 'vitest';
import { FaultSpecError, parseFault } from '../../../src/faults/spec.js';

describe('fault values', () => {
  it('refuse a latency range whose minimum is above its maximum', () => {
    expect(() => parseFault('latency:ms=5-1')).toThrow(new FaultSpecError('latency ms=MIN-MAX needs MIN at most MAX, not "5-1" (in "latency:ms=5-1")'));
    expect(parseFault('latency:ms=1-5').options).toEqual({ ms: '1-5' });
    expect(parseFault('latency:ms=3-3').options).toEqual({ ms: '3-3' });
  });

  it('refuse a lag or Retry-After no wiki could send (1e308, Infinity, past 2^31 - 1 s)', () => {
    for (const bad of ['maxlag:lag=1e308', 'maxlag:lag=Infinity', 'maxlag:lag=2147483648', 'maxlag:lag=-1', 'maxlag:lag=0x10', '503:retry-after=1e308', '429:retry-after=99999999999']) {
      expect(() => parseFault(bad), bad).toThrow(/must be a number of seconds from 0 to 2147483647, not "/);
    }
    for (const good of ['maxlag:lag=0', 'maxlag:lag=7', 'maxlag:lag=2.5', 'maxlag:lag=2147483647', '503:retry-after=120']) expect(() => parseFault(good), good).not.toThrow();
  });
});
