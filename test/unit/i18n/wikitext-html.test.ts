import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expandPlural } from '../../../src/i18n/plural.js';
import { wikitextToHtml } from '../../../src/i18n/wikitext-html.js';
import { lang as L } from '../../support/lang.js';

/** wikitext-php.json (`npm run generate wikitext`): [wikitext, RawMessage(wikitext)->parse()] from MediaWiki 1.39 (content language ru). */
const cases = JSON.parse(readFileSync(new URL('./wikitext-php.json', import.meta.url), 'utf8')) as [string, string][];
const html = (s: string): string => wikitextToHtml(expandPlural(L('en'), s), { lang: L('en'), contentLang: L('ru') });

describe('wikitextToHtml', () => {
  it('renders the recorded snippets exactly as Message::parse does', () => {
    const wrong = cases.filter(([input, want]) => html(input) !== want).map(([input, want]) => ({ input, want, got: html(input) }));
    expect(wrong).toEqual([]);
  });

  it('escapes stray markup, normalises entities and armours French spaces', () => {
    expect(html('1 < 2 > 0 & <foo>')).toBe('1 &lt; 2 &gt; 0 &amp; &lt;foo&gt;');
    expect(html('&copy; &nbsp; &#x41; &bogus;')).toBe('&#169; &#160; &#x41; &amp;bogus;');
    expect(html('« x » : y')).toBe('«&#160;x&#160;»&#160;: y');
  });

  it('makes paragraphs, <pre> and list blocks', () => {
    expect(html('a\n\nb')).toBe('<p>a\n</p><p>b\n</p>');
    expect(html(' pre')).toBe('<pre>pre\n</pre>');
    expect(html('*li')).toBe('<ul><li>li</li></ul>');
    expect(html('x')).toBe('x');
  });

  it('follows the article path and content language given', () => {
    expect(wikitextToHtml('[[Special:ApiHelp/main|help]]', { lang: L('en'), contentLang: L('en'), articlePath: '/w/$1' })).toBe(
      '<a href="/w/Special:ApiHelp/main" title="Special:ApiHelp/main">help</a>',
    );
  });
});
