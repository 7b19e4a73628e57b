import { defaultInterwikiMap, interwikiMapFromSiteinfo, type InterwikiMap } from './interwiki.js';
import type { Knowledge, WikiModel } from './model.js';
import type { WikiProfile } from './profile.js';
import { builtinSpecialPages, specialPagesFromSiteinfo, type SpecialPageTable } from './special-pages.js';
import type { SiteTable, TitleContext } from './title.js';

interface SiteTables {
  interwiki: InterwikiMap;
  special: SpecialPageTable;
  unknown: SiteTable[];
}

const cache = new WeakMap<WikiModel, Map<string, SiteTables>>();

/**
 * The interwiki table and special pages titles are parsed against: a fixture's `interwikimap`,
 * else what a recorded `meta=siteinfo` showed (`interwikimap`, `specialpagealiases`), else a
 * default install's of the profile's version and language. For a wiki learned from recordings the
 * last is a guess (`unknown`); fixtures describe the wiki, a default install where they say nothing.
 */
function siteTables(profile: WikiProfile, model: WikiModel, knows: Knowledge | null): SiteTables {
  // Tables made without the recordings' siteinfo (null) are kept apart from those made with it.
  const key = `${profile.version} ${profile.language} ${knows ? 'recorded' : 'given'}`;
  let byProfile = cache.get(model);
  const hit = byProfile?.get(key);
  if (hit) return hit;
  const recorded = knows?.meta.get('siteinfo');
  const unknown: SiteTable[] = [];
  let interwiki = interwikiMapFromSiteinfo(model.interwikimap) ?? interwikiMapFromSiteinfo(recorded?.get('interwikimap')?.['interwikimap']);
  if (!interwiki) {
    interwiki = defaultInterwikiMap(profile.version);
    if (knows) unknown.push('interwikimap');
  }
  let special = specialPagesFromSiteinfo(recorded?.get('specialpagealiases')?.['specialpagealiases'], profile.version);
  if (!special) {
    special = builtinSpecialPages(profile.language, profile.version);
    if (knows) unknown.push('specialpagealiases');
  }
  const tables = { interwiki, special, unknown };
  if (!byProfile) cache.set(model, (byProfile = new Map()));
  byProfile.set(key, tables);
  return tables;
}

/**
 * How an API request's titles are parsed on this wiki (ApiContext.titles), given what the
 * recordings prove (`knows`: the recorded siteinfo's tables; null: fixtures only). The tables are
 * made when a title first needs them.
 */
export function titleContext(profile: WikiProfile, model: WikiModel, knows: Knowledge | null): TitleContext {
  let tables: SiteTables | undefined;
  const get = () => (tables ??= siteTables(profile, model, knows));
  return {
    lang: profile.language,
    metaNamespace: profile.siteName.replace(/ /g, '_'),
    version: profile.version,
    get interwiki() {
      return get().interwiki;
    },
    get special() {
      return get().special;
    },
    get unknownTables() {
      return get().unknown;
    },
  };
}
