import { TITLE, UPPER } from './php-case.js';

/** `hex=hex.hex …` (util/php-case.ts) as character → characters. */
function table(data: string): ReadonlyMap<string, string> {
  const hex = (h: string) => String.fromCodePoint(parseInt(h, 16));
  return new Map(
    data.split(' ').map((item) => {
      const [from, to] = item.split('=') as [string, string];
      return [hex(from), to.split('.').map(hex).join('')];
    }),
  );
}

let upper: ReadonlyMap<string, string> | null = null;
let title: ReadonlyMap<string, string> | null = null;

/** PHP 8.2's mb_strtoupper of one character (Node's, except where PHP's older Unicode differs). */
function mbUpper(c: string): string {
  upper ??= table(UPPER);
  return upper.get(c) ?? c.toUpperCase();
}

/** PHP 8.2's mb_convert_case(MB_CASE_TITLE) of one character. */
function mbTitle(c: string): string {
  title ??= table(TITLE);
  return title.get(c) ?? mbUpper(c);
}

/**
 * Language::ucfirst: a first byte below 0x60 stays, ASCII goes through PHP's ucfirst, a multibyte
 * first character through mb_strtoupper (MediaWiki 1.39: full mapping, `ß` → `SS`, `ǅ` → `Ǆ`) or,
 * from 1.43, MB_CASE_TITLE (`ß` → `Ss`, `ǆ` → `ǅ`, Georgian letters unchanged). Checked against both
 * live wikis (`titles=ǆemal`, `ßtraße`, `აბ`).
 */
export function languageUcfirst(s: string, titleCase: boolean): string {
  const cp = s.codePointAt(0);
  if (cp === undefined || cp < 0x60) return s;
  if (cp < 0x80) return s[0]!.toUpperCase() + s.slice(1);
  const first = String.fromCodePoint(cp);
  return (titleCase ? mbTitle(first) : mbUpper(first)) + s.slice(first.length);
}
