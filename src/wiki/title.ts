import { namedEntities } from '../util/html-entities.js';
import { sanitizeIP } from '../util/ip.js';
import { languageUcfirst } from '../util/ucfirst.js';
import { defaultInterwikiMap } from './interwiki.js';
import { CANONICAL_NAMES, isCapitalized, namespaceDbName, namespaceExists, namespaceIndex, type NamespaceContext } from './namespaces.js';
import { atLeast, type Lang } from './profile.js';
import { builtinSpecialPages, resolveSpecialAlias, specialLocalName, type SpecialPageTable } from './special-pages.js';

/** A parsed page title (TitleValue / Title as MediaWikiTitleCodec makes them). */
export interface Title {
  ns: number;
  /** Main part with underscores. */
  dbkey: string;
  /** Main part with spaces. */
  text: string;
  /** `[interwiki:]Namespace:Text`, spaces. */
  prefixedText: string;
  /** `[interwiki:]Namespace:DB_key`, underscores. */
  prefixedDbKey: string;
  /** Fragment after `#` (spaces), '' if none. */
  fragment: string;
  /** Interwiki prefix (lower-case), '' for local titles. */
  interwiki: string;
}

export interface TitleContext extends NamespaceContext {
  lang: Lang;
  metaNamespace: string;
  version: string;
  /**
   * The tables of `interwiki` and `special` that are a default install's for want of a recording
   * of the wiki's own (siteinfo `interwikimap`, `specialpagealiases`): what they decide is unknown.
   */
  unknownTables?: readonly SiteTable[];
}

/** The siteinfo parts titles are parsed against. */
export type SiteTable = 'interwikimap' | 'specialpagealiases';

/**
 * A parse: the title, and whether the wiki's interwiki table decided it (a `prefix:` that is no
 * namespace was looked up); or the MalformedTitleException's message key and parameters.
 */
export type TitleResult = { ok: true; title: Title; checkedInterwiki: boolean } | { ok: false; reason: string /* message key */; params: string[] };

const fail = (reason: string, params: string[] = []): TitleResult => ({ ok: false, reason, params });

// ---------------------------------------------------------------------------------------------
// Sanitizer helpers (includes/parser/Sanitizer.php)

/** Sanitizer::CHAR_REFS_REGEX (byte classes `\x80-\xff` are any non-ASCII UTF-16 unit here). */
const CHAR_REFS = /&([A-Za-z0-9\u0080-\uffff]+;)|&#([0-9]+);|&#[xX]([0-9A-Fa-f]+);|(&)/g;

