import { ApiUsageError, apiMessage } from '../api/errors.js';
import type { ApiContext } from '../api/context.js';
import { learnProp, partsCovering, type ContinueType, type ListModule, type SortKey } from '../api/list-module.js';
import { pv, type ParamValues } from '../api/param-spec.js';
import { frozenJson, isFrozenJson, withFrozenMembers } from '../api/frozen.js';
import type { Json, JsonObject } from '../api/result.js';
import { isValid, isValidRange } from '../util/ip.js';
import { parseTimestamp, toMw } from '../util/timestamp.js';
import { compareIndexKeys, type EntityTable, type IndexKey, type KeyRange, type KnownCounts } from '../wiki/entity-table.js';
import { atLeast, type WikiProfile } from '../wiki/profile.js';

/** Two sort keys compared part by part (wiki/entity-table.ts compareIndexKeys). */
export const compareKeys: (a: SortKey, b: SortKey) => number = compareIndexKeys;

/**
 * A list's sort key, worked out once per entity (entities of the model are never changed, and
 * the key is read many times per request: by the window and by every comparison of the sort).
 */
export function memoKey<T extends object>(keyOf: (x: T) => SortKey): (x: T) => SortKey {
  const keys = new WeakMap<T, SortKey>();
  return (x) => {
    let k = keys.get(x);
    if (k === undefined) keys.set(x, (k = keyOf(x)));
    return k;
  };
}

/** What a row's build said it needed and the model does not know (ApiContext.unknown), said again each time the row is shown. */
type Raised = readonly [what: string, how?: 'said'];

/**
 * An entity's rows as some list showed them, by variant, each with what its build flagged, and
 * the `known` props, model and knowledge they were built over (a parsed comment's links read
 * which pages exist).
 */
interface KeptRows {
  known: unknown;
  over: { model: unknown; knows: unknown } | null;
  readonly rows: Map<string, { row: JsonObject; raised: readonly Raised[] }>;
}

/** Entities whose rows are kept, per generation (two are kept: ROWS_KEPT to 2 × ROWS_KEPT entities). */
const ROWS_KEPT = 8192;
let youngRows = new Map<object, KeptRows>();
let oldRows = new Map<object, KeptRows>();

function keptRows(e: object): KeptRows {
  const young = youngRows.get(e);
  if (young) return young;
  const kept = oldRows.get(e) ?? { known: undefined, over: null, rows: new Map() };
  if (youngRows.size >= ROWS_KEPT) {
    oldRows = youngRows;
    youngRows = new Map();
  }
  youngRows.set(e, kept);
  return kept;
}

/**
 * Puts a page of a list's entries into the answer (`query[name]`) as rows, each built once per
 * entity and variant and kept (frozen): once a row is shown again, its text is cached as well
 * (api/frozen.ts), so that printing a page joins its rows' texts, and formatversion=1 converts
 * each row once. `variant` names everything besides the entity that `build` reads (the props, the
 * caller's rights, the version, the user language); `build` is given the context to read (what it
 * flags, ApiContext.unknown, is kept with the row and flagged again each time the row is shown).
 * An entity whose `known` props changed since (a derivation filled a field in, api/list-module.ts
 * learnProp), or shown over another model or knowledge (an identity's view), is built again. The rows of the
 * ROWS_KEPT to 2 × ROWS_KEPT entities shown last are kept, so memory stays bounded on a wiki of any
 * size; a database cassette's entities are new objects at each read and are simply built.
 * docs/decisions/0021-rows-printed-once.md.
 */
