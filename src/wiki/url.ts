import { INTERWIKI } from './interwiki.js';
import type { Title } from './title.js';
import { phpUrlencode, wfUrlencode } from '../util/php-url.js';

/** Where index.php lives: `$wgScriptPath` (e.g. `/wiki`), or a profile carrying it. */
export type ScriptPathLike = string | { scriptPath: string };

const scriptPathOf = (w: ScriptPathLike) => (typeof w === 'string' ? w : w.scriptPath);

/** wfAppendQuery for a string query. */
export function wfAppendQuery(url: string, query: string): string {
  if (query === '') return url;
  const hash = url.indexOf('#');
  const frag = hash >= 0 ? url.slice(hash) : '';
  const base = hash >= 0 ? url.slice(0, hash) : url;
  return `${base}${base.includes('?') ? '&' : '?'}${query}${frag}`;
}

/**
 * Title::getLocalURL without $wgActionPaths. The article path is `$wgScript/$1`: `$wgUsePathInfo`
 * is on under PHP's built-in server (cli-server) and mod_php, so `/wiki/index.php/Foo`; with a
 * query `/wiki/index.php?title=Foo&action=edit`. Interwiki titles give the other wiki's URL.
 */
export function localUrl(where: ScriptPathLike, title: Title, query = ''): string {
  if (title.interwiki) {
    const base = INTERWIKI.get(title.interwiki);
    if (base !== undefined) {
      // Interwiki::getURL($nsText:$dbkey)
      const local = title.prefixedDbKey.slice(title.interwiki.length + 1);
      return wfAppendQuery(base.replace('$1', wfUrlencode(local)), query);
    }
  }
  const script = `${scriptPathOf(where)}/index.php`;
  const key = wfUrlencode(title.prefixedDbKey);
  if (query === '') return `${script}/${key}`;
  return `${script}?title=${key}&${query === '-' ? '' : query}`;
}

/** Title::getFragmentForURL: `#` + the escaped fragment ('' without one); legacy escaping for interwikis. */
export function fragmentForUrl(title: Title): string {
  if (title.fragment === '') return '';
  if (title.interwiki && INTERWIKI.has(title.interwiki)) return `#${escapeIdForExternalInterwiki(title.fragment)}`;
  return `#${escapeIdForLink(title.fragment)}`;
}

/** Title::getLinkURL: the local URL plus fragment; a bare fragment for fragment-only targets. */
export function linkUrl(where: ScriptPathLike, title: Title, query = ''): string {
  if (!title.interwiki && title.prefixedText === '' && title.fragment !== '') return fragmentForUrl(title);
  return localUrl(where, title, query) + fragmentForUrl(title);
}

/** mb_substr($id, 0, 1024): griefer protection of Sanitizer::escapeIdInternal. */
function truncateId(id: string): string {
  const chars = Array.from(id);
  return chars.length > 1024 ? chars.slice(0, 1024).join('') : id;
}

/**
 * Sanitizer::escapeIdForLink, `$wgFragmentMode` primary `html5`: tab, LF, FF, CR and space become
 * `_`, and `%XX` becomes `%25XX` (T238385); everything else (non-ASCII too) stays.
 */
export function escapeIdForLink(id: string): string {
  return truncateId(id)
    .replace(/[\t\n\f\r ]/g, '_')
    .replace(/%([a-fA-F0-9]{2})/g, '%25$1');
}

/** Sanitizer::escapeIdForExternalInterwiki, `$wgExternalInterwikiFragmentMode` `legacy`. */
export function escapeIdForExternalInterwiki(id: string): string {
  return phpUrlencode(truncateId(id).replace(/ /g, '_')).replace(/%3A|%/g, (m) => (m === '%' ? '.' : ':'));
}
