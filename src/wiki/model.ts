/**
 * The wiki model: the entities the built-in modules answer from. Each entity is kept in the
 * shape the API shows it with formatversion=2 and every prop on, so recorded answers can be
 * harvested into it and fixtures read like API output. Pages (and titles known to be missing) are
 * the wiki's own; every other kind of entity belongs to the list module that shows it, which
 * declares its shape (api/list-module.ts): the model keeps those by kind.
 */

import { MemoryEntityTable, fieldColumn, idOfFields, tableIndexes, tableOver, type EntityTable, type IndexSpecs } from './entity-table.js';

/**
 * A kind of entity the model keeps (`logevents`, `blocks` …): the name it is kept under (also the
 * cassette's `entities.<name>`), typed with the shape its list module declares for it.
 */
export type EntityKind<E extends object> = string & { readonly __entity?: E };

/** A kind of entity, named (the list module that shows it declares it; see api/list-module.ts). */
export function entityKind<E extends object>(name: string): EntityKind<E> {
  return name as EntityKind<E>;
}

/**
 * An external link row: its `el_id` decides order and continuation. The API shows an id only
 * inside `elcontinue`, so a recorded link's id is 0 (unknown) until a continuation token names it.
 */
export interface ExtLink {
  id: number;
  url: string;
  /** Bounds on an id not known exactly, from continuation requests (cassette/link-ids.ts). */
  idMin?: number;
  idMax?: number;
  /** 1.39 stores a protocol-relative link twice (an http and an https row): the https row's id, when a token named it. */
  httpsId?: number;
}

/**
 * A page: identity, existence and external links; what `prop=info` would show of it where a
 * fixture gives it (no recording does). A field absent is unknown for a page recordings showed,
 * and the wiki's default (no redirect, no protection, no language links) for a model of fixtures
 * only, which describe the whole wiki; `length` is never defaulted.
 */
export interface Page {
  pageid: number;
  ns: number;
  title: string;
  extlinks: ExtLink[];
  /** Whether the page is a redirect (its target: `WikiModel.redirects`); absent: not known (see Knowledge.completeRedirects). */
  redirect?: boolean;
  /** page_len: the size of its latest revision in bytes. */
  length?: number;
  /** Its protections (page_restrictions), as `prop=info&inprop=protection` shows them. */
  protection?: PageProtection[];
  /** Its language links, as `prop=langlinks` shows them (`{ lang, title }`). */
  langlinks?: { lang: string; title: string }[];
  /**
   * page_content_model, as `prop=info` shows it (`contentmodel`: `wikitext`, `css`, `javascript`,
   * `json`, `text` …); absent: its title's default model (wiki/content-model.ts).
   */
  contentmodel?: string;
}

/** One protection of a page (a page_restrictions row). */
interface PageProtection {
  /** `edit`, `move`, `upload`. */
  type: string;
  /** `autoconfirmed`, `sysop` … */
  level: string;
  /** `infinity` or ISO 8601. */
  expiry: string;
  /** A cascading protection (`pr_cascade`). */
  cascade?: boolean;
}

/**
 * A redirect as `query.redirects` shows it (ApiPageSet::getRedirectTitlesAsResult): the redirect
 * page's title, its target's (with the interwiki prefix when it has one), and the target's fragment
 * and interwiki prefix. Kept in its own list (harvested by record/harvest-redirects.ts) so that
 * replay follows `redirects=1` only where an answer showed where a redirect leads.
 */
export interface Redirect {
  from: string;
  to: string;
  tofragment?: string;
  tointerwiki?: string;
}

/** An interwiki prefix as `meta=siteinfo&siprop=interwikimap` shows it (the fields wikitape reads). */
export interface InterwikiEntry {
  prefix: string;
  url: string;
}

/**
 * One page shown twice (by two answers, two cassettes, a recording and a fixture): the one held,
 * with what only the other showed: that it is a redirect (a complete walk of a namespace's
 * redirects marks them; another answer's silence does not unmark one), its length, protections,
 * language links, content model.
 */
export function mergePage(held: Page, seen: Page): Page {
  let out = held;
  const add = <K extends 'redirect' | 'length' | 'protection' | 'langlinks' | 'contentmodel'>(k: K, v: Page[K]) => {
    out = { ...out, [k]: v };
  };
  if (seen.redirect === true && held.redirect !== true) add('redirect', true);
  else if (held.redirect === undefined && seen.redirect !== undefined) add('redirect', seen.redirect);
  for (const k of ['length', 'protection', 'langlinks', 'contentmodel'] as const) if (held[k] === undefined && seen[k] !== undefined) add(k, seen[k]);
  return out;
}

/** A page's title as page_title holds it: without its namespace, `_` for spaces. */
export function pageDbKey(p: { ns: number; title: string }): string {
  return (p.ns === 0 ? p.title : p.title.slice(p.title.indexOf(':') + 1)).replace(/ /g, '_');
}

/**
 * The indexes pages are read through: by namespace and prefixed title (the page set's lookups),
 * and list=allpages' order (namespace, then page_title).
 */