export function showRows<E extends object>(ctx: ApiContext, name: string, page: readonly E[], variant: string, build: (e: E, ctx: ApiContext) => JsonObject): void {
  const key = `${name}\u0000${variant}`;
  const rows: JsonObject[] = [];
  let again = false;
  // (made once a row is built: it notes what the build flags)
  let raised: Raised[] = [];
  let noting: ApiContext | null = null;
  for (const e of page) {
    const kept = keptRows(e);
    const known = (e as { known?: unknown }).known;
    if (kept.known !== known || kept.over === null || kept.over.model !== ctx.model || kept.over.knows !== ctx.knows) {
      kept.known = known;
      kept.over = { model: ctx.model, knows: ctx.knows };
      kept.rows.clear();
    }
    let held = kept.rows.get(key);
    if (held === undefined) {
      noting ??= { ...ctx, unknown: (what, how) => void (raised.push(how ? [what, how] : [what]), ctx.unknown(what, how)) };
      raised = [];
      kept.rows.set(key, (held = { row: Object.freeze(build(e, noting)), raised }));
    } else {
      // Shown again: what its build flagged is flagged again, and its text is worth keeping. A
      // row shown once (as every row read from a database is) is printed with the rest of its
      // page in one pass, which costs less.
      for (const [what, how] of held.raised) ctx.unknown(what, how);
      if (!isFrozenJson(held.row)) frozenJson(held.row);
      again = true;
    }
    rows.push(held.row);
  }
  ctx.result.query()[name] = rows;
  if (again) {
    withFrozenMembers(ctx.result.query());
    withFrozenMembers(rows);
  }
}

/** ApiBase::dieContinueUsageIf: the one error for any malformed `xxcontinue`. */
export function badContinue(): ApiUsageError {
  return new ApiUsageError(apiMessage('badcontinue', 'apierror-badcontinue'));
}


/**
 * A 1.39 continue timestamp goes through Database::timestamp(): garbage is an internal error,
 * ConvertibleTimestamp::setTimestamp's; a form it reads whose date falls outside years 0-9999
 * (`00000000000000` rolls back to -0001-11-30, `99999999999999` forward past 9999) fails later,
 * in getTimestamp(TS_MW), with that method's message (as the live 1.39 answers).
 */
function internalTimestampError(value: string): ApiUsageError {
  const detail = parseTimestamp(value, 0, { anyYear: true }) === null ? `setTimestamp: Invalid timestamp - ${value}` : 'getTimestamp: The timestamp cannot be represented in the specified format';
  return new ApiUsageError(
    apiMessage(
      'internal_api_error_Wikimedia\\Timestamp\\TimestampException',
      'apierror-exceptioncaught',
      ['', `Wikimedia\\Timestamp\\ConvertibleTimestamp::${detail}`],
      { errorclass: 'Wikimedia\\Timestamp\\TimestampException' },
    ),
  );
}

/**
 * 1.43's parseContinueParamOrDie keeps a timestamp part only if Database::timestamp() gives it
 * back unchanged: fourteen digits naming a real date of years 0-9999. ConvertibleTimestamp rolls
 * a month 13 or an hour 25 over into the next year or day, so those come back changed and are
 * `badcontinue`, as is a date it cannot represent (`00000000000000`, `99999999999999`).
 */
function roundTrips(value: string): boolean {
  if (!/^\d{14}$/.test(value)) return false;
  const ms = parseTimestamp(value, 0);
  return ms !== null && toMw(ms) === value;
}

/**
 * Parses `<timestamp>|<int>[|<string>]` continue values the way the profile's version does:
 * 1.39 checks loosely (PHP `!=` on the id, timestamps through Database::timestamp), 1.43+
 * with ApiBase::parseContinueParamOrDie (exact forms, everything else `badcontinue`).
 */
export function parseTimestampContinue(
  profile: WikiProfile,
  value: string,
  types: readonly ContinueType[],
  toMw: (v: string) => string | null,
): (string | number)[] {
  const parts = value.split('|');
  if (atLeast(profile, '1.43')) {
    if (parts.length !== types.length) throw badContinue();
    return parts.map((p, i) => {
      const t = types[i];
      if (t === 'int') {
        if (String(Number.parseInt(p, 10)) !== p) throw badContinue();
        return Number(p);
      }
      if (t === 'timestamp') {
        if (!roundTrips(p)) throw badContinue();
        return p;
      }
      return p;
    });
  }
  if (parts.length !== types.length) throw badContinue();
  return parts.map((p, i) => {
    const t = types[i];
    if (t === 'int') {
      if (!phpLooseIntEquals(p)) throw badContinue();
      return Math.trunc(Number(p.trim()));
    }
    if (t === 'timestamp') {
      if (p === '') return '';
      const mw = toMw(p);
      if (mw === null) throw internalTimestampError(p);
      return mw;
    }
    return p;
  });
}

