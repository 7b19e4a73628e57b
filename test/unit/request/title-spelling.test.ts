import { describe, expect, it } from 'vitest';
import { canonicalKey } from '../../../src/request/canonical.js';
import { KEY_RULES } from '../../../src/modules/index.js';
import { parseUrlEncoded } from '../../../src/request/params.js';
import { foldTitle } from '../../../src/request/title-spelling.js';

describe('foldTitle: the spellings one cassette key stands for', () => {
  it('folds whitespace, underscores and the case of a first letter every version upper-cases alike', () => {
    expect(['москва', ' Список__ссылок ', 'foo\u00a0bar', 'foo\u3000bar', 'ёлка', 'ıx', 'שלום'].map(foldTitle)).toEqual(['Москва', 'Список ссылок', 'Foo bar', 'Foo bar', 'Ёлка', 'ıx', 'שלום']);
  });

  it('keeps a first letter 1.39 and 1.43 write otherwise (ǆ → Ǆ or ǅ, ß → SS or Ss, Georgian)', () => {
    expect(['ǆemal', 'Ǆemal', 'ßtraße', 'აბ', 'ﬁx'].map(foldTitle)).toEqual(['ǆemal', 'Ǆemal', 'ßtraße', 'აბ', 'ﬁx']);
  });

  it('keeps as sent every title whose answer may differ in more than `normalized`', () => {
    const kept = [
      'Project:О_проекте', 'wikipedia:foo', ':foo', 'Foo#bar', '#', 'AT&T', 'Foo&amp;bar', 'Foo%20bar', 'a[b', 'a|b', 'Foo\tbar', 'Foo\u0001bar',
      'Foo\u200ebar', 'Foo\ufffd', 'Е\u0308лка', '~~~', './x', 'x/../y', '..', '', '   ', 'А'.repeat(128),
    ];
    expect(kept.map(foldTitle)).toEqual(kept.map(() => null));
    expect(foldTitle(`${'А'.repeat(127)}x`)).toBe(`${'А'.repeat(127)}x`);
  });
});

describe('canonicalKey of titles', () => {
  const key = (qs: string) => canonicalKey(parseUrlEncoded(qs), KEY_RULES);
  it('shares a key only between spellings MediaWiki answers alike but for `normalized`', () => {
    expect(key('action=query&titles=zeta&redirects=1')).toBe(key('action=query&titles=Zeta&redirects=1'));
    expect(key('action=query&titles=Project:О_проекте')).not.toBe(key('action=query&titles=Project:О проекте'));
    expect(key('action=query&titles=Foo%09Bar')).not.toBe(key('action=query&titles=Foo Bar'));
    expect(key('action=query&titles=Foo%EF%BB%BFBar')).not.toBe(key('action=query&titles=Foo Bar'));
    expect(key('action=query&titles=%C7%86emal')).not.toBe(key('action=query&titles=%C7%84emal'));
    expect(key('action=query&titles=category:')).not.toBe(key('action=query&titles=Category:'));
  });
});
