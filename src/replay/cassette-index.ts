import { closeSync, openSync } from 'node:fs';
import type { Cassette } from '../cassette/format.js';
import { scanCassette } from '../cassette/scan.js';
import { CassetteError, notACassette, type CassetteStore } from '../cassette/store.js';
import { entityId, mergeSighting, ownKinds, type ListModule } from '../api/list-module.js';
import { MISSING_TITLES, PAGES, REDIRECTS, emptyModel, entitiesOf, entityKind, mergePage, storedModel, type PageIds, type StoredEntities, type WikiModel } from '../wiki/model.js';
import { storedLinkPages } from '../cassette/sql-prepare.js';
import type { SqliteCassette } from '../cassette/store-sqlite.js';
import type { WikiProfile } from '../wiki/profile.js';
import { InteractionTable } from './interaction-table.js';

/** A database cassette's tabled kinds as the model reads them (wiki/model.ts StoredEntities). */
function databaseEntities(db: SqliteCassette): StoredEntities {
  const kinds = new Set(db.tabled());
  return { has: (kind) => kinds.has(kind), table: (kind) => db.table(kind), all: (kind) => db.entities(kind), containing: (kind, text) => db.table(kind).containing(text) };
}

/** Every recorded interaction by key, the entities they showed, and the recorded wiki's profile. */
export interface CassetteIndex {
  interactions: InteractionTable;
  model: WikiModel;
  profile: Partial<WikiProfile>;
  /** Latest recording time, for `--clock recorded`. */
  recordedAt: string | null;
  /** The wiki the cassettes were recorded from. */
  upstream: string | null;
  /** The cassette files read, in order, each with how many interactions it holds (what replay says it loaded). */
  files: { file: string; interactions: number }[];
  /**
   * Whether the model's entities are prepared already (what they imply worked out when the store
   * wrote them: a lone database cassette's, cassette/sql-prepare.ts); replay/knowledge.ts then
   * makes no pass over them (entitiesPrepared).
   */
  prepared: boolean;
  /**
   * The pages whose links the walks of a lone prepared database prove complete, asked page by page
   * (cassette/sql-prepare.ts storedLinkPages); null: knowledge works them out from the recorded
   * answers (replay-model.ts knowledgeOf). Each call gives a set of its own (fixtures add to it).
   */
  linkPages: (() => PageIds) | null;
}

/** Where an entity is in the model, and when the cassette it came from was recorded. */
interface Held {
  at: number;
  recordedAt: string;
}

/**
 * Appends to `into` the items whose key was not seen yet (`seen`: where each is in `into`); one
 * seen again is merged with the one held when `merge` says how (the earlier recording first), else
 * the first is kept.
 */
function addUnseen<T, K>(items: readonly T[], seen: Map<K, Held>, keyOf: (x: T) => K, into: T[], recordedAt: string, merge?: (earlier: T, later: T) => T): void {
  for (const x of items) {
    const k = keyOf(x);
    const held = seen.get(k);
    if (held === undefined) {
      seen.set(k, { at: into.length, recordedAt });
      into.push(x);
    } else if (merge) {
      const later = recordedAt >= held.recordedAt;
      into[held.at] = later ? merge(into[held.at]!, x) : merge(x, into[held.at]!);
      if (later) held.recordedAt = recordedAt;
    }
  }
}

/**
 * The kinds of entity cassettes keep, each with the fields that name one: the lists' own kinds
 * (what cassettes showed of one version of an entity kept, a later version replacing an earlier:
 * mergeSighting, in the order the cassettes were recorded), pages (what any cassette showed of a
 * page kept: mergePage), missing titles, redirects.
 */
function entityKinds(lists: readonly ListModule[]): { kind: string; idFields: readonly string[]; merge?: (earlier: object, later: object) => object }[] {
  const own = ownKinds(lists).map((entity) => ({ kind: entity.kind as string, idFields: entity.idFields, merge: (earlier: object, later: object) => mergeSighting(entity, earlier, later) }));
  return [...own, { kind: PAGES as string, idFields: ['pageid'], merge: mergePage as (held: object, again: object) => object }, { kind: MISSING_TITLES as string, idFields: ['ns', 'title'] }, { kind: REDIRECTS as string, idFields: ['from'] }];
}

/**
 * Loads all cassettes of a store (data only: JSON is parsed, never evaluated). Files in
 * wikitape's own layout are scanned (cassette/scan.ts): their interactions are read when used.
 * Their entities go into one model, each kept once, by the `lists`' kinds (entityKinds says how
 * sightings in several cassettes merge).
 */
