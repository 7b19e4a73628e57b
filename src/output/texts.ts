import type { WikiProfile } from '../wiki/profile.js';
import { contentLanguage, type Language } from '../i18n/language.js';
import { message, messageBlockHtml, messageHtml, type MessageOptions } from '../i18n/message.js';
import { wfUrlencode } from '../util/php-url.js';

/**
 * The interface texts of the HTML page (ApiFormatBase::closePrinter, OutputPage, the apioutput
 * skin) in the user language: MediaWiki's own messages (l10n/languages.json), rendered as the page
 * renders them, and the language data its RLCONF exports.
 */
export interface PageTexts {
  /** api-format-title (text). */
  apiFormatTitle: string;
  /** pagetitle around api-format-title: the `<title>`. */
  pageTitle: string;
  /** api-format-prettyprint-status, parsed inline. */
  prettyStatus(code: number, statusText: string): string;
  /** retrievedfrom around the raw link HTML, parsed inline. */
  retrievedFrom(linkHtml: string): string;
  /** site-atom-feed (text). */
  atomFeed: string;
  /**
   * The api-format-prettyprint-header(-hyperlinked) paragraphs (parseAsBlock, help links fixed).
   * `url` is the raw non-HTML URL (null for POSTs: the message without the link).
   */
  prettyHeader(fmt: string, lcfmt: string, url: string | null): string;
  /** api-format-prettyprint-header-only-html, parsed as block. */
  prettyHeaderOnlyHtml(fmt: string): string;
  /** wgMonthNames (Language::getMonthNamesArray, index 0 is ""). */
  monthNames: readonly string[];
  /** wgSeparatorTransformTable and wgDigitTransformTable: the tables' keys and values, tab-joined. */
  separatorTransformTable: readonly [string, string];
  digitTransformTable: readonly [string, string];
  /** wgDefaultDateFormat (Language::getDefaultDateFormat). */
  dateFormat: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may_long', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** OutputPage's compact form of a transform table: [keys, values], each tab-joined. */
const compact = (table: Readonly<Record<string, string>> | null): readonly [string, string] =>
  table ? [Object.keys(table).join('\t'), Object.values(table).join('\t')] : ['', ''];

/**
 * ApiHelp::fixHelpLinks: a link whose (decoded) href names the English `Special:ApiHelp/<module>`
 * points at api.php's help instead, without its title. A wiki whose special namespace has another
 * name keeps its links.
 */
function fixHelpLinks(html: string, scriptPath: string): string {
  return html.replace(/<a href="([^"]*)"( title="[^"]*")?>/g, (whole, href: string) => {
    let decoded = href;
    for (let old = ''; old !== decoded; ) {
      old = decoded;
      try {
        decoded = decodeURIComponent(decoded);
      } catch {
        break;
      }
    }
    const m = /Special:ApiHelp\/([^&/|#]+)((?:#.*)?)/.exec(decoded);
    return m ? `<a href="${scriptPath}/api.php?action=help&amp;modules=${wfUrlencode(m[1]!)}${m[2]}">` : whole;
  });
}

/** The page's texts in `lang`; `unknown` is told `i18n.<code>` for a text wikitape cannot render. */
export function pageTexts(profile: WikiProfile, lang: Language, unknown?: (what: string) => void): PageTexts {
  const sp = profile.scriptPath;
  const opts: MessageOptions = {
    siteName: profile.siteName,
    html: { contentLang: contentLanguage(profile), articlePath: `${sp}/index.php/$1`, script: `${sp}/index.php` },
    ...(unknown ? { unknown } : {}),
  };
  const apiFormatTitle = message(lang, 'api-format-title', [], opts);
  return {
    apiFormatTitle,
    pageTitle: message(lang, 'pagetitle', [{ plaintext: apiFormatTitle }], opts),
    prettyStatus: (code, text) => messageHtml(lang, 'api-format-prettyprint-status', [code, text], opts),
    retrievedFrom: (link) => messageHtml(lang, 'retrievedfrom', [{ raw: link }], opts),
    atomFeed: message(lang, 'site-atom-feed', [profile.siteName], opts),
    prettyHeader: (fmt, lc, url) =>
      fixHelpLinks(
        url === null
          ? messageBlockHtml(lang, 'api-format-prettyprint-header', [fmt, lc], opts)
          : messageBlockHtml(lang, 'api-format-prettyprint-header-hyperlinked', [fmt, lc, url], opts),
        sp,
      ),
    prettyHeaderOnlyHtml: (fmt) => fixHelpLinks(messageBlockHtml(lang, 'api-format-prettyprint-header-only-html', [fmt], opts), sp),
    monthNames: ['', ...MONTHS.map((m) => message(lang, m, [], opts))],
    separatorTransformTable: compact(lang.record.separators),
    digitTransformTable: compact(lang.record.digits),
    dateFormat: lang.record.dateFormat,
  };
}

/** The content language's local names of namespace -1 and of Special:RecentChanges (SpecialPageFactory::getLocalNameFor). */
export function specialNames(profile: WikiProfile): { special: string; recentChanges: string } {
  const content = contentLanguage(profile);
  const aliases = content.record.specialPageAliases['Recentchanges'] ?? [];
  return { special: content.record.namespaces['-1'] ?? 'Special', recentChanges: aliases[0] ?? 'Recentchanges' };
}

const gaps = new Map<string, string[]>();

/**
 * What the HTML page's texts in `lang` need that wikitape cannot render (`i18n.<code>`: a
 * `{{GRAMMAR:…}}` in `retrievedfrom`, say): worked out once per language and version.
 */
export function pageTextsUnknown(profile: WikiProfile, lang: Language): readonly string[] {
  const key = `${profile.version}\u0000${lang.code}`;
  let found = gaps.get(key);
  if (!found) {
    const seen = new Set<string>();
    const t = pageTexts(profile, lang, (what) => void seen.add(what));
    t.prettyStatus(500, '');
    t.retrievedFrom('');
    t.prettyHeader('JSON', 'json', null);
    t.prettyHeader('JSON', 'json', 'http://x');
    t.prettyHeaderOnlyHtml('RAW');
    found = [...seen];
    if (gaps.size >= 256) gaps.clear();
    gaps.set(key, found);
  }
  return found;
}
