import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCharRefs, stripMarkup } from '../../../src/i18n/strip-markup.js';

/** strip-markup-php.json (`npm run generate strip-markup`): [input, ApiErrorFormatter::stripMarkup(input)] from MediaWiki 1.39 (fixed cases + 400 random ones). */
const cases = JSON.parse(readFileSync(new URL('./strip-markup-php.json', import.meta.url), 'utf8')) as [string, string][];

describe('stripMarkup', () => {
  it('agrees with ApiErrorFormatter::stripMarkup (RemexHtml tokenizer) on all recorded inputs', () => {
    const wrong = cases.filter(([input, want]) => stripMarkup(input) !== want).map(([input, want]) => ({ input, want, got: stripMarkup(input) }));
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThan(400);
  });

  it('turns the semantic tags into quotes and drops the rest', () => {
    expect(stripMarkup('<kbd>k</kbd><samp>s</samp><code>c</code>')).toBe('"k""s""c"');
    // Only the exact tags are quoted: an opening tag with attributes is dropped, its closing tag still quoted.
    expect(stripMarkup('<var x="1">v</var>')).toBe('v"');
    expect(stripMarkup('a<br>b<p>c</p>d')).toBe('a b c d');
    expect(stripMarkup('<script>x</script>y<style>z</style>')).toBe('y');
    expect(stripMarkup('a<!-- c -->b')).toBe('ab');
    expect(stripMarkup('a < b <3')).toBe('a < b <3');
  });

  it('collapses whitespace and trims, as Sanitizer::stripAllTags does', () => {
    expect(stripMarkup('  a \n\t b  ')).toBe('a b');
  });
});

describe('decodeCharRefs', () => {
  it('decodes named (longest match, legacy forms without ;), decimal and hex references', () => {
    expect(decodeCharRefs('&amp;&lt;&gt;&quot;&apos;&nbsp;')).toBe('&<>"\'\u00a0');
    expect(decodeCharRefs('&notin; &notin &notit; &ampx')).toBe('∉ ¬in ¬it; &x');
    expect(decodeCharRefs('&#65;&#x42;&#0;&#128;&#xD800;&#99999999;&#;&foo;')).toBe('AB\ufffd€\ufffd\ufffd&#;&foo;');
  });
});
