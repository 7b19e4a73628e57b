import { interactionProblem, type Interaction } from './format.js';
import { isObject, type JsonObject } from '../api/result.js';
import { stringifyKeepingKeyOrder } from '../util/ordered-json.js';

/**
 * What a recorded walk proves, kept beside the answers (docs/decisions/0020-knowledge-per-walk.md).
 *
 * Knowledge (replay/knowledge.ts) reads of a list answer only where it sits in its walk: its
 * question, whether it succeeded, its `continue` (where the next page starts, or none: the walk
 * ends here), when and as whom it was recorded; of a `prop=extlinks` answer also the pages it
 * showed with their links' URLs (coverage.ts completeLinkPages, cassette/link-ids.ts). A summary is
 * that interaction with its answer cut down to those parts: the functions that work knowledge out
 * read it as they read the answer, and give the same knowledge (test/unit/cassette/walk-summary.test.ts).
 *
 * Summaries are written with the answers (the file store computes them as it writes a cassette:
 * recorder, snapshot, `cassettes diff --update`), and kept in the cassette's optional `summaries`
 * member. A summary is used only while it matches its answer as stored: its `bytes` (the length of
 * the answer's text in the file, which the loader's scan measures) must be the answer's; otherwise,
 * or when it is absent, the answer is read and summarized again (`summarize`, the one function
 * that makes summaries, at write time and at load).
 */
export interface AnswerSummary extends Interaction {
  /** The length in bytes of the interaction's text as the file store writes it (see storedBytes). */
  bytes?: number;
}

/**
 * Whether knowledge reads only a summary of this answer: a query of lists or of `prop=extlinks`
 * without `meta` (meta answers are read whole: replay/recorded-meta.ts takes their parts).
 */
export function summarized(request: Readonly<Record<string, string>>): boolean {
  return request['action'] === 'query' && request['meta'] === undefined && (request['list'] !== undefined || request['prop'] === 'extlinks');
}

/** The summary of a recorded answer knowledge reads only in part (see `summarized`), or null. */
export function summarize(i: Interaction, bytes?: number): AnswerSummary | null {
  if (!summarized(i.request)) return null;
  const body: JsonObject = {};
  if (i.body['continue'] !== undefined) body['continue'] = i.body['continue'];
  if (i.request['prop'] === 'extlinks') body['query'] = { pages: pagesOf(i.body) };
  const headers: Record<string, string> = {};
  if (i.headers['mediawiki-api-error'] !== undefined) headers['mediawiki-api-error'] = i.headers['mediawiki-api-error'];
  return {
    key: i.key,
    request: i.request,
    status: i.status,
    headers,
    body,
    recordedAt: i.recordedAt,
    ...(i.user !== undefined ? { user: i.user } : {}),
    ...(bytes !== undefined ? { bytes } : {}),
  };
}

/** An extlinks answer's pages: their id, whether they are missing or invalid, and their links' URLs. */
function pagesOf(body: JsonObject): JsonObject[] {
  const q = body['query'];
  const pages = isObject(q) && Array.isArray(q['pages']) ? q['pages'] : [];
  return pages.filter(isObject).map((p) => {
    const out: JsonObject = {};
    for (const k of ['pageid', 'missing', 'invalid'] as const) if (p[k] !== undefined) out[k] = p[k] as JsonObject[string];
    if (Array.isArray(p['extlinks'])) out['extlinks'] = p['extlinks'].filter(isObject).map((l) => ({ url: l['url'] as JsonObject[string] }));
    return out;
  });
}

/**
 * The length in bytes of an interaction's text in a cassette file: the file store writes the
 * cassette as JSON with two spaces per level, so each line of an interaction (an element of the
 * top-level `interactions`) is indented by four more spaces than on its own (cassette/scan.ts).
 */
export function storedBytes(i: Interaction): number {
  const text = stringifyKeepingKeyOrder(i, 2);
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return Buffer.byteLength(text) + 4 * lines;
}

/** Summaries already made, by interaction (a recorded interaction is replaced, never changed in place). */
const made = new WeakMap<Interaction, AnswerSummary | null>();

/**
 * The summaries of a cassette's interactions as the file store writes them (each made once per
 * interaction). One that is no interaction (a file edited by hand) has none: `cassettes verify`
 * and replay say what is wrong with it.
 */
export function summariesOf(interactions: readonly Interaction[]): AnswerSummary[] {
  const out: AnswerSummary[] = [];
  for (const i of interactions) {
    if (interactionProblem(i) !== null) continue;
    let s = made.get(i);
    if (s === undefined) {
      s = summarized(i.request) ? summarize(i, storedBytes(i)) : null;
      made.set(i, s);
    }
    if (s) out.push(s);
  }
  return out;
}

/** What makes a cassette's `summaries` unusable, or null (each is an interaction as format.ts checks it, `bytes` a whole number). */
export function summariesProblem(s: unknown, interactionProblem: (i: unknown) => string | null): string | null {
  if (!Array.isArray(s)) return '"summaries" is not a list';
  for (let n = 0; n < s.length; n++) {
    const problem = interactionProblem(s[n]);
    if (problem) return `summary ${n}: ${problem}`;
    const bytes = (s[n] as Record<string, unknown>)['bytes'];
    if (bytes !== undefined && !Number.isSafeInteger(bytes)) return `summary ${n}: "bytes" is not a whole number`;
  }
  return null;
}
