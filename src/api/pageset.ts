import { pageByTitle, type Page } from '../wiki/model.js';
import { specialPageExists } from '../wiki/special-pages.js';
import { makeTitle, specialPagesOf, type Title } from '../wiki/title.js';
import type { ApiContext } from './context.js';
import { ApiUsageError, apiMessage } from './errors.js';
import { lookUpBatch, lookUpPageIds } from './pageset-lookup.js';
import { isRedirectPage, loadRedirectTargets } from './pageset-redirects.js';
import { newPageSetState, type PageSetState } from './pageset-state.js';
import { cleanedTitles, processTitles } from './pageset-titles.js';
import { readParams } from './param-reader.js';
import { pv } from './param-spec.js';
import type { JsonObject } from './result.js';

/**
 * ApiPageSet for `titles` and `pageids` (with `redirects`): which pages a prop module works on,
 * and what ApiQuery writes about them (api/page-info.ts). Split along MediaWiki's own seams:
 * normalization (pageset-titles.ts), lookups (pageset-lookup.ts), redirects (pageset-redirects.ts).
 */
export interface PageSet {
  /** Existing pages, redirects followed, in the order the wiki's lookups return them. */
  good: Page[];
  /** `query.pages` entries without module data, keyed by page id or fake id. */
  entries: Map<number, JsonObject>;
  /** The state the entries were made from (page-info.ts writes `normalized`, `redirects` … from it). */
  state: PageSetState;
  /**
   * Whether which pages are `good` is known: false when a title's existence or a redirect's target
   * was not (`pages.existence`, `pages.redirect`). An error that hangs on the pages found (1.39's
   * `elcontinue` has a page part only for more than one page) is then flagged, not served.
   */
  certain: boolean;
}

const PAGESET_PARAMS = {
  titles: { type: 'string', multi: true },
  pageids: { type: 'integer', multi: true },
  revids: { type: 'integer', multi: true },
  generator: { type: 'string' },
  redirects: { type: 'boolean' },
  converttitles: { type: 'boolean' },
} as const;

/** LanguageConverter::$languagesWithVariants but `en` (whose pig-latin variant is off by default). */
const VARIANT_LANGUAGES: ReadonlySet<string> = new Set(['ban', 'crh', 'gan', 'iu', 'kk', 'ku', 'shi', 'sr', 'tg', 'tly', 'uz', 'wuu', 'zh']);

/** ApiPageSet::executeInternal: one data source (titles, pageids or revids), then redirects followed. */
export function buildPageSet(outer: ApiContext): PageSet {
  // (what it needed of the pages, noted as it is told: see PageSet.certain)
  let certain = true;
  const ctx: ApiContext = {
    ...outer,
    unknown: (what, how) => {
      if (what === 'pages.existence' || what === 'pages.redirect') certain = false;
      outer.unknown(what, how);
    },
  };
  const v = readParams(ctx, { path: 'query', prefix: '', name: 'query' }, PAGESET_PARAMS, { setup: true });
  const generator = pv.str(v['generator']);
  if (generator !== null) throw new ApiUsageError(apiMessage('wikitape-notimplemented', 'wikitape-notimplemented', [`generator=${generator}`]), 'query');
  const sources = (['titles', 'pageids', 'revids'] as const).filter((s) => v[s] !== null);
  if (sources.length > 1) {
    throw new ApiUsageError(apiMessage('multisource', 'apierror-invalidparammix-cannotusewith', [sources[1]!, sources[0]!]));
  }
  if (sources[0] === 'revids') throw new ApiUsageError(apiMessage('wikitape-notimplemented', 'wikitape-notimplemented', ['revids']), 'query');
  const state = newPageSetState(ctx, v['redirects'] === true);
  if (v['converttitles'] === true) checkVariants(ctx);
  if (sources[0] === 'titles') {
    cleanedTitles(state);
    lookUpBatch(state, processTitles(state, pv.list(v['titles'])));
  } else if (sources[0] === 'pageids') lookUpPageIds(state, pv.nums(v['pageids']));
  resolvePendingRedirects(state);
  return { good: state.good, entries: pageEntries(state), state, certain };
}

