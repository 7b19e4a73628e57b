import { entityId, ownKinds, type ListModule } from '../api/list-module.js';
import { PAGES, addEntities, entitiesOf, mergePage, type Knowledge, type WikiModel } from '../wiki/model.js';
import type { CassetteIndex } from './cassette-index.js';
import { buildKnowledge } from './knowledge.js';

/**
 * What replay answers from, put together where the engine is built (app.ts loadEngine): the
 * model of what the cassettes showed and the fixtures give, and how what the recordings prove is
 * worked out, each list's entities as its module describes them (api/list-module.ts).
 */

/**
 * How the model's knowledge is worked out (replay/knowledge.ts): the engine calls it when a
 * computed answer first needs it (cassette hits never do; it reads every recorded list, extlinks
 * and meta answer). What fixtures list is theirs to declare: a list they give is complete, and so
 * are their pages' links and spam lines.
 */
export function knowledgeOf(model: WikiModel, lists: readonly ListModule[], cassettes: CassetteIndex, fixtures: WikiModel, readerView: (key: string) => boolean): () => Knowledge {
  // What readers were shown (and users who see what readers see): others' recordings answer them alone.
  const recorded = () => cassettes.interactions.values((k) => /(?:^|&)(?:list|meta|prop)=/.test(k) && readerView(k));
  return () => {
    const knows = buildKnowledge(model, lists, recorded);
    // A fixture that lists a kind of entity lists all of it: every list of that kind, whole, is complete.
    for (const list of lists) {
      if (list.walk.scopeParams.length > 0 || entitiesOf(fixtures, list.entity.kind).length === 0) continue;
      knows.walks.set(list.name, new Set([...(knows.walks.get(list.name) ?? []), '']));
    }
    for (const p of fixtures.pages) knows.completeLinks.add(p.pageid);
    knows.spamPatterns = fixtures.spamBlacklist.length > 0 || fixtures.spamWhitelist.length > 0;
    return knows;
  };
}

/** Adds one model's entities to another (fixtures after harvested entities), each kind as its list names its entities. */
export function mergeModel(into: WikiModel, m: WikiModel, lists: readonly ListModule[]): void {
  // An entity both recorded and in a fixture is kept once (the recorded one).
  for (const { kind, idFields } of [...ownKinds(lists), { kind: PAGES, idFields: ['pageid'] }]) {
    const held = new Set(entitiesOf(into, kind).map((e) => entityId(idFields, e)));
    addEntities(into, kind, entitiesOf(m, kind).filter((e) => !held.has(entityId(idFields, e))));
  }
  // A page in both keeps what only the fixture says of it (a redirect, its length …: mergePage).
  const at = new Map(into.pages.map((p, i) => [p.pageid, i]));
  for (const p of m.pages) {
    const i = at.get(p.pageid);
    if (i !== undefined) into.pages[i] = mergePage(into.pages[i]!, p);
  }
  into.spamBlacklist.push(...m.spamBlacklist);
  into.spamWhitelist.push(...m.spamWhitelist);
  if (m.spamBlacklistFile !== undefined) into.spamBlacklistFile = m.spamBlacklistFile;
  if (m.redirects) into.redirects = [...(into.redirects ?? []), ...m.redirects.filter((r) => !into.redirects?.some((x) => x.from === r.from))];
  if (m.interwikimap) into.interwikimap = m.interwikimap;
}
