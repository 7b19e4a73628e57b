import type { Language } from './language.js';
import { linkTrail } from './link-trail.js';
import { fetchMessage } from './messages.js';
import { decodeCharRefs } from './strip-markup.js';
import { escapeAttr } from './wikitext-inline.js';
import { wfUrlencode } from '../util/php-url.js';

/**
 * Links in interface messages, rendered as MediaWiki 1.39's parser does with the default
 * interwiki table (`mw:` → www.mediawiki.org) and no page existence data: special pages are
 * blue, `mw:` links are `extiw`, any other wiki page is a red link.
 */

export interface LinkContext {
  /** The wiki's content language: namespace names and red-link titles. */
  contentLang: Language;
  /** The message's language: its link trail (the parser's target language). */
  lang: Language;
  /** `$wgArticlePath`. */
  articlePath: string;
  /** `$wgScript` (red links go to `?title=…&action=edit&redlink=1`). */
  script: string;
}

/** The content language's names of NS_SPECIAL (its name and aliases, and the canonical `Special`), lower case. */
function specialNames(lang: Language): Set<string> {
  const names = new Set(['special', (lang.record.namespaces['-1'] ?? 'Special').toLowerCase()]);
  for (const [alias, id] of Object.entries(lang.record.namespaceAliases)) if (id === -1) names.add(alias.toLowerCase());
  return names;
}

/** LinkRenderer's red-link title: `red-link-title` in the content language. */
const redLinkTitle = (title: string, lang: Language): string => (fetchMessage(lang, 'red-link-title') ?? '$1').replaceAll('$1', title);

const ucfirst = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

function internalLink(target: string, text: string, ctx: LinkContext): string {
  const colon = target.indexOf(':');
  const prefix = colon > 0 ? target.slice(0, colon).trim() : '';
  const rest = colon > 0 ? target.slice(colon + 1).trim() : target;
  if (prefix.toLowerCase() === 'mw') {
    const href = `https://www.mediawiki.org/wiki/${wfUrlencode(rest.replaceAll(' ', '_'))}`;
    return `<a href="${escapeAttr(href)}" class="extiw" title="${escapeAttr(`mw:${rest}`)}">${text}</a>`;
  }
  if (specialNames(ctx.contentLang).has(prefix.replaceAll(' ', '_').toLowerCase())) {
    const special = (ctx.contentLang.record.namespaces['-1'] ?? 'Special').replaceAll('_', ' ');
    const title = `${special}:${ucfirst(rest.replaceAll('_', ' '))}`;
    const href = ctx.articlePath.replace('$1', wfUrlencode(title.replaceAll(' ', '_')));
    return `<a href="${escapeAttr(href)}" title="${escapeAttr(title)}">${text}</a>`;
  }
  const title = ucfirst(target.replaceAll('_', ' '));
  const href = `${ctx.script}?title=${wfUrlencode(title.replaceAll(' ', '_'))}&action=edit&redlink=1`;
  return `<a href="${escapeAttr(href)}" class="new" title="${escapeAttr(redLinkTitle(title, ctx.contentLang))}">${text}</a>`;
}

/** `[[Target]]`, `[[Target|text]]`, with the message language's link trail. */
export function internalLinks(text: string, ctx: LinkContext): string {
  const re = new RegExp(`\\[\\[([^[\\]|{}<>]+)(?:\\|((?:(?!\\]\\]).)*))?\\]\\](${linkTrail(ctx.lang).inner})?`, 'gsu');
  return text.replace(re, (_m, target: string, label: string | undefined, trail: string | undefined) =>
    internalLink(target.trim(), (label ?? target) + (trail ?? ''), ctx),
  );
}

const PROTOCOLS = '(?:bitcoin:|ftp://|ftps://|geo:|git://|gopher://|http://|https://|irc://|ircs://|magnet:|mailto:|matrix:|mms://|news:|nntp://|redis://|sftp://|sip:|sips:|sms:|ssh://|svn://|tel:|telnet://|urn:|worldwind://|xmpp:)';
const URL_CHAR = '[^\\][<>"\\x00-\\x20\\x7F\\p{Zs}\\uFFFD]';

/** Sanitizer::cleanUrl, as far as these hrefs need it: character references decoded. */
const href = (url: string): string => escapeAttr(decodeCharRefs(url));

/** `[url text]` (`external text`) and `[url]` (`external autonumber`, numbered [1], [2]…). */
export function externalLinks(text: string): string {
  let n = 0;
  const re = new RegExp(`\\[((?:${PROTOCOLS}|//)${URL_CHAR}+)\\p{Zs}*([^\\]\\x00-\\x08\\x0a-\\x1F\\uFFFD]*?)\\]`, 'giu');
  return text.replace(re, (_m, url: string, label: string) =>
    label === ''
      ? `<a rel="nofollow" class="external autonumber" href="${href(url)}">[${++n}]</a>`
      : `<a rel="nofollow" class="external text" href="${href(url)}">${label}</a>`,
  );
}

/**
 * Free URLs in text (not inside tags or existing links), trailing punctuation and `&lt;`/`&gt;`
 * left out. PHP's `/u` makes PCRE's `\b` Unicode-aware: a URL right after a letter of any script
 * (`についてはhttp://…`) is no link.
 */
export function freeLinks(text: string): string {
  const re = new RegExp(`(<a [^>]*>.*?</a>|<[^>]*>)|(?<![\\p{L}\\p{N}_])(${PROTOCOLS}${URL_CHAR}+)`, 'giu');
  return text.replace(re, (m, skip: string | undefined, found: string | undefined) => {
    if (skip !== undefined || found === undefined) return m;
    let url = found;
    let trail = '';
    const entity = /&(?:lt|gt);/.exec(url);
    if (entity) {
      trail = url.slice(entity.index);
      url = url.slice(0, entity.index);
    }
    const seps = url.includes('(') ? ',;.:!?' : ',;.:!?)';
    let cut = url.length;
    while (cut > 0 && seps.includes(url[cut - 1]!)) cut--;
    if (cut < url.length && url[cut] === ';' && /&(?:[A-Za-z0-9]+|#[0-9]+|#x[0-9A-F]+)$/i.test(url.slice(0, cut))) cut++;
    trail = url.slice(cut) + trail;
    url = url.slice(0, cut);
    return `<a rel="nofollow" class="external free" href="${href(url)}">${url}</a>${trail}`;
  });
}
