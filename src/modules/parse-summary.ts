import { createHash } from 'node:crypto';
import type { ApiContext } from '../api/context.js';
import { isRedirect, pageExists } from '../api/pageset.js';
import { atLeast, type WikiProfile } from '../wiki/profile.js';
import { contentLanguage, type Language } from '../i18n/language.js';
import { linkTrail } from '../i18n/link-trail.js';
import { message } from '../i18n/message.js';
import { hasSubpages, namespaceDbName, type NamespaceContext } from '../wiki/namespaces.js';
import { resolveSpecialAlias, specialAliasesKnown, specialLocalName, specialPageExists } from '../wiki/special-pages.js';
import { decodeCharReferences, makeTitle, makeTitleSafe, parseTitle, splitTitleString, withFragment, type Title } from '../wiki/title.js';
import { escapeIdForLink, linkUrl, localUrl } from '../wiki/url.js';
import { rawurldecode, rawurlencode, wfUrlencode } from '../util/php-url.js';
import { htmlspecialchars } from '../util/escape.js';

/**
 * CommentFormatter::format as ApiParse uses it for `summary` (includes/CommentFormatter/CommentParser.php):
 * the summary is HTML-escaped (entities allowed), `/* section *\/` autocomments become section
 * links, `[[links]]` become links; nothing else of wikitext is rendered.
 */
export interface SummaryContext {
  profile: WikiProfile;
  /** The user language: only the arrow and direction of section links come from it. */
  userLang: Language;
  /** The page the summary belongs to (`API` for a bare parse). */
  selfTitle: Title;
  /** `section=new`: section links and fragment-only links point at `#anchor` on the same page. */
  samePage?: boolean;
  /** Whether a local page exists (namespaces ≥ 0; special pages are judged here). */
  pageExists: (t: Title) => boolean;
  /** Whether an existing page is a redirect (class `mw-redirect`). */
  isRedirect?: (t: Title) => boolean;
  /** Stop (throw SummaryTooLong) once the HTML is longer than this many UTF-16 units. Default none. */
  maxLength?: number;
  /** Told what the links needed that wikitape does not know (a content language's special page names). */
  unknown?: (what: string) => void;
  /** URL of an uploaded file (`Media:` links, and File:/Media: pages count as known), null if none. */
  fileUrl?: (t: Title) => string | null;
  /** Whether a MediaWiki: page has a default message text (Title::isAlwaysKnown). */
  isKnownMessage?: (t: Title) => boolean;
}

// ---------------------------------------------------------------------------------------------
// Escaping