/** PHP 8: `(int)$s != $s` is false only for numeric strings equal to their int value. */
function phpLooseIntEquals(s: string): boolean {
  const numeric = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(s);
  if (!numeric) return false;
  const asInt = Number.parseInt(s.trim(), 10);
  return Number(s.trim()) === asInt;
}

/**
 * Takes `limit` rows of an ordered list and the row after them, which decides the continue
 * value (MediaWiki reads limit+1 rows).
 */
export function takePage<T>(rows: readonly T[], limit: number): { page: T[]; next: T | undefined } {
  return { page: rows.slice(0, limit), next: rows[limit] };
}

/**
 * The window a timestamp-ordered list shows: within `start`/`end` (start is the upper bound for
 * `older`, the lower for `newer`) and from the `continue` row on (that row included), with the
 * continue value parsed as the profile's version does; as bounds on the list's `[timestamp, …]`
 * key in ascending order (wiki/entity-table.ts KeyRange).
 */
export function windowRange(ctx: ApiContext, v: ParamValues, continueTypes: readonly ContinueType[]): { from: IndexKey[]; to: IndexKey[] } & KeyRange {
  const newer = v['dir'] === 'newer';
  const start = pv.str(v['start']);
  const end = pv.str(v['end']);
  const [lo, hi] = newer ? [start, end] : [end, start];
  const range: { from: IndexKey[]; to: IndexKey[] } = { from: lo === null ? [] : [[lo]], to: hi === null ? [] : [[hi]] };
  const cont = pv.str(v['continue']);
  if (cont === null) return range;
  const c = parseTimestampContinue(ctx.profile, cont, continueTypes, (s) => {
    const ms = parseTimestamp(s, ctx.now);
    return ms === null ? null : toMw(ms);
  });
  // An empty 1.39 timestamp part reads as "now" (Database::timestamp('')).
  if (c[0] === '') c[0] = toMw(ctx.now);
  (newer ? range.from : range.to).push(c);
  return range;
}

/**
 * Flags each of `props` that no recording showed for this entity (an entity of a fixture, with no
 * `known` list, is fully known).
 */
export function needProps(ctx: ApiContext, module: string, e: { known?: string[] }, props: Iterable<string>): void {
  if (!e.known) return;
  for (const p of props) if (!e.known.includes(p)) ctx.unknown(`${module}.${p}`);
}

/**
 * Puts an entity's field into its row: one the entity leaves out (a fixture that does not give it,
 * a walk that did not ask for it; flagged where it is asked for: needProps) is left out of the
 * row too, never printed as a default.
 */
export function putField(row: JsonObject, name: string, value: Json | undefined): void {
  if (value !== undefined) row[name] = value;
}

/** Per table: its counts of `known` props, and the knowledge they were counted under. */
const knownCounts = new WeakMap<EntityTable<object>, { knows: unknown; counts: KnownCounts }>();

/**
 * Flags each of `props` that some entity of `table` was recorded without: what needProps flags for
 * each entity in turn, from counts made once per table (a list that grew gets a new table) and
 * again when knowledge, which fills in props, was worked out since; not a pass per request.
 */
export function needPropsOfAll(ctx: ApiContext, module: string, table: EntityTable<object>, props: Iterable<string>): void {
  let held = knownCounts.get(table);
  if (!held || held.knows !== ctx.knows) knownCounts.set(table, (held = { knows: ctx.knows, counts: table.knownCounts() }));
  const { withKnown, byProp } = held.counts;
  for (const p of props) if ((byProp.get(p) ?? 0) < withKnown) ctx.unknown(`${module}.${p}`);
}

/**
 * A list's answer depends on every entry of it (of the part `scope` names, see ListWalk): flagged
 * unless the recordings walked it completely.
 */
export function needCompleteList(ctx: ApiContext, list: Pick<ListModule, 'name' | 'walk'>, scope = ''): void {
  const k = ctx.knows;
  if (!k) return;
  const walked = k.walks.get(list.name);
  if (!walked || partsCovering(list, walked, scope).length === 0) ctx.unknown(`${list.name}.entries`);
}

