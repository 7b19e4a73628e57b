import type { Page, Redirect } from '../wiki/model.js';
import { makeTitle, parseTitle, withFragment, type Title } from '../wiki/title.js';
import type { ApiContext } from './context.js';
import { pageKey, type PageSetState } from './pageset-state.js';

/**
 * Redirects as ApiPageSet follows them with `redirects`: a page is a redirect when an answer said
 * so (`list=allpages&apfilterredir=redirects`, `query.redirects`) or a fixture does; where it leads
 * is what an answer's `query.redirects` showed (record/harvest-redirects.ts). A redirect whose
 * target nobody recorded is flagged `pages.redirect`, never followed by guess.
 */

/** The known redirect of the page with this title. */
export function redirectOf(state: PageSetState, t: { prefixedText: string }): Redirect | undefined {
  return state.ctx.model.redirects?.find((r) => r.from === t.prefixedText);
}

/**
 * Whether an existing page is a redirect (page_is_redirect). A wiki learned from recordings says
 * so only for namespaces whose redirects a complete walk listed; else it is flagged.
 */
export function isRedirectPage(ctx: ApiContext, page: Page): boolean {
  if (page.redirect !== undefined) return page.redirect;
  if (ctx.model.redirects?.some((r) => r.from === page.title)) return true;
  const k = ctx.knows;
  if (!k || k.completeRedirects.has(page.ns)) return false;
  ctx.unknown('pages.redirect');
  return false;
}

/** Title::makeTitle( rd_namespace, rd_title, rd_fragment, rd_interwiki ) from a recorded `query.redirects` entry. */
function targetOf(state: PageSetState, r: Redirect): Title | null {
  const ctx = state.ctx.titles;
  const fragment = r.tofragment ?? '';
  if (r.tointerwiki) {
    const rest = r.to.slice(r.tointerwiki.length + 1);
    return makeTitle(0, rest, ctx, fragment, r.tointerwiki);
  }
  const parsed = parseTitle(r.to, ctx);
  return parsed.ok && !parsed.title.interwiki ? withFragment(parsed.title, fragment, ctx) : null;
}

/**
 * ApiPageSet::loadRedirectTargets: the pending redirects in `rd_from` (page id) order, each
 * mapped to its target (`redirects`); interwiki targets are listed as such, targets not looked up
 * yet are returned for the next lookup. What no recording showed is flagged and the page is
 * answered as itself.
 */
export function loadRedirectTargets(state: PageSetState): Title[] {
  const pending = [...state.pending].sort((a, b) => (a.page?.pageid ?? Infinity) - (b.page?.pageid ?? Infinity));
  // Redirects nobody recorded the id of: their order (that of `redirects`) is not known.
  if (pending.length > 1 && pending.some((p) => p.page === null)) state.ctx.unknown('pages.redirect');
  state.pending = [];
  const toResolve: Title[] = [];
  for (const { title, page } of pending) {
    const r = redirectOf(state, title);
    const target = r ? targetOf(state, r) : null;
    if (!target) {
      state.ctx.unknown('pages.redirect');
      if (page) state.good.push(page);
      continue;
    }
    if (target.interwiki) state.interwiki.set(target.prefixedText, target.interwiki);
    else if (!state.allPages.has(pageKey(target))) toResolve.push(target);
    state.redirects.set(title.prefixedText, target);
  }
  return toResolve;
}