export const PAGE_INDEXES: IndexSpecs<Page> = {
  title: { columns: [fieldColumn('ns', 'integer'), fieldColumn('title', 'text')] },
  order: { columns: [fieldColumn('ns', 'integer'), { name: 'dbkey', type: 'text', value: pageDbKey }] },
};

/** The model's page of a title (its namespace and prefixed title), from an index, not a scan. */
export function pageByTitle(model: WikiModel, ns: number, title: string): Page | undefined {
  for (const p of tableOf(model, PAGE_SHAPE).range('title', { from: [[ns, title]], to: [[ns, title]] }, false)) return p;
  return undefined;
}

/** The model's page of an id, from an index, not a scan. */
export function pageById(model: WikiModel, id: number): Page | undefined {
  return tableOf(model, PAGE_SHAPE).get(String(id));
}

/** The wiki's own kind of entity: its pages (`model.pages`, the cassette's `entities.pages`). */
export const PAGES = entityKind<Page>('pages');

/** The titles answers said are missing (the cassette's `entities.missing`; no table: a few). */
export const MISSING_TITLES = entityKind<MissingTitle>('missing');

/** Redirects and their targets as answers showed them (the cassette's `entities.redirects`; no table: a few). */
export const REDIRECTS = entityKind<Redirect>('redirects');

/** How a kind of entity is read through a table: its kind, the fields that name one, its declared indexes. */
export interface TableShape<E extends object> {
  readonly kind: EntityKind<E>;
  readonly idFields: readonly string[];
  readonly indexes: IndexSpecs<E>;
}

/** Pages as a table: named by page id. */
export const PAGE_SHAPE: TableShape<Page> = { kind: PAGES, idFields: ['pageid'], indexes: PAGE_INDEXES };

/**
 * Entities a store keeps on disk (a database cassette: cassette/store-sqlite.ts), read through its
 * own tables. A kind read whole (`all`) is held in the model from then on, and read from there.
 */
export interface StoredEntities {
  /** Whether the store holds entities of this kind. */
  has(kind: string): boolean;
  /** The store's table of a kind it holds. */
  table(kind: string): EntityTable<object>;
  /** Every entity of a kind, read whole (for the passes over a whole kind that have no index yet). */
  all(kind: string): object[];
  /** The entities of a kind whose stored text holds `text`, in their order (a superset of those showing it as a JSON string). */
  containing?(kind: string, text: string): Iterable<object>;
}

/**
 * The table a module reads a kind of entity through: the store's (SQL indexes) when the model came
 * from a database and the kind is not held in memory, else a MemoryEntityTable over the model's
 * list of the kind, with the kind's declared indexes.
 */
export function tableOf<E extends object>(model: WikiModel, shape: TableShape<E>): EntityTable<E> {
  const inMemory = shape.kind === PAGES ? !pagesStored(model) : model.entities.has(shape.kind);
  if (!inMemory && model.stored?.has(shape.kind)) return model.stored.table(shape.kind) as EntityTable<E>;
  return tableOver(entitiesOf(model, shape.kind), shape.kind, (items) => new MemoryEntityTable(items, (e) => idOfFields(shape.idFields, e), tableIndexes(shape.indexes)));
}

/** The page lists read whole from their store (see entitiesOf): a view of a model shares its list. */
const pagesRead = new WeakSet<readonly Page[]>();

/** Whether a model's pages are still only in its store (not yet read whole). */
function pagesStored(model: WikiModel): boolean {
  return model.stored?.has(PAGES) === true && !pagesRead.has(model.pages);
}

/**
 * A model over a store's entities: each kind is read through the store's tables until something
 * reads it whole (entitiesOf), which reads it into memory once. Its `pages` stay empty until then:
 * whatever reads every page goes through entitiesOf(model, PAGES).
 */
export function storedModel(stored: StoredEntities): WikiModel {
  return { ...emptyModel(), stored };
}

/**
 * A deep copy of a model that shares its store (its entities on disk are read, never changed in
 * place): what it holds in memory is copied, and what it has read of the store counts as read.
 */
export function copyModel(model: WikiModel): WikiModel {
  const { stored, ...held } = model;
  const copy = structuredClone(held) as WikiModel;
  if (stored) copy.stored = stored;
  if (pagesRead.has(model.pages)) pagesRead.add(copy.pages);
  return copy;
}

/** A title the wiki said is missing. */
export interface MissingTitle {
  ns: number;
  /** The prefixed title (`Участник:X`). */
  title: string;
}

export interface WikiModel {
  /** The entities of the list modules, by kind (see EntityKind): each in the shape its module declares. */
  entities: Map<string, object[]>;
  pages: Page[];
  /** Titles recordings showed to be missing. */
  missing: MissingTitle[];
  /** Lines of MediaWiki:Spam-blacklist (and shared lists). */
  spamBlacklist: string[];
  /** Lines of MediaWiki:Spam-whitelist. */
  spamWhitelist: string[];
  /** The file the blacklist is read from ($wgBlacklistSettings), as its debug log names it; absent: not said. */
  spamBlacklistFile?: string;
  /** Redirects and where they lead (a page of `pages` with that title is a redirect). Absent: none known. */
  redirects?: Redirect[];
  /** Entities kept on disk (a database cassette), read through its tables: see tableOf, storedModel. */
  stored?: StoredEntities;
  /** The wiki's interwiki table, as a fixture gives it. Absent: a recorded siteinfo's, else a default install's. */
  interwikimap?: InterwikiEntry[];
}

