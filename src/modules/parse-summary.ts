import { message } from '../i18n/message.js';
import { atLeast, type Lang, type WikiProfile } from '../wiki/profile.js';
import { makeTitle, parseTitle, type Title } from '../wiki/title.js';
import { escapeIdForLink, localUrl } from '../wiki/url.js';
import { htmlspecialchars } from '../util/escape.js';

export interface SummaryContext {
  profile: WikiProfile;
  userLang: Lang;
  /** The page the summary belongs to (`API` for a bare parse). */
  selfTitle: Title;
  /** `section=new`: section links point at `#anchor` on the same page. */
  samePage?: boolean;
  pageExists: (t: Title) => boolean;
}

/** The content language's link trail (MessagesRu.php / MessagesEn.php $linkTrail). */
const LINK_TRAIL: Record<Lang, RegExp> = {
  ru: /^([a-zабвгдеёжзийклмнопрстуфхцчшщъыьэюя]+)(.*)$/su,
  en: /^([a-z]+)(.*)$/s,
};

const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', mdash: '—', ndash: '–', hellip: '…', laquo: '«', raquo: '»', copy: '©' };

function decodeCharReferences(s: string): string {
  return s.replace(ENTITY, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return NAMED[e] ?? NAMED[e.toLowerCase()] ?? m;
  });
}

const escapeHtml = htmlspecialchars;

/** Sanitizer::escapeHtmlAllowEntities: entities decoded, everything escaped again, U+0338 as a reference. */
function escapeHtmlAllowEntities(s: string): string {
  return escapeHtml(decodeCharReferences(s)).replace(/\u0338/g, '&#x338;');
}

function link(ctx: SummaryContext, target: Title, html: string): string {
  const title = escapeHtml(target.prefixedText);
  if (target.ns === -1 || ctx.pageExists(target) || target.interwiki) {
    return `<a href="${escapeHtml(localUrl(ctx.profile.scriptPath, target))}" title="${title}">${html}</a>`;
  }
  const red = message(ctx.profile.language, 'red-link-title', [target.prefixedText]);
  const href = localUrl(ctx.profile.scriptPath, { ...target, fragment: '' }, 'action=edit&redlink=1');
  return `<a href="${escapeHtml(href)}" class="new" title="${escapeHtml(red)}">${html}</a>`;
}

/** CommentParser::doSectionLinks: `/* section *\/` becomes a link to the section of the page. */
function sectionLinks(ctx: SummaryContext, comment: string, close: string[]): string {
  const modern = atLeast(ctx.profile, '1.43');
  return comment.replace(/\/\*\s*(.*?)\s*\*\//g, (whole, auto: string, offset: number) => {
    const pre = offset > 0;
    const post = offset + whole.length < comment.length;
    const section = decodeCharReferences(auto.replace(/\[\[:?|\]\]/g, '').replace(/[ _]+/g, ' ').trim());
    const anchor = escapeIdForLink(section);
    let out = auto;
    if (anchor !== '') {
      const text = modern ? `→<bdi dir="ltr">${auto}</bdi>` : `→\u200e${auto}`;
      const href = ctx.samePage ? `#${anchor}` : `${localUrl(ctx.profile.scriptPath, { ...ctx.selfTitle, fragment: '' })}#${anchor}`;
      const titleAttr = ctx.samePage ? '' : ` title="${escapeHtml(ctx.selfTitle.prefixedText)}"`;
      out = `<a href="${escapeHtml(href)}"${titleAttr}>${text}</a>`;
    }
    if (pre) out = message(ctx.profile.language, 'autocomment-prefix') + out;
    // colon-separator (ru falls back to en `:&#32;`, which the message cache turns into a space).
    if (post) out += message(ctx.profile.language, 'colon-separator');
    out = `<span class="autocomment">${out}</span>`;
    if (modern) return out;
    // 1.39: the wrapper span closes at the very end of the comment; [ and ] are escaped (T406664).
    close.push('</span>');
    return `<span dir="auto">${out}`.replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');
  });
}

/** CommentParser::doWikiLinks: [[target|text]]trail. */
function wikiLinks(ctx: SummaryContext, comment: string): string {
  const trailRe = LINK_TRAIL[ctx.profile.language];
  const titles = { lang: ctx.profile.language, metaNamespace: ctx.profile.siteName.replace(/ /g, '_'), version: ctx.profile.version };
  return comment.replace(/\[\[\s*:?([^[\]|]+)(?:\|((?:\]?[^\]])*))?\]\]([^[]*)/g, (whole, rawTarget: string, text: string | undefined, trail: string) => {
    let target = rawTarget;
    if (target.includes('%')) {
      try {
        target = decodeURIComponent(target).replace(/</g, '&lt;').replace(/>/g, '&gt;');
      } catch {
        /* rawurldecode keeps what it cannot decode */
      }
    }
    const linkText = text ?? rawTarget;
    const parsed = parseTitle(decodeCharReferences(target), titles);
    if (!parsed.ok) return whole;
    let t = parsed.title;
    if (t.text === '' && !t.interwiki) t = { ...ctx.selfTitle, fragment: t.fragment };
    if (t.ns === -2) t = makeTitle(6, t.dbkey, titles);
    let inside = '';
    let rest = trail;
    const m = trailRe.exec(trail);
    if (m) {
      inside = m[1]!;
      rest = m[2]!;
    }
    return link(ctx, t, linkText + inside) + rest;
  });
}

/** CommentFormatter::format as ApiParse uses it for `summary`. */
export function formatSummary(summary: string, ctx: SummaryContext): string {
  const oneLine = summary.replace(/[\n\x1b]/g, ' ');
  const close: string[] = [];
  let html = escapeHtmlAllowEntities(oneLine);
  html = sectionLinks(ctx, html, close);
  html = wikiLinks(ctx, html);
  return html + close.join('');
}
