import type { Title } from './title.js';

/** wfUrlencode: PHP urlencode with `; @ $ ! * ( ) , / ~ :` kept (spaces are already `_`). */
export function wfUrlencode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * Title::getLocalURL for a wiki whose $wgArticlePath is `$wgScript/$1` ($wgUsePathInfo, the
 * default outside CGI): `/wiki/index.php/Foo`, or `/wiki/index.php?title=Foo&action=edit` with a query.
 */
export function localUrl(scriptPath: string, title: Title, query = ''): string {
  const key = wfUrlencode(title.prefixedDbKey);
  const base = query ? `${scriptPath}/index.php?title=${key}&${query}` : `${scriptPath}/index.php/${key}`;
  return title.fragment && !query ? `${base}#${escapeIdForLink(title.fragment)}` : base;
}

/** Sanitizer::escapeIdForLink in html5 mode: whitespace becomes `_`, `%` is escaped, the rest stays. */
export function escapeIdForLink(fragment: string): string {
  return fragment.replace(/[ \t\n\r\f_]+/g, '_').replace(/%([0-9A-Fa-f]{2})/g, '%25$1');
}
