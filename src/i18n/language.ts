import type { WikiProfile } from '../wiki/profile.js';
import { TITLE_INVALID } from '../wiki/title.js';
import { codeMapping, icuDefault, languageRecord, releaseOf, type IcuNumbers, type LanguageRecord, type Release } from '../wiki/language-data.js';

/**
 * A language as MediaWiki's Language object is one: the code it reports, its LocalisationCache
 * data (l10n/languages.json) and its fallback chain's texts. `getLanguage` gives the one object
 * per code and MediaWiki release.
 */
export class Language {
  constructor(
    /** Language::getCode: what `responselanginfo` reports (`de`, `qqx`, `xx-bogus`). */
    readonly code: string,
    readonly release: Release,
    /** The data: the language's own, or English's for a code MediaWiki does not ship. */
    readonly record: LanguageRecord,
    /**
     * Whether MediaWiki ships the language. A code it does not ship (a "uselang hack") is English
     * underneath, as LocalisationCache::initShallowFallback makes it.
     */
    readonly shipped: boolean,
    /** What ICU formats this code's numbers with. */
    readonly icu: IcuNumbers,
  ) {}

  /** `qqx`: every message prints as its key with its parameters (Message::format). */
  get isQqx(): boolean {
    return this.code === 'qqx';
  }

  get rtl(): boolean {
    return this.record.rtl;
  }

  /** Language::getDir. */
  get dir(): 'ltr' | 'rtl' {
    return this.record.rtl ? 'rtl' : 'ltr';
  }

  /** Language::getHtmlCode (BCP 47). */
  get htmlCode(): string {
    return this.shipped ? this.record.html : bcp47(this.code);
  }

  /** Language::getArrow('forwards'). */
  get arrow(): string {
    return this.rtl ? '←' : '→';
  }

  /** Language::getDirMark: RLM or LRM. */
  get dirMark(): string {
    return this.rtl ? '\u200f' : '\u200e';
  }

  /** The language and its fallbacks, in the order LocalisationCache merges them (English for an unshipped code). */
  chain(): string[] {
    return this.shipped ? [this.code, ...this.record.fallback] : [this.code, 'en'];
  }

  /**
   * MessageCache::get from the LocalisationCache: the text of the key in this language or the
   * first language of its chain that has one; null when none has it (`qqx`: `($*)`).
   */
  rawMessage(key: string): string | null {
    if (this.isQqx) return '($*)';
    for (const c of this.chain()) {
      const text = languageRecord(c, this.release)?.messages[key];
      if (text !== undefined) return text;
    }
    return null;
  }

  /** Whether a Language subclass changes this behaviour (see language-data.ts Quirk). */
  has(quirk: LanguageRecord['quirks'][number]): boolean {
    return this.record.quirks.includes(quirk);
  }
}

/** LanguageCode::bcp47 for a code MediaWiki does not ship: case by subtag length and position. */
export function bcp47(code: string): string {
  const segs = code.toLowerCase().split('-');
  return segs
    .map((seg, i) => {
      if (i > 0 && segs[i - 1] === 'x') return seg;
      if (i > 0 && seg.length === 2) return seg.toUpperCase();
      if (i > 0 && seg.length === 4) return seg[0]!.toUpperCase() + seg.slice(1);
      return seg;
    })
    .join('-');
}

/** The ICU numbers of a code MediaWiki does not ship: ICU's locale fallback (de-x-foo → de), else its default locale. */
function icuOf(code: string, release: Release): IcuNumbers {
  for (let c = code; c.includes('-'); ) {
    c = c.slice(0, c.lastIndexOf('-'));
    const rec = languageRecord(c, release);
    if (rec) return rec.icu;
  }
  return icuDefault(release);
}

const languages = new Map<string, Language>();

/**
 * LanguageFactory::getLanguage for a code already sanitized (see `sanitizeLangCode`): deprecated
 * and dummy codes read as their replacement (`als` → `gsw`), then the language of that code in
 * the data of the MediaWiki `version`.
 */
export function getLanguage(rawCode: string, version: string): Language {
  const release = releaseOf(version);
  const code = codeMapping(release)[rawCode] ?? rawCode;
  const key = `${release}\u0000${code}`;
  let lang = languages.get(key);
  if (!lang) {
    const own = languageRecord(code, release);
    const rec = own ?? languageRecord('en', release)!;
    lang = new Language(code, release, rec, own !== null, own ? own.icu : icuOf(code, release));
    if (languages.size < 2048) languages.set(key, lang);
  }
  return lang;
}

/** LanguageNameUtils::isValidCode: HTML-safe, no path characters, title-legal, at most 128 bytes. */
export function isValidCode(code: string): boolean {
  return !/[:/\\\0&<>'"]/.test(code) && !TITLE_INVALID.test(code) && Buffer.byteLength(code) <= 128;
}

/** RequestContext::sanitizeLangCode: lower case; empty, invalid or `qqq` is the content language. */
export function sanitizeLangCode(code: string, contentLanguage: string): string {
  if (code === '') return contentLanguage;
  // strtolower: ASCII letters only
  const lc = code.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  return !isValidCode(lc) || lc === 'qqq' ? contentLanguage : lc;
}

/**
 * The user language of a request, as ApiMain's constructor and RequestContext::getLanguage
 * choose it: `uselang` (raw), `user` (the default: the user's preference, which for anonymous
 * callers is the content language), `content`, or a code, sanitized.
 */
export function userLanguage(uselang: string | undefined, profile: Pick<WikiProfile, 'language' | 'version'>): Language {
  const raw = uselang ?? 'user';
  const code = raw === 'user' || raw === 'content' ? profile.language : sanitizeLangCode(raw, profile.language);
  return getLanguage(code, profile.version);
}

/** The wiki's content language ($wgLanguageCode, the profile's `language`). */
export function contentLanguage(profile: Pick<WikiProfile, 'language' | 'version'>): Language {
  return getLanguage(profile.language, profile.version);
}
