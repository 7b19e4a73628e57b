import { describe, expect, it } from 'vitest';
import { withoutTokens } from '../../../src/request/token-part.js';
import { recordingPlan } from '../../../src/record/policy.js';

const q = (s: string) => new Map(new URLSearchParams(s));
const part = (s: string) => {
  const p = withoutTokens(q(s));
  return p === null ? null : new URLSearchParams([...p]).toString();
};

describe('a question without its tokens', () => {
  it('leaves tokens out of meta and type out, everything else as asked', () => {
    expect(part('action=query&meta=tokens|siteinfo|userinfo&type=csrf|login&siprop=general&uiprop=rights&format=json')).toBe('action=query&meta=siteinfo%7Cuserinfo&siprop=general&uiprop=rights&format=json');
    expect(part('action=query&meta=userinfo|tokens&list=allpages')).toBe('action=query&meta=userinfo&list=allpages');
    // Only a list beside the tokens: no meta left.
    expect(part('action=query&meta=tokens&list=allpages&aplimit=1')).toBe('action=query&list=allpages&aplimit=1');
  });

  it('is no question when the tokens are all it asks, when it is no query, or when continue marks tokens done', () => {
    expect(part('action=query&meta=tokens&type=login')).toBeNull();
    expect(part('action=query&meta=siteinfo')).toBeNull();
    expect(part('action=parse&meta=tokens|siteinfo')).toBeNull();
    expect(part('action=query&meta=tokens|userinfo&list=allpages&continue=-||tokens|userinfo&apcontinue=B')).toBeNull();
  });

  it('decides what record mode stores, once: the answer itself, the question without its tokens, or nothing', () => {
    expect(recordingPlan(q('action=query&meta=siteinfo'))).toMatchObject({ own: true, note: null });
    const login = recordingPlan(q('action=query&meta=tokens|siteinfo|userinfo&type=csrf'));
    expect(login).toMatchObject({ own: false, note: "recorded without meta=tokens: the tokens are the session's" });
    expect(login.stores && Object.fromEntries(login.stores)).toEqual({ action: 'query', meta: 'siteinfo|userinfo' });
    expect(recordingPlan(q('action=query&meta=tokens&type=csrf'))).toEqual({ stores: null, note: 'not recorded: meta=tokens hands out tokens' });
    // A secret parameter beside the tokens: nothing is stored.
    expect(recordingPlan(q('action=query&meta=tokens|userinfo&lgpassword=x')).stores).toBeNull();
  });
});
