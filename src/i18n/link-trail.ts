import type { Language } from './language.js';

/**
 * A language's $linkTrail (the letters after `]]` that join a link's text), from its PCRE form
 * `/^(TRAIL)(.*)$/sDu` to JavaScript: `\x{…}` as `\u{…}`, `\p{Script}` with its property name,
 * PHP's needless `\'` unescaped (JS's `u` mode refuses identity escapes).
 */
export interface LinkTrail {
  /** The trail group's pattern (JS, `u` mode): what may follow `]]`, empty for languages without one. */
  inner: string;
  /** `^(trail)([\s\S]*)$`: the trail and the rest of a text. */
  re: RegExp;
}

const cache = new Map<string, LinkTrail>();

/** `\p{Chakma}` (a script, as PCRE allows) → `\p{Script=Chakma}`; general categories stay. */
const property = (name: string): string => (/^(?:L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfson]?)$/.test(name) ? `\\p{${name}}` : `\\p{Script=${name}}`);

function translate(pcre: string): string {
  const m = /^\/\^\((.*)\)\(\.\*\)\$\/[a-zA-Z]*$/s.exec(pcre);
  if (!m) throw new Error(`link trail: unexpected pattern ${pcre}`);
  return m[1]!
    .replace(/\\x\{([0-9A-Fa-f]+)\}/g, '\\u{$1}')
    .replace(/\\p\{(\w+)\}/g, (_s, name: string) => property(name))
    .replace(/\\'/g, "'");
}

/** The language's link trail (Language::linkTrail), translated once. */
export function linkTrail(lang: Language): LinkTrail {
  const key = lang.record.linkTrail;
  let t = cache.get(key);
  if (!t) {
    const inner = translate(key);
    t = { inner, re: new RegExp(`^(${inner})([\\s\\S]*)$`, 'u') };
    cache.set(key, t);
  }
  return t;
}
