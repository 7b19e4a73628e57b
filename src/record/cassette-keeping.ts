/** How the recorder keeps a cassette in order (sorted by key) and learns the wiki it records. */
import type { Cassette, Interaction } from '../cassette/format.js';
import { sortedKeys } from '../cassette/format.js';
import type { WikiProfile } from '../wiki/profile.js';

/** The first position whose key is not below `key` (keys compared as the sort compares them). */
export function lowerBound(list: readonly Interaction[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.key < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function isSorted(list: readonly Interaction[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i]!.key < list[i - 1]!.key) return false;
  return true;
}

/** What debuginfo says about the wiki: its version and runtime, and that debuginfo is on. */
export function learnProfile(c: Pick<Cassette, 'meta'>, debuginfo: unknown, site: Partial<WikiProfile>): void {
  const p = { ...c.meta.profile, ...site };
  if (debuginfo && typeof debuginfo === 'object') {
    const d = debuginfo as Record<string, unknown>;
    if (typeof d['mwVersion'] === 'string') p.version = d['mwVersion'];
    if (typeof d['phpEngine'] === 'string') p.runtimeName = d['phpEngine'];
    if (typeof d['phpVersion'] === 'string') p.runtimeVersion = d['phpVersion'];
    // The install path (the first included file is api.php) and the DB server's name (queries' prefix).
    const first = Array.isArray(d['includes']) ? (d['includes'][0] as { name?: unknown } | undefined)?.name : undefined;
    if (typeof first === 'string' && first.endsWith('/api.php')) p.installPath = first.slice(0, -'/api.php'.length);
    const q = Array.isArray(d['queries']) ? (d['queries'][0] as { sql?: unknown } | undefined)?.sql : undefined;
    if (typeof q === 'string' && q.includes(': ')) p.dbServer = q.slice(0, q.indexOf(': '));
    p.debugInfo = true;
  } else if (p.debugInfo === undefined) p.debugInfo = false;
  c.meta.profile = sortedKeys(p as Record<string, string | boolean>);
}
