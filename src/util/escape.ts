/**
 * wfEscapeWikiText as 1.39 and 1.43 both have it: each character that starts markup as its
 * numeric entity (`;` too), and what starts markup at the beginning of a line (`#`, `*`, `:`,
 * a space, a tab, a blank line, `----`), `__`, `://` and a `mailto:`-like protocol's colon
 * (strtr over the text after a newline: the longest match at each place). Magic links are off on
 * both wikis ($wgEnableMagicLinks). 1.43's further rules (`!!`, a line's first `!`, the first and
 * last character, `~~~`) are not made here.
 */
export function escapeWikiText(s: string): string {
  const out = `\n${s}`.replace(WIKITEXT_MARKUP, (m) => WIKITEXT_REPL[m] ?? m).slice(1);
  return out.replace(COLON_PROTOCOLS, '$1&#58;');
}

const WIKITEXT_REPL: Readonly<Record<string, string>> = {
  '"': '&#34;', '&': '&#38;', "'": '&#39;', '<': '&#60;', '=': '&#61;', '>': '&#62;', '[': '&#91;', ']': '&#93;',
  '{': '&#123;', '|': '&#124;', '}': '&#125;', ';': '&#59;',
  '\n#': '\n&#35;', '\r#': '\r&#35;', '\n*': '\n&#42;', '\r*': '\r&#42;', '\n:': '\n&#58;', '\r:': '\r&#58;',
  '\n ': '\n&#32;', '\r ': '\r&#32;', '\n\n': '\n&#10;', '\r\n': '&#13;\n', '\n\r': '\n&#13;', '\r\r': '\r&#13;',
  '\n\t': '\n&#9;', '\r\t': '\r&#9;', '\n----': '\n&#45;---', '\r----': '\r&#45;---', __: '_&#95;', '://': '&#58;//',
};
/** The keys of WIKITEXT_REPL, longest first (strtr prefers the longest match at each place). */
const WIKITEXT_MARKUP = new RegExp(
  Object.keys(WIKITEXT_REPL)
    .sort((a, b) => b.length - a.length)
    .map((k) => k.replace(/[\\^$.*+?()[\]{}|\n\r\t]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\${c}`)))
    .join('|'),
  'g',
);
/** $wgUrlProtocols' entries that end in `:` (the default list, on both wikis). */
const COLON_PROTOCOLS = /\b(bitcoin|geo|magnet|mailto|matrix|news|sip|sips|sms|tel|urn|xmpp):/gi;

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