/** Sanitizer::validateCodepoint. */
function validCodepoint(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

const MW_ENTITY_ALIASES: Readonly<Record<string, string>> = { 'רלמ;': 'rlm;', 'رلم;': 'rlm;' };

function decodeRef(m: string, named: string | undefined, dec: string | undefined, hex: string | undefined): string {
  if (named) {
    const name = MW_ENTITY_ALIASES[named] ?? named;
    return namedEntities().get(name) ?? `&${name}`;
  }
  if (dec) return decodeCodepoint(Number(dec));
  if (hex) return decodeCodepoint(parseInt(hex, 16));
  return m;
}

function decodeCodepoint(cp: number): string {
  return Number.isFinite(cp) && validCodepoint(cp) ? String.fromCodePoint(cp) : '\ufffd';
}

/** Sanitizer::decodeCharReferences: named (HTML5) and numeric references to characters; invalid ones to U+FFFD. */
export function decodeCharReferences(text: string): string {
  return text.replace(CHAR_REFS, decodeRef);
}

/** Sanitizer::decodeCharReferencesAndNormalize: as above, then NFC if anything (even a bare `&`) matched. */
export function decodeCharReferencesAndNormalize(text: string): string {
  let count = 0;
  const out = text.replace(CHAR_REFS, (m: string, n?: string, d?: string, h?: string) => {
    count++;
    return decodeRef(m, n, d, h);
  });
  return count > 0 ? out.normalize('NFC') : out;
}

// ---------------------------------------------------------------------------------------------

/** MediaWikiTitleCodec::getTitleInvalidRegex ($wgLegalTitleChars; PCRE byte mode: all non-ASCII is legal). */
export const TITLE_INVALID = /[^ %!"$&'()*,\-./0-9:;=?@A-Z\\^_`a-z~\u0080-\uffff+]|%[0-9A-Fa-f]{2}|&[A-Za-z0-9\u0080-\uffff]+;/;
const BIDI = /[\u200e\u200f\u202a-\u202e]+/g;
const WHITESPACE = /[ _\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
/** `/^(.+?)_*:_*(.*)$/S`: `.` stops at newlines and `$` also matches before a final newline. */
const PREFIX = /^([^\n]+?)_*:_*([^\n]*)\n?$/;

const trimUnderscores = (s: string) => s.replace(/^_+|_+$/g, '');
const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

/** Title::makeTitle: a title from parts, unchecked (the fragment loses one leading `#`, `_` become spaces). */
export function makeTitle(ns: number, dbkey: string, ctx: NamespaceContext, fragment = '', interwiki = ''): Title {
  const key = dbkey.replace(/ /g, '_');
  const text = key.replace(/_/g, ' ');
  const frag = (fragment.startsWith('#') ? fragment.slice(1) : fragment).replace(/_/g, ' ');
  // Title::getNsText: interwiki titles use the canonical name of the foreign namespace.
  const nsDb = ns === 0 ? '' : interwiki ? (CANONICAL_NAMES[ns] ?? '') : namespaceDbName(ns, ctx);
  const iw = interwiki ? `${interwiki}:` : '';
  return {
    ns,
    dbkey: key,
    text,
    prefixedText: iw + (nsDb ? `${nsDb.replace(/_/g, ' ')}:` : '') + text,
    prefixedDbKey: iw + (nsDb ? `${nsDb}:` : '') + key,
    fragment: frag,
    interwiki,
  };
}

/** The same page with another fragment (LinkTarget::createFragmentTarget). */
export function withFragment(t: Title, fragment: string, ctx: NamespaceContext): Title {
  return makeTitle(t.ns, t.dbkey, ctx, fragment, t.interwiki);
}

interface SplitParts {
  ns: number;
  dbkey: string;
  fragment: string;
  interwiki: string;
  /** A prefix that is no namespace was looked up in the interwiki table. */
  checkedInterwiki: boolean;
}

/** InterwikiLookup::isValidInterwiki (case-insensitive) in the context's table. */
function isInterwiki(prefix: string, ctx: NamespaceContext): boolean {
  return (ctx.interwiki ?? defaultInterwikiMap(ctx.version)).has(prefix.toLowerCase());
}

/** The context's special pages (a default install's unless it names the wiki's own). */
export function specialPagesOf(ctx: NamespaceContext): SpecialPageTable {
  return ctx.special ?? builtinSpecialPages(ctx.lang, ctx.version);
}

/** MediaWikiTitleCodec::splitTitleString. */
export function splitTitleString(text: string, ctx: NamespaceContext, defaultNs = 0): { ok: true; parts: SplitParts } | { ok: false; reason: string; params: string[] } {
  const parts: SplitParts = { ns: defaultNs, dbkey: '', fragment: '', interwiki: '', checkedInterwiki: false };
  let dbkey = text.replace(/ /g, '_').replace(BIDI, '');
  dbkey = trimUnderscores(dbkey.replace(WHITESPACE, '_'));
  if (dbkey.includes('\ufffd') || /[\ud800-\udfff]/.test(dbkey.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) {
    return fail('title-invalid-utf8') as { ok: false; reason: string; params: string[] };
  }
  if (dbkey.startsWith(':')) {
    parts.ns = 0;
    dbkey = trimUnderscores(dbkey.slice(1));
  }
  if (dbkey === '') return { ok: false, reason: 'title-invalid-empty', params: [] };

  const m = PREFIX.exec(dbkey);
  if (m) {
    const p = m[1]!;
    const ns = namespaceIndex(p, ctx);
    if (ns !== null) {
      dbkey = m[2]!;
      parts.ns = ns;
      const x = ns === 1 ? PREFIX.exec(dbkey) : null;
      if (x && !namespaceIndex(x[1]!, ctx)) parts.checkedInterwiki = true;
      if (x && (namespaceIndex(x[1]!, ctx) || isInterwiki(x[1]!, ctx))) {
        return { ok: false, reason: 'title-invalid-talk-namespace', params: [] };
      }
    } else if (((parts.checkedInterwiki = true), isInterwiki(p, ctx))) {
      dbkey = m[2]!;
      parts.interwiki = p.toLowerCase();
      if (dbkey.startsWith(':')) {
        parts.ns = 0;
        dbkey = trimUnderscores(dbkey.slice(1));
      }
    }
  }

  const hash = dbkey.indexOf('#');
  if (hash >= 0) {
    parts.fragment = dbkey.slice(hash + 1).replace(/_/g, ' ');
    dbkey = dbkey.slice(0, hash).replace(/_+$/, '');
  }

  const bad = TITLE_INVALID.exec(dbkey);
  if (bad) return { ok: false, reason: 'title-invalid-characters', params: [bad[0]] };

  if (
    dbkey.includes('.') &&
    (dbkey === '.' ||
      dbkey === '..' ||
      dbkey.startsWith('./') ||
      dbkey.startsWith('../') ||
      dbkey.includes('/./') ||
      dbkey.includes('/../') ||
      dbkey.endsWith('/.') ||
      dbkey.endsWith('/..'))
  ) {
    return { ok: false, reason: 'title-invalid-relative', params: [] };
  }
  if (dbkey.includes('~~~')) return { ok: false, reason: 'title-invalid-magic-tilde', params: [] };

  const max = parts.ns !== -1 ? 255 : 512;
  if (utf8Length(dbkey) > max) return { ok: false, reason: 'title-invalid-too-long', params: [String(max)] };

  if (parts.interwiki === '' && isCapitalized(parts.ns)) dbkey = languageUcfirst(dbkey, atLeast({ version: ctx.version ?? '1.39' }, '1.43'));

  if (dbkey === '' && parts.interwiki === '' && parts.ns !== 0) return { ok: false, reason: 'title-invalid-empty', params: [] };

  if (parts.ns === 2 || parts.ns === 3) dbkey = sanitizeIP(dbkey) ?? '';

  if (dbkey.startsWith(':')) return { ok: false, reason: 'title-invalid-leading-colon', params: [] };

  // TitleValue::assertValidSpec
  if (/^[_ ]|[\r\n\t]|[_ ]$/.test(dbkey) || (dbkey === '' && parts.ns !== 0)) {
    return { ok: false, reason: 'title-invalid', params: [`invalid name '${dbkey}'`] };
  }
  parts.dbkey = dbkey;
  return { ok: true, parts };
}

/**
 * TitleParser::parseTitle / Title::newFromText: character references decoded (and the text NFC
 * normalised if any `&` was seen), then split as MediaWikiTitleCodec does. `reason` is the message
 * key of MalformedTitleException (`title-invalid-*`) with its parameters.
 */
export function parseTitle(input: string, ctx: TitleContext | NamespaceContext, defaultNs = 0): TitleResult {
  const r = splitTitleString(decodeCharReferencesAndNormalize(input), ctx, defaultNs);
  if (!r.ok) return fail(r.reason, r.params);
  const { ns, dbkey, fragment, interwiki, checkedInterwiki } = r.parts;
  return { ok: true, title: makeTitle(ns, dbkey, ctx, fragment, interwiki), checkedInterwiki };
}

/** MediaWikiTitleCodec::makeTitleValueSafe: `Namespace:text` re-parsed, or null if invalid. */
export function makeTitleSafe(ns: number, text: string, ctx: NamespaceContext, fragment = '', interwiki = ''): Title | null {
  if (!namespaceExists(ns)) return null;
  const canonical = CANONICAL_NAMES[ns] ?? '';
  let full = canonical === '' ? text : `${canonical}:${text}`;
  if (interwiki !== '') full = `${interwiki}:${full}`;
  if (fragment !== '') full += `#${fragment}`;
  const r = splitTitleString(full, ctx);
  if (!r.ok) return null;
  return makeTitle(r.parts.ns, r.parts.dbkey, ctx, r.parts.fragment, r.parts.interwiki);
}

/**
 * Title::fixSpecialName: a special page title under its local name (`Special:Version` →
 * `Служебная:Версия`, `Special:Contributions/X` → `Служебная:Вклад/X`), as ApiPageSet and links
 * show it; other titles (and unknown special pages) unchanged.
 */
export function fixSpecialName(t: Title, ctx: NamespaceContext): Title {
  if (t.ns !== -1 || t.interwiki) return t;
  const table = specialPagesOf(ctx);
  const r = resolveSpecialAlias(t.dbkey, table);
  if (!r) return t;
  const local = specialLocalName(r.name, r.subpage, table);
  return local !== t.dbkey ? makeTitle(-1, local, ctx) : t;
}

export { namespaceName } from './namespaces.js';
