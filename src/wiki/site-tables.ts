import { defaultInterwikiMap, interwikiMapFromSiteinfo, type InterwikiMap } from './interwiki.js';
import type { WikiModel } from './model.js';
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
function siteTables(profile: WikiProfile, model: WikiModel): SiteTables {
  const key = `${profile.version} ${profile.language}`;
  let byProfile = cache.get(model);
  const hit = byProfile?.get(key);
  if (hit) return hit;
  const recorded = model.knows?.meta.get('siteinfo');
  const unknown: SiteTable[] = [];
  let interwiki = interwikiMapFromSiteinfo(model.interwikimap) ?? interwikiMapFromSiteinfo(recorded?.get('interwikimap')?.['interwikimap']);
  if (!interwiki) {
    interwiki = defaultInterwikiMap(profile.version);
    if (model.knows) unknown.push('interwikimap');
  }
  let special = specialPagesFromSiteinfo(recorded?.get('specialpagealiases')?.['specialpagealiases'], profile.version);
  if (!special) {
    special = builtinSpecialPages(profile.language, profile.version);
    if (model.knows) unknown.push('specialpagealiases');
  }
  const tables = { interwiki, special, unknown };
  if (!byProfile) cache.set(model, (byProfile = new Map()));
  byProfile.set(key, tables);
  return tables;
}

/**
 * How an API request's titles are parsed on this wiki (ApiContext.titles). The tables are looked
 * up when a title first needs them: a question without titles never reads the recordings' siteinfo.
 */
export function titleContext(profile: WikiProfile, model: WikiModel): TitleContext {
  let tables: SiteTables | undefined;
  const get = () => (tables ??= siteTables(profile, model));
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
