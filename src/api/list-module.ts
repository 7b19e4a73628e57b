import { isDeepStrictEqual } from 'node:util';
import { PAGES, type EntityKind, type Knowledge } from '../wiki/model.js';
import { idOfFields, type IndexSpecs } from '../wiki/entity-table.js';
import type { KeyFacts } from './key-facts.js';
import type { QueryModule } from './query-module.js';
import type { JsonObject } from './result.js';
import type { ParamMap } from '../request/params.js';

/** A key that orders a list (timestamp, then ids), compared lexicographically. */
export type SortKey = readonly (string | number)[];

/** The JSON types an entity's field may have in a cassette (`cassettes verify` checks them). */
export type FieldType = 'integer' | 'string' | 'boolean' | 'object' | 'strings' | 'list';

/** An entity's fields as a cassette keeps them: those that name it are required, the others typed when present (a walk may not have asked for them). */
export interface FieldTypes {
  readonly required: Readonly<Record<string, FieldType>>;
  readonly optional: Readonly<Record<string, FieldType>>;
}

/** A page's fields (the wiki's own kind, which list=allpages shows). */
export const PAGE_FIELD_TYPES: FieldTypes = {
  required: { pageid: 'integer', ns: 'integer', title: 'string', extlinks: 'list' },
  optional: { redirect: 'boolean', length: 'integer', protection: 'list', langlinks: 'list' },
};

/**
 * How a list, as a generator, hands ApiPageSet its pages: compares two pages of an answer (its
 * formatversion=2 data), given the request (its parameters `g`-prefixed).
 */
export type GeneratorOrder = (a: JsonObject, b: JsonObject, params: ParamMap) => number;

/** The types of a continuation value's `|`-separated parts (ApiBase::parseContinueParamOrDie's). */
export type ContinueType = 'timestamp' | 'int' | 'string';

/**
 * A list module (`list=`), as MediaWiki's module class describes itself, and everything else
 * wikitape needs to know of the list, declared once in the module's file: its key facts, which
 * parameters filter and which page, its entities (kind, id, how an answer shows them, how they
 * merge, what shows a prop, what follows from what is known), what a walk of it proves, its
 * order, what a snapshot records of it, and, as every query module, its parameters, execution,
 * cache mode and debuginfo trace. Keys, coverage, knowledge, harvest, snapshot, diff, fixtures and
 * the model ask the registry (modules/index.ts) for these; no other file names a list.
 */
export interface ListModule<E extends object = object> extends QueryModule {
  readonly group: 'list';
  /** What it folds into the cassette key; `defaults` spelled as the key spells them (sets sorted). */
  readonly key: Required<Pick<KeyFacts, 'defaults' | 'sets'>> & KeyFacts;
  /** Its parameters by role (unprefixed names). */
  readonly roles: ListRoles;
  /** Parameters (unprefixed) that change which entries a question sees, besides its time window (roles.start, end): a complete walk has none. */
  readonly filters: readonly string[];
  /** What a walk of the list (its first page to its last, following continuation) proves. */
  readonly walk: ListWalk;
  /** Its entities. */
  readonly entity: ListEntity<E>;
  /** The order of its entries. */
  readonly order: ListOrder<E>;
  /** Every prop it shows on every supported version (values of its prop parameter; none: it has no prop parameter). */
  readonly props: readonly string[];
  /** The walks `wikitape snapshot` records of it, each to its end: the parameters besides `action` and `list`. */
  readonly snapshot: readonly Readonly<Record<string, string>>[];
  /**
   * A caller with rights readers lack (hidden log entry parts, the suppression log, hidden blocks:
   * VISIBILITY_RIGHTS) sees more of it than readers' recordings show.
   */
  readonly widerForRights: boolean;
  /**
   * Its entries are `assoc`-typed arrays in ApiResult (an entry with only false flags prints `{}`
   * in formatversion=1, not `[]`).
   */
  readonly assocEntries: boolean;
  /**
   * As a generator, the order it hands ApiPageSet its pages in, which formatversion=1 keeps
   * (`query.pages` keyed by id in that order; formatversion=2 lists them by id). Absent: the
   * answer does not show it (a list whose titles the page set looks up again).
   */
  readonly generatorOrder?: GeneratorOrder;
  /**
   * When an entry an answer shows stops being shown (a block's expiry, ISO 8601), or null: a
   * recorded answer with one passed is computed afresh. Absent: entries never expire.
   */
  expiry?(row: JsonObject): string | null;
}

/** A list module's parameters by role, unprefixed (`limit`, `continue`, `dir`, `prop`). */
interface ListRoles {
  readonly limit: string;
  readonly continue: string;
  /** Its direction parameter, or null. */
  readonly dir: string | null;
  /** Its prop parameter, or null (a list without props). */
  readonly prop: string | null;
  /**
   * The parameters bounding its time window (`start`, `end`: the timestamp lists, read `newer`
   * from `start` to `end`, `older` from `start` back to `end`), or null for a list without one.
   */
  readonly start: string | null;
  readonly end: string | null;
}

