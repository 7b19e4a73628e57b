import { wfUrlencode } from '../util/php-url.js';
import { INTERWIKI_139, INTERWIKI_143 } from './interwiki-lists.js';
import { atLeast } from './profile.js';

/** An interwiki table: lower-case prefix → URL with `$1` (the `interwiki` table's iw_prefix, iw_url). */
export type InterwikiMap = ReadonlyMap<string, string>;

function parseList(list: string): InterwikiMap {
  return new Map(
    list
      .trim()
      .split('\n')
      .map((line) => {
        const space = line.indexOf(' ');
        return [line.slice(0, space), line.slice(space + 1)] as const;
      }),
  );
}

/** MediaWiki 1.39's default table (maintenance/interwiki.list). */
export const INTERWIKI: InterwikiMap = parseList(INTERWIKI_139);
let interwiki143: InterwikiMap | null = null;

/** The table a default install of `version` loads (the live 1.39 and 1.43 wikis' siteinfo `interwikimap`). */
export function defaultInterwikiMap(version = '1.39'): InterwikiMap {
  if (!atLeast({ version }, '1.43')) return INTERWIKI;
  return (interwiki143 ??= parseList(INTERWIKI_143));
}

/** The table a recorded `siprop=interwikimap` (or a fixture's `interwikimap`) shows (`[{prefix, url, …}]`), or null. */
export function interwikiMapFromSiteinfo(entries: unknown): InterwikiMap | null {
  if (!Array.isArray(entries)) return null;
  const map = new Map<string, string>();
  for (const e of entries as { prefix?: unknown; url?: unknown }[]) {
    if (typeof e?.prefix !== 'string' || typeof e.url !== 'string') return null;
    map.set(e.prefix.toLowerCase(), e.url);
  }
  return map;
}

/**
 * Title::getFullURL of an interwiki title (`prefix:rest`, the rest in DB form): the prefix's URL
 * with `$1` replaced by the wfUrlencode'd rest; a protocol-relative URL takes the protocol of
 * `server` (PROTO_CURRENT: the wiki's own, as its clients reach it).
 */
export function interwikiUrl(map: InterwikiMap, prefix: string, rest: string, server: string): string | null {
  const url = map.get(prefix);
  if (url === undefined) return null;
  const encoded = wfUrlencode(rest);
  const full = url.replace(/\$1/g, () => encoded);
  return full.startsWith('//') ? `${server.startsWith('https:') ? 'https:' : 'http:'}${full}` : full;
}