/**
 * needCompleteList for a page of a list, once its rows are read (up to `limit` + 1, in the
 * question's order, as MediaWiki reads them): without a complete walk of the part asked, the page
 * is known when the first pages of a walk of it (WalkPrefix: recorded from the list's first entry,
 * in the same direction, not to the end) show its every row and the row after: every entry from
 * the list's first up to the row their last `continue` names is in the model, so the rows read
 * are the wiki's when the row after the page lies before that one. A page that ends before
 * `limit` + 1 rows is known when its window's end (`pastEnd`: whether a key lies past it, in the
 * reading direction; `leend`, `apto`, `apprefix`) comes before that row; at the list's end, or past
 * that row, it stays flagged. A page read the other way is known when its window starts inside the
 * stretch (`startsPast`: whether the window's start lies past a key in the reading direction;
 * `lestart`, a continuation point): it reads from there towards the list's first entry, all of it
 * within the stretch.
 */
export function needWalkedWindow<E extends object>(
  ctx: ApiContext,
  list: Pick<ListModule<E>, 'name' | 'walk' | 'order'>,
  rows: readonly E[],
  limit: number,
  dir: string | null,
  scope = '',
  window: WindowChecks = {},
): void {
  const { pastEnd = () => false, startsPast = () => false } = window;
  const k = ctx.knows;
  if (!k) return;
  const walked = k.walks.get(list.name);
  if (walked && partsCovering(list, walked, scope).length > 0) return;
  // (a `dir` left out is the list's first direction: allpages' `ascending`; the others' key fills theirs in)
  const backwards = (d: string | null) => d === list.order.backwards;
  const types = list.order.continueTypes;
  const after = rows[limit];
  const key = after === undefined ? null : list.order.key(after);
  const tail = key === null ? null : key.slice(key.length - types.length);
  for (const p of k.walkPrefixes.get(list.name) ?? []) {
    if (partsCovering(list, [p.scope], scope).length === 0) continue;
    const until = continuePoint(p.until, types);
    if (until === null) continue;
    if (backwards(p.dir) !== backwards(dir)) {
      if (startsPast(until)) return;
      continue;
    }
    if (tail === null ? pastEnd(until) : backwards(dir) ? compareKeys(tail, until) > 0 : compareKeys(tail, until) < 0) return;
  }
  ctx.unknown(`${list.name}.entries`);
}

/** What needWalkedWindow asks of a question's window: whether a key lies past its end, and whether it starts past a key (none given: never). */
interface WindowChecks {
  readonly pastEnd?: (key: SortKey) => boolean;
  readonly startsPast?: (key: SortKey) => boolean;
}

/**
 * needWalkedWindow's checks of a timestamp-ordered list's question, over its window (windowRange,
 * worked out once, and only when a check asks: most pages need neither), each bound compared over
 * its own parts with a key (the last parts of the list's key, as its continuation names them),
 * in the reading direction (`order.backwards`: the `dir` that reads from the newest entry):
 * `pastEnd`, a key lies outside the `end` bound (on the side the reading goes to; no `end`:
 * never); `startsPast`, one of its start bounds (`start`, the continuation point, on the side the
 * reading comes from) lies strictly past a key, so no entry of that key's second (or point) is read.
 */
export function timeWindow(ctx: ApiContext, v: ParamValues, order: Pick<ListModule['order'], 'continueTypes' | 'backwards'>): WindowChecks {
  let range: { from: IndexKey[]; to: IndexKey[] } | null = null;
  const window = () => (range ??= windowRange(ctx, v, order.continueTypes));
  // (a `dir` left out reads as the list's default, `older`, as windowRange takes it)
  const dir = pv.str(v['dir']);
  const forward = dir !== null && dir !== order.backwards;
  /** Whether `a` lies past `b` in the reading direction. */
  const past = (a: SortKey, b: SortKey) => (forward ? compareKeys(a, b) > 0 : compareKeys(a, b) < 0);
  return {
    pastEnd: (key) => (forward ? window().to : window().from).some((b) => past(key.slice(0, b.length), b)),
    startsPast: (key) => (forward ? window().from : window().to).some((b) => past(b, key.slice(0, b.length))),
  };
}

/** A recorded `continue` value as the last parts of its list's sort key (as the list's continueValue wrote it), or null when it is not one. */
function continuePoint(value: string, types: readonly ContinueType[]): SortKey | null {
  const parts = value.split('|');
  if (parts.length !== types.length) return null;
  const out: (string | number)[] = [];
  for (const [i, p] of parts.entries()) {
    if (types[i] !== 'int') out.push(p);
    else if (/^-?\d+$/.test(p)) out.push(Number(p));
    else return null;
  }
  return out;
}

