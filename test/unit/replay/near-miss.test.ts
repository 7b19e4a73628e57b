import { describe, expect, it } from 'vitest';
import { describeNearMisses, nearMisses } from '../../../src/replay/near-miss.js';

const LE = 'action=query&ledir=older&lelimit=10&leprop=ids%7Ctitle&list=logevents';

describe('nearMisses', () => {
  it('names how each recording differs: another value, a parameter only the recording has, one only the question has', () => {
    const recorded = [LE, `${LE.replace('list=logevents', 'list=logevents&meta=userinfo')}`, 'action=query&ledir=older&lelimit=7&list=logevents'];
    expect(nearMisses('action=query&ledir=older&lelimit=7&leprop=ids%7Ctitle&list=logevents', recorded)).toEqual([
      { key: LE, differences: ['lelimit 7 ≠ 10'] },
      { key: 'action=query&ledir=older&lelimit=7&list=logevents', differences: ['- leprop=ids|title'] },
      { key: 'action=query&ledir=older&lelimit=10&leprop=ids%7Ctitle&list=logevents&meta=userinfo', differences: ['lelimit 7 ≠ 10', '+ meta=userinfo'] },
    ]);
  });

  it('names at most three, nearest first; never another action, another user\'s recording, or one far off', () => {
    const q = 'action=query&ledir=older&lelimit=7&list=logevents';
    const many = ['1', '2', '3', '4'].map((n) => `action=query&ledir=older&lelimit=${n}&list=logevents`);
    expect(nearMisses(q, many).map((n) => n.key)).toEqual(many.slice(0, 3));
    expect(nearMisses(q, ['action=parse&ledir=older&lelimit=7&list=logevents'])).toEqual([]);
    expect(nearMisses(q, [`${q} @Admin`])).toEqual([]);
    expect(nearMisses(`${q} @Admin`, [`action=query&ledir=older&lelimit=8&list=logevents @Admin`])).toHaveLength(1);
    expect(nearMisses(q, ['action=query&bkdir=older&bklimit=7&list=blocks'])).toEqual([]); // list, two own parameters each way: too far
  });

  it('shows secrets as ***, and describes a list on one line', () => {
    const near = nearMisses('action=query&list=blocks&token=abc%2B%5C', ['action=query&list=blocks&bklimit=5&token=def%2B%5C']);
    expect(JSON.stringify(near)).not.toMatch(/abc|def/);
    expect(describeNearMisses(near)).toBe('action=query&list=blocks&bklimit=5&token=*** (+ bklimit=5)');
  });
});
