import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalKey } from '../../../src/request/canonical.js';
import { KEY_RULES } from '../../../src/modules/index.js';
import { parseUrlEncoded } from '../../../src/request/params.js';

const key = (qs: string) => canonicalKey(parseUrlEncoded(qs), KEY_RULES);

describe('canonicalKey: requests that share a key', () => {
  const base = key('action=query&list=logevents');

  it('ignores format variants', () => {
    for (const qs of [
      'action=query&list=logevents&format=json',
      'format=jsonfm&action=query&list=logevents',
      'action=query&list=logevents&format=json&formatversion=2&utf8=1',
      'action=query&list=logevents&format=json&callback=cb&_=12345',
      'action=query&list=logevents&format=json&ascii&requestid=abc&maxlag=5&origin=*',
    ]) {
      expect(key(qs)).toBe(base);
    }
  });

  it('ignores parameter order and the encoding of the same characters', () => {
    expect(key('list=blocks&action=query&bkprop=id%7Cuser')).toBe(key('action=query&list=blocks&bkprop=id|user'));
  });

  it('reads | and \\x1f multi-values alike and sorts value sets', () => {
    expect(key('action=query&list=blocks&bkprop=user|id')).toBe(key('action=query&list=blocks&bkprop=%1Fid%1Fuser'));
  });

  it('makes module defaults explicit', () => {
    expect(key('action=query&list=logevents&lelimit=10&ledir=older')).toBe(base);
    expect(key('action=query&list=logevents&leprop=ids|title|type|user|timestamp|comment|details')).toBe(base);
  });

  it('treats an empty continue like none', () => {
    expect(key('action=query&list=logevents&continue=')).toBe(base);
  });

  it('folds title spellings the wiki treats alike: case of the first letter, underscores, spaces', () => {
    expect(key('action=query&prop=extlinks&titles=москва|Список_ссылок')).toBe(key('action=query&prop=extlinks&titles=Москва|Список  ссылок'));
    expect(key('action=query&list=logevents&letitle=москва')).toBe(key('action=query&list=logevents&letitle=Москва'));
  });

  it('keeps possibly invalid titles as sent', () => {
    expect(key('action=query&prop=extlinks&titles=a[b')).not.toBe(key('action=query&prop=extlinks&titles=A[b'));
  });
});

describe('canonicalKey: requests that do not share a key', () => {
  it('keeps other limits, continuation points, filters and languages apart', () => {
    const keys = [
      'action=query&list=logevents',
      'action=query&list=logevents&lelimit=5',
      'action=query&list=logevents&lecontinue=20240101000000|5&continue=-||',
      'action=query&list=logevents&letype=block',
      'action=query&list=logevents&uselang=en',
      'action=query&list=logevents&errorformat=plaintext',
      'action=query&list=blocks|logevents',
      'action=query&list=logevents|blocks',
    ].map((qs) => key(qs));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the order of titles, which decides fake page ids', () => {
    expect(key('action=query&prop=extlinks&titles=A|B')).not.toBe(key('action=query&prop=extlinks&titles=B|A'));
  });

  it('is a stable string', () => {
    expect(key('action=query&list=blocks&bklimit=5')).toBe(
      'action=query&bkdir=older&bklimit=5&bkprop=by%7Cexpiry%7Cflags%7Cid%7Creason%7Ctimestamp%7Cuser&list=blocks',
    );
  });
});

describe('canonicalKey: the rules the modules declare', () => {
  it('gives every recording of the bundled wiki the key it was stored under', () => {
    const c = JSON.parse(readFileSync(new URL('../../../cassettes/bundled-wiki.json', import.meta.url), 'utf8')) as { interactions: { key: string; request: Record<string, string> }[] };
    expect(c.interactions.length).toBeGreaterThan(50);
    for (const i of c.interactions) expect(canonicalKey(new Map(Object.entries(i.request)), KEY_RULES)).toBe(i.key);
  });

  it('folds in only what a module declares: without rules, nothing is made explicit or sorted', () => {
    const none = { defaults: new Map(), sets: new Set<string>(), titles: new Set<string>() };
    expect(canonicalKey(parseUrlEncoded('action=query&list=blocks&bkprop=user|id'), none)).toBe('action=query&bkprop=user%7Cid&list=blocks');
  });
});
