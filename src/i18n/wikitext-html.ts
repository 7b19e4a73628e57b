import type { Language } from './language.js';
import { blockLevels } from './wikitext-block.js';
import { normalizeCharRefs, quotes, sanitizeTags, VOID_TAGS } from './wikitext-inline.js';
import { externalLinks, freeLinks, internalLinks, type LinkContext } from './wikitext-links.js';

/**
 * A small wikitext → HTML converter for interface messages, following the order of MediaWiki
 * 1.39's Parser::parse + Message::parse: comments and `<nowiki>` out, Sanitizer, internal links,
 * quotes, external and free links, block levels, then "tidy" (tags balanced, French spaces and
 * no-break spaces armoured) and the outer `<p>` stripped. Templates, tables, headings and magic
 * words are not handled.
 */

export interface HtmlOptions {
  /** The wiki's content language (namespace names, red-link titles). Default: the message language. */
  contentLang?: Language;
  /** `$wgArticlePath`. Default `/wiki/index.php/$1`. */
  articlePath?: string;
  /** `$wgScript`. Default `/wiki/index.php`. */
  script?: string;
}

const BLOCK = /^(?:p|pre|div|ul|ol|li|dl|dd|dt|table|tr|td|th|caption|blockquote|center|h[1-6])$/;

/** Text-node fixes of the tidy pass: Sanitizer::armorFrenchSpaces, then NBSP as `&#160;`. */
const armorText = (t: string): string =>
  t
    .replace(/ (?=[?:;!%»›](?![\p{L}\p{N}_]))/gu, '&#160;')
    .replace(/([«‹]) /gu, '$1&#160;')
    .replaceAll('\u00a0', '&#160;');

/** RemexHtml "tidy", as far as these fragments need it: inline tags balanced, stray end tags dropped. */
function tidy(html: string): string {
  const stack: string[] = [];
  let out = '';
  for (const part of html.split(/(<[^>]*>)/)) {
    const m = /^<(\/?)([a-z][a-z0-9]*)[^>]*>$/.exec(part);
    if (!m) {
      out += armorText(part);
      continue;
    }
    const [, end, name = ''] = m;
    if (VOID_TAGS.has(name)) out += part;
    else if (!end) {
      if (BLOCK.test(name)) while (stack.length && !BLOCK.test(stack.at(-1)!)) out += `</${stack.pop()}>`;
      stack.push(name);
      out += part;
    } else if (stack.includes(name)) {
      while (stack.length) {
        const top = stack.pop()!;
        out += `</${top}>`;
        if (top === name) break;
      }
    }
  }
  while (stack.length) out += `</${stack.pop()}>`;
  return out;
}

/** Parser::stripOuterParagraph. */
function stripOuterParagraph(html: string): string {
  const m = /^<p>([\s\S]*?)\n?<\/p>\n?$/.exec(html);
  return m && !m[1]!.includes('</p>') ? m[1]! : html;
}

/** Message::parse (`block`: parseAsBlock, the outer paragraph kept). */
export function wikitextToHtml(text: string, options: HtmlOptions & { lang: Language; block?: boolean }): string {
  const ctx: LinkContext = {
    contentLang: options.contentLang ?? options.lang,
    lang: options.lang,
    articlePath: options.articlePath ?? '/wiki/index.php/$1',
    script: options.script ?? '/wiki/index.php',
  };
  const nowiki: string[] = [];
  let t = text
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<nowiki>([\s\S]*?)<\/nowiki>/gi, (_m, inner: string) => {
      nowiki.push(inner.replace(/["<>]/g, (c) => ({ '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!));
      return `\x7fNOWIKI${nowiki.length - 1}\x7f`;
    });
  t = normalizeCharRefs(sanitizeTags(t));
  t = internalLinks(t, ctx);
  t = t.split('\n').map(quotes).join('\n');
  t = freeLinks(externalLinks(t));
  t = blockLevels(t);
  t = t.replace(/\x7fNOWIKI(\d+)\x7f/g, (_m, i: string) => nowiki[Number(i)]!);
  return options.block ? tidy(t) : stripOuterParagraph(tidy(t));
}