/** A user id that follows from a name: anonymous (IP) actors have id 0, accounts what an answer showed. */
function idOf(name: unknown, ids: ReadonlyMap<string, number>): number | undefined {
  if (typeof name !== 'string') return undefined;
  if (isValid(name) || isValidRange(name)) return 0;
  return ids.get(name);
}

/**
 * An entity's user id (`idProp`, also its field) that follows from a user name its recordings
 * showed, when no recording showed the id: `known` gains `idProp`.
 */
export function deriveUserId<E extends { known?: string[] }>(e: E, idProp: string, name: unknown, ids: ReadonlyMap<string, number>): void {
  if (!e.known || e.known.includes(idProp)) return;
  const id = idOf(name, ids);
  if (id === undefined) return;
  (e as Record<string, unknown>)[idProp] = id;
  learnProp(e, idProp);
}

/**
 * A required field's type: a JSON type, or a timestamp as the API prints it (`2024-03-01T10:00:00Z`,
 * which orders the list), or an expiry (such a timestamp or `infinity`).
 */
type FixtureFieldType = 'number' | 'string' | 'boolean' | 'timestamp' | 'expiry';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Whether a fixture's field has a type; what it must be, said as an error names it. */
const FIELD_TYPES: Record<FixtureFieldType, [(v: unknown) => boolean, string]> = {
  number: [(v) => typeof v === 'number', 'a number'],
  string: [(v) => typeof v === 'string', 'a string'],
  boolean: [(v) => typeof v === 'boolean', 'a boolean'],
  timestamp: [(v) => typeof v === 'string' && ISO.test(v) && !Number.isNaN(Date.parse(v)), 'a timestamp such as 2024-03-01T10:00:00Z'],
  expiry: [(v) => v === 'infinity' || (typeof v === 'string' && ISO.test(v) && !Number.isNaN(Date.parse(v))), '"infinity" or a timestamp such as 2024-03-01T10:00:00Z'],
};

/** How a list reads a fixture's entry (ListEntity.fromFixture, through fixtureEntry). */
export interface FixtureFields<E> {
  /**
   * The fields every answer needs, with their types: what names the entry, its sort key, what
   * decides whether it is listed at all. An entry without one is refused when the file is read.
   */
  readonly required: Readonly<Record<string, FixtureFieldType>>;
  /**
   * For each prop, whether the entry (read by `normalize`) gives what that prop prints. A prop it
   * does not give is not known for the entry (its `known` lacks it): an answer that shows it, or a
   * filter that reads it, is flagged `<list>.<prop>` (needProps, needPropsOfAll), never printed
   * with a made-up value.
   */
  readonly props: Readonly<Record<string, (e: E) => boolean>>;
  /** The entry as the model keeps it: fields that follow for certain from the others filled in. */
  readonly normalize?: (e: E) => E;
}

/**
 * A fixture's entry checked and read (ListEntity.fromFixture), or what is wrong with it: its
 * required fields of their types, and `known` the props it gives when it leaves some out (an entry
 * that gives them all is fully known, as fixtures are). A field left out is never filled with a
 * default: what only some answers print is flagged when they print it.
 */
export function fixtureEntry<E extends { known?: string[] }>(entry: Record<string, unknown>, fields: FixtureFields<E>): E | string {
  for (const [field, type] of Object.entries(fields.required)) {
    const [ok, what] = FIELD_TYPES[type];
    if (!ok(entry[field])) return `every entry needs "${field}" (${what})`;
  }
  const read = (fields.normalize ?? ((e: E) => e))({ ...entry } as unknown as E);
  const given = Array.isArray(entry['known']) ? (entry['known'] as string[]) : null;
  const props = Object.keys(fields.props);
  const known = props.filter((p) => fields.props[p]!(read) && (given === null || given.includes(p)));
  if (known.length === props.length) {
    delete read.known;
    return read;
  }
  read.known = known.sort();
  return read;
}

/** A user id that follows from a fixture entry's user name for certain: an IP actor's, 0. */
export function ipUserId(name: unknown): number | undefined {
  return typeof name === 'string' && (isValid(name) || isValidRange(name)) ? 0 : undefined;
}
