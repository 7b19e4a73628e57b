import { rawurlencode } from '../util/php-url.js';
import { defaultInterwikiMap, interwikiUrl } from '../wiki/interwiki.js';
import { parseTitle } from '../wiki/title.js';
import type { ApiContext } from './context.js';
import { pagesJson, type PageSet } from './pageset.js';
import type { JsonObject } from './result.js';
import { cleanUp } from './unicode.js';

/**
 * ApiQuery::outputGeneralPageInfo: `normalized`, `interwiki`, `redirects`, `pageids` and `pages`,
 * in that order, each only when it has something (`titles=#` gives a `normalized` entry alone).
 */
export function writePageInfo(ctx: ApiContext, pages: PageSet, opts: { iwurl: boolean; indexpageids: boolean }): void {
  const { state } = pages;
  const q = () => ctx.result.query();
  if (state.normalized.size > 0) q()['normalized'] = [...state.normalized].map(([from, to]) => normalizedEntry(from, to));
  if (state.interwiki.size > 0) q()['interwiki'] = [...state.interwiki].map(([title, iw]) => interwikiEntry(ctx, title, iw, opts.iwurl));
  if (state.redirects.size > 0) {
    q()['redirects'] = [...state.redirects].map(([from, to]) => ({
      from,
      to: to.prefixedText,
      ...(to.fragment !== '' ? { tofragment: to.fragment } : {}),
      ...(to.interwiki !== '' ? { tointerwiki: to.interwiki } : {}),
    }));
  }
  if (pages.entries.size === 0) return;
  // The ids in the order ApiQuery put the pages in (formatversion=2 then sorts the pages by id).
  if (opts.indexpageids) q()['pageids'] = [...pages.entries.keys()].map(String);
  q()['pages'] = pagesJson(pages);
}

/**
 * ApiPageSet::getNormalizedTitlesAsResult: a `from` that is not what the content language's
 * normalization makes of it (a value WebRequest cleaned) is printed rawurlencoded, `fromencoded`.
 */
function normalizedEntry(from: string, to: string): JsonObject {
  const encode = cleanUp(from) !== from;
  return { fromencoded: encode, from: encode ? rawurlencode(from) : from, to };
}

/** ApiPageSet::getInterwikiTitlesAsResult: the title and prefix; with `iwurl`, the URL of the title re-read (no fragment). */
function interwikiEntry(ctx: ApiContext, title: string, iw: string, iwurl: boolean): JsonObject {
  const entry: JsonObject = { title, iw };
  if (!iwurl) return entry;
  const t = parseTitle(title, ctx.titles);
  const rest = t.ok ? t.title.prefixedDbKey.slice(iw.length + 1) : title.slice(iw.length + 1).replace(/ /g, '_');
  const url = interwikiUrl(ctx.titles.interwiki ?? defaultInterwikiMap(ctx.profile.version), iw, rest, ctx.profile.server);
  if (url !== null) entry['url'] = url;
  return entry;
}
