import type { Interaction } from '../cassette/format.js';
import type { ListEntity, ListModule } from '../api/list-module.js';
import { addUserIds, inferKnown } from '../api/entity-passes.js';
import { entitiesOf, type Knowledge, type PageIds, type WikiModel } from '../wiki/model.js';
import { completeLinkPages, completeWalks } from '../cassette/coverage.js';
import { learnLinkIds } from '../cassette/link-ids.js';
import { recordedMeta } from './recorded-meta.js';

/**
 * What the recordings prove, and what follows from it (issue: "knowledge, not defaults"), each
 * list as its module describes it (api/list-module.ts):
 * - which parts of which lists and which pages' links the cassettes hold completely
 *   (cassette/coverage.ts), and what a list's complete walks teach beyond it (ListWalk.learn);
 * - per entity, which props an answer showed (`known`, written by record/harvest.ts, or inferred
 *   from the fields present: ListEntity.propFields);
 * - what those imply (ListEntity.derive): a user's id from any answer that showed it, a block's
 *   range from its target, a sitewide block's empty restrictions, an IP's user id 0.
 * Everything else stays unknown, and answers that need it say so. `linkPages`: the pages whose
 * links are complete, when a store kept them (cassette/sql-prepare.ts storedLinkPages).
 */
export function buildKnowledge(model: WikiModel, lists: readonly ListModule[], read: () => Iterable<Interaction>, linkPages?: PageIds): Knowledge {
  // Each recorded list and extlinks answer as its walk summary gives it (cassette/walk-summary.ts): the same knowledge as the answer.
  const recorded = [...read()];
  const links = recorded.filter((i) => i.request['prop'] === 'extlinks');
  // (el_ids first: inferring `known` and deriving read no link, and learning ids reads no `known`)
  // (none, or learned when the store wrote its pages (entitiesPrepared): no page is read, a database's stay in their table)
  if (links.length > 0 && !fromStore.has(model)) learnLinkIds(model, () => links);
  prepareEntities(model, lists);
  const knows: Knowledge = {
    ...completeWalks(recorded, lists),
    // (a prepared database's, kept when it was written: its walks of links are then not read)
    completeLinks: linkPages ?? completeLinkPages(recorded),
    missingTitles: new Set(model.missing.map((m) => `${m.ns}|${m.title}`)),
    completeNamespaces: new Set(),
    completeRedirects: new Set(),
    spamPatterns: false,
    meta: recordedMeta(recorded),
  };
  for (const list of lists) list.walk.learn?.(knows.walks.get(list.name) ?? new Set(), knows);
  return knows;
}

/** Models whose entities are prepared (see prepareEntities). */
const prepared = new WeakSet<WikiModel>();

/**
 * What the entities themselves imply, worked out once per model: `known` of entities recorded
 * before it was kept, users' ids by name from every entity that showed them, and each entity's
 * derived fields (ListEntity.derive). It depends on the entities alone, never on the walks: a
 * store that prepares its entities when it writes them (a database cassette, converted) marks its
 * model with `entitiesPrepared`, and replay then makes no pass over them.
 */
function prepareEntities(model: WikiModel, lists: readonly ListModule[]): void {
  if (prepared.has(model)) return;
  for (const list of lists) inferKnownAll(model, list);
  const ids = userIds(model, lists);
  for (const list of lists) deriveAll(model, list, ids);
  prepared.add(model);
}

/** Models whose store prepared their entities and learned their links' ids (replay/prepare-database.ts). */
const fromStore = new WeakSet<WikiModel>();

/**
 * Marks a model whose entities are prepared already (see prepareEntities), and whose links' ids
 * were learned from its recordings (link-ids.ts), by the store that wrote them.
 */
export function entitiesPrepared(model: WikiModel): void {
  prepared.add(model);
  fromStore.add(model);
}

/**
 * Prepares a logged-in identity's view (replay-model.ts identityViews): the passes of
 * prepareEntities on the kinds the view holds apart (`own`: harvested from the identity's answers)
 * and on no other. The view shares every other kind's entities, and its pages, with readers'
 * model, so a pass or a link id learned there would change readers' answers once the identity had
 * asked (what readers' recordings did not teach): the view is then marked prepared, as a store's
 * model is, and knowledge makes no pass over it.
 */
export function prepareView(view: WikiModel, lists: readonly ListModule[], own: readonly ListModule[]): void {
  for (const list of own) inferKnownAll(view, list);
  // Users' ids from every kind the view holds, as the identity was shown them or readers were:
  // of a kind its store keeps (a database's, shared with readers), only the names derive asks for.
  const ids = view.stored?.containing ? new NamedIds(view, lists) : userIds(view, lists);
  for (const list of own) deriveAll(view, list, ids);
  entitiesPrepared(view);
}

/**
 * Users' ids by name as `userIds` gives them (the last sighting with an id wins, over the lists'
 * kinds in the lists' order), worked out per name asked (derive asks `get` and `has` alone): a
 * kind the model holds in memory is passed over once, one its store keeps is asked for the
 * entities that show the name (StoredEntities.containing), so that a view does not read readers'
 * kinds whole (a database's protected titles) for the few names its own entities need.
 */
class NamedIds extends Map<string, number> {
  private readonly inMemory = new Map<number, Map<string, number>>();
  private readonly known = new Map<string, number | undefined>();
  constructor(
    private readonly model: WikiModel,
    private readonly lists: readonly ListModule[],
  ) {
    super();
  }

  override get(name: string): number | undefined {
    if (!this.known.has(name)) this.known.set(name, this.lookUp(name));
    return this.known.get(name);
  }

  override has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  private lookUp(name: string): number | undefined {
    let id: number | undefined;
    this.lists.forEach((list, at) => {
      if (!list.entity.users) return;
      const entity = list.entity as ListEntity<object>;
      const kind = list.entity.kind;
      if (this.model.entities.has(kind) || !this.model.stored?.has(kind)) {
        let ids = this.inMemory.get(at);
        if (!ids) {
          this.inMemory.set(at, (ids = new Map()));
          for (const e of entitiesOf(this.model, kind)) addUserIds(entity, e, ids);
        }
        id = ids.get(name) ?? id;
        return;
      }
      const shown = new Map<string, number>();
      for (const e of this.model.stored.containing!(kind, JSON.stringify(name))) addUserIds(entity, e, shown);
      id = shown.get(name) ?? id;
    });
    return id;
  }
}

/** Whether a model's entities were prepared by its store (entitiesPrepared). */
export function preparedByStore(model: WikiModel): boolean {
  return fromStore.has(model);
}

/** `known` of a list's entities recorded before it was kept (api/entity-passes.ts). */
function inferKnownAll(model: WikiModel, list: ListModule): void {
  if (Object.keys(list.entity.propFields).length === 0) return;
  for (const e of entitiesOf(model, list.entity.kind)) inferKnown(list.entity as ListEntity<object>, e);
}

/** Users' ids by name, from every answer that showed a name with its id. */
function userIds(model: WikiModel, lists: readonly ListModule[]): Map<string, number> {
  const ids = new Map<string, number>();
  for (const list of lists) {
    if (!list.entity.users) continue;
    for (const e of entitiesOf(model, list.entity.kind)) addUserIds(list.entity as ListEntity<object>, e, ids);
  }
  return ids;
}

function deriveAll<E extends object>(model: WikiModel, list: ListModule<E>, ids: ReadonlyMap<string, number>): void {
  const derive = list.entity.derive;
  if (derive) for (const e of entitiesOf(model, list.entity.kind)) derive(e, ids);
}
