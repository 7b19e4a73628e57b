import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import type { HarvestTarget } from '../cassette/harvest-target.js';
import { PAGES, REDIRECTS, type Page, type Redirect } from '../wiki/model.js';

/**
 * What an answer shows of redirects (kept apart from harvest.ts's entities so that it moves
 * easily): `query.redirects` names each redirect and its target (later answers win), and marks a
 * known page of that title as a redirect; with `redirects` asked, every page the answer lists
 * with an id was reached through them, so it is no redirect (ApiPageSet resolves redirects
 * until it finds none). `list=allpages&apfilterredir=redirects` only says which pages are
 * redirects (harvest.ts), never where they lead. A page is changed by a new object, never in
 * place (cassette/harvest-target.ts).
 */
export function harvestRedirects(target: HarvestTarget, q: JsonObject, request: Readonly<Record<string, string>>): void {
  const shown = asObjects(q['redirects']);
  const pagesShown = request['redirects'] === undefined ? [] : asObjects(q['pages']);
  if (shown.length === 0 && pagesShown.length === 0) return;
  for (const r of shown) {
    if (typeof r['from'] !== 'string' || typeof r['to'] !== 'string') continue;
    const entry: Redirect = { from: r['from'], to: r['to'] };
    if (typeof r['tofragment'] === 'string') entry.tofragment = r['tofragment'];
    if (typeof r['tointerwiki'] === 'string') entry.tointerwiki = r['tointerwiki'];
    const held = target.find(REDIRECTS, REDIRECT_ID, entry.from);
    if (held) target.put(REDIRECTS, held.at, entry);
    else target.add(REDIRECTS, REDIRECT_ID, entry);
    for (const { at, page } of target.pagesTitled(entry.from)) if (page.redirect !== true) target.put(PAGES, at, { ...page, redirect: true });
  }
  for (const p of pagesShown) {
    if (typeof p['pageid'] !== 'number' || p['missing'] === true) continue;
    const held = target.find(PAGES, PAGE_ID, String(p['pageid']));
    const page = held?.entity as Page | undefined;
    if (held && page!.redirect !== false) target.put(PAGES, held.at, { ...page!, redirect: false });
  }
}

const REDIRECT_ID = ['from'] as const;
const PAGE_ID = ['pageid'] as const;

function asObjects(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
