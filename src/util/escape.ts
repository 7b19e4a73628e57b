import { phpStrtr } from './strtr.js';

/** wfEscapeWikiText's replacements (strtr over "\n" + the text) in 1.39. */
const ESCAPES_139: Readonly<Record<string, string>> = {
  '"': '&#34;', '&': '&#38;', "'": '&#39;', '<': '&#60;', '=': '&#61;', '>': '&#62;', '[': '&#91;', ']': '&#93;',
  '{': '&#123;', '|': '&#124;', '}': '&#125;', ';': '&#59;',
  '\n#': '\n&#35;', '\r#': '\r&#35;', '\n*': '\n&#42;', '\r*': '\r&#42;', '\n:': '\n&#58;', '\r:': '\r&#58;',
  '\n ': '\n&#32;', '\r ': '\r&#32;', '\n\n': '\n&#10;', '\r\n': '&#13;\n', '\n\r': '\n&#13;', '\r\r': '\r&#13;',
  '\n\t': '\n&#9;', '\r\t': '\r&#9;', '\n----': '\n&#45;---', '\r----': '\r&#45;---', '__': '_&#95;', '://': '&#58;//',
};
/** 1.43 also escapes table and signature tokens, and the first and last characters that could start one. */
const ESCAPES_143: Readonly<Record<string, string>> = { ...ESCAPES_139, '!!': '&#33;!', '\n!': '\n&#33;', '\r!': '\r&#33;', '~~~': '~~&#126;' };
const FIRST_143: Readonly<Record<string, string>> = { '+': '&#43;', '-': '&#45;', _: '&#95;', '~': '&#126;' };
const LAST_143: Readonly<Record<string, string>> = { _: '&#95;', '~': '&#126;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };
/** The $wgUrlProtocols without `//` (the default list, both versions): `mailto:` becomes `mailto&#58;` ($wgEnableMagicLinks is all off by default). */
const COLON_PROTOCOLS = /\b(bitcoin|geo|magnet|mailto|matrix|news|sip|sips|sms|tel|urn|xmpp):/gi;

/** wfEscapeWikiText (of 1.43 and later when `modern`, else of 1.39): text that reaches a message as a parameter, made inert as wikitext. */
export function escapeWikiText(s: string, modern: boolean): string {
  let text = phpStrtr(`\n${s}`, modern ? ESCAPES_143 : ESCAPES_139).slice(1);
  if (modern && text !== '') {
    const first = phpStrtr(text[0]!, FIRST_143);
    text = text.length > 1 ? first + text.slice(1, -1) + phpStrtr(text.slice(-1), LAST_143) : phpStrtr(first, LAST_143);
  }
  return text.replace(COLON_PROTOCOLS, '$1&#58;');
}

/** Lone UTF-16 surrogates stand for invalid UTF-8, which ENT_SUBSTITUTE turns into U+FFFD. */
const substituteInvalid = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/**
 * htmlspecialchars with PHP 8.1's default flags, ENT_QUOTES | ENT_SUBSTITUTE (`'` as `&#039;`,
 * invalid UTF-8 as U+FFFD), as MediaWiki escapes text into HTML.
 */
export function htmlspecialchars(s: string): string {
  return substituteInvalid(s).replace(/[&<>"']/g, (c) => ENTITY[c]!);
}
