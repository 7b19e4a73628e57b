import { INTERWIKI, namespaceIndex, namespaceName, type NamespaceContext } from './namespaces.js';

/** A parsed page title. */
export interface Title {
  ns: number;
  /** Main part with underscores. */
  dbkey: string;
  /** Main part with spaces. */
  text: string;
  /** `Namespace:Text`, spaces. */
  prefixedText: string;
  prefixedDbKey: string;
  fragment: string;
  /** Interwiki prefix (lower-case), '' for local titles. */
  interwiki: string;
}

export interface TitleContext extends NamespaceContext {
  version: string;
}

export type TitleResult = { ok: true; title: Title } | { ok: false; reason: string; params: string[] };

const fail = (reason: string, params: string[] = []): TitleResult => ({ ok: false, reason, params });

/** Characters a title may not contain ($wgLegalTitleChars' complement), %XX escapes and entities. */
const ILLEGAL = /[^ %!"$&'()*,\-./0-9:;=?@A-Z\\^_`a-z~+\u0080-\uffff]|%[0-9A-Fa-f]{2}|&[A-Za-z0-9\u0080-\uffff]+;/u;
const SPACES = /[ _\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu;

function ucfirst(s: string): string {
  const cp = s.codePointAt(0);
  if (cp === undefined) return s;
  const first = String.fromCodePoint(cp);
  return first.toUpperCase() + s.slice(first.length);
}

export function makeTitle(ns: number, dbkey: string, ctx: NamespaceContext, fragment = '', interwiki = ''): Title {
  const text = dbkey.replace(/_/g, ' ');
  const nsName = namespaceName(ns, ctx);
  const prefixedText = nsName ? `${nsName}:${text}` : text;
  return { ns, dbkey, text, prefixedText, prefixedDbKey: prefixedText.replace(/ /g, '_'), fragment, interwiki };
}

/** MediaWikiTitleCodec::splitTitleString: a title, or the message key of why it is invalid. */
export function parseTitle(input: string, ctx: TitleContext, defaultNs = 0): TitleResult {
  let dbkey = input.replace(/[\u200e\u200f\u202a-\u202e]/g, '').replace(SPACES, '_').replace(/^_+|_+$/g, '');
  if (dbkey.includes('\ufffd')) return fail('title-invalid-utf8');
  if (dbkey === '') return fail('title-invalid-empty');
  let ns = defaultNs;
  let interwiki = '';
  if (dbkey.startsWith(':')) {
    ns = 0;
    dbkey = dbkey.slice(1).replace(/^_+/, '');
  }
  // Namespace and interwiki prefixes (interwiki titles may carry a namespace of their own wiki).
  const m = /^(.+?)_*:_*(.*)$/s.exec(dbkey);
  if (m) {
    const idx = namespaceIndex(m[1]!, ctx);
    if (idx !== null) {
      ns = idx;
      dbkey = m[2]!;
      if ((ns === 1 || ns % 2 === 1) && /^(.+?)_*:/.test(dbkey) && INTERWIKI.has(dbkey.split(':')[0]!.toLowerCase())) {
        return fail('title-invalid-talk-namespace');
      }
    } else if (INTERWIKI.has(m[1]!.toLowerCase())) {
      interwiki = m[1]!.toLowerCase();
      dbkey = m[2]!;
      ns = 0;
    }
  }
  let fragment = '';
  const hash = dbkey.indexOf('#');
  if (hash >= 0) {
    fragment = dbkey.slice(hash + 1).replace(/_/g, ' ');
    dbkey = dbkey.slice(0, hash).replace(/_+$/, '');
    if (dbkey === '' && !interwiki) return fail('title-invalid-empty');
  }
  const bad = ILLEGAL.exec(dbkey);
  if (bad) return fail('title-invalid-characters', [bad[0]]);
  if (dbkey === '.' || dbkey === '..' || dbkey.startsWith('./') || dbkey.startsWith('../') || /\/\.\.?(\/|$)/.test(dbkey)) {
    return fail('title-invalid-relative');
  }
  if (dbkey.includes('~~~')) return fail('title-invalid-magic-tilde');
  if (ns !== -1 && Buffer.byteLength(dbkey) > 255) return fail('title-invalid-too-long', ['255']);
  if (!interwiki && ns !== -1) dbkey = ucfirst(dbkey);
  if (dbkey === '' && !interwiki && ns !== 0) return fail('title-invalid-empty');
  if (dbkey === '' && !interwiki) return fail('title-invalid-empty');
  if (dbkey.startsWith(':')) return fail('title-invalid-leading-colon');
  const t = makeTitle(ns, dbkey, ctx, fragment, interwiki);
  if (interwiki) {
    const full = `${interwiki}:${t.text}`;
    return { ok: true, title: { ...t, prefixedText: full, prefixedDbKey: full.replace(/ /g, '_') } };
  }
  return { ok: true, title: t };
}
