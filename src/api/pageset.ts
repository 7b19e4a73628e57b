import type { Page } from '../wiki/model.js';
import { parseTitle } from '../wiki/title.js';
import { message } from '../i18n/message.js';
import { getLanguage } from '../i18n/language.js';
import type { ApiContext } from './context.js';
import { ApiUsageError, apiMessage } from './errors.js';
import { readParams } from './param-reader.js';
import { pv } from './param-spec.js';
import type { JsonObject } from './result.js';

/**
 * ApiPageSet for `titles` and `pageids`: which pages a prop module works on, and the
 * `query.pages` entries (formatversion=2 order: by id, fake negative ids first).
 */
export interface PageSet {
  /** Existing pages in database order (namespace, then DB key). */
  good: Page[];
  /** `query.pages` entries without module data, keyed by (possibly fake) page id. */
  entries: Map<number, JsonObject>;
  normalized: { from: string; to: string }[];
  /** Whether any page input was given (else `query.pages` is not written). */
  hasInput: boolean;
}

const PAGESET_PARAMS = {
  titles: { type: 'string', multi: true },
  pageids: { type: 'integer', multi: true },
  revids: { type: 'integer', multi: true },
  generator: { type: 'string' },
  redirects: { type: 'boolean' },
  converttitles: { type: 'boolean' },
} as const;

function byDbOrder(a: Page, b: Page): number {
  if (a.ns !== b.ns) return a.ns - b.ns;
  const ka = dbkeyOf(a);
  const kb = dbkeyOf(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function dbkeyOf(p: { ns: number; title: string }): string {
  return (p.ns === 0 ? p.title : p.title.slice(p.title.indexOf(':') + 1)).replace(/ /g, '_');
}

export function buildPageSet(ctx: ApiContext): PageSet {
  const v = readParams(ctx, { path: 'query', prefix: '', name: 'query' }, PAGESET_PARAMS);
  const set: PageSet = { good: [], entries: new Map(), normalized: [], hasInput: false };
  const titles = v['titles'] === null ? null : pv.list(v['titles']);
  const pageids = v['pageids'] === null ? null : pv.nums(v['pageids']);
  if (titles !== null && pageids !== null) {
    throw new ApiUsageError(
      apiMessage('multisource', 'apierror-invalidparammix-cannotusewith', ['pageids', 'titles']),
    );
  }
  if (titles !== null) addTitles(ctx, set, titles);
  if (pageids !== null) addPageIds(ctx, set, pageids);
  set.good.sort(byDbOrder);
  for (const p of set.good) set.entries.set(p.pageid, { pageid: p.pageid, ns: p.ns, title: p.title });
  return set;
}

function addTitles(ctx: ApiContext, set: PageSet, titles: string[]): void {
  set.hasInput = true;
  let fake = -1;
  const missing: { ns: number; title: string }[] = [];
  const seen = new Set<string>();
  for (const input of titles) {
    const t = parseTitle(input, ctx.titles);
    if (!t.ok) {
      // ApiErrorFormatter::formatException with `bc`: in English
      const reason = message(getLanguage('en', ctx.profile.version), t.reason, t.params);
      set.entries.set(fake--, { title: input, invalidreason: reason, invalid: true });
      continue;
    }
    const { prefixedText, ns } = t.title;
    if (prefixedText !== input) set.normalized.push({ from: input, to: prefixedText });
    if (seen.has(prefixedText)) continue;
    seen.add(prefixedText);
    const page = ctx.model.pages.find((p) => p.ns === ns && p.title === prefixedText);
    if (page) set.good.push(page);
    else {
      // A title no recording showed, as a page or as missing, may well exist.
      const k = ctx.model.knows;
      if (k && !k.missingTitles.has(`${ns}|${prefixedText}`) && !k.completeNamespaces.has(ns)) ctx.unknown('pages.existence');
      missing.push({ ns, title: prefixedText });
    }
  }
  // Missing titles get their fake ids after the lookup, grouped by namespace.
  const namespaces = [...new Set(missing.map((m) => m.ns))];
  for (const ns of namespaces) {
    for (const m of missing.filter((x) => x.ns === ns)) {
      set.entries.set(fake--, { ns: m.ns, title: m.title, missing: true });
    }
  }
}

function addPageIds(ctx: ApiContext, set: PageSet, ids: number[]): void {
  set.hasInput = true;
  for (const id of ids) {
    const page = ctx.model.pages.find((p) => p.pageid === id);
    if (page) {
      if (!set.good.includes(page)) set.good.push(page);
    } else {
      if (ctx.model.knows) ctx.unknown('pages.existence');
      set.entries.set(id, { pageid: id, missing: true });
    }
  }
}

/**
 * Whether a page exists, as far as the model knows: a page it holds exists, a title recordings
 * showed missing does not; any other title of a replayed wiki is unknown (flagged, answered as
 * missing). Special pages always exist.
 */
export function pageExists(ctx: ApiContext, t: { ns: number; prefixedText: string }): boolean {
  if (t.ns < 0) return t.ns === -1;
  if (ctx.model.pages.some((p) => p.ns === t.ns && p.title === t.prefixedText)) return true;
  const k = ctx.model.knows;
  if (k && !k.missingTitles.has(`${t.ns}|${t.prefixedText}`) && !k.completeNamespaces.has(t.ns)) ctx.unknown('pages.existence');
  return false;
}

/** Whether an existing page is a redirect, as far as the model knows (flagged when it cannot tell). */
export function isRedirect(ctx: ApiContext, t: { ns: number; prefixedText: string }): boolean {
  const page = ctx.model.pages.find((p) => p.ns === t.ns && p.title === t.prefixedText);
  if (!page) return false;
  if (page.redirect !== undefined) return page.redirect;
  const k = ctx.model.knows;
  if (k && !k.completeRedirects.has(t.ns)) ctx.unknown('pages.redirect');
  return false;
}

/** `query.pages` in formatversion=2 order: sorted by id, fake negative ids first. */
export function pagesJson(set: PageSet): JsonObject[] {
  return [...set.entries.entries()].sort((a, b) => a[0] - b[0]).map(([, e]) => e);
}
