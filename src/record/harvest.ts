import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import { entityId, mergeSighting, type ListModule } from '../api/list-module.js';
import type { Harvest } from '../cassette/format.js';
import type { Touched } from '../cassette/changes.js';
import { listTarget, type HarvestTarget } from '../cassette/harvest-target.js';
import { splitMulti } from '../request/canonical.js';
import { MODULES } from '../modules/index.js';
import { MISSING_TITLES, PAGES, type Page } from '../wiki/model.js';
import { harvestRedirects } from './harvest-redirects.js';

/**
 * Merges an entity into its kind (mergeSighting: later answers of the same version add the props
 * earlier ones lacked, and the entity remembers every prop some answer showed it with, `known`, so
 * that replay can tell a field that is absent, the wiki omits it, from one nobody recorded; a
 * later answer of another version replaces it).
 */
function upsert<E extends object>(target: HarvestTarget, item: E, module: ListModule<E>): void {
  const { kind, idFields } = module.entity;
  const held = target.find(kind, idFields, entityId(idFields, item));
  if (held === undefined) target.add(kind, idFields, item);
  else target.put(kind, held.at, mergeSighting(module.entity, held.entity as E, item));
}

/** The props a list question asked for: its own prop parameter, else the module's default. */
function propsOf(request: Readonly<Record<string, string>>, list: ListModule): string[] {
  if (list.roles.prop === null) return [];
  const param = list.prefix + list.roles.prop;
  return splitMulti(request[param] ?? list.key.defaults[param] ?? '').sort();
}

/** The entities of one list an answer shows, into their kind's store. */
function harvestList<E extends object>(target: HarvestTarget, list: ListModule<E>, rows: Json | undefined, request: Readonly<Record<string, string>>): void {
  const items = asObjects(rows);
  if (items.length === 0) return;
  const props = propsOf(request, list);
  for (const row of items) {
    const e = list.entity.fromRow(row, props, request);
    if (e) upsert(target, e, list);
  }
}

/**
 * Collects every entity an answer (formatversion=2 JSON) to `request` (canonical parameters)
 * shows into a cassette's entity lists: each list's (as its module reads them from its rows),
 * and the pages (with their external links) and missing titles of the page set. `touched` is told
 * each place of a kind's list it adds or replaces (a database cassette's writer stores those
 * alone: cassette/changes.ts).
 */
export function harvest(into: Harvest, body: JsonObject, request: Readonly<Record<string, string>> = {}, touched: Touched = () => undefined): void {
  harvestInto(listTarget(into, touched), body, request);
}

/** `harvest` into a target: a document's lists, or a database cassette's tables (cassette/harvest-target.ts). */
export function harvestInto(target: HarvestTarget, body: JsonObject, request: Readonly<Record<string, string>> = {}): void {
  const q = body['query'];
  if (!isObject(q)) return;
  const lists = MODULES.query.list;
  // The lists' own kinds first, the pages the page set names, then the pages lists show.
  for (const list of lists) if (list.entity.kind !== PAGES) harvestList(target, list, q[list.name], request);
  harvestPages(target, asObjects(q['pages']), langlinksComplete(body, request));
  harvestRedirects(target, q, request);
  for (const list of lists) if (list.entity.kind === PAGES) harvestList(target, list, q[list.name], request);
}

/**
 * Pages and their external links, in the order shown (ids come from continuation tokens:
 * cassette/link-ids.ts), with what `prop=info` and `prop=langlinks` showed of them (pageFacts).
 */
function harvestPages(target: HarvestTarget, pages: JsonObject[], langlinks: boolean): void {
  for (const p of pages) {
    if (typeof p['pageid'] === 'number' && p['missing'] !== true) {
      const links = asObjects(p['extlinks']).map((l) => String(l['url']));
      const held = target.find(PAGES, PAGE_ID, String(p['pageid']));
      let page = held?.entity as Page | undefined;
      let place = held?.at;
      if (!page) {
        page = { pageid: p['pageid'], ns: Number(p['ns']), title: String(p['title']), extlinks: [] } as Page;
        place = target.add(PAGES, PAGE_ID, page);
      }
      const urls = new Set(page.extlinks.map((l) => l.url));
      const added = links.filter((url) => !urls.has(url) && urls.add(url));
      const facts = pageFacts(p, page, langlinks);
      // A page is changed by a new object, never in place (a database cassette's writer stores the
      // places it is told alone: cassette/changes.ts).
      if (added.length > 0 || Object.keys(facts).length > 0) {
        target.put(PAGES, place!, { ...page, ...(added.length > 0 ? { extlinks: [...page.extlinks, ...added.map((url) => ({ id: 0, url }))] } : {}), ...facts });
      }
    } else if (p['missing'] === true && typeof p['title'] === 'string') {
      const m = { ns: Number(p['ns']), title: p['title'] };
      if (!target.find(MISSING_TITLES, MISSING_ID, entityId(MISSING_ID, m))) target.add(MISSING_TITLES, MISSING_ID, m);
    }
  }
}

/**
 * What an answer showed of a page that replay reads and the page held differs in: its content
 * model (`prop=info`, or rvprop=contentmodel's page: a `.css` page renamed, or a page changed to
 * JSON, is not of its title's default model), its length and whether it is a redirect
 * (`prop=info`: page_len, page_is_redirect), its own protections (`inprop=protection`: its
 * page_restrictions rows, expired ones too, as ApiQueryInfo reads them; not those it has by
 * cascade from another page, which name their `source`), and its language links where the answer
 * shows all of them (`langlinks`).
 */
function pageFacts(p: JsonObject, page: Page, langlinks: boolean): Partial<Page> {
  const out: Partial<Page> = {};
  if (typeof p['contentmodel'] === 'string' && p['contentmodel'] !== page.contentmodel) out.contentmodel = p['contentmodel'];
  if (typeof p['length'] === 'number') {
    if (p['length'] !== page.length) out.length = p['length'];
    // prop=info says of every page whether it is a redirect (`redirect` only when it is one).
    const redirect = p['redirect'] === true;
    if (redirect !== page.redirect) out.redirect = redirect;
  }
  if (Array.isArray(p['protection'])) {
    const own = asObjects(p['protection'])
      .filter((r) => r['source'] === undefined)
      .map((r) => ({ type: String(r['type']), level: String(r['level']), expiry: String(r['expiry']), ...(r['cascade'] === true ? { cascade: true } : {}) }));
    if (JSON.stringify(own) !== JSON.stringify(page.protection)) out.protection = own;
  }
  if (langlinks) {
    const shown = asObjects(p['langlinks']).map((l) => ({ lang: String(l['lang']), title: String(l['title']) }));
    if (JSON.stringify(shown) !== JSON.stringify(page.langlinks)) out.langlinks = shown;
  }
  return out;
}

/**
 * Whether an answer shows every language link of each page it shows (a page without any then has
 * none): `prop=langlinks` asked of the first page (no `llcontinue`: the pages before its point
 * showed theirs on earlier pages), unfiltered (no `lllang`, `lltitle`), and nothing left to
 * continue (`continue`, or `query-continue` for rawcontinue).
 */
function langlinksComplete(body: JsonObject, request: Readonly<Record<string, string>>): boolean {
  return splitMulti(request['prop'] ?? '').includes('langlinks') && request['llcontinue'] === undefined && request['lllang'] === undefined && request['lltitle'] === undefined && body['continue'] === undefined && body['query-continue'] === undefined;
}

const PAGE_ID = ['pageid'] as const;
const MISSING_ID = ['ns', 'title'] as const;

function asObjects(v: Json | undefined): JsonObject[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}
