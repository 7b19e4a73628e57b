import type { Cassette, Interaction } from '../cassette/format.js';
import { completeLinkPages } from '../cassette/coverage.js';
import { changesOf, keptEntities, type CassetteChanges } from '../cassette/changes.js';
import { PAGES } from '../wiki/model.js';
import { closeCassette, prepareDatabase, type FileCassetteStore } from '../cassette/store.js';
import { entityId, ownKinds, type ListModule } from '../api/list-module.js';
import { MODULES } from '../modules/index.js';
import { Recorder } from './recorder.js';
import { isObject } from './diff-json.js';
import type { DiffSessions } from './diff-login.js';
import { continuationOf, nextPage, walksOf, type Walk } from './diff-walks.js';

/**
 * `cassettes diff --update`: each changed or gone walk recorded again whole, from its first page,
 * following the wiki's continuation now, to its last (or as far as it was recorded); its recorded
 * pages the new walk no longer has leave the cassette, and so do the entities and links only they
 * showed. Replay's walk is then the wiki's, page by page and at any limit computed from it.
 */
interface UpdateWork {
  entry: { updated?: boolean; details: string[] };
  walk: Walk;
}

interface UpdateContext {
  upstream: string;
  store: FileCassetteStore;
  sessions: DiffSessions;
  /** Per cassette, the parameters that continue its walks. */
  continuing: ReadonlyMap<string, ReadonlySet<string>>;
  /** The most pages a walk is followed to (diff.ts followLimit). */
  follow: (walk: Walk) => number;
}

/** Records the walks again, one recorder per cassette (its lock refuses a second), then takes out what no longer is. */
export async function updateWalks(work: readonly UpdateWork[], ctx: UpdateContext): Promise<void> {
  const byCassette = new Map<string, UpdateWork[]>();
  for (const w of work) byCassette.set(w.walk.cassette, [...(byCassette.get(w.walk.cassette) ?? []), w]);
  for (const [cassette, list] of byCassette) {
    const stored = new Set<string>();
    const recorder = new Recorder({ upstream: ctx.upstream, store: ctx.store, cassette, reRecord: true, onStored: (i) => stored.add(i.key) });
    try {
      await recorder.ready();
      for (const w of list) w.entry.updated = await recordWalk(recorder, w, ctx);
      await recorder.flush();
    } finally {
      recorder.close();
    }
    const release = await ctx.store.lock(cassette);
    try {
      const db = await ctx.store.open(cassette, ctx.upstream);
      try {
        tidy(db.data, list.filter((w) => w.entry.updated).map((w) => w.walk), stored, changesOf(db));
        await db.write();
      } finally {
        closeCassette(db);
      }
      // (taking pages or entities out leaves a prepared database unprepared: sql-prepare-step.ts)
      prepareDatabase(ctx.store, cassette);
    } finally {
      release();
    }
  }
}

/** One walk asked again through the recorder, which stores each page; whether it was recorded whole. */
async function recordWalk(recorder: Recorder, { walk, entry }: UpdateWork, ctx: UpdateContext): Promise<boolean> {
  let as: { user: string; cookie: string } | null = null;
  if (walk.user !== null) {
    const s = await ctx.sessions.session(walk.user);
    if ('unchecked' in s) return false;
    as = { user: walk.user, cookie: s.cookie };
  }
  const continuing = new Set(ctx.continuing.get(walk.cassette));
  let request = walk.pages[0]!.request;
  for (let n = 1; ; n++) {
    const { status, body } = await recorder.ask(request, as);
    if (status !== 200) {
      entry.details.push(`not recorded again: page ${n} of the walk answered HTTP ${status}`);
      return false;
    }
    const cont = continuationOf(body);
    if (cont === null || isObject(body['error'])) return true;
    if (n >= ctx.follow(walk)) {
      if (!walk.toEnd) return true;
      // Grown past what is followed since the check (diff.ts followable): stored in part, said so.
      entry.details.push(`recorded again only in part: the walk went on past ${n} pages while it was recorded; the next diff reports it again`);
      return false;
    }
    for (const k of Object.keys(cont)) continuing.add(k);
    request = nextPage(request, cont, continuing);
  }
}

