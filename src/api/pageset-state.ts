import type { Page } from '../wiki/model.js';
import type { Title } from '../wiki/title.js';
import type { ApiContext } from './context.js';
import type { Json } from './result.js';

/** LinkBatch: titles to look up, by namespace (first seen first), DB keys in the order added. */
export type LinkBatch = Map<number, Map<string, Title>>;

/** A redirect page waiting for its target (`mPendingRedirectIDs`); its id may be unknown. */
interface PendingRedirect {
  title: Title;
  page: Page | null;
}

/**
 * ApiPageSet's members while it works (mAllPages, mNormalizedTitles …). Maps keep PHP's array
 * order: insertion order, a key set again keeps its place. Fake ids count down from -1.
 */
export interface PageSetState {
  readonly ctx: ApiContext;
  /** `redirects` was given: redirect pages are followed to their targets. */
  readonly resolveRedirects: boolean;
  fakeId: number;
  /** `<ns>|<dbkey>` of every page looked up so far (found or missing): never looked up twice. */
  readonly allPages: Set<string>;
  /** Invalid titles as given (`mAllPages[0][$title]`): each reported once. */
  readonly invalidSeen: Set<string>;
  /** `<ns>|<dbkey>` of special and media titles. */
  readonly allSpecials: Set<string>;
  /** Title as given → as the wiki writes it (`normalized`). */
  readonly normalized: Map<string, string>;
  /** Interwiki title → its prefix (`interwiki`). */
  readonly interwiki: Map<string, string>;
  /** Redirect title → its target, fragment and interwiki prefix included (`redirects`). */
  readonly redirects: Map<string, Title>;
  readonly invalid: Map<number, { title: string; invalidreason: Json }>;
  readonly special: Map<number, Title>;
  readonly missing: Map<number, Title>;
  /** `pageids` that name no page, in the order given. */
  missingIds: number[];
  /** Existing pages that are no (followed) redirects, in the order the wiki's queries return them. */
  readonly good: Page[];
  pending: PendingRedirect[];
  /** ApiPageSet::getCacheMode: private once a special page's redirect was asked for (it depends on who asks). */
  cacheMode: 'public' | 'private';
}

export function newPageSetState(ctx: ApiContext, resolveRedirects: boolean): PageSetState {
  return {
    ctx,
    resolveRedirects,
    fakeId: -1,
    allPages: new Set(),
    invalidSeen: new Set(),
    allSpecials: new Set(),
    normalized: new Map(),
    interwiki: new Map(),
    redirects: new Map(),
    invalid: new Map(),
    special: new Map(),
    missing: new Map(),
    missingIds: [],
    good: [],
    pending: [],
    cacheMode: 'public',
  };
}

export const pageKey = (t: { ns: number; dbkey: string }): string => `${t.ns}|${t.dbkey}`;

/** LinkBatch::add: special and media titles and an empty DB key (`titles=#`) are never looked up. */
export function addToBatch(batch: LinkBatch, t: Title): void {
  if (t.ns < 0 || t.dbkey === '') return;
  let keys = batch.get(t.ns);
  if (!keys) batch.set(t.ns, (keys = new Map()));
  keys.set(t.dbkey, t);
}

/** The binary collation of page_title (UTF-8 bytes), which orders the rows of a title lookup. */
export function compareDbKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
