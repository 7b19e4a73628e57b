import type { Interaction } from '../cassette/format.js';
import type { CassetteStore } from '../cassette/store.js';
import { emptyModel, type WikiModel } from '../wiki/model.js';
import type { WikiProfile } from '../wiki/profile.js';

/** Every recorded interaction by key, the entities they showed, and the recorded wiki's profile. */
export interface CassetteIndex {
  interactions: Map<string, Interaction>;
  model: WikiModel;
  profile: Partial<WikiProfile>;
  /** Latest recording time, for `--clock recorded`. */
  recordedAt: string | null;
  /** The wiki the cassettes were recorded from. */
  upstream: string | null;
}

/** Loads all cassettes of a store (data only: JSON is parsed, never evaluated). */
export async function loadCassettes(store: CassetteStore): Promise<CassetteIndex> {
  const index: CassetteIndex = { interactions: new Map(), model: emptyModel(), profile: {}, recordedAt: null, upstream: null };
  for (const name of await store.list()) {
    const db = await store.open(name, '');
    const c = db.data;
    if (!c || !Array.isArray(c.interactions)) continue;
    index.profile = { ...c.meta?.profile, ...index.profile };
    index.upstream ??= c.meta?.upstream || null;
    if (c.meta?.recordedAt && (index.recordedAt === null || c.meta.recordedAt > index.recordedAt)) index.recordedAt = c.meta.recordedAt;
    for (const i of c.interactions) if (!index.interactions.has(i.key)) index.interactions.set(i.key, i);
    const e = c.entities;
    if (!e) continue;
    index.model.logevents.push(...e.logevents.filter((x) => !index.model.logevents.some((y) => y.logid === x.logid)));
    index.model.blocks.push(...e.blocks.filter((x) => !index.model.blocks.some((y) => y.id === x.id)));
    index.model.protectedtitles.push(...e.protectedtitles.filter((x) => !index.model.protectedtitles.some((y) => y.ns === x.ns && y.title === x.title)));
    for (const p of e.pages) if (!index.model.pages.some((y) => y.pageid === p.pageid)) index.model.pages.push(p);
  }
  // Links harvested without an id get ids in the order they were seen.
  let next = Math.max(0, ...index.model.pages.flatMap((p) => p.extlinks.map((l) => l.id))) + 1;
  for (const p of index.model.pages) for (const l of p.extlinks) if (!l.id) l.id = next++;
  return index;
}
