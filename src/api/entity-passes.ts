import type { ListEntity } from './list-module.js';

/**
 * What the entities themselves imply (replay/knowledge.ts prepareEntities), entity by entity, so
 * that a store that keeps its entities on disk (a database cassette: cassette/store-sqlite.ts
 * prepare) works it out as the in-memory model does, without holding a kind whole:
 * 1. users' ids by name, from every entity that showed a name with its id (`addUserIds`, over the
 *    lists' entities in the lists' order: a later sighting of a name wins);
 * 2. then, per entity, `known` of one recorded before it was kept (the props whose fields it has),
 *    and its derived fields (ListEntity.derive), for each list of its kind in the lists' order.
 * `users` reads neither `known` nor a derived field, so step 1 over the entities as recorded and
 * step 2 entity by entity give what the whole-model passes give.
 */

/**
 * Adds the names an entity shows with their ids to `ids` (its list's `users`); a name shown before
 * with another id (a renamed account's) goes into `mixed` too, when given: which id it has then
 * depends on which sighting is the last.
 */
export function addUserIds(entity: ListEntity<object>, e: object, ids: Map<string, number>, mixed?: Set<string>): void {
  if (!entity.users) return;
  for (const [name, id] of entity.users(e)) {
    if (typeof name !== 'string' || typeof id !== 'number') continue;
    if (mixed && ids.has(name) && ids.get(name) !== id) mixed.add(name);
    ids.set(name, id);
  }
}

/**
 * Users' ids as derive reads them (ListEntity.derive asks `get` and `has` alone), from `lookup`,
 * noting each name asked for that has no id (`missed`): an entity that asked for one would derive
 * more once some recording shows that name's id (a database cassette's writer prepares it again
 * then: cassette/sql-prepare-step.ts).
 */
export class WatchedIds extends Map<string, number> {
  readonly missed = new Set<string>();
  constructor(private readonly lookup: (name: string) => number | undefined) {
    super();
  }

  override get(name: string): number | undefined {
    const id = this.lookup(name);
    if (id === undefined) this.missed.add(name);
    return id;
  }

  override has(name: string): boolean {
    return this.get(name) !== undefined;
  }
}

/** `known` of an entity recorded before it was kept: the props whose fields it has (none declared: left alone). */
export function inferKnown(entity: ListEntity<object>, e: object): void {
  const fields = Object.entries(entity.propFields);
  if (fields.length === 0) return;
  const held = e as { known?: string[] };
  held.known ??= fields.filter(([, f]) => f in e).map(([p]) => p).sort();
}

/** Step 2 for one entity: `known` inferred by every list of its kind, then each one's derived fields. */
export function prepareEntity(ofKind: readonly ListEntity<object>[], e: object, ids: ReadonlyMap<string, number>): void {
  for (const entity of ofKind) inferKnown(entity, e);
  for (const entity of ofKind) entity.derive?.(e, ids);
}
