import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import { entityId, mergeSighting, type ListModule } from '../api/list-module.js';
import type { Harvest } from '../cassette/format.js';
import type { Touched } from '../cassette/changes.js';
import { splitMulti } from '../request/canonical.js';
import { MODULES } from '../modules/index.js';
import { PAGES, type Page } from '../wiki/model.js';
import { harvestRedirects } from './harvest-redirects.js';

/**
 * Where each entity of a stored list is, by id: kept between answers (a recorder harvests into the
 * same lists for its whole life), made again when the list is another or was changed elsewhere.
 */
const positions = new WeakMap<object[], Map<string, number>>();

function positionsOf(list: object[], idFields: readonly string[]): Map<string, number> {
  let at = positions.get(list);
  if (!at || at.size !== list.length) {
    // The first of two with one id is the one merged into (a file edited by hand may hold both).
    at = new Map<string, number>();
    for (const [i, x] of list.entries()) if (!at.has(entityId(idFields, x))) at.set(entityId(idFields, x), i);
    positions.set(list, at);
  }
  return at;
}

/**
 * Merges an entity into its list (mergeSighting: later answers of the same version add the props
 * earlier ones lacked, and the entity remembers every prop some answer showed it with, `known`, so
 * that replay can tell a field that is absent, the wiki omits it, from one nobody recorded; a
 * later answer of another version replaces it).
 */
function upsert<E extends object>(list: E[], item: E, module: ListModule<E>, touched: Touched): void {
  const at = positionsOf(list, module.entity.idFields);
  const id = entityId(module.entity.idFields, item);
  const i = at.get(id);
  if (i === undefined) {
    at.set(id, list.length);
    list.push(item);
    touched(module.entity.kind, list.length - 1);
  } else {
    list[i] = mergeSighting(module.entity, list[i]!, item);
    touched(module.entity.kind, i);
  }
}

/** The props a list question asked for: its own prop parameter, else the module's default. */
function propsOf(request: Readonly<Record<string, string>>, list: ListModule): string[] {
  if (list.roles.prop === null) return [];
  const param = list.prefix + list.roles.prop;
  return splitMulti(request[param] ?? list.key.defaults[param] ?? '').sort();
}

/** The entities of one list an answer shows, into their kind's store. */
function harvestList<E extends object>(into: Harvest, list: ListModule<E>, rows: Json | undefined, request: Readonly<Record<string, string>>, touched: Touched): void {
  const items = asObjects(rows);
  if (items.length === 0) return;
  const props = propsOf(request, list);
  const store = (into[list.entity.kind] ??= []) as E[];
  for (const row of items) {
    const e = list.entity.fromRow(row, props, request);
    if (e) upsert(store, e, list, touched);
  }
}

/**
 * Collects every entity an answer (formatversion=2 JSON) to `request` (canonical parameters)
 * shows into the cassette's entity store: each list's (as its module reads them from its rows),
 * and the pages (with their external links) and missing titles of the page set. `touched` is told
 * each place of a kind's list it adds or replaces (a database cassette's writer stores those
 * alone: cassette/changes.ts).
 */
export function harvest(into: Harvest, body: JsonObject, request: Readonly<Record<string, string>> = {}, touched: Touched = () => undefined): void {
  const q = body['query'];
  if (!isObject(q)) return;
  const lists = MODULES.query.list;
  // The lists' own kinds first, the pages the page set names, then the pages lists show.
  for (const list of lists) if (list.entity.kind !== PAGES) harvestList(into, list, q[list.name], request, touched);
  harvestPages(into, asObjects(q['pages']), touched);
  harvestRedirects(into, q, request, touched);
  for (const list of lists) if (list.entity.kind === PAGES) harvestList(into, list, q[list.name], request, touched);
}

/** Pages and their external links, in the order shown (ids come from continuation tokens: cassette/link-ids.ts). */
function harvestPages(into: Harvest, pages: JsonObject[], touched: Touched): void {
  for (const p of pages) {
    if (typeof p['pageid'] === 'number' && p['missing'] !== true) {
      const links = asObjects(p['extlinks']).map((l) => String(l['url']));
      const at = positionsOf(into.pages, PAGE_ID);
      const i = at.get(String(p['pageid']));
      let page = i === undefined ? undefined : into.pages[i];
      if (!page) {
        page = { pageid: p['pageid'], ns: Number(p['ns']), title: String(p['title']), extlinks: [] } as Page;
        at.set(String(page.pageid), into.pages.length);
        into.pages.push(page);
        touched(PAGES, into.pages.length - 1);
      }
      const held = new Set(page.extlinks.map((l) => l.url));
      const added = links.filter((url) => !held.has(url) && held.add(url));
      // A page is changed by a new object, never in place, and its place told: a database
      // cassette's writer stores the places it is told alone (cassette/changes.ts).
      if (added.length > 0) {
        const place = at.get(String(page.pageid))!;
        into.pages[place] = { ...page, extlinks: [...page.extlinks, ...added.map((url) => ({ id: 0, url }))] };
        touched(PAGES, place);
      }
    } else if (p['missing'] === true && typeof p['title'] === 'string') {
      const m = { ns: Number(p['ns']), title: p['title'] };
      const at = positionsOf(into.missing, MISSING_ID);
      if (!at.has(entityId(MISSING_ID, m))) {
        at.set(entityId(MISSING_ID, m), into.missing.length);
        into.missing.push(m);
        touched('missing', into.missing.length - 1);
      }
    }
  }
}

const PAGE_ID = ['pageid'] as const;
const MISSING_ID = ['ns', 'title'] as const;

function asObjects(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