/** Page ids asked one by one (a Set is one); iterating gives them all (the test suite's checks). */
export interface PageIds extends Iterable<number> {
  has(pageid: number): boolean;
  add(pageid: number): unknown;
}

/**
 * The first pages of a walk, recorded without its last (a bot that read the newest 50 log entries
 * and went no further): the entries they show are every entry of the part walked from the list's
 * first entry, in `dir`'s order, up to the row their last `continue` names (not included: no
 * recorded page shows it). A page of the list that starts and ends within that stretch is a
 * computation over those entries, as over a complete walk (modules/list-support.ts needWalkedWindow).
 */
export interface WalkPrefix {
  /** The part walked, as ListWalk.scope names it. */
  scope: string;
  /** Its direction (the value of the list's `dir` parameter, or null for a list without one). */
  dir: string | null;
  /** The continuation value of its last recorded page: where the stretch it holds ends. */
  until: string;
  /** The latest `recordedAt` of its pages. */
  recordedAt: string;
}

/**
 * Knowledge, not defaults: what recordings proved. An answer that needs anything else says so
 * (`X-Wikitape-Unknown`) instead of inventing it. Worked out where the engine is built
 * (replay/knowledge.ts) and handed to the modules with each call (ApiContext.knows).
 */
export interface Knowledge {
  /**
   * Complete walks: for each list module, the parts of it (its walk's scope, see
   * api/list-module.ts; '' is the whole list) whose every entry is in the model, because the
   * recordings hold a walk of it from its first page to its last.
   */
  walks: Map<string, Set<string>>;
  /**
   * When each of those parts was walked (its walk's latest `recordedAt`), by list module and part:
   * under `--clock recorded` an answer computed from a walk is as of it
   * (docs/decisions/0015-a-clock-per-recording.md). Parts fixtures complete have none.
   */
  walkTimes: Map<string, Map<string, string>>;
  /**
   * Walks recorded from their first page but not to their last, by list module: what their pages
   * show of the list's first entries (WalkPrefix).
   */
  walkPrefixes: Map<string, WalkPrefix[]>;
  /**
   * Pages whose every external link is in the model (a complete walk of their links), by page id:
   * a set, or what a prepared database keeps of its walks, asked page by page (cassette/sql-prepare.ts).
   */
  completeLinks: PageIds;
  /** Titles recordings showed to be missing (`<ns>|<prefixed title>`; see WikiModel.missing). */
  missingTitles: Set<string>;
  /** Namespaces whose every page the model holds (a complete `list=allpages` walk): other titles are missing. */
  completeNamespaces: Set<number>;
  /** Namespaces whose every redirect the model marks (`redirect: true`): its other pages are no redirects. */
  completeRedirects: Set<number>;
  /** Whether the spam blacklist's and whitelist's lines are known (only fixtures can say). */
  spamPatterns: boolean;
  /** Recorded `meta=` answers, by module and prop: the fields that prop showed (see replay/recorded-meta.ts). */
  meta: Map<string, Map<string, Record<string, unknown>>>;
}

export function emptyModel(): WikiModel {
  return { entities: new Map(), pages: [], missing: [], spamBlacklist: [], spamWhitelist: [] };
}

const NONE: readonly never[] = Object.freeze([]);

/** The model's entities of a kind (its pages for PAGES), as the modules read them. */
export function entitiesOf<E extends object>(model: WikiModel, kind: EntityKind<E>): readonly E[] {
  if (kind === PAGES) {
    // Pages read whole for the first time: into the model's list (which views of the model share).
    if (pagesStored(model)) {
      for (const p of model.stored!.all(PAGES) as Page[]) model.pages.push(p);
      pagesRead.add(model.pages);
    }
    return model.pages as unknown as readonly E[];
  }
  // A stored kind read whole for the first time: held in memory from now on (tableOf reads it there).
  if (!model.entities.has(kind) && model.stored?.has(kind)) model.entities.set(kind, model.stored.all(kind));
  return (model.entities.get(kind) ?? NONE) as readonly E[];
}

/** Adds entities of a kind to the model (its pages for PAGES). */
export function addEntities<E extends object>(model: WikiModel, kind: EntityKind<E>, items: readonly E[]): void {
  // Nothing added to a kind a store holds leaves it there (not read whole).
  if (items.length === 0 && model.stored?.has(kind)) return;
  const list = (entitiesOf(model, kind) === NONE ? [] : entitiesOf(model, kind)) as E[];
  for (const x of items) list.push(x);
  if (kind !== PAGES) model.entities.set(kind, list);
}
