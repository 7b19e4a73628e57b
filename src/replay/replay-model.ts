import { isDeepStrictEqual } from 'node:util';
import { entityId, mergeWithFixture, ownKinds, type ListEntity, type ListModule } from '../api/list-module.js';
import type { JsonObject } from '../api/result.js';
import { emptyHarvest, identityKey, type Harvest } from '../cassette/format.js';
import { PAGES, addEntities, copyModel, entitiesOf, mergePage, type Knowledge, type WikiModel } from '../wiki/model.js';
import type { CassetteIndex } from './cassette-index.js';
import { preparedByStore, buildKnowledge, entitiesPrepared, prepareView } from './knowledge.js';
import { knowledgeKeys } from '../cassette/sql-prepare.js';

/**
 * What replay answers from, put together where the engine is built (app.ts loadEngine): the
 * model of what the cassettes showed and the fixtures give, and how what the recordings prove is
 * worked out, each list's entities as its module describes them (api/list-module.ts).
 */

/**
 * How the model's knowledge is worked out (replay/knowledge.ts): the engine calls it when a
 * computed answer first needs it (cassette hits never do; it reads the summaries of the recorded
 * list and extlinks answers, and the meta answers). What fixtures list is theirs to declare: a list they give is complete, and so
 * are their pages' links and spam lines.
 */
export function knowledgeOf(model: WikiModel, lists: readonly ListModule[], cassettes: CassetteIndex, fixtures: WikiModel, readerView: (key: string) => boolean): () => Knowledge {
  // What readers were shown (and users who see what readers see): others' recordings answer them alone.
  // Each walk's page as its summary gives it (cassette/walk-summary.ts): the answers are not read again.
  // A prepared database keeps the pages its walks of links prove complete (cassette/sql-prepare.ts):
  // when its entities' link ids were learned when it was written too, its extlinks answers teach
  // nothing more and are not read (a snapshot's link-id crawl: one answer per page with links).
  const linkPages = cassettes.linkPages;
  const skipLinks = () => linkPages !== null && preparedByStore(model);
  const recorded = () => {
    const skip = skipLinks();
    // (of such a database, only the keys knowledge reads are read: through an index, cassette/sql-prepare.ts)
    return cassettes.interactions.teaching((k) => TEACHING.test(k) && readerView(k) && !(skip && LINKS_ONLY.test(k) && !META.test(k)), skip ? (db) => knowledgeKeys(db.db) : undefined);
  };
  return () => {
    // The test suite's check that summaries teach what the answers teach, on every cassette it replays.
    const twin = process.env['WIKITAPE_CHECK_SUMMARIES'] ? twinOf(model) : null;
    const knows = buildKnowledge(model, lists, recorded, linkPages?.());
    if (twin) sameAsFromAnswers(knows, model, buildKnowledge(twin, lists, () => cassettes.interactions.values((k) => TEACHING.test(k) && readerView(k))), twin);
    return withFixtures(knows, lists, fixtures);
  };
}

/** A copy of a model to work knowledge out again on, its entities prepared if the model's are. */
function twinOf(model: WikiModel): WikiModel {
  const twin = copyModel(model);
  if (preparedByStore(model)) entitiesPrepared(twin);
  return twin;
}

/** Throws when knowledge from the walks' summaries differs from knowledge from the answers (WIKITAPE_CHECK_SUMMARIES). */
function sameAsFromAnswers(knows: Knowledge, model: WikiModel, fromAnswers: Knowledge, twin: WikiModel): void {
  // (pages a database keeps, read all: what its walks of links prove is what their answers prove)
  if (!isDeepStrictEqual({ ...knows, completeLinks: new Set(knows.completeLinks) }, fromAnswers) || !isDeepStrictEqual(model, twin)) throw new Error('wikitape: knowledge from the walk summaries differs from knowledge from the answers');
}

/** The recorded questions knowledge reads: lists, meta and prop answers. */
const TEACHING = /(?:^|&)(?:list|meta|prop)=/;
/** Keys of `prop=extlinks` questions (keys are canonical: a multi-value prop has its `|` encoded), and of meta questions. */
const LINKS_ONLY = /(?:^|&)prop=extlinks(?=&|$| @)/;
const META = /(?:^|&)meta=/;

/** What fixtures declare, added to what recordings prove (see knowledgeOf). */
function withFixtures(knows: Knowledge, lists: readonly ListModule[], fixtures: WikiModel): Knowledge {
  // A fixture that lists a kind of entity lists all of it: every list of that kind, whole, is
  // complete (a list whose question without parameters is about a part of it, as allpages' about a
  // namespace, is not).
  for (const list of lists) {
    if (list.walk.scope({}) !== '' || entitiesOf(fixtures, list.entity.kind).length === 0) continue;
    knows.walks.set(list.name, new Set([...(knows.walks.get(list.name) ?? []), '']));
  }
  for (const p of fixtures.pages) knows.completeLinks.add(p.pageid);
  knows.spamPatterns = fixtures.spamBlacklist.length > 0 || fixtures.spamWhitelist.length > 0;
  return knows;
}

/** What a logged-in identity's own recordings teach its computed answers (see identityViews). */
export interface IdentityView {
  model: WikiModel;
  knows: Knowledge;
}

/** Works out an identity's view, given what readers' recordings prove (`everyone`). */
export type LearnAs = (identity: string, everyone: Knowledge) => IdentityView | null;

/** Harvests the entities an answer shows (record/harvest.ts, handed down by app.ts: replay does not import record). */
type HarvestAnswer = (into: Harvest, body: JsonObject, request: Readonly<Record<string, string>>) => void;

