import { describe, expect, it } from 'vitest';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../../../src/util/ordered-json.js';

describe('JSON with integer-like keys', () => {
  it('keeps their order through parse and stringify, where plain JSON would hoist them', () => {
    const text = '{"namespaces":{"-2":{"id":-2},"-1":{"id":-1},"0":{"id":0},"10":{"id":10}},"x":"a \\"1\\": b"}';
    expect(JSON.stringify(JSON.parse(text))).not.toBe(text);
    expect(stringifyKeepingKeyOrder(parseKeepingKeyOrder(text))).toBe(text);
  });

  it('leaves string values that look like keys alone', () => {
    const text = '{"a":"\\"5\\":"}';
    expect(parseKeepingKeyOrder(text)).toEqual({ a: '"5":' });
  });
});
