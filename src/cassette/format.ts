import type { Json, JsonObject } from '../api/result.js';
import type { Block, LogEvent, Page, ProtectedTitle } from '../wiki/model.js';
import type { WikiProfile } from '../wiki/profile.js';

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
}

/** Entities seen in recorded answers, each stored once. */
export interface Harvest {
  logevents: LogEvent[];
  blocks: Block[];
  protectedtitles: ProtectedTitle[];
  pages: Page[];
  /** Titles the wiki said are missing. */
  missing: { ns: number; title: string }[];
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
}

export function emptyHarvest(): Harvest {
  return { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] };
}

export function emptyCassette(upstream: string, now: Date): Cassette {
  return { meta: { format: CASSETTE_FORMAT, upstream, recordedAt: now.toISOString(), profile: {} }, interactions: [], entities: emptyHarvest() };
}

/** Sorts objects' keys recursively where order carries no meaning (meta, request, headers). */
export function sortedKeys<T extends Record<string, Json | undefined>>(o: T): T {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as T;
}
