import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import type { Harvest } from '../cassette/format.js';
import type { Redirect } from '../wiki/model.js';

/**
 * What an answer shows of redirects (kept apart from harvest.ts's entities so that it moves
 * easily): `query.redirects` names each redirect and its target (later answers win), and marks a
 * known page of that title as a redirect; with `redirects` asked, every page the answer lists
 * with an id was reached through them, so it is no redirect (ApiPageSet resolves redirects
 * until it finds none). `list=allpages&apfilterredir=redirects` only says which pages are
 * redirects (harvest.ts), never where they lead.
 */
export function harvestRedirects(into: Harvest, q: JsonObject, request: Readonly<Record<string, string>>): void {
  const redirects = (into.redirects ??= []);
  for (const r of asObjects(q['redirects'])) {
    if (typeof r['from'] !== 'string' || typeof r['to'] !== 'string') continue;
    const entry: Redirect = { from: r['from'], to: r['to'] };
    if (typeof r['tofragment'] === 'string') entry.tofragment = r['tofragment'];
    if (typeof r['tointerwiki'] === 'string') entry.tointerwiki = r['tointerwiki'];
    const i = redirects.findIndex((x) => x.from === entry.from);
    if (i >= 0) redirects[i] = entry;
    else redirects.push(entry);
    for (const p of into.pages) if (p.title === entry.from) p.redirect = true;
  }
  if (request['redirects'] === undefined) return;
  for (const p of asObjects(q['pages'])) {
    if (typeof p['pageid'] !== 'number' || p['missing'] === true) continue;
    const page = into.pages.find((x) => x.pageid === p['pageid']);
    if (page) page.redirect = false;
  }
}

function asObjects(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