/** Html::expandAttributes value encoding: htmlspecialchars(ENT_QUOTES) and tab/LF/CR as references. */
function attr(s: string): string {
  return htmlspecialchars(s).replace(/[\n\r\t]/g, (c) => ({ '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c]!);
}

/** Sanitizer::escapeHtmlAllowEntities: references decoded, everything escaped, U+0338 as `&#x338;` (T387130). */
export function escapeHtmlAllowEntities(html: string): string {
  return htmlspecialchars(decodeCharReferences(html)).replace(/\u0338/g, '&#x338;');
}

/** `<a …>` with Html::rawElement attribute handling (empty class dropped, order as given). */
function anchor(attribs: [string, string | null][], html: string): string {
  let out = '<a';
  for (const [k, v] of attribs) {
    if (v === null || (k === 'class' && v === '')) continue;
    out += ` ${k}="${attr(v)}"`;
  }
  return `${out}>${html}</a>`;
}

/** PHP preg_replace replacement: `$n`, `${n}`, `\n` (n ≤ 99) are groups; `\\` and `\$` escape. */
function phpReplacement(replacement: string, groups: readonly string[]): string {
  let out = '';
  let last = '';
  for (let i = 0; i < replacement.length; ) {
    const c = replacement[i]!;
    if (c === '\\' || c === '$') {
      if (last === '\\') {
        out = out.slice(0, -1) + c;
        i++;
        last = '';
        continue;
      }
      const m = /^(?:\$\{(\d\d?)\}|[$\\](\d\d?))/.exec(replacement.slice(i));
      if (m) {
        const n = Number(m[1] ?? m[2]);
        out += groups[n] ?? '';
        i += m[0].length;
        last = replacement[i - 1]!;
        continue;
      }
    }
    out += c;
    last = c;
    i++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Links (LinkRenderer, Title, Linker)

const nsctx = (ctx: SummaryContext): NamespaceContext => ({ lang: ctx.profile.language, metaNamespace: ctx.profile.siteName.replace(/ /g, '_'), version: ctx.profile.version });

/** LinkRenderer::normalizeTarget: special page aliases become the local name. */
function normalizeTarget(ctx: SummaryContext, t: Title): Title {
  if (t.ns !== -1 || t.interwiki) return t;
  // Another content language's own special page names are not known here.
  if (!specialAliasesKnown(ctx.profile.language)) ctx.unknown?.(`i18n.${ctx.profile.language}.specialpages`);
  const r = resolveSpecialAlias(t.dbkey, ctx.profile.language);
  if (!r) return t;
  return makeTitle(-1, specialLocalName(r.name, r.subpage, ctx.profile.language), nsctx(ctx), t.fragment);
}

/** Title::canExist (local, namespace ≥ 0). */
const canExist = (t: Title) => !t.interwiki && t.ns >= 0;

function exists(ctx: SummaryContext, t: Title): boolean {
  return canExist(t) && t.dbkey !== '' && ctx.pageExists(t);
}

/** Title::isAlwaysKnown. */
function isAlwaysKnown(ctx: SummaryContext, t: Title): boolean {
  if (t.interwiki) return true;
  switch (t.ns) {
    case -2:
    case 6:
      return (ctx.fileUrl?.(t) ?? null) !== null;
    case -1:
      return specialPageExists(t.dbkey, ctx.profile.language);
    case 0:
      return t.dbkey === '';
    case 8:
      return exists(ctx, t) || (ctx.isKnownMessage?.(t) ?? false);
    default:
      return false;
  }
}

/** LinkRenderer::makeKnownLink (via makePreloadedLink). */
function knownLink(ctx: SummaryContext, target: Title, html: string): string {
  const classes: string[] = [];
  if (target.interwiki) classes.push('extiw');
  // getLinkClasses: only proper local pages can be redirects.
  if (!target.interwiki && target.text !== '' && target.ns >= 0 && exists(ctx, target) && ctx.isRedirect?.(target)) classes.push('mw-redirect');
  return preloadedLink(ctx, target, html, classes.join(' '));
}

/** LinkRenderer::makePreloadedLink. */
function preloadedLink(ctx: SummaryContext, target: Title, html: string, classes: string): string {
  const t = normalizeTarget(ctx, target);
  const title = t.prefixedText !== '' ? t.prefixedText : null;
  return anchor([['href', linkUrl(ctx.profile, t)], ['class', classes], ['title', title]], html);
}

/** LinkRenderer::makeBrokenLink: no fragment, `action=edit&redlink=1` (not for special pages), class `new`. */
function brokenLink(ctx: SummaryContext, target: Title, html: string): string {
  const t = normalizeTarget(ctx, target.fragment ? withFragment(target, '', nsctx(ctx)) : target);
  const url = linkUrl(ctx.profile, t, t.ns !== -1 ? 'action=edit&redlink=1' : '');
  const title = t.prefixedText !== '' ? message(contentLanguage(ctx.profile), 'red-link-title', [t.prefixedText]) : null;
  return anchor([['href', url], ['class', 'new'], ['title', title]], html);
}

/** Linker::makeMediaLinkFile: the file itself, or Special:Upload with `wpDestFile` for a missing one. */
function mediaLink(ctx: SummaryContext, target: Title, html: string): string {
  const fileUrl = ctx.fileUrl?.(target) ?? null;
  let url: string;
  let cls: string;
  if (fileUrl !== null) {
    url = fileUrl;
    cls = 'internal';
  } else {
    const lang = ctx.profile.language;
    const upload = makeTitle(-1, specialLocalName('Upload', null, lang), nsctx(ctx));
    url = localUrl(ctx.profile, upload, `wpDestFile=${wfUrlencode(target.dbkey)}`);
    cls = 'new';
  }
  return anchor([['href', url], ['class', cls], ['title', target.text]], html === '' ? target.text : html);
}

/**
 * URL of an uploaded file on a default install (`$wgUploadPath` = `$wgScriptPath/images`, hashed
 * directories): `/wiki/images/8/80/%D0%9E…png`.
 */
export function defaultFileUrl(scriptPath: string, dbkey: string): string {
  const md5 = createHash('md5').update(dbkey, 'utf8').digest('hex');
  return `${scriptPath}/images/${md5[0]}/${md5.slice(0, 2)}/${rawurlencode(dbkey)}`;
}

// ---------------------------------------------------------------------------------------------
// Autocomments (CommentParser::doSectionLinks)

/** PCRE `\s` without UCP. */
const WS = '[\\t\\n\\v\\f\\r ]';
const AUTOCOMMENT = new RegExp(`/\\*${WS}*([^\\n]*?)${WS}*\\*/`, 'g');
const phpTrim = (s: string) => s.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');

/** Parser::guessSectionNameFromStrippedText without the leading `#`. */
export function sectionAnchor(section: string, ctx: NamespaceContext): string {
  let s = phpTrim(section.replace(/[ _]+/g, ' '));
  s = decodeCharReferences(s);
  // Parser::normalizeSectionName: the fragment of `#$text` as the title parser sees it.
  const split = splitTitleString(`#${s}`, ctx);
  if (split.ok) s = split.parts.fragment;
  return escapeIdForLink(s);
}

function doSectionLinks(ctx: SummaryContext, comment: string): string {
  // PCRE first looks for what a match needs (`*/`): without it nothing is tried at any position,
  // where a JS regex would scan on from every `/*` (quadratic on `/* /* /* …`).
  if (!comment.includes('*/')) return comment;
  const modern = atLeast(ctx.profile, '1.43');
  const ns = nsctx(ctx);
  const content = contentLanguage(ctx.profile);
  let append = '';
  const out = comment.replace(AUTOCOMMENT, (whole: string, auto: string, offset: number) => {
    const pre = offset > 0;
    const post = offset + whole.length < comment.length;
    const section = sectionAnchor(auto.replaceAll('[[:', '').replaceAll('[[', '').replaceAll(']]', ''), ns);
    let html = auto;
    if (section !== '') {
      const target = ctx.samePage ? makeTitle(0, '', ns, section) : withFragment(ctx.selfTitle, section, ns);
      // Language::getArrow / getDirMark (1.39) / getDir (1.43) of the user language.
      const { userLang } = ctx;
      const inner = modern ? `${userLang.arrow}<bdi dir="${userLang.dir}">${auto}</bdi>` : `${userLang.arrow}${userLang.dirMark}${auto}`;
      html = preloadedLink(ctx, target, inner, '');
    }
    const prefix = pre ? htmlspecialchars(message(content, 'autocomment-prefix')) : '';
    if (post) html += htmlspecialchars(message(content, 'colon-separator'));
    if (html !== '' && html !== '0') {
      if (modern) {
        html = `<span class="autocomment">${html}</span>`;
      } else {
        html = `<span dir="auto"><span class="autocomment">${html}</span>`;
        append += '</span>';
      }
    }
    // T406664: brackets in the generated HTML must not start links.
    return (prefix + html).replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');
  });
  return out + append;
}

// ---------------------------------------------------------------------------------------------
// Wiki links (CommentParser::doWikiLinks)

const WIKILINK = new RegExp(`\\[\\[(?=(${WS}*))\\1:?([^[\\]|]+)(?:\\|((?:\\]?[^\\]])*))?\\]\\]([^[]*)`, 'g');

/** A literal as a regex source matching it as PCRE `/i` without `/u` does: only ASCII letters fold. */
export function asciiCaseless(literal: string): string {
  return Array.from(literal, (c) =>
    /[A-Za-z]/.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : /[.*+?^${}()|[\]\\/-]/.test(c) ? `\\${c}` : c,
  ).join('');
}

function mediaRegex(ctx: SummaryContext): RegExp {
  const names = ['Media', namespaceDbName(-2, nsctx(ctx))].map(asciiCaseless);
  return new RegExp(`^(?:${names.join('|')}):([^\\n]*)$`);
}

/** Linker::normalizeSubpageLink (the link text is never empty here, so it is not touched). */
function normalizeSubpageLink(ctx: SummaryContext, target: string): string {
  const self = ctx.selfTitle;
  if (!hasSubpages(self.ns) || self.interwiki) return target;
  const hash = target.indexOf('#');
  const suffix = hash >= 0 ? target.slice(hash) : '';
  let t = phpTrim(hash >= 0 ? target.slice(0, hash) : target);
  const context = self.prefixedText;
  if (t !== '' && t[0] === '/') {
    const slashes = /\/+$/.exec(t);
    const noslash = slashes ? t.slice(1, Math.max(1, t.length - slashes[0].length)) : t.slice(1);
    return `${context}/${phpTrim(noslash)}${suffix}`;
  }
  let count = 0;
  let nodotdot = t;
  while (nodotdot.startsWith('../')) {
    count++;
    nodotdot = nodotdot.slice(3);
  }
  if (count === 0) return target;
  const exploded = context.split('/');
  if (exploded.length <= count) return target;
  let ret = exploded.slice(0, -count).join('/');
  if (nodotdot.endsWith('/')) nodotdot = nodotdot.replace(/\/+$/, '');
  nodotdot = phpTrim(nodotdot);
  if (nodotdot !== '') ret += `/${nodotdot}`;
  t = ret + suffix;
  return t;
}

function doWikiLinks(ctx: SummaryContext, comment: string): string {
  // As PCRE does: a match needs `]]`; without one nothing is tried (not from every `[[`).
  if (!comment.includes(']]')) return comment;
  const ns = nsctx(ctx);
  const media = mediaRegex(ctx);
  // CommentParser::doWikiLinks: the content language's $linkTrail
  const trailRe = linkTrail(contentLanguage(ctx.profile)).re;
  // 1.39 hands link HTML it has at once (always-known targets, the page itself) to preg_replace as
  // the replacement string, so `$1`, `\0`… in it are group references; 1.43+ escapes them.
  const interpret = !atLeast(ctx.profile, '1.43');
  const self = ctx.selfTitle;
  const selfKey = canExist(self) ? `${self.ns}:${self.dbkey}` : null;

  // The output grows by each link's HTML; past the budget (in UTF-8 bytes, as ApiResult counts)
  // the answer could not be given anyway.
  const budget = ctx.maxLength ?? Infinity;
  let grown = Buffer.byteLength(comment);
  // A summary repeating one link renders it once (the same target, text and trail give the same HTML).
  const memo = new Map<string, string>();
  return comment.replace(WIKILINK, (whole: string, _ws: string, rawTarget: string, textGroup: string | undefined, trailGroup: string) => {
    const memoKey = `${whole}\u0000${rawTarget}\u0000${textGroup ?? '\u0001'}\u0000${trailGroup}`;
    let done = memo.get(memoKey);
    if (done === undefined) {
      done = link(whole, rawTarget, textGroup, trailGroup);
      if (memo.size < 10_000) memo.set(memoKey, done);
    }
    grown += Buffer.byteLength(done) - Buffer.byteLength(whole);
    if (grown > budget) throw new SummaryTooLong();
    return done;
  });

  function link(whole: string, rawTarget: string, textGroup: string | undefined, trailGroup: string): string {
    let target = rawTarget;
    if (target.includes('%')) target = rawurldecode(target).replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const linkText = textGroup !== undefined && textGroup !== '' ? textGroup : target;

    const mm = media.exec(target);
    if (mm) {
      const file = makeTitleSafe(6, mm[1]!, ns);
      if (!file) return whole;
      // Deferred (a marker): the HTML is never taken as a replacement pattern.
      return whole.replace(/\[\[[\s\S]*?\]\]/, () => mediaLink(ctx, file, linkText));
    }

    if (target.startsWith(':')) target = target.slice(1);
    if (target === '') return whole;
    const tm = trailRe.exec(trailGroup);
    const inside = tm ? tm[1]! : '';
    const parsed = parseTitle(normalizeSubpageLink(ctx, target), ns);
    if (!parsed.ok) return whole;
    let t = parsed.title;
    if (t.text === '' && !t.interwiki && !ctx.samePage) t = withFragment(self, t.fragment, ns);

    const html = linkText + inside;
    let out: string;
    let immediate = false;
    if (isAlwaysKnown(ctx, t)) {
      out = knownLink(ctx, t, html);
      immediate = true;
    } else if (selfKey !== null && canExist(t) && `${t.ns}:${t.dbkey}` === selfKey) {
      // The page itself is in the LinkCache already (ApiParse looked up its id).
      out = exists(ctx, t) ? knownLink(ctx, t, html) : brokenLink(ctx, t, html);
      immediate = true;
    } else {
      out = exists(ctx, t) ? knownLink(ctx, t, html) : brokenLink(ctx, t, html);
    }
    const closing = whole.indexOf(']]');
    const linkPart = whole.slice(0, closing + 2 + inside.length);
    const rest = whole.slice(closing + 2 + inside.length);
    const replacement = interpret && immediate ? phpReplacement(out, [linkPart, whole.slice(2, closing)]) : out;
    return replacement + rest;
  }
}

/** The rendered summary would be longer than SummaryContext.maxLength: rendering stopped there. */
export class SummaryTooLong extends Error {
  constructor() {
    super('the rendered summary is longer than the result may be');
    this.name = 'SummaryTooLong';
  }
}

/**
 * CommentFormatter::format($summary, $selfTitle, $samePage), NFC-normalised as ApiResult
 * normalises every string it outputs (so `A&#x301;` shows as `Á`, while URLs keep `%CC%81`).
 */
export function formatSummary(summary: string, ctx: SummaryContext): string {
  let comment = summary.replace(/[\n\x1b]/g, ' ');
  comment = escapeHtmlAllowEntities(comment);
  comment = doSectionLinks(ctx, comment);
  return doWikiLinks(ctx, comment).normalize('NFC');
}

/**
 * A comment as RowCommentFormatter formats a list's row (log events, protected titles): with the
 * row's title for section links, over the pages the model holds. For entries a fixture gives
 * without their `parsedcomment` (a recorded entry without it is asked for, never formatted here).
 */
export function formatRowComment(ctx: ApiContext, comment: string, ns: number, title: string): string {
  const self = parseTitle(title, ctx.titles, ns);
  const selfTitle = self.ok ? self.title : makeTitle(ns, title.replace(/ /g, '_'), ctx.titles);
  return formatSummary(comment, { profile: ctx.profile, userLang: ctx.userLang, selfTitle, pageExists: (t) => pageExists(ctx, t), isRedirect: (t) => isRedirect(ctx, t), unknown: (what) => ctx.unknown(what) });
}

/**
 * CommentFormatter::format without a title (list=blocks' parsedreason) of a comment with neither an
 * autocomment nor a link: escaped (entities kept), newlines as spaces. Null for one with either,
 * whose rendering without a title is not modelled.
 */
export function formatUntitledComment(comment: string): string | null {
  if (comment.includes('*/') || comment.includes(']]')) return null;
  return escapeHtmlAllowEntities(comment.replace(/[\n\x1b]/g, ' ')).normalize('NFC');
}
