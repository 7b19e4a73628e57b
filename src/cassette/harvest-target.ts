import { idOfFields } from '../wiki/entity-table.js';
import { PAGES, type Page } from '../wiki/model.js';
import type { Harvest } from './format.js';
import type { Touched } from './changes.js';

/**
 * Where harvest (record/harvest.ts) puts the entities an answer shows, by kind and id: a
 * document's lists (`listTarget`), or a database cassette's tables, read and written by id
 * (sql-recording.ts: a recording into a database of a million entities reads the few it shows,
 * not the million). An entity is changed by putting a new object in its place, never in place.
 */
export interface HarvestTarget {
  /** The entity of a kind held under an id (the first, when a file edited by hand holds two), and its place. */
  find(kind: string, idFields: readonly string[], id: string): { at: number; entity: object } | undefined;
  /** Adds an entity after those of its kind; its place. */
  add(kind: string, idFields: readonly string[], entity: object): number;
  /** Puts an entity in the place of one of its kind. */
  put(kind: string, at: number, entity: object): void;
  /** The pages of a title, each place (a file edited by hand may hold a title twice). */
  pagesTitled(title: string): { at: number; page: Page }[];
}

/**
 * Where each entity of a list is, by id: kept between answers (a recorder harvests into the same
 * lists for its whole life), made again when the list is another or was changed elsewhere.
 */
const positions = new WeakMap<object[], Map<string, number>>();

function positionsOf(list: object[], idFields: readonly string[]): Map<string, number> {
  let at = positions.get(list);
  if (!at || at.size !== list.length) {
    // The first of two with one id is the one merged into (a file edited by hand may hold both).
    at = new Map<string, number>();
    for (const [i, x] of list.entries()) if (!at.has(idOfFields(idFields, x))) at.set(idOfFields(idFields, x), i);
    positions.set(list, at);
  }
  return at;
}

/** A document's entity lists as a harvest target; each place added or replaced is told to `touched`. */
export function listTarget(into: Harvest, touched: Touched = () => undefined): HarvestTarget {
  const listOf = (kind: string) => (into[kind] ??= []);
  // Pages by title, made once per target (an answer's harvest): a snapshot asks where 50 redirects
  // lead at a time, and looking each up in every page was redirects × pages.
  let titles: Map<string, number[]> | null = null;
  return {
    find(kind, idFields, id) {
      const list = listOf(kind);
      const at = positionsOf(list, idFields).get(id);
      return at === undefined ? undefined : { at, entity: list[at]! };
    },
    add(kind, idFields, entity) {
      const list = listOf(kind);
      const at = positionsOf(list, idFields);
      const place = list.push(entity) - 1;
      if (!at.has(idOfFields(idFields, entity))) at.set(idOfFields(idFields, entity), place);
      if (kind === PAGES && titles) addTo(titles, (entity as Page).title, place);
      touched(kind, place);
      return place;
    },
    put(kind, at, entity) {
      listOf(kind)[at] = entity;
      touched(kind, at);
    },
    pagesTitled(title) {
      if (!titles) {
        titles = new Map();
        into.pages.forEach((p, at) => addTo(titles!, p.title, at));
      }
      return (titles.get(title) ?? []).map((at) => ({ at, page: into.pages[at]! }));
    },
  };
}

function addTo(places: Map<string, number[]>, title: string, at: number): void {
  const held = places.get(title);
  if (held) held.push(at);
  else places.set(title, [at]);
}
