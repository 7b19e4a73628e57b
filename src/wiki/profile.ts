/**
 * What a wiki *is*, as far as its API output shows: version, languages, names, paths.
 * Output that differs between MediaWiki versions follows `version` (see `atLeast`).
 */
export interface WikiProfile {
  /** MediaWiki version string as in debuginfo `mwVersion`. Default `1.44.0`. */
  version: string;
  /**
   * The name of debuginfo's first field, which holds `version`. Default `mwVersion`, as MediaWiki
   * names it; `wikiVersion` is the brand-neutral name the spec (docs/spec/wiki-query-api.md) prints, which
   * the spec's wiki (fixtures/spec-wiki.json) uses.
   */
  versionKey: 'mwVersion' | 'wikiVersion';
  /** Content language code ($wgLanguageCode; also the default user language of anonymous callers). Default `ru`. */
  language: Lang;
  /** `$wgSitename`. Default `Тестовая вики`. */
  siteName: string;
  /** `$wgServer`, scheme and host without a trailing slash. Default `http://127.0.0.1:8080`. */
  server: string;
  /** `$wgScriptPath`: api.php lives at `<scriptPath>/api.php`. Default `/wiki`. */
  scriptPath: string;
  /** `$wgCookiePrefix`. Default `wikidb`. */
  cookiePrefix: string;
  /** Runtime name reported in debuginfo `phpEngine`. Default `PHP`. */
  runtimeName: string;
  /** Runtime version reported in debuginfo `phpVersion`. Default `8.2.29`. */
  runtimeVersion: string;
  /** Whether answers carry `debuginfo` (`$wgDebugToolbar`). Default true. */
  debugInfo: boolean;
  /** Database server name prefixed to debuginfo queries (`<server>: <sql>`). Default `localhost`. */
  dbServer: string;
  /** Absolute install path used for debuginfo `includes`. Default `/usr/share/mediawiki`. */
  installPath: string;
  /**
   * Log types only callers with a right may read (`$wgLogRestrictions`, in the wiki's order), which
   * list=logevents leaves out for others with `log_type NOT IN (…)` (LogEventsList::getExcludeClause).
   * Default `spamblacklist`, `suppress`: MediaWiki with the SpamBlacklist extension (the live
   * wikis); TitleBlacklist adds `titleblacklist` before `suppress`.
   */
  restrictedLogTypes: string[];
}

/** A language code as MediaWiki writes it (`ru`, `de-formal`, `qqx`). */
export type Lang = string;

export const DEFAULT_PROFILE: Readonly<WikiProfile> = Object.freeze({
  version: '1.44.0',
  versionKey: 'mwVersion',
  language: 'ru',
  siteName: 'Тестовая вики',
  server: 'http://127.0.0.1:8080',
  scriptPath: '/wiki',
  cookiePrefix: 'wikidb',
  runtimeName: 'PHP',
  runtimeVersion: '8.2.29',
  debugInfo: true,
  dbServer: 'localhost',
  installPath: '/usr/share/mediawiki',
  restrictedLogTypes: ['spamblacklist', 'suppress'],
});

/** Fills the gaps of a partial profile with the defaults. */
export function makeProfile(partial: Partial<WikiProfile> = {}): WikiProfile {
  const merged = { ...DEFAULT_PROFILE };
  for (const [k, v] of Object.entries(partial)) if (v !== undefined) (merged as Record<string, unknown>)[k] = v;
  return merged;
}

/** atLeast's answers by version, then by bound (a handful of each). */
const AT_LEAST = new Map<string, Map<string, boolean>>();

/** True when the profile's MediaWiki version is `min` (e.g. `1.43`) or newer. */
export function atLeast(profile: Pick<WikiProfile, 'version'>, min: string): boolean {
  // Asked per row of a list answer: worked out once per version and bound, not split every time.
  let byMin = AT_LEAST.get(profile.version);
  if (!byMin) {
    if (AT_LEAST.size >= 64) AT_LEAST.clear();
    AT_LEAST.set(profile.version, (byMin = new Map()));
  }
  let known = byMin.get(min);
  if (known === undefined) byMin.set(min, (known = compareVersions(profile.version, min)));
  return known;
}

function compareVersions(version: string, min: string): boolean {
  const a = version.split('.').map((x) => parseInt(x, 10) || 0);
  const b = min.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** Absolute URL of api.php, as MediaWiki's docref and HTML page show it. */
export function apiUrl(profile: WikiProfile): string {
  return `${profile.server}${profile.scriptPath}/api.php`;
}