/**
 * Knowledge per identity (docs/decisions/0006-sessions-are-identities.md): a user who sees more
 * than readers (VISIBILITY_RIGHTS; `readerView` false) learns the lists they see more of
 * (ListModule.widerForRights: hidden log entry parts, suppressed blocks, user ids) from their own
 * recordings only: their entities harvested from their answers, their complete walks. The rest
 * (pages, lists everyone sees alike, recorded meta answers) is what readers were shown. Null for
 * an identity with no recordings of its own, or one that sees what readers see (its recordings
 * teach readers' answers already: knowledgeOf).
 */
export function identityViews(model: WikiModel, lists: readonly ListModule[], cassettes: CassetteIndex, fixtures: WikiModel, readerView: (key: string) => boolean, harvest: HarvestAnswer): LearnAs {
  return (identity, everyone) => {
    const suffix = identityKey('', identity);
    if (readerView(suffix)) return null;
    const own = [...cassettes.interactions.values((k) => k.endsWith(suffix) && TEACHING.test(k))];
    if (own.length === 0) return null;
    // A kind fixtures list is theirs to declare, whole, for everyone.
    const wider = lists.filter((l) => l.widerForRights && l.entity.kind !== PAGES && entitiesOf(fixtures, l.entity.kind).length === 0);
    const seen = emptyHarvest();
    for (const i of own) harvest(seen, i.body, i.request);
    const view: WikiModel = { ...model, entities: new Map(model.entities) };
    for (const list of wider) {
      view.entities.set(list.entity.kind, []);
      addEntities(view, list.entity.kind, (seen[list.entity.kind] ?? []) as object[]);
    }
    prepareView(view, lists, wider);
    const knows = buildKnowledge(view, lists, () => own);
    // Lists everyone sees alike, pages and meta: what readers were shown; the wider lists: the identity's own walks.
    // Their walks' recording times too: under --clock recorded, a computed answer is as of its own walk.
    const walks = new Map(everyone.walks);
    const walkTimes = new Map(everyone.walkTimes);
    const walkPrefixes = new Map(everyone.walkPrefixes);
    for (const list of wider) {
      walks.set(list.name, knows.walks.get(list.name) ?? new Set());
      walkTimes.set(list.name, knows.walkTimes.get(list.name) ?? new Map());
      walkPrefixes.set(list.name, knows.walkPrefixes.get(list.name) ?? []);
    }
    return { model: view, knows: { ...everyone, walks, walkTimes, walkPrefixes } };
  };
}

/**
 * A fixture's entity that knows every prop (no `known`) though it leaves out a field some prop
 * prints (a hidden part's, an autoblock's target), with `known` named: else knowledge would infer
 * it from the fields it has (api/entity-passes.ts inferKnown, for entities recorded before `known`
 * was kept) and refuse what the fixture answers.
 */
function knownAsGiven(entity: ListEntity<object>, e: object): object {
  if ((e as { known?: unknown }).known !== undefined) return e;
  const fields = Object.entries(entity.propFields);
  return fields.every(([, f]) => f in e) ? e : { ...e, known: fields.map(([p]) => p).sort() };
}

/** Adds one model's entities to another (fixtures after harvested entities), each kind as its list names its entities. */
export function mergeModel(into: WikiModel, m: WikiModel, lists: readonly ListModule[]): void {
  // An entity both recorded and in a fixture is kept once: the recorded one, with what only the
  // fixture knows of it when the two agree on what both know (mergeWithFixture).
  for (const entity of ownKinds(lists)) {
    const { kind, idFields } = entity;
    // Nothing to add leaves a kind a database holds unread.
    if (entitiesOf(m, kind).length === 0) continue;
    // (a new list: a table is kept per list, wiki/entity-table.ts tableOver)
    const list = [...entitiesOf(into, kind)];
    const held = new Map(list.map((e, i) => [entityId(idFields, e), i]));
    const added: object[] = [];
    for (const e of entitiesOf(m, kind)) {
      const i = held.get(entityId(idFields, e));
      if (i === undefined) added.push(knownAsGiven(entity, e));
      else list[i] = mergeWithFixture(entity, list[i]!, e);
    }
    into.entities.set(kind, list);
    addEntities(into, kind, added);
  }
  if (entitiesOf(m, PAGES).length > 0) {
    const held = new Set(entitiesOf(into, PAGES).map((p) => p.pageid));
    addEntities(into, PAGES, entitiesOf(m, PAGES).filter((p) => !held.has(p.pageid)));
  }
  // A page in both keeps what only the fixture says of it (a redirect, its length …: mergePage).
  const at = new Map(m.pages.length === 0 ? [] : entitiesOf(into, PAGES).map((p, i) => [p.pageid, i]));
  for (const p of m.pages) {
    const i = at.get(p.pageid);
    if (i !== undefined) into.pages[i] = mergePage(into.pages[i]!, p);
  }
  // (loops, not push(...list): a list of a million passes the call stack's limit)
  for (const line of m.spamBlacklist) into.spamBlacklist.push(line);
  for (const line of m.spamWhitelist) into.spamWhitelist.push(line);
  if (m.spamBlacklistFile !== undefined) into.spamBlacklistFile = m.spamBlacklistFile;
  // A redirect both recorded and in a fixture: the recorded one (a set of titles, not a search per redirect).
  if (m.redirects) {
    const held = new Set((into.redirects ?? []).map((r) => r.from));
    into.redirects = [...(into.redirects ?? []), ...m.redirects.filter((r) => !held.has(r.from))];
  }
  if (m.interwikimap) into.interwikimap = m.interwikimap;
}
