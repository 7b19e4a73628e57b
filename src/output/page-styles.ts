import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { atLeast, type WikiProfile } from '../wiki/profile.js';

/**
 * The styles MediaWiki's API result page loads from load.php (`mediawiki.apipretty` and
 * `mediawiki.skinning.interface`, skin `apioutput`), as the live wikis' load.php served them
 * (scripts/fetch-page-styles.mjs wrote fixtures/page-styles/), so that replay's HTML page looks
 * like the wiki's. ResourceLoader's scripts are not served: the page reads the same without them.
 */
const DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'page-styles');
const PAGE_MODULES = new Set(['mediawiki.apipretty', 'mediawiki.skinning.interface']);
const cache = new Map<string, string>();

export interface LoadAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Answers `load.php?…` for the HTML page (its styles, its startup script); anything else is not here (404). */
export function answerLoadPhp(profile: WikiProfile, query: URLSearchParams): LoadAnswer {
  const modules = (query.get('modules') ?? '').split('|');
  const cacheHeaders = { 'Cache-Control': 'public, max-age=300, s-maxage=300, stale-while-revalidate=60', 'X-Content-Type-Options': 'nosniff' };
  if (query.get('only') === 'styles' && query.get('skin') === 'apioutput' && modules.length > 0 && modules.every((m) => PAGE_MODULES.has(m))) {
    const lang = query.get('lang') === 'ru' ? 'ru' : 'en';
    const file = `${atLeast(profile, '1.43') ? '1.43' : '1.39'}-${lang}.css`;
    let css = cache.get(file);
    if (css === undefined) cache.set(file, (css = readFileSync(join(DIR, file), 'utf8')));
    return { status: 200, headers: { 'Content-Type': 'text/css; charset=utf-8', ...cacheHeaders }, body: css };
  }
  if (query.get('only') === 'scripts' && modules.length === 1 && modules[0] === 'startup') {
    return { status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', ...cacheHeaders }, body: "/* wikitape: ResourceLoader's scripts are not served offline; the API result page reads the same without them */\n" };
  }
  return { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: `wikitape: load.php serves only what the API result page loads (modules=${[...PAGE_MODULES].join('|')}&only=styles&skin=apioutput), not modules=${modules.join('|')}\n` };
}
