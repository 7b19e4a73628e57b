/**
 * The wiki model: the entities the built-in modules answer from. Each entity is kept in the
 * shape the API shows it with formatversion=2 and every prop on, so recorded answers can be
 * harvested into it and fixtures read like API output. Pages (and titles known to be missing) are
 * the wiki's own; every other kind of entity belongs to the list module that shows it, which
 * declares its shape (api/list-module.ts): the model keeps those by kind.
 */

import { MemoryEntityTable, tableOver } from './entity-table.js';

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
  /** Bounds on an id not known exactly, from continuation requests (replay/link-ids.ts). */
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
 * language links.
 */
export function mergePage(held: Page, seen: Page): Page {
  let out = held;
  const add = <K extends 'redirect' | 'length' | 'protection' | 'langlinks'>(k: K, v: Page[K]) => {
    out = { ...out, [k]: v };
  };
  if (seen.redirect === true && held.redirect !== true) add('redirect', true);
  else if (held.redirect === undefined && seen.redirect !== undefined) add('redirect', seen.redirect);
  for (const k of ['length', 'protection', 'langlinks'] as const) if (held[k] === undefined && seen[k] !== undefined) add(k, seen[k]);
  return out;
}

/** The model's page of a title (its namespace and prefixed title), from an index, not a scan. */
export function pageByTitle(model: WikiModel, ns: number, title: string): Page | undefined {
  return tableOver(model.pages, 'title', (items) => new MemoryEntityTable(items, (p) => `${p.ns}|${p.title}`, {})).get(`${ns}|${title}`);
}

/** The model's page of an id, from an index, not a scan. */
export function pageById(model: WikiModel, id: number): Page | undefined {
  return tableOver(model.pages, 'id', (items) => new MemoryEntityTable(items, (p) => String(p.pageid), {})).get(String(id));
}

/** The wiki's own kind of entity: its pages (`model.pages`, the cassette's `entities.pages`). */
export const PAGES = entityKind<Page>('pages');

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
  /** The wiki's interwiki table, as a fixture gives it. Absent: a recorded siteinfo's, else a default install's. */
  interwikimap?: InterwikiEntry[];
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
  /** Pages whose every external link is in the model (a complete walk of their links), by page id. */
  completeLinks: Set<number>;
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
  if (kind === PAGES) return model.pages as unknown as readonly E[];
  return (model.entities.get(kind) ?? NONE) as readonly E[];
}

/** Adds entities of a kind to the model (its pages for PAGES). */
export function addEntities<E extends object>(model: WikiModel, kind: EntityKind<E>, items: readonly E[]): void {
  const list = kind === PAGES ? (model.pages as unknown as E[]) : ((model.entities.get(kind) as E[] | undefined) ?? []);
  for (const x of items) list.push(x);
  if (kind !== PAGES) model.entities.set(kind, list);
}
