import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import type { Harvest } from '../cassette/format.js';
import { PAGES, type Redirect } from '../wiki/model.js';
import type { Touched } from '../cassette/changes.js';

/**
 * What an answer shows of redirects (kept apart from harvest.ts's entities so that it moves
 * easily): `query.redirects` names each redirect and its target (later answers win), and marks a
 * known page of that title as a redirect; with `redirects` asked, every page the answer lists
 * with an id was reached through them, so it is no redirect (ApiPageSet resolves redirects
 * until it finds none). `list=allpages&apfilterredir=redirects` only says which pages are
 * redirects (harvest.ts), never where they lead. A page is changed by a new object, never in
 * place, and each place changed is told to `touched` (harvest.ts).
 */
export function harvestRedirects(into: Harvest, q: JsonObject, request: Readonly<Record<string, string>>, touched: Touched = () => undefined): void {
  const redirects = (into.redirects ??= []);
  const shown = asObjects(q['redirects']);
  const pagesShown = request['redirects'] === undefined ? [] : asObjects(q['pages']);
  if (shown.length === 0 && pagesShown.length === 0) return;
  // Places by title, by page id and by redirect source, made once an answer (a snapshot asks where
  // 50 redirects lead at a time: looking each up in every page was redirects × pages).
  const places = placesOf(into, redirects);
  for (const r of shown) {
    if (typeof r['from'] !== 'string' || typeof r['to'] !== 'string') continue;
    const entry: Redirect = { from: r['from'], to: r['to'] };
    if (typeof r['tofragment'] === 'string') entry.tofragment = r['tofragment'];
    if (typeof r['tointerwiki'] === 'string') entry.tointerwiki = r['tointerwiki'];
    let i = places.redirect.get(entry.from);
    if (i !== undefined) redirects[i] = entry;
    else places.redirect.set(entry.from, (i = redirects.push(entry) - 1));
    touched('redirects', i);
    for (const at of places.title.get(entry.from) ?? []) if (into.pages[at]!.redirect !== true) markRedirect(into, at, true, touched);
  }
  for (const p of pagesShown) {
    if (typeof p['pageid'] !== 'number' || p['missing'] === true) continue;
    const at = places.pageid.get(p['pageid']);
    if (at !== undefined && into.pages[at]!.redirect !== false) markRedirect(into, at, false, touched);
  }
}

/** Where each page is by title (every place: a title may be held twice) and by id (the first), and each redirect by its source (the first). */
function placesOf(into: Harvest, redirects: readonly Redirect[]): { title: Map<string, number[]>; pageid: Map<number, number>; redirect: Map<string, number> } {
  const title = new Map<string, number[]>();
  const pageid = new Map<number, number>();
  into.pages.forEach((p, at) => {
    const held = title.get(p.title);
    if (held) held.push(at);
    else title.set(p.title, [at]);
    if (!pageid.has(p.pageid)) pageid.set(p.pageid, at);
  });
  const redirect = new Map<string, number>();
  redirects.forEach((r, at) => redirect.has(r.from) || redirect.set(r.from, at));
  return { title, pageid, redirect };
}

function markRedirect(into: Harvest, at: number, redirect: boolean, touched: Touched): void {
  into.pages[at] = { ...into.pages[at]!, redirect };
  touched(PAGES, at);
}

function asObjects(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
