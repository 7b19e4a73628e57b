/**
 * PHP's PCRE regexes (`/pattern/modifiers`, non-UTF mode) run in JS: translated once (see
 * translator.ts), matched over byte strings (bytes.ts). Patterns PCRE would not compile, or
 * that JS cannot express, come back as null.
 */
import { toBytes } from './bytes.js';
import { Translator, Unsupported, type Flags } from './translator.js';

export { fromBytes, toBytes } from './bytes.js';

export interface Compiled {
  re: RegExp;
  /** JS groups marking `\\K` (the reported match starts at the last one passed). */
  kGroups: number[];
}

export function compile(pattern: string, modifiers: string): Compiled | null {
  const flags: Flags = { i: modifiers.includes('i'), m: modifiers.includes('m'), s: modifiers.includes('s'), x: modifiers.includes('x'), U: modifiers.includes('U') };
  const bytes = toBytes(pattern);
  try {
    const first = new Translator(bytes, { ...flags }, null);
    first.translate();
    const second = new Translator(bytes, { ...flags }, first.groupMap);
    const src = second.translate();
    return { re: new RegExp(src, second.kGroups.length > 0 ? 'dg' : 'g'), kGroups: second.kGroups };
  } catch (e) {
    if (e instanceof Unsupported || e instanceof SyntaxError) return null;
    throw e;
  }
}

/**
 * A PHP `/pattern/modifiers` regex translated for byte strings (see `toBytes`), or null where PCRE
 * would not compile it or JS cannot express it.
 */
export function translatePcre(pattern: string, modifiers: string): RegExp | null {
  return compile(pattern, modifiers)?.re ?? null;
}

/** preg_replace($regex, '', $text) on a byte string. */
export function pregDelete(text: string, c: Compiled): string {
  if (c.kGroups.length === 0) return text.replace(c.re, '');
  let out = '';
  let last = 0;
  for (const m of text.matchAll(c.re)) {
    let start = m.index;
    for (const k of c.kGroups) {
      const at = m.indices?.[k];
      if (at && at[0] > start) start = at[0];
    }
    out += text.slice(last, start);
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}
