import type { Lang } from '../wiki/profile.js';
import { formatNum } from '../i18n/numbers.js';
import { phpRound } from '../i18n/php-number.js';

/**
 * The few interface texts src/output needs, as MediaWiki 1.39.17 renders them (ru and en),
 * copied from languages/i18n/{ru,en}.json, includes/api/i18n/{ru,en}.json and
 * languages/messages/Messages{Ru,En}.php and checked against a real 1.39 wiki.
 *
 * TODO(i18n): switch to src/i18n `message(lang, key, params)` / `formatNum` / `formatSize` once
 * that lands: api-format-title, pagetitle, api-format-prettyprint-header(-hyperlinked,-only-html),
 * api-format-prettyprint-status, retrievedfrom, page-atom-feed, size-*bytes, month names, the
 * Special namespace and Special:RecentChanges names. The header paragraphs below are the
 * *rendered* HTML of the wikitext messages (links resolved), which src/i18n will not provide.
 */
export interface OutputTexts {
  /** api-format-title */
  apiFormatTitle: string;
  /** pagetitle: "$1 — {{SITENAME}}" (ru), "$1 - {{SITENAME}}" (en) — in the user language. */
  pageTitle(title: string, siteName: string): string;
  /** api-format-prettyprint-status, parsed inline. */
  prettyStatus(code: number, statusText: string): string;
  /** retrievedfrom, `link` is raw HTML. */
  retrievedFrom(linkHtml: string): string;
  /** page-atom-feed */
  atomFeed(siteName: string): string;
  /**
   * Rendered api-format-prettyprint-header(-hyperlinked) paragraphs. `url` is the raw non-HTML URL
   * (null for POSTs: the non-hyperlinked message), `helpLink` the rendered `[[Special:ApiHelp/main|…]]`
   * anchor minus its text (`<a href=… title=…>`).
   */
  prettyHeader(fmt: string, lcfmt: string, url: string | null, helpAnchorOpen: string): string;
  /** api-format-prettyprint-header-only-html, rendered. */
  prettyHeaderOnlyHtml(helpAnchorOpen: string): string;
  /** wgMonthNames as RLCONF shows them (index 0 is ""). */
  monthNames: readonly string[];
  /** wgSeparatorTransformTable */
  separatorTransformTable: readonly [string, string];
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const ru: OutputTexts = {
  apiFormatTitle: 'Результат MediaWiki API',
  pageTitle: (t, site) => `${t} — ${site}`,
  prettyStatus: (code, text) => `Этот ответ будет возвращён HTTP статусом ${code} ${text}.`,
  retrievedFrom: (link) => `Источник — ${link}`,
  atomFeed: (site) => `${site}\u00a0— Atom-лента`,
  prettyHeader: (fmt, lc, url, help) =>
    `<p>Это HTML-представление формата ${fmt}. HTML хорош для отладки, но неудобен для практического применения.\n` +
    `</p><p>Укажите параметр <var>format</var> для изменения формата вывода. Для отображения не-HTML-представления формата ${fmt}, присвойте ` +
    (url === null
      ? `<kbd>format=${lc}</kbd>.\n`
      : `<a rel="nofollow" class="external text" href="${esc(url)}"><kbd>format=${lc}</kbd></a>.\n`) +
    `</p><p>См. ${url === null ? MW_API_MYLANG : MW_API}полную документацию</a> или ${help}справку API</a> для получения дополнительной информации.\n</p>`,
  prettyHeaderOnlyHtml: (help) =>
    `<p>Это HTML-представление для отладки, не рассчитанное на практическое применение.\n` +
    `</p><p>См. ${MW_API_MYLANG}полную документацию</a> или ${help}справку API</a> для получения дополнительной информации.\n</p>`,
  monthNames: ['', 'январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'],
  separatorTransformTable: [',\t.', '\u00a0\t,'],
};

const en: OutputTexts = {
  apiFormatTitle: 'MediaWiki API result',
  pageTitle: (t, site) => `${t} - ${site}`,
  prettyStatus: (code, text) => `This response would be returned with HTTP status ${code} ${text}.`,
  retrievedFrom: (link) => `Retrieved from "${link}"`,
  atomFeed: (site) => `${site} Atom feed`,
  prettyHeader: (fmt, lc, url, help) =>
    `<p>This is the HTML representation of the ${fmt} format. HTML is good for debugging, but is unsuitable for application use.\n` +
    `</p><p>Specify the <var>format</var> parameter to change the output format. To see the non-HTML representation of the ${fmt} format, set ` +
    (url === null
      ? `<kbd>format=${lc}</kbd>.\n`
      : `<a rel="nofollow" class="external text" href="${esc(url)}"><kbd>format=${lc}</kbd></a>.\n`) +
    `</p><p>See the ${url === null ? MW_API_MYLANG : MW_API}complete documentation</a>, or the ${help}API help</a> for more information.\n</p>`,
  prettyHeaderOnlyHtml: (help) =>
    `<p>This is an HTML representation intended for debugging, and is unsuitable for application use.\n` +
    `</p><p>See the ${MW_API_MYLANG}complete documentation</a>, or the ${help}API help</a> for more information.\n</p>`,
  monthNames: ['', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  separatorTransformTable: ['', ''],
};

/** `[[mw:API|…]]` (hyperlinked message) and `[[mw:Special:MyLanguage/API|…]]` (the others), opened. */
const MW_API = '<a href="https://www.mediawiki.org/wiki/API" class="extiw" title="mw:API">';
const MW_API_MYLANG =
  '<a href="https://www.mediawiki.org/wiki/Special:MyLanguage/API" class="extiw" title="mw:Special:MyLanguage/API">';

export function outputTexts(lang: Lang): OutputTexts {
  return lang === 'en' ? en : ru;
}

/** Local names MediaWiki uses in the content language (namespace -1 and Special:RecentChanges). */
export function specialNames(contentLang: Lang): { special: string; recentChanges: string } {
  return contentLang === 'en'
    ? { special: 'Special', recentChanges: 'RecentChanges' }
    : { special: 'Служебная', recentChanges: 'Свежие_правки' };
}

// ---------------------------------------------------------------------------------------------
// Numbers and sizes (TODO(i18n): replace with src/i18n formatNum / formatSize)

const SIZE_UNITS: Record<Lang, readonly string[]> = {
  // size-bytes has {{PLURAL:$1|…}} evaluated with the literal "$1" (= 0): always the "many" form.
  ru: ['байт', 'КБ', 'МБ', 'ГБ', 'ТБ', 'ПБ', 'ЭБ', 'ЗБ', 'ЙБ', 'RB', 'QB'],
  en: ['bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB', 'RB', 'QB'],
};

/**
 * formatSizeLocal split for a template: the unit of the megabyte range and the number as it would
 * print there, or null when `bytes` is outside [1 MB, 1000 MB) (another unit, or a separator).
 */
export function formatMegabytesParts(lang: Lang, bytes: number): { num: string; unit: string } | null {
  if (bytes < 1048576 || bytes >= 1000 * 1048576) return null;
  const rounded = phpRound(bytes / 1048576, 2);
  const key = `${lang}${rounded}`;
  let num = megabyteNums.get(key);
  if (num === undefined) {
    if (megabyteNums.size >= 4096) megabyteNums.clear();
    megabyteNums.set(key, (num = formatNum(lang, rounded)));
  }
  return { num, unit: SIZE_UNITS[lang][2]! };
}
/** formatNum of megabyte figures (debuginfo prints one per answer; the heap moves in a small range). */
const megabyteNums = new Map<string, string>();

/** Language::formatSize (1.39.17): 1024 steps; bytes and KB without decimals, MB+ with 2. */
export function formatSizeLocal(lang: Lang, bytes: number): string {
  const units = SIZE_UNITS[lang];
  if (bytes <= 0) return `${formatNum(lang, bytes)} ${units[0]}`;
  let size = bytes;
  let index = 0;
  while (size >= 1024 && index < units.length - 1) {
    index++;
    size /= 1024;
  }
  const rounded = phpRound(size, index > 1 ? 2 : 0);
  return `${formatNum(lang, rounded)} ${units[index]}`;
}