/** ApiPageSet::resolvePendingRedirects: targets looked up until no redirect is left. */
function resolvePendingRedirects(state: PageSetState): void {
  while (state.pending.length > 0) {
    const batch = processTitles(state, loadRedirectTargets(state));
    if (batch.size === 0) break;
    lookUpBatch(state, batch);
  }
}

/**
 * `converttitles` changes nothing on a wiki whose content language has no variants (ru, en: the
 * live wikis print nothing for it); on one that has (zh, sr …) a title may be found under another
 * variant, which wikitape does not do.
 */
function checkVariants(ctx: ApiContext): void {
  const general = ctx.knows?.meta.get('siteinfo')?.get('general')?.['general'] as { lang?: unknown } | undefined;
  const lang = typeof general?.lang === 'string' ? general.lang : ctx.profile.language;
  if (VARIANT_LANGUAGES.has(lang.split('-')[0]!)) ctx.unknown('pages.converttitles');
}

/** ApiQueryBase::addTitleInfo. */
const titleInfo = (t: Title): JsonObject => ({ ns: t.ns, title: t.prefixedText });

/**
 * ApiQuery::outputGeneralPageInfo's `$pages`: missing titles (`known` for a system message no page
 * overrides), invalid titles, missing ids, special titles, then the good pages.
 */
function pageEntries(state: PageSetState): Map<number, JsonObject> {
  const entries = new Map<number, JsonObject>();
  for (const [id, t] of state.missing) {
    // Title::isKnown for NS_MEDIAWIKI: a message of the wiki's code or extensions (no table here).
    if (t.ns === 8) state.ctx.unknown('pages.known');
    entries.set(id, { ...titleInfo(t), missing: true });
  }
  for (const [id, e] of state.invalid) entries.set(id, { title: e.title, invalidreason: e.invalidreason, invalid: true });
  for (const id of state.missingIds) entries.set(id, { pageid: id, missing: true });
  for (const [id, t] of state.special) entries.set(id, { ...titleInfo(t), special: true, ...(specialKnown(state, t) ? {} : { missing: true }) });
  for (const p of state.good) entries.set(p.pageid, { pageid: p.pageid, ns: p.ns, title: p.title });
  return entries;
}

/** Title::isKnown of a special title (an installed special page) or a media title (the file exists). */
function specialKnown(state: PageSetState, t: Title): boolean {
  const titles = state.ctx.titles;
  if (t.ns === -1) return specialPageExists(t.dbkey, specialPagesOf(titles));
  // A file exists where its description page does (an upload makes both).
  return pageExists(state.ctx, makeTitle(6, t.dbkey, titles));
}

/**
 * Whether a page exists, as far as the model knows: a page it holds exists, a title recordings
 * showed missing does not; any other title of a replayed wiki is unknown (flagged, answered as
 * missing). Special pages always exist.
 */
export function pageExists(ctx: ApiContext, t: { ns: number; prefixedText: string }): boolean {
  if (t.ns < 0) return t.ns === -1;
  if (pageByTitle(ctx.model, t.ns, t.prefixedText)) return true;
  const k = ctx.knows;
  if (k && !k.missingTitles.has(`${t.ns}|${t.prefixedText}`) && !k.completeNamespaces.has(t.ns)) ctx.unknown('pages.existence');
  return false;
}

/** Whether an existing page is a redirect, as far as the model knows (flagged when it cannot tell). */
export function isRedirect(ctx: ApiContext, t: { ns: number; prefixedText: string }): boolean {
  const page = pageByTitle(ctx.model, t.ns, t.prefixedText);
  return page !== undefined && isRedirectPage(ctx, page);
}

/** `query.pages` in formatversion=2 order: sorted by id, fake negative ids first. */
export function pagesJson(set: PageSet): JsonObject[] {
  return [...set.entries.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
}
