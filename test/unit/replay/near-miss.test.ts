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

describe('nearMisses over a table of recordings', () => {
  /** A table of keys (an InteractionTable's surface) that counts how often its keys are read. */
  const table = (keys: string[]) => {
    const t = { reads: 0, get size() { return keys.length; }, keys: () => (t.reads++, keys.values()) };
    return t;
  };
  const walk = Array.from({ length: 300 }, (_, i) => `action=query&lecontinue=2020${i}%7C${i}&lelimit=max&list=logevents`);

  it('reads the recorded keys once, and again only when a recorder added some', () => {
    const keys = [...walk, 'action=query&bklimit=5&list=blocks'];
    const t = table(keys);
    const q = 'action=query&bklimit=7&bkprop=id&list=blocks';
    expect(nearMisses(q, t)).toEqual([{ key: 'action=query&bklimit=5&list=blocks', differences: ['bklimit 7 ≠ 5', '- bkprop=id'] }]);
    expect(nearMisses(q, t)).toHaveLength(1);
    expect(t.reads).toBe(1);
    keys.push('action=query&bklimit=6&list=blocks');
    expect(nearMisses(q, t).map((n) => n.key)).toEqual(['action=query&bklimit=5&list=blocks', 'action=query&bklimit=6&list=blocks']);
    expect(t.reads).toBe(2);
  });

  it('weighs a group of recordings by its modules: one module apart is within reach, two never', () => {
    const info = 'action=query&lelimit=max&prop=info';
    const userinfo = 'action=query&lelimit=max&list=logevents&meta=userinfo';
    const keys = [...walk, info, userinfo];
    expect(nearMisses('action=query&lelimit=max&list=logevents&meta=siteinfo', table(keys))).toEqual([
      { key: userinfo, differences: ['meta siteinfo ≠ userinfo'] },
      ...[...walk].sort().slice(0, 2).map((key) => ({ key, differences: ['- meta=siteinfo', `+ lecontinue=${decodeURIComponent(key.split('&')[1]!.slice(11))}`] })),
    ]);
    expect(nearMisses('action=query&prop=extlinks&titles=A', table(keys))).toEqual([{ key: info, differences: ['prop extlinks ≠ info', '- titles=A', '+ lelimit=max'] }]);
  });
});
