import type { Json, JsonObject } from '../api/result.js';
import type { MissingTitle, Page, Redirect } from '../wiki/model.js';
import type { WikiProfile } from '../wiki/profile.js';
import type { AnswerSummary } from './walk-summary.js';

/** Version of the cassette file layout. */
const CASSETTE_FORMAT = 1;

/** One recorded question and the wiki's answer (data only: no debuginfo, no cookies). */
export interface Interaction {
  /** The canonical key (see request/canonical.ts). */
  key: string;
  /** The canonical parameters, for people reading the file. */
  request: Record<string, string>;
  /** HTTP status the wiki answered with. */
  status: number;
  /** The headers that carry meaning: cache control, MediaWiki-API-Error, Content-Language. */
  headers: Record<string, string>;
  /** The answer in formatversion=2 JSON, without debuginfo. */
  body: JsonObject;
  recordedAt: string;
  /**
   * Who asked: the account a logged-in session belonged to (`Admin`, or `Admin@bot` for a bot
   * password), never a session id, token or cookie. Absent: an anonymous reader. Such an answer
   * only ever answers a session logged in as that user (docs/decisions/0006-sessions-are-identities.md).
   */
  user?: string;
}

/**
 * The stored key of a question asked as `user` (null: anonymous, the canonical key itself). A
 * canonical key never holds a space, so `<key> @<user>` cannot be another question's key.
 */
export function identityKey(key: string, user: string | null | undefined): string {
  return user ? `${key} @${encodeURIComponent(user)}` : key;
}

/** Whether a stored key is a logged-in user's (see identityKey). */
export function isUserKey(key: string): boolean {
  return key.includes(' @');
}

/**
 * Entities seen in recorded answers, each stored once: each list module's under its kind
 * (`logevents`, `blocks` …, in the shape the module declares, api/list-module.ts), then the wiki's
 * pages and the titles it said are missing.
 */
export interface Harvest {
  pages: Page[];
  /** Titles the wiki said are missing. */
  missing: MissingTitle[];
  /** Redirects and their targets, as answers' `query.redirects` showed them (absent in older cassettes). */
  redirects?: Redirect[];
  [kind: string]: object[] | undefined;
}

interface CassetteMeta {
  format: number;
  /** The api.php URL recorded from. */
  upstream: string;
  /** When recording started / last wrote. */
  recordedAt: string;
  /** What the wiki is, as learned from its answers. */
  profile: Partial<WikiProfile>;
}

/** A cassette file: one lowdb JSON document. */
export interface Cassette {
  meta: CassetteMeta;
  interactions: Interaction[];
  entities: Harvest;
  /**
   * What each recorded list and `prop=extlinks` answer proves of its walk (cassette/walk-summary.ts),
   * written with the answers so that replay works knowledge out without reading them. Optional:
   * older and hand-written cassettes have none, and a summary that no longer matches its answer
   * is made again from the answer (docs/decisions/0020-knowledge-per-walk.md).
   */
  summaries?: AnswerSummary[];
}

/** No entities: a list for each of these kinds (in this order, as every cassette lists them), pages, missing titles and redirects. */
export function emptyHarvest(kinds: readonly string[] = []): Harvest {
  const h: Record<string, object[]> = {};
  for (const k of kinds) h[k] = [];
  return { ...h, pages: [], missing: [], redirects: [] };
}

/** A new cassette, with an empty list of entities of each of these kinds. */
export function emptyCassette(upstream: string, now: Date, kinds: readonly string[] = []): Cassette {
  return { meta: { format: CASSETTE_FORMAT, upstream, recordedAt: now.toISOString(), profile: {} }, interactions: [], entities: emptyHarvest(kinds) };
}

/** Sorts objects' keys recursively where order carries no meaning (meta, request, headers). */
export function sortedKeys<T extends Record<string, Json | undefined>>(o: T): T {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as T;
}

/** Whether a parsed JSON value is an object (not null, not a list). */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const stringsOnly = (v: unknown): boolean => isObject(v) && Object.values(v).every((x) => typeof x === 'string');

/**
 * What makes a stored interaction unusable, or null: a key, its request and headers as strings,
 * an HTTP status a server can send (200–599), an answer that is a JSON object.
 */
export function interactionProblem(i: unknown): string | null {
  if (!isObject(i)) return 'it is not a JSON object';
  if (typeof i['key'] !== 'string') return '"key" is not a string';
  if (!stringsOnly(i['request'])) return `"${i['key']}": "request" is not an object of strings`;
  if (!Number.isInteger(i['status']) || (i['status'] as number) < 200 || (i['status'] as number) > 599) return `"${i['key']}": "status" is not an HTTP status from 200 to 599`;
  if (!stringsOnly(i['headers'])) return `"${i['key']}": "headers" is not an object of strings`;
  if (!isObject(i['body'])) return `"${i['key']}": "body" is not a JSON object`;
  if (i['user'] !== undefined && (typeof i['user'] !== 'string' || i['user'] === '')) return `"${i['key']}": "user" is not a user name`;
  return null;
}
