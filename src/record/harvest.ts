import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import type { Harvest } from '../cassette/format.js';
import { splitMulti } from '../request/canonical.js';
import { KEY_RULES } from '../modules/index.js';
import type { Block, LogEvent, Page, ProtectedTitle } from '../wiki/model.js';
import { harvestRedirects } from './harvest-redirects.js';

/**
 * Merges an entity into a list: later answers add the props earlier ones lacked, and the entity
 * remembers every prop some answer showed it with (`known`), so that replay can tell a field
 * that is absent (the wiki omits it) from one nobody recorded.
 */
function upsert<T extends { known?: string[] }>(list: T[], item: T, same: (a: T) => boolean): void {
  const i = list.findIndex(same);
  if (i < 0) {
    list.push(item);
    return;
  }
  const before = list[i]!;
  const known = before.known === undefined || item.known === undefined ? undefined : [...new Set([...before.known, ...item.known])].sort();
  list[i] = { ...before, ...item, ...(known ? { known } : {}) };
}

/** The props a list question asked for: its own `xxprop`, else the module's default. */
function propsOf(request: Readonly<Record<string, string>>, module: string, param: string): string[] {
  return splitMulti(request[param] ?? KEY_RULES.defaults.get(module)?.[param] ?? '').sort();
}

/**
 * Collects every log event, block, protected title and page (with its external links) that an
 * answer (formatversion=2 JSON) to `request` (canonical parameters) shows, into the cassette's
 * entity store.
 */
export function harvest(into: Harvest, body: JsonObject, request: Readonly<Record<string, string>> = {}): void {
  const q = body['query'];
  if (!isObject(q)) return;
  const leprops = propsOf(request, 'logevents', 'leprop');
  for (const e of asObjects(q['logevents'])) {
    if (typeof e['logid'] !== 'number') continue;
    // Revision-deleted parts show as markers; the model keeps MediaWiki's log_deleted bits.
    const { actionhidden, commenthidden, userhidden, suppressed, ...rest } = e;
    const deleted = (actionhidden ? 1 : 0) | (commenthidden ? 2 : 0) | (userhidden ? 4 : 0) | (suppressed ? 8 : 0);
    const event = { tags: [], params: {}, ...rest, ...(deleted ? { deleted } : {}), known: leprops } as unknown as LogEvent;
    upsert(into.logevents, event, (x) => x.logid === e['logid']);
  }
  const bkprops = propsOf(request, 'blocks', 'bkprop');
  for (const b of asObjects(q['blocks'])) {
    if (typeof b['id'] === 'number') upsert(into.blocks, { ...b, known: bkprops } as unknown as Block, (x) => x.id === b['id']);
  }
  const ptprops = propsOf(request, 'protectedtitles', 'ptprop');
  for (const p of asObjects(q['protectedtitles'])) {
    upsert(into.protectedtitles, { ...p, known: ptprops } as unknown as ProtectedTitle, (x) => x.ns === p['ns'] && x.title === p['title']);
  }
  harvestPages(into, asObjects(q['pages']));
  harvestRedirects(into, q, request);
  // Page lists: every page exists; a walk of redirects shows which are redirects.
  const redirects = request['apfilterredir'] === 'redirects';
  for (const p of asObjects(q['allpages'])) {
    if (typeof p['pageid'] !== 'number') continue;
    const page = into.pages.find((x) => x.pageid === p['pageid']);
    if (page) {
      if (redirects) page.redirect = true;
    } else into.pages.push({ pageid: p['pageid'], ns: Number(p['ns']), title: String(p['title']), extlinks: [], ...(redirects ? { redirect: true } : {}) });
  }
}

/** Pages and their external links, in the order shown (ids come from continuation tokens: replay/link-ids.ts). */
function harvestPages(into: Harvest, pages: JsonObject[]): void {
  for (const p of pages) {
    if (typeof p['pageid'] === 'number' && p['missing'] !== true) {
      const links = asObjects(p['extlinks']).map((l) => String(l['url']));
      let page = into.pages.find((x) => x.pageid === p['pageid']);
      if (!page) {
        page = { pageid: p['pageid'], ns: Number(p['ns']), title: String(p['title']), extlinks: [] } as Page;
        into.pages.push(page);
      }
      for (const url of links) if (!page.extlinks.some((l) => l.url === url)) page.extlinks.push({ id: 0, url });
    } else if (p['missing'] === true && typeof p['title'] === 'string') {
      const m = { ns: Number(p['ns']), title: p['title'] };
      if (!into.missing.some((x) => x.ns === m.ns && x.title === m.title)) into.missing.push(m);
    }
  }
}

function asObjects(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
