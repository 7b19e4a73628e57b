/** wfEscapeWikiText, for the characters that can reach API messages. */
export function escapeWikiText(s: string): string {
  return s.replace(/[&"'<=>[\]{|}]/g, (c) => `&#${c.charCodeAt(0)};`);
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
