import type { InterwikiMap } from './interwiki.js';
import type { Lang } from './profile.js';
import type { SpecialPageTable } from './special-pages.js';
import { contentNamespaces } from './content-namespaces.js';

/**
 * Namespaces of a default MediaWiki install (NamespaceInfo, Language::getNamespaceIds); names and
 * aliases follow any content language (content-namespaces.ts). Interwiki prefixes:
 * wiki/interwiki.ts; special page names: wiki/special-pages.ts.
 */

export interface NamespaceContext {
  /** The content language ($wgLanguageCode). */
  lang: Lang;
  /** $wgMetaNamespace: the site name, spaces as underscores (spaces are accepted too). */
  metaNamespace: string;
  /**
   * The MediaWiki version: a language's names may differ between releases, and from 1.43 a
   * title's first letter is title-cased (Language::ucfirst). Default: the newest names, 1.39's case rules.
   */
  version?: string;
  /** The wiki's interwiki table. Default: a default install's of `version` (maintenance/interwiki.list). */
  interwiki?: InterwikiMap;
  /** The wiki's special pages. Default: a default install's of `lang` and `version`. */
  special?: SpecialPageTable;
}

/** NamespaceInfo canonical names (DB form). 4 and 5 are `Project`/`Project_talk` whatever the site is called. */
export const CANONICAL_NAMES: Readonly<Record<number, string>> = Object.freeze({
  [-2]: 'Media', [-1]: 'Special', 0: '', 1: 'Talk', 2: 'User', 3: 'User_talk', 4: 'Project', 5: 'Project_talk',
  6: 'File', 7: 'File_talk', 8: 'MediaWiki', 9: 'MediaWiki_talk', 10: 'Template', 11: 'Template_talk',
  12: 'Help', 13: 'Help_talk', 14: 'Category', 15: 'Category_talk',
});

/** $wgNamespacesWithSubpages default. */
const SUBPAGES: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15]);

function metaDb(ctx: NamespaceContext): string {
  return ctx.metaNamespace.replace(/ /g, '_');
}

/** The content language's names and aliases (Language::getNamespaces, getNamespaceAliases). */
const local = (ctx: NamespaceContext) => contentNamespaces(ctx.lang, metaDb(ctx), ctx.version);

/** The local name of a namespace in DB form (underscores); '' for the main namespace and unknown ones. */
export function namespaceDbName(ns: number, ctx: NamespaceContext): string {
  return local(ctx).names.get(ns) ?? '';
}

/** The localised name of a namespace, with spaces ('' for main), as Language::getFormattedNsText. */
export function namespaceName(ns: number, ctx: NamespaceContext): string {
  return namespaceDbName(ns, ctx).replace(/_/g, ' ');
}

/** Whether the namespace id exists on a default install. */
export function namespaceExists(ns: number): boolean {
  return Number.isInteger(ns) && ns >= -2 && ns <= 15;
}

export function hasSubpages(ns: number): boolean {
  return SUBPAGES.has(ns);
}

/** $wgCapitalLinks is true: every namespace is `first-letter`. */
export function isCapitalized(_ns: number): boolean {
  return true;
}

const idCache = new Map<string, Map<string, number>>();

/** Whether wikitape knows all the content language's namespace names and aliases (see ContentNamespaces.complete). */
export function namespacesKnown(ctx: NamespaceContext): boolean {
  return local(ctx).complete;
}

/** Language::getNamespaceIds: lower-cased local names and aliases (DB form) → id. */
function namespaceIds(ctx: NamespaceContext): Map<string, number> {
  const key = `${ctx.lang}\u0000${metaDb(ctx)}\u0000${ctx.version ?? ''}`;
  let ids = idCache.get(key);
  if (!ids) {
    ids = new Map();
    for (let ns = -2; ns <= 15; ns++) ids.set(namespaceDbName(ns, ctx).toLowerCase(), ns);
    for (const [alias, ns] of local(ctx).aliases) ids.set(alias.toLowerCase(), ns);
    idCache.set(key, ids);
  }
  return ids;
}

const CANONICAL_INDEX: ReadonlyMap<string, number> = new Map(
  Object.entries(CANONICAL_NAMES).map(([id, name]) => [name.toLowerCase(), Number(id)]),
);

/**
 * Language::getNsIndex: the namespace a prefix names (canonical names first, then local names and
 * aliases; case-insensitive; `_` and space alike), or null.
 */
export function namespaceIndex(prefix: string, ctx: NamespaceContext): number | null {
  const lc = prefix.replace(/ /g, '_').toLowerCase();
  return CANONICAL_INDEX.get(lc) ?? namespaceIds(ctx).get(lc) ?? null;
}

/** Namespace aliases as siteinfo lists them (`Участница`, `Image`, …; the gender forms equal to a name excluded). */
export function namespaceAliases(ctx: NamespaceContext): { id: number; alias: string }[] {
  const names = new Set(Array.from({ length: 18 }, (_v, i) => namespaceDbName(i - 2, ctx)));
  return local(ctx).aliases.filter(([a]) => !names.has(a)).map(([alias, id]) => ({ id, alias: alias.replace(/_/g, ' ') }));
}

