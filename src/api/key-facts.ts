import type { KeyRules } from '../request/canonical.js';
import type { ModuleRegistry } from './registry.js';

/**
 * What a module adds to the cassette key (request/canonical.ts): its defaults made explicit, its
 * multi-value parameters that are sets, its parameters that hold a title. Full parameter names
 * (`leprop`), as the key holds them.
 */
export interface KeyFacts {
  /** Defaults folded into the key when the question leaves them out (the key's own spelling: sets sorted). */
  readonly defaults?: Readonly<Record<string, string>>;
  /** Multi-value parameters MediaWiki reads as sets: their values are sorted in the key. */
  readonly sets?: readonly string[];
  /** Parameters that hold one title: normalized in the key as `titles` are. */
  readonly titles?: readonly string[];
}

/** The key rules of a registry: every module's KeyFacts, gathered for request/canonical.ts. */
export function keyRules(registry: ModuleRegistry): KeyRules {
  const defaults = new Map<string, Readonly<Record<string, string>>>();
  const sets = new Set<string>();
  const titles = new Set<string>();
  const modules = [...registry.actions, ...registry.query.prop, ...registry.query.list, ...registry.query.meta];
  for (const m of modules) {
    if (!m.key) continue;
    if (m.key.defaults && Object.keys(m.key.defaults).length > 0) defaults.set(m.name, m.key.defaults);
    for (const s of m.key.sets ?? []) sets.add(s);
    for (const t of m.key.titles ?? []) titles.add(t);
  }
  return { defaults, sets, titles };
}
