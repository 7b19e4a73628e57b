import { pageById, pageByTitle, type Page } from '../wiki/model.js';
import type { Title } from '../wiki/title.js';
import { isRedirectPage, redirectOf } from './pageset-redirects.js';
import { compareDbKeys, pageKey, type LinkBatch, type PageSetState } from './pageset-state.js';

/**
 * ApiPageSet::processDbRow: a page found. Followed redirects wait for their targets; every other
 * page is good, in the order the lookup returns it.
 */
function processRow(state: PageSetState, title: Title, page: Page | null): void {
  state.allPages.add(pageKey(title));
  if (state.resolveRedirects && (page === null || isRedirectPage(state.ctx, page))) state.pending.push({ title, page });
  else if (page !== null) state.good.push(page);
}

/** Whether the model can say that a title names no page (a recording showed it missing, or its whole namespace). */
function knownMissing(state: PageSetState, t: Title): boolean {
  const k = state.ctx.knows;
  return !k || k.missingTitles.has(`${t.ns}|${t.prefixedText}`) || k.completeNamespaces.has(t.ns);
}

/**
 * initFromTitles / initFromQueryResult for a batch: `page` rows come per namespace in the order the
 * namespaces were first seen (one OR term each), by DB key within one (checked on both live wikis:
 * `titles=Справка:Справка|Beta|Шаблон:Инфобокс|Alpha` lists 17, 8, 9, 19). What is not found is
 * missing, with the next fake ids, in batch order.
 */
export function lookUpBatch(state: PageSetState, batch: LinkBatch): void {
  const { model } = state.ctx;
  const missing: Title[] = [];
  for (const [ns, keys] of batch) {
    const found: { title: Title; page: Page | null }[] = [];
    for (const title of keys.values()) {
      const page = pageByTitle(model, ns, title.prefixedText) ?? null;
      // A redirect an answer showed exists, though no answer gave its id.
      if (page !== null || redirectOf(state, title) !== undefined) found.push({ title, page });
      else missing.push(title);
    }
    found.sort((a, b) => compareDbKeys(a.title.dbkey, b.title.dbkey));
    for (const f of found) {
      if (f.page === null && !state.resolveRedirects) {
        // Listed as a page, it needs the id no recording showed.
        state.ctx.unknown('pages.existence');
        missing.push(f.title);
      } else processRow(state, f.title, f.page);
    }
  }
  for (const title of missing) {
    if (!knownMissing(state, title)) state.ctx.unknown('pages.existence');
    state.allPages.add(pageKey(title));
    state.missing.set(state.fakeId--, title);
  }
}

/**
 * initFromPageIds: ids are read as integers; the `page` rows come by id; ids no page has are
 * missing in the order given (0 and negative ids too). An id the model does not hold may be a
 * page nobody recorded.
 */
export function lookUpPageIds(state: PageSetState, ids: readonly number[]): void {
  const { model } = state.ctx;
  const remaining = [...new Set(ids.map((id) => Math.trunc(id)))];
  const found = remaining.map((id) => pageById(model, id)).filter((p): p is Page => p !== undefined).sort((a, b) => a.pageid - b.pageid);
  for (const page of found) {
    const title = { ns: page.ns, dbkey: dbKeyOf(page) };
    state.allPages.add(pageKey(title));
    if (state.resolveRedirects && isRedirectPage(state.ctx, page)) state.pending.push({ title: titleOfPage(page), page });
    else state.good.push(page);
  }
  state.missingIds = remaining.filter((id) => pageById(model, id) === undefined);
  if (state.ctx.knows && state.missingIds.length > 0) state.ctx.unknown('pages.existence');
}

/** A page's DB key: its title without the namespace prefix, underscores for spaces. */
function dbKeyOf(p: { ns: number; title: string }): string {
  return (p.ns === 0 ? p.title : p.title.slice(p.title.indexOf(':') + 1)).replace(/ /g, '_');
}

/** The title of a page the model holds (its title is the wiki's own spelling). */
function titleOfPage(page: Page): Title {
  const dbkey = dbKeyOf(page);
  return { ns: page.ns, dbkey, text: dbkey.replace(/_/g, ' '), prefixedText: page.title, prefixedDbKey: page.title.replace(/ /g, '_'), fragment: '', interwiki: '' };
}
