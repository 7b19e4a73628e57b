import type { InterwikiMap } from './interwiki.js';
import type { Lang } from './profile.js';
import type { SpecialPageTable } from './special-pages.js';

/**
 * Namespaces of a default MediaWiki install (NamespaceInfo, Language::getNamespaceIds), for
 * content language ru (languages/messages/MessagesRu.php) or en. Interwiki prefixes:
 * wiki/interwiki.ts; special page names: wiki/special-pages.ts.
 */

export interface NamespaceContext {
  lang: Lang;
  /** $wgMetaNamespace: the site name, spaces as underscores (spaces are accepted too). */
  metaNamespace: string;
  /** The MediaWiki version: from 1.43 a title's first letter is title-cased (Language::ucfirst). Default 1.39's rules. */
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

/** MessagesRu.php $namespaceNames (5 is built from the meta namespace, see `projectTalk`). */
const RU_NAMES: Readonly<Record<number, string>> = {
  [-2]: 'Медиа', [-1]: 'Служебная', 0: '', 1: 'Обсуждение', 2: 'Участник', 3: 'Обсуждение_участника',
  6: 'Файл', 7: 'Обсуждение_файла', 8: 'MediaWiki', 9: 'Обсуждение_MediaWiki', 10: 'Шаблон',
  11: 'Обсуждение_шаблона', 12: 'Справка', 13: 'Обсуждение_справки', 14: 'Категория', 15: 'Обсуждение_категории',
};

/**
 * Language::getNamespaceAliases: $namespaceAliases (MessagesEn.php's `Image`/`Image_talk` merge into
 * every language) and, for ru, $namespaceGenderAliases. In Language order (later entries win).
 */
const ALIASES: Readonly<Record<Lang, readonly (readonly [string, number])[]>> = {
  ru: [
    ['Изображение', 6], ['Обсуждение_изображения', 7], ['Image', 6], ['Image_talk', 7],
    ['Участник', 2], ['Участница', 2], ['Обсуждение_участника', 3], ['Обсуждение_участницы', 3],
  ],
  en: [['Image', 6], ['Image_talk', 7]],
};

/** $wgNamespacesWithSubpages default. */
const SUBPAGES: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15]);

/** languages/data/grammarTransformations/ru.json `genitive` (Language::convertGrammar). */
const RU_GENITIVE: readonly (readonly [RegExp, string])[] = [
  [/^(.+)ь$/su, '$1я'], [/^(.+)ия$/su, '$1ии'], [/^(.+)ка$/su, '$1ки'], [/^(.+)ти$/su, '$1тей'], [/^(.+)ды$/su, '$1дов'],
  [/^(.+)д$/su, '$1да'], [/^(.+)ник$/su, '$1ника'], [/^(.+)тет$/su, '$1тета'], [/^(.+)ные$/su, '$1ных'],
];

function metaDb(ctx: NamespaceContext): string {
  return ctx.metaNamespace.replace(/ /g, '_');
}

/** Language::fixVariableInNamespace for NS_PROJECT_TALK (ru `Обсуждение_{{GRAMMAR:genitive|$1}}`, en `$1_talk`). */
function projectTalk(ctx: NamespaceContext): string {
  const meta = metaDb(ctx);
  if (ctx.lang === 'en') return `${meta}_talk`;
  // The rules are unanchored at the start in PHP (`(.+)x$`): the first rule that matches wins.
  let word = meta.trim();
  for (const [re, to] of RU_GENITIVE) {
    if (re.test(word)) {
      word = word.replace(re, to);
      break;
    }
  }
  return `Обсуждение_${word}`.replace(/ /g, '_');
}

/** The local name of a namespace in DB form (underscores); '' for the main namespace and unknown ones. */
export function namespaceDbName(ns: number, ctx: NamespaceContext): string {
  if (ns === 4) return metaDb(ctx);
  if (ns === 5) return projectTalk(ctx);
  return (ctx.lang === 'ru' ? RU_NAMES[ns] : CANONICAL_NAMES[ns]) ?? '';
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

/** Language::getNamespaceIds: lower-cased local names and aliases (DB form) → id. */
function namespaceIds(ctx: NamespaceContext): Map<string, number> {
  const key = `${ctx.lang}\u0000${metaDb(ctx)}`;
  let ids = idCache.get(key);
  if (!ids) {
    ids = new Map();
    for (let ns = -2; ns <= 15; ns++) ids.set(namespaceDbName(ns, ctx).toLowerCase(), ns);
    for (const [alias, ns] of ALIASES[ctx.lang]) ids.set(alias.toLowerCase(), ns);
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
  return ALIASES[ctx.lang].filter(([a]) => !names.has(a)).map(([alias, id]) => ({ id, alias: alias.replace(/_/g, ' ') }));
}