/** What a walk of a list proves (cassette/coverage.ts finds the walks, replay/knowledge.ts keeps what they prove). */
interface ListWalk {
  /**
   * Parameters (unprefixed) whose value picks the part of the list a walk covers (allpages: the
   * namespace and `filterredir`); none: the list is one whole.
   */
  readonly scopeParams: readonly string[];
  /**
   * The part of the list a walk asked with these canonical parameters covers ('' : the whole
   * list), or null when such a walk proves nothing.
   */
  scope(request: Readonly<Record<string, string>>): string | null;
  /**
   * Whether a complete walk of part `walked` holds every entry of part `asked` (both as `scope`
   * names them): a walk of a filter holds every entry of any narrower one. Absent: the same part only.
   */
  covers?(walked: string, asked: string): boolean;
  /** What complete walks of these parts teach beyond the list's own entries (allpages: which titles exist). */
  learn?(scopes: ReadonlySet<string>, knows: Knowledge): void;
}

/**
 * The parts of `walked` (parts of a list walked completely) whose walk holds every entry of the
 * part `asked`: that part itself, and those the list's `covers` says hold it.
 */
export function partsCovering(list: Pick<ListModule, 'walk'>, walked: Iterable<string>, asked: string): string[] {
  const covers = list.walk.covers;
  return [...walked].filter((w) => w === asked || (covers !== undefined && covers(w, asked)));
}

/** The entities of a list: how the model and the cassette keep them. */
export interface ListEntity<E extends object> {
  /** The kind they are kept as (`entities.<kind>`): the list's own, or the wiki's own (PAGES). */
  readonly kind: EntityKind<E>;
  /**
   * The fields that name one entity, in the model and in an answer's rows: harvest merges by them,
   * `cassettes diff` matches rows by them.
   */
  readonly idFields: readonly string[];
  /**
   * The props without which an answer's rows do not show their id fields (the log's `ids`, a
   * block's `id`): such rows name no entity, and a walk that did not ask for them proves nothing
   * about its part (cassette/coverage.ts). Absent: every answer shows them.
   */
  readonly idProps?: readonly string[];
  /**
   * The entity one row of an answer shows, for a question with these canonical parameters that
   * asked for `props` (kept as `known`); null for a row that is none.
   */
  fromRow(row: JsonObject, props: readonly string[], request: Readonly<Record<string, string>>): E | null;
  /**
   * Merges an entity seen again in the same version (see `version`) into the one held: later
   * answers add what earlier ones lacked. Harvest and replay call it through mergeSighting.
   */
  merge(held: E, seen: E): E;
  /**
   * Which version of the entity a sighting shows (the fields that change when the wiki changes
   * it: a block's timestamp, a protection's timestamp and level), or null when the sighting does
   * not show them. Two sightings of one version add up (`merge`); a later one of another version,
   * or one that cannot tell, replaces what was held. Absent: the entity never changes (a log
   * event is its log id).
   */
  version?(e: E): string | null;
  /**
   * The indexes it is read through (wiki/entity-table.ts), as data the stores read: `order`, its
   * list's order, and one per filter that picks a narrow part of it (a user's log events).
   */
  readonly indexes: IndexSpecs<E>;
  /** Its fields' JSON types as a cassette keeps them: an entity of the wrong type would be served as if the wiki had shown it. */
  readonly fieldTypes: FieldTypes;
  /**
   * A fixture's entry as the model keeps it, or what is wrong with it (a field every answer needs
   * left out): an entry that leaves out what some props print is known without them (`known`).
   */
  fromFixture(entry: Record<string, unknown>): E | string;
  /**
   * For each prop, the field whose presence shows that an answer asked for it: `known` of entities
   * recorded before `known` was kept is inferred from these.
   */
  readonly propFields: Readonly<Record<string, string>>;
  /**
   * For each prop, every field of the entity its answer prints (propFields names one of them):
   * what a recording that showed the prop says of the entity (mergeWithFixture).
   */
  readonly printedFields: Readonly<Record<string, readonly string[]>>;
  /** Its parts hidden from readers (log_deleted, a hidden block), as bits: absent, it hides none. */
  readonly hidden?: HiddenParts<E>;
  /** The users an entity names with their ids (`[name, id]`): a name's id then follows in every list. */
  users?(e: E): Iterable<readonly [unknown, unknown]>;
  /** Fills in the fields that follow from what is known (a user id from a name, a range from a target). */
  derive?(e: E, ids: ReadonlyMap<string, number>): void;
}

/**
 * Which parts of an entity are hidden, as bits (a log event's log_deleted; a block hidden from
 * readers), and which of those bits a row shows for certain: a row shows a part's marker only
 * with the props that print that part, so an entity recorded without them says nothing of it.
 */
interface HiddenParts<E extends object> {
  bits(e: E): number;
  /** The bits an entity known with these props (all: every prop) tells. */
  shown(e: E, known: readonly string[]): number;
  /** The entity with these bits. */
  withBits(e: E, bits: number): E;
}

