import type { Lang } from './profile.js';

/** Canonical (English) namespace names of a default install; 4/5 are named after the site. */
const CANONICAL: Record<number, string> = {
  [-2]: 'Media', [-1]: 'Special', 0: '', 1: 'Talk', 2: 'User', 3: 'User talk', 4: 'Project', 5: 'Project talk',
  6: 'File', 7: 'File talk', 8: 'MediaWiki', 9: 'MediaWiki talk', 10: 'Template', 11: 'Template talk',
  12: 'Help', 13: 'Help talk', 14: 'Category', 15: 'Category talk',
};

/** Namespace names of MessagesRu.php (Обсуждение_{{GRAMMAR:genitive|$1}} is taken as the plain site name). */
const RU: Record<number, string> = {
  [-2]: 'Медиа', [-1]: 'Служебная', 0: '', 1: 'Обсуждение', 2: 'Участник', 3: 'Обсуждение участника',
  6: 'Файл', 7: 'Обсуждение файла', 8: 'MediaWiki', 9: 'Обсуждение MediaWiki', 10: 'Шаблон',
  11: 'Обсуждение шаблона', 12: 'Справка', 13: 'Обсуждение справки', 14: 'Категория', 15: 'Обсуждение категории',
};

/** Aliases ($namespaceAliases, gender forms, English `Image`). */
const ALIASES: Record<string, number> = {
  image: 6, 'image talk': 7, изображение: 6, 'обсуждение изображения': 7, участница: 2, 'обсуждение участницы': 3,
};

export interface NamespaceContext {
  lang: Lang;
  /** $wgMetaNamespace: the site name with spaces as underscores. */
  metaNamespace: string;
}

/** The localised name of a namespace ('' for the main namespace), with spaces. */
export function namespaceName(ns: number, ctx: NamespaceContext): string {
  const meta = ctx.metaNamespace.replace(/_/g, ' ');
  if (ns === 4) return meta;
  if (ns === 5) return ctx.lang === 'ru' ? `Обсуждение ${meta}` : `${meta} talk`;
  return (ctx.lang === 'ru' ? RU[ns] : CANONICAL[ns]) ?? '';
}

/** The namespace a prefix names (any case, `_` or space), or null. */
export function namespaceIndex(prefix: string, ctx: NamespaceContext): number | null {
  const p = prefix.replace(/_/g, ' ').toLowerCase();
  for (let ns = -2; ns <= 15; ns++) {
    if (ns === 0) continue;
    if (namespaceName(ns, ctx).toLowerCase() === p || CANONICAL[ns]!.toLowerCase() === p) return ns;
  }
  if (p === ctx.metaNamespace.replace(/_/g, ' ').toLowerCase()) return 4;
  return ALIASES[p] ?? null;
}

/** Interwiki prefixes of a default install (maintenance/interwiki.list). */
export const INTERWIKI: ReadonlySet<string> = new Set(
  ('acronym advogato arxiv c2find cache commons dictionary doi drumcorpswiki dwjwiki elibre emacswiki foldoc foxwiki ' +
    'freebsdman gentoo-wiki google googlegroups hammondwiki hrwiki imdb kmwiki linuxwiki lojban lqwiki meatball ' +
    'mediawikiwiki memoryalpha metawiki metawikimedia mozillawiki mw oeis openwiki pmid pythoninfo rfc s23wiki ' +
    'seattlewireless senseislibrary shoutwiki squeak tmbw tmnet theopedia twiki uncyclopedia unreal usemod wiki wikia ' +
    'wikibooks wikidata wikif1 wikihow wikinfo wikimedia wikinews wikipedia wikiquote wikisource wikispecies ' +
    'wikiversity wikivoyage wikt wiktionary').split(' '),
);