/**
 * After the walks are recorded again: their old pages the new walks do not have leave (a page
 * stored again has the same key), then what only those showed (see dropVanished, relink); each
 * change told to `changes` (a database cassette's store writes what it is told: cassette/changes.ts).
 */
function tidy(c: Cassette, walks: readonly Walk[], stored: ReadonlySet<string>, changes: CassetteChanges | undefined): void {
  const stale = new Set(walks.flatMap((w) => w.pages.map((p) => p.key)).filter((k) => !stored.has(k)));
  c.interactions = c.interactions.filter((i) => !stale.has(i.key));
  for (const key of stale) changes?.removed(key);
  dropVanished(
    c,
    walks.flatMap((w) => w.pages.map((p) => p.body)),
    changes,
  );
  const now = walksOf('', c.interactions);
  for (const w of walks) {
    const fresh = now.find((n) => n.pages[0]!.key === w.pages[0]!.key);
    if (fresh) relink(c, fresh.pages, changes);
  }
}

/** The ids (ListEntity.idFields) of the entities a list shows in an answer. */
function entityNames(body: unknown, list: ListModule): string[] {
  const rows = isObject(body) && isObject(body['query']) ? body['query'][list.name] : undefined;
  return Array.isArray(rows) ? rows.filter(isObject).map((r) => entityId(list.entity.idFields, r)) : [];
}

/**
 * An entity of a list's own kind the old answers showed and no answer shows now (a block since
 * lifted) leaves the cassette's entities, so that no page replay computes still shows it. (Pages
 * stay: other answers than lists show them too; their links are relink's.)
 */
function dropVanished(c: Cassette, oldBodies: readonly unknown[], changes: CassetteChanges | undefined): void {
  const kinds = new Set(ownKinds(MODULES.query.list).map((e) => e.kind));
  for (const list of MODULES.query.list.filter((l) => kinds.has(l.entity.kind))) {
    const gone = new Set(oldBodies.flatMap((b) => entityNames(b, list)));
    if (gone.size === 0) continue;
    for (const i of c.interactions) for (const n of entityNames(i.body, list)) gone.delete(n);
    if (gone.size === 0 || !c.entities[list.entity.kind]) continue;
    c.entities[list.entity.kind] = keptEntities(list.entity.kind, c.entities[list.entity.kind]!, (e) => !gone.has(entityId(list.entity.idFields, e)), changes);
  }
}

/**
 * The links of each page a walk of `prop=extlinks` now holds completely (coverage.ts
 * completeLinkPages) are the walk's, in its order: a link removed since leaves the page, one added
 * takes its place in the wiki's order (which replay computes other limits from).
 */
function relink(c: Cassette, pages: readonly Interaction[], changes: CassetteChanges | undefined): void {
  const complete = completeLinkPages(pages);
  if (complete.size === 0) return;
  const urls = new Map<number, string[]>();
  for (const p of pages) {
    const q = p.body['query'];
    for (const page of isObject(q) && Array.isArray(q['pages']) ? q['pages'] : []) {
      if (!isObject(page) || typeof page['pageid'] !== 'number' || !complete.has(page['pageid'])) continue;
      const list = urls.get(page['pageid']) ?? [];
      for (const l of Array.isArray(page['extlinks']) ? page['extlinks'] : []) if (isObject(l) && !list.includes(String(l['url']))) list.push(String(l['url']));
      urls.set(page['pageid'], list);
    }
  }
  c.entities.pages.forEach((page, at) => {
    const list = urls.get(page.pageid);
    if (!list) return;
    page.extlinks = list.map((url) => page.extlinks.find((l) => l.url === url) ?? { id: 0, url });
    changes?.entity(PAGES, at);
  });
}