/** The order of a list's entries: what a sorted index of it holds. */
interface ListOrder<E extends object> {
  /** Its entries' key, ascending (the `dir` that reads backwards reverses it). */
  key(e: E): SortKey;
  /** The continuation value that makes `e` the first entry of the next page. */
  continueValue(e: E): string;
  /** The types of the continuation's parts: it parses to the last parts of `key` (the scope fixes the others). */
  readonly continueTypes: readonly ContinueType[];
  /** The value of the list's direction parameter that reads this order from its last entry back (`older`, `descending`). */
  readonly backwards: string;
}

/** Merges an entity seen again (ListEntity.merge): its fields over the held one's, `known` the union of both. */
export function mergeKnown<E extends { known?: string[] }>(held: E, seen: E): E {
  const known = held.known === undefined || seen.known === undefined ? undefined : [...new Set([...held.known, ...seen.known])].sort();
  return { ...held, ...seen, ...(known ? { known } : {}) };
}

/**
 * An entity seen again (`later`, the later sighting) merged into the one held (`earlier`): while
 * both show the same version (ListEntity.version) what either showed stays known, so that a
 * smaller recording after a snapshot takes nothing away; a changed version, or a sighting that
 * cannot tell, leaves the later one alone (what the earlier showed may no longer be true).
 */
export function mergeSighting<E extends object>(entity: Pick<ListEntity<E>, 'merge' | 'version'>, earlier: E, later: E): E {
  if (!entity.version) return entity.merge(earlier, later);
  const v = entity.version(earlier);
  return v !== null && v === entity.version(later) ? entity.merge(earlier, later) : later;
}

/**
 * An entity both recorded (`recorded`) and in a fixture (`fixture`), as replay keeps it: for each
 * prop the recording showed, the recording's fields (the wiki's own answer), for each other prop
 * the fixture knows, the fixture's; `known` the union of both.
 * Which parts are hidden is the recording's where its row showed them, else the fixture's. When
 * the two disagree on anything both know (a field, a hidden part, which version of the entity),
 * the fixture is not of the wiki as recorded: the recorded entity alone is kept.
 */
export function mergeWithFixture<E extends { known?: string[] }>(entity: Pick<ListEntity<E>, 'printedFields' | 'hidden' | 'version'>, recorded: E, fixture: E): E {
  const recKnown = recorded.known;
  if (recKnown === undefined) return recorded;
  const props = Object.keys(entity.printedFields);
  const fixKnown = fixture.known ?? props;
  const rec = recorded as Record<string, unknown>;
  const fix = fixture as Record<string, unknown>;
  if (entity.version) {
    const v = entity.version(recorded);
    if (v === null || v !== entity.version(fixture)) return recorded;
  }
  // (a field two props print, as a protected title's user id, is the recording's when it showed either)
  const fieldsOf = (known: readonly string[]) => new Set(known.flatMap((p) => entity.printedFields[p] ?? []));
  const recFields = fieldsOf(recKnown);
  const fixFields = fieldsOf(fixKnown);
  // (a field one side leaves out, a hidden part's or one a version does not print, is compared through the hidden bits)
  for (const f of recFields) if (fixFields.has(f) && rec[f] !== undefined && fix[f] !== undefined && !isDeepStrictEqual(rec[f], fix[f])) return recorded;
  const h = entity.hidden;
  const recShown = h ? h.shown(recorded, recKnown) : 0;
  const fixShown = h ? h.shown(fixture, fixKnown) : 0;
  if (h && (h.bits(recorded) ^ h.bits(fixture)) & recShown & fixShown) return recorded;
  const added = props.filter((p) => !recKnown.includes(p) && fixKnown.includes(p));
  if (added.length === 0 && (!h || (fixShown & ~recShown) === 0)) return recorded;
  const out: Record<string, unknown> = { ...rec };
  for (const p of added) {
    for (const f of entity.printedFields[p] ?? []) {
      if (recFields.has(f)) continue;
      if (fix[f] === undefined) delete out[f];
      else out[f] = fix[f];
    }
  }
  // (kept even when it names every prop: an entity without `known` has it inferred from the fields
  // it has, api/entity-passes.ts inferKnown, and a hidden part's are left out)
  out['known'] = [...new Set([...recKnown, ...added])].sort();
  if (!h) return out as E;
  const fromFixture = fixShown & ~recShown;
  return h.withBits(out as E, (h.bits(recorded) & ~fromFixture) | (h.bits(fixture) & fromFixture));
}

/** The name an entity (or an answer's row) has among its kind: its id fields' values. */
export const entityId: (idFields: readonly string[], e: object) => string = idOfFields;

/** Marks a prop known for an entity (a derivation filled in its field). */
export function learnProp(e: { known?: string[] }, prop: string): void {
  if (e.known && !e.known.includes(prop)) e.known = [...e.known, prop].sort();
}

/** The kinds of entity lists keep of their own (not the wiki's pages), each once, in the lists' order. */
export function ownKinds(lists: readonly ListModule[]): ListEntity<object>[] {
  const out: ListEntity<object>[] = [];
  for (const l of lists) if (l.entity.kind !== PAGES && !out.some((e) => e.kind === l.entity.kind)) out.push(l.entity);
  return out;
}
