import type { ApiOutcome } from '../api/main.js';
import { WIKITAPE_INTERNAL } from '../api/errors.js';
import { MODULES } from '../modules/index.js';

/**
 * Writes: record mode never stores them, so their answers are always made (ids, timestamps), and
 * what they cannot know is said, never refused (a suite's edits must go through offline).
 */
const WRITES: ReadonlySet<string> = new Set(MODULES.actions.filter((a) => a.writeMode).map((a) => a.name));

/**
 * What of an answer's unknowns makes it a miss under `--on-miss error` (the default): all but
 * what its body says itself (a login's unchecked password, ApiOutcome.said), none of a write's.
 * A client that reads no header thus never gets an answer that differs from the wiki's without
 * a word in the body (docs/decisions/0005-knowledge-not-defaults.md). wikitape's own failure
 * (WIKITAPE_INTERNAL) is an error in the body already, and no recording would mend it: never a
 * miss (docs/decisions/0024-wikitapes-own-failures.md).
 */
export function refusing(outcome: ApiOutcome, unknown: readonly string[]): string[] {
  if (WRITES.has(outcome.action)) return [];
  return unknown.filter((u) => !outcome.said.includes(u) && u !== WIKITAPE_INTERNAL);
}
