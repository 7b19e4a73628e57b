import { languageRecord, releaseOf, type LanguageRecord } from './language-data.js';

/**
 * The content language's namespace names and aliases (Language::getNamespaces and
 * getNamespaceAliases), from its LocalisationCache data (l10n/languages.json), for any
 * `$wgLanguageCode` MediaWiki ships.
 */
export interface ContentNamespaces {
  /** Local names in DB form by id, -2…15 (4 is the meta namespace, 5 its talk namespace). */
  names: ReadonlyMap<number, string>;
  /** Aliases (DB form) in Language::getNamespaceAliases order (later entries win in lookups). */
  aliases: ReadonlyArray<readonly [string, number]>;
  /**
   * False when wikitape cannot know them all: the talk namespace of the project needs a Language
   * subclass's GRAMMAR (fi, hu, …), or the language has variants whose converted names are
   * aliases too (zh, sr, kk, …).
   */
  complete: boolean;
}

/** Language::convertGrammar from languages/data/grammarTransformations (the first rule that matches). */
function convertGrammar(rec: LanguageRecord, word: string, grammarCase: string): string | null {
  let forms = rec.grammar[grammarCase] as unknown;
  if (typeof forms === 'string') forms = rec.grammar[forms];
  if (!Array.isArray(forms)) return rec.quirks.includes('grammar') ? null : word;
  for (const rule of forms as [string, string][]) {
    if (rule[0] === '@metadata') continue;
    let re: RegExp;
    try {
      re = new RegExp(rule[0], 'u');
    } catch {
      return null;
    }
    if (re.test(word)) return word.replace(re, rule[1]);
  }
  return word;
}

/** Language::fixVariableInNamespace: `$1` is the meta namespace, `{{GRAMMAR:case|…}}` applied; null when it cannot be. */
function fixVariable(rec: LanguageRecord, talk: string, meta: string): string | null {
  if (!talk.includes('$1')) return talk;
  let failed = false;
  const out = talk.replaceAll('$1', meta).replace(/\{\{grammar:(.*?)\|(.*?)\}\}/gi, (_m, c: string, w: string) => {
    const converted = convertGrammar(rec, w.trim(), c.trim());
    if (converted === null) failed = true;
    return converted ?? w.trim();
  });
  return failed ? null : out.replace(/ /g, '_');
}

const cache = new Map<string, ContentNamespaces>();

/** The namespaces of content language `lang` on a wiki whose meta namespace is `metaNamespace` (DB form). */
export function contentNamespaces(lang: string, metaNamespace: string, version = '1.44'): ContentNamespaces {
  const release = releaseOf(version);
  const key = `${release}\u0000${lang}\u0000${metaNamespace}`;
  let found = cache.get(key);
  if (found) return found;
  // A code MediaWiki does not ship has English's data (LocalisationCache::initShallowFallback).
  const rec = languageRecord(lang, release) ?? languageRecord('en', release)!;
  let complete = !rec.quirks.includes('variants');
  const names = new Map<number, string>();
  for (let ns = -2; ns <= 15; ns++) names.set(ns, rec.namespaces[String(ns)] ?? '');
  names.set(4, metaNamespace);
  const talk = fixVariable(rec, names.get(5)!, metaNamespace);
  if (talk === null) complete = false;
  names.set(5, talk ?? names.get(5)!);
  // The talk namespace's aliases are taken out and put back last, with the variable filled in.
  const aliases: [string, number][] = Object.entries(rec.namespaceAliases).filter(([, id]) => id !== 5);
  for (const [name, id] of Object.entries(rec.namespaceAliases)) {
    if (id !== 5) continue;
    const fixed = fixVariable(rec, name, metaNamespace);
    if (fixed === null) complete = false;
    else aliases.push([fixed, id]);
  }
  for (const [id, forms] of Object.entries(rec.namespaceGenderAliases)) for (const alias of Object.values(forms)) aliases.push([alias, Number(id)]);
  found = { names, aliases, complete };
  if (cache.size < 256) cache.set(key, found);
  return found;
}
