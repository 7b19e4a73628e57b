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

/** Adds the names an entity shows with their ids to `ids` (its list's `users`). */
export function addUserIds(entity: ListEntity<object>, e: object, ids: Map<string, number>): void {
  if (!entity.users) return;
  for (const [name, id] of entity.users(e)) if (typeof name === 'string' && typeof id === 'number') ids.set(name, id);
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
