import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import type { Harvest } from '../cassette/format.js';
import { PAGES, type Redirect } from '../wiki/model.js';

/**
 * What an answer shows of redirects (kept apart from harvest.ts's entities so that it moves
 * easily): `query.redirects` names each redirect and its target (later answers win), and marks a
 * known page of that title as a redirect; with `redirects` asked, every page the answer lists
 * with an id was reached through them, so it is no redirect (ApiPageSet resolves redirects
 * until it finds none). `list=allpages&apfilterredir=redirects` only says which pages are
 * redirects (harvest.ts), never where they lead. A page is changed by a new object, never in
 * place, and each place changed is told to `touched` (harvest.ts).
 */
export function harvestRedirects(into: Harvest, q: JsonObject, request: Readonly<Record<string, string>>, touched: (kind: string, at: number) => void = () => undefined): void {
  const redirects = (into.redirects ??= []);
  for (const r of asObjects(q['redirects'])) {
    if (typeof r['from'] !== 'string' || typeof r['to'] !== 'string') continue;
    const entry: Redirect = { from: r['from'], to: r['to'] };
    if (typeof r['tofragment'] === 'string') entry.tofragment = r['tofragment'];
    if (typeof r['tointerwiki'] === 'string') entry.tointerwiki = r['tointerwiki'];
    const i = redirects.findIndex((x) => x.from === entry.from);
    if (i >= 0) redirects[i] = entry;
    else redirects.push(entry);
    touched('redirects', i >= 0 ? i : redirects.length - 1);
    into.pages.forEach((p, at) => p.title === entry.from && p.redirect !== true && markRedirect(into, at, true, touched));
  }
  if (request['redirects'] === undefined) return;
  for (const p of asObjects(q['pages'])) {
    if (typeof p['pageid'] !== 'number' || p['missing'] === true) continue;
    const at = into.pages.findIndex((x) => x.pageid === p['pageid']);
    if (at >= 0 && into.pages[at]!.redirect !== false) markRedirect(into, at, false, touched);
  }
}

function markRedirect(into: Harvest, at: number, redirect: boolean, touched: (kind: string, at: number) => void): void {
  into.pages[at] = { ...into.pages[at]!, redirect };
  touched(PAGES, at);
}

function asObjects(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
