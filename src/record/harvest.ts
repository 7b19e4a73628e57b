import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import type { Harvest } from '../cassette/format.js';
import type { Block, LogEvent, Page, ProtectedTitle } from '../wiki/model.js';

/** Merges a record into a list keyed by `id`: later answers add the props earlier ones lacked. */
function upsert<T extends object>(list: T[], item: T, same: (a: T) => boolean): void {
  const i = list.findIndex(same);
  if (i < 0) list.push(item);
  else list[i] = { ...list[i]!, ...item };
}

/**
 * Collects every log event, block, protected title and page (with its external links) that an
 * answer (formatversion=2 JSON) shows, into the cassette's entity store.
 */
export function harvest(into: Harvest, body: JsonObject): void {
  const q = body['query'];
  if (!isObject(q)) return;
  for (const e of asObjects(q['logevents'])) {
    if (typeof e['logid'] !== 'number') continue;
    // Revision-deleted parts show as markers; the model keeps MediaWiki's log_deleted bits.
    const { actionhidden, commenthidden, userhidden, suppressed, ...rest } = e;
    const deleted = (actionhidden ? 1 : 0) | (commenthidden ? 2 : 0) | (userhidden ? 4 : 0) | (suppressed ? 8 : 0);
    const event = { tags: [], params: {}, ...rest, ...(deleted ? { deleted } : {}) } as unknown as LogEvent;
    upsert(into.logevents, event, (x) => x.logid === e['logid']);
  }
  for (const b of asObjects(q['blocks'])) {
    if (typeof b['id'] === 'number') upsert(into.blocks, b as unknown as Block, (x) => x.id === b['id']);
  }
  for (const p of asObjects(q['protectedtitles'])) {
    upsert(into.protectedtitles, p as unknown as ProtectedTitle, (x) => x.ns === p['ns'] && x.title === p['title']);
  }
  for (const p of asObjects(q['pages'])) {
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