export async function loadCassettes(store: CassetteStore, lists: readonly ListModule[]): Promise<CassetteIndex> {
  const index: CassetteIndex = { interactions: new InteractionTable(), model: emptyModel(), profile: {}, recordedAt: null, upstream: null, files: [], prepared: false, linkPages: null };
  const kinds = entityKinds(lists);
  const seen = new Map(kinds.map((k) => [k.kind, new Map<string, Held>()]));
  const into = (kind: string): object[] => {
    if (kind === PAGES) return entitiesOf(index.model, PAGES) as object[];
    if (kind === 'missing') return index.model.missing;
    if (kind === REDIRECTS) return (index.model.redirects ??= []);
    let list = index.model.entities.get(kind);
    if (!list) index.model.entities.set(entityKind(kind), (list = []));
    return list;
  };
  const names = await store.list();
  for (const name of names) {
    let c: Partial<Cassette> | undefined;
    const database = store.databaseOf?.(name) ?? null;
    if (database) {
      // A database cassette: its interactions read by key; its entities through its tables when it
      // is the only cassette (else read whole and merged below, as a JSON cassette's are).
      index.files.push({ file: database.file, interactions: index.interactions.addDatabase(database) });
      // (its walks' summaries are read by key when knowledge needs them: InteractionTable.teaching)
      c = database.rest(['summaries']);
      // What replay reads at once is checked at once (a database made but never written has no members yet).
      const tabled = Object.fromEntries(database.tabled().map((k) => [k, []]));
      const problem = c.meta === undefined ? null : notACassette({ ...c, entities: { ...c.entities, ...tabled }, interactions: [] }, ownKinds(lists));
      if (problem) throw new CassetteError(`cassette file ${database.file} is not a cassette: ${problem}`);
      if (names.length === 1) {
        index.model = storedModel(databaseEntities(database));
        index.prepared = database.prepared();
        index.linkPages = storedLinkPages(database.db) && (() => storedLinkPages(database.db)!);
      }
      else c = { ...c, entities: { ...c.entities, ...Object.fromEntries(database.tabled().map((k) => [k, database.all(k)])) } as Cassette['entities'] };
    }
    const file = database ? undefined : store.fileOf?.(name);
    if (file !== undefined) {
      let fd: number;
      try {
        fd = openSync(file, 'r');
      } catch (e) {
        throw new CassetteError(`cassette file ${file} cannot be read: ${(e as Error).message}`);
      }
      let scanned: ReturnType<typeof scanCassette> = null;
      try {
        scanned = scanCassette(fd);
      } catch {
        // not in wikitape's layout after all (a bad key line, say): read whole below
      }
      if (scanned) {
        // What replay reads at once is checked at once; each interaction when it is first read.
        const problem = notACassette({ ...scanned.rest, interactions: [] }, ownKinds(lists));
        if (problem) {
          closeSync(fd);
          throw new CassetteError(`cassette file ${file} is not a cassette: ${problem}`);
        }
        index.interactions.holdFile(fd);
        const lengths = new Map<string, number>();
        for (const where of scanned.interactions) if (index.interactions.addStored(fd, where)) lengths.set(where.key, where.length);
        // A summary is used while its answer is as it was summarized (the same stored length); else it is made again when read.
        for (const sum of scanned.rest.summaries ?? []) if (sum.bytes !== undefined && lengths.get(sum.key) === sum.bytes) index.interactions.addSummary(sum);
        index.files.push({ file, interactions: scanned.interactions.length });
        c = scanned.rest;
      } else closeSync(fd);
    }
    if (!c) {
      // A file that is not JSON, or not a cassette, stops replay with a message naming it (store.open).
      const data = (await store.open(name, '')).data;
      for (const i of data.interactions) index.interactions.add(i);
      index.files.push({ file: file ?? name, interactions: data.interactions.length });
      c = data;
    }
    index.profile = { ...c.meta?.profile, ...index.profile };
    index.upstream ??= c.meta?.upstream || null;
    if (c.meta?.recordedAt && (index.recordedAt === null || c.meta.recordedAt > index.recordedAt)) index.recordedAt = c.meta.recordedAt;
    const e = c.entities;
    if (!e) continue;
    for (const { kind, idFields, merge } of kinds) {
      // A kind the cassette does not list (a database's tabled kinds) is left where it is.
      const items = e[kind];
      if (items) addUnseen(items, seen.get(kind)!, (x) => entityId(idFields, x), into(kind), c.meta?.recordedAt ?? '', merge);
    }
  }
  // A link whose el_id no continuation token named keeps id 0: unknown (see wiki/model.ts ExtLink).
  return index;
}
