/** wfEscapeWikiText, for the characters that can reach API messages. */
export function escapeWikiText(s: string): string {
  return s.replace(/[&"'<=>[\]{|}]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** htmlspecialchars with ENT_QUOTES (`'` as `&#039;`), as MediaWiki escapes text into HTML. */
export function htmlspecialchars(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}
