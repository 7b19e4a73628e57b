import type { Source } from '../options.js';
import { rawurldecode } from '../util/php-url.js';
import type { NearMiss } from './near-miss.js';

/** How replay would answer a question (ReplayEngine.explain). */
export interface Explanation {
  /** The question's canonical key (secrets as `***`). */
  key: string;
  source: Source;
  status: number;
  /** The MediaWiki error code(s) of the answer, null when it is not an error. */
  error: string | null;
  /** What the answer comes from. */
  used: string;
  /** What it needed that the recordings do not show (empty: nothing). */
  unknown: string[];
  /** Unless a recording answers it: the closest recorded questions and how each differs. */
  nearMisses: NearMiss[];
}

/**
 * The query string and identity `cassettes explain` is asked (ReplayEngine.explain): the question
 * as the logs print it, `<query> @<identity>` (the identity URL-encoded, as identityKey writes
 * it: `@Admin%40bot`), or the identity given as an option; both must agree when both are given.
 * A canonical key never holds a space, so ` @` cannot be part of the question itself.
 */
export function explainedQuestion(query: string, option: string | undefined): { q: string; identity: string | null } {
  const at = query.lastIndexOf(' @');
  const q = (at < 0 ? query : query.slice(0, at)).trim().replace(/^\?/, '');
  const suffix = at < 0 ? null : rawurldecode(query.slice(at + 2).trim());
  if (suffix !== null && option !== undefined && suffix !== option) {
    throw new Error(`wikitape: the question names the identity ${suffix} (after " @") and the option names ${option}: give one`);
  }
  const identity = option ?? suffix;
  // A key holds no `format` (the printer is not part of the question): one pasted from the logs
  // is asked as bots ask it, in JSON, not as the HTML page a question without `format` gets.
  const asked = new URLSearchParams(q).has('format') ? q : `${q}${q === '' ? '' : '&'}format=json`;
  return { q: asked, identity: identity === '' ? null : identity };
}
