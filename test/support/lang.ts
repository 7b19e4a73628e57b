import { getLanguage, type Language } from '../../src/i18n/language.js';

/** The language of `code` in MediaWiki `version`'s data (default 1.39.17, the version most oracles come from). */
export function lang(code: string, version = '1.39.17'): Language {
  return getLanguage(code, version);
}
