import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { phpUrlDecode, phpUrlencode, rawurlencode, wfUrlencode } from '../../../src/util/php-url.js';
import { htmlspecialchars } from '../../../src/util/escape.js';

interface PhpCase {
  input: string;
  urlencode: string;
  rawurlencode: string;
  urldecode: string;
  htmlspecialchars: string;
}

/** PHP 8.2's answers: scripts/generate/php-url.php. */
const PHP = JSON.parse(readFileSync(new URL('./php-url-php.json', import.meta.url), 'utf8')) as PhpCase[];

describe('the one copy of each PHP URL and HTML helper answers as PHP does', () => {
  it.each(PHP.map((c) => [JSON.stringify(c.input), c] as const))('%s', (_name, c) => {
    expect(phpUrlencode(c.input)).toBe(c.urlencode);
    expect(rawurlencode(c.input)).toBe(c.rawurlencode);
    expect(phpUrlDecode(c.input)).toBe(c.urldecode);
    expect(htmlspecialchars(c.input)).toBe(c.htmlspecialchars);
  });

  it('wfUrlencode keeps ;@$!*(),/~: readable', () => {
    expect(wfUrlencode('Служебная:Свежие правки/a b;@$!*(),~')).toBe('%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:%D0%A1%D0%B2%D0%B5%D0%B6%D0%B8%D0%B5+%D0%BF%D1%80%D0%B0%D0%B2%D0%BA%D0%B8/a+b;@$!*(),~');
  });
});
