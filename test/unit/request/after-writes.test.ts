import { describe, expect, it } from 'vitest';
import { readsContent } from '../../../src/request/after-writes.js';

const q = (params: Record<string, string>) => readsContent(new Map(Object.entries(params)));

describe('readsContent: what a write may change', () => {
  it('is every question about pages, lists, generators and the parser', () => {
    expect(q({ action: 'query', prop: 'revisions', titles: 'A' })).toBe(true);
    expect(q({ action: 'query', list: 'recentchanges' })).toBe(true);
    expect(q({ action: 'query', generator: 'allpages' })).toBe(true);
    expect(q({ action: 'query', pageids: '1' })).toBe(true);
    expect(q({ action: 'parse', page: 'A' })).toBe(true);
    expect(q({ action: 'opensearch', search: 'A' })).toBe(true);
    expect(q({ action: 'spamblacklist', url: 'http://example.org' })).toBe(true);
    expect(q({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).toBe(true);
  });

  it("is meta=userinfo's edit count, block and messages, not who the caller is", () => {
    expect(q({ action: 'query', meta: 'userinfo' })).toBe(false);
    expect(q({ action: 'query', meta: 'userinfo', uiprop: 'groups|rights' })).toBe(false);
    expect(q({ action: 'query', meta: 'userinfo', uiprop: 'groups|editcount' })).toBe(true);
    expect(q({ action: 'query', meta: 'userinfo', uiprop: 'blockinfo' })).toBe(true);
    expect(q({ action: 'query', meta: 'userinfo', uiprop: '*' })).toBe(true);
    expect(q({ action: 'query', meta: 'tokens|userinfo', uiprop: 'hasmsg' })).toBe(true);
  });

  it("is not the session's tokens, the modules' parameters, a login or a write", () => {
    expect(q({ action: 'query', meta: 'tokens', type: 'csrf' })).toBe(false);
    expect(q({ action: 'paraminfo', modules: 'edit' })).toBe(false);
    expect(q({ action: 'login' })).toBe(false);
    expect(q({ action: 'edit', title: 'A' })).toBe(false);
    expect(q({ action: 'query' })).toBe(false);
  });
});
