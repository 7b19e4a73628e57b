import type { Interaction } from './format.js';
import { partsCovering, type ListModule } from '../api/list-module.js';
import { RENDERING_PARAMS, splitMulti } from '../request/canonical.js';
import type { ParamMap } from '../request/params.js';
import type { WalkPrefix } from '../wiki/model.js';
import { parseTimestamp, toMw } from '../util/timestamp.js';

/**
 * The coverage rule: which questions the recordings answer exactly though nobody asked them.
 *
 * A list (or the part of it a walk's scope names, see ListWalk) is *covered* when the cassettes
 * hold a complete walk of it: a first page (no continuation) without filters other than those
 * naming the part (allpages' namespace, the log's type, user …), and, following each
 * page's `continue` to a recorded page, a last page without `continue`. Its entities are then
 * every entry of that list at recording time, with the props the walk asked for. Any question
 * about that list alone, of that part or one it holds (ListWalk.covers), with any limit,
 * continuation point, direction, time window or filter, and props among the recorded ones, is
 * then a computation over those entities: the built-in
 * module does it, and the answer is called `synthesized`. Anything else is `builtin` (a best
 * effort over what was seen). What is a filter, what pages and what picks a part is each list
 * module's to say (api/list-module.ts): the lists are given to each function here.
 *
 * A walk recorded from its first page but not to its last proves its stretch of the list
 * (WalkPrefix): a page within it is computed too (modules/list-support.ts needWalkedWindow,
 * docs/decisions/0026-first-pages-of-a-walk.md).
 */
export interface ListCoverage {
  /** Props the complete walk recorded (a question may ask for these or fewer). */
  props: Set<string>;
  /**
   * When the part was walked: the latest `recordedAt` of the pages of its complete walks (of the
   * newest one, when it was walked more than once). Answers computed from it are as of then
   * (docs/decisions/0015-a-clock-per-recording.md).
   */
  recordedAt: string;
}

/** Parameters that do not change which data a question asks for. */
const NEUTRAL = new Set(['action', 'list', 'continue', 'uselang', 'errorformat', 'errorlang']);

/**
 * What clients add to each page of a walk that changes no list's answer: page set options without
 * a page set (wikijs's `redirects`), assertions, which either hold or fail the whole answer
 * (`assert` and `assertuser`, which logged-in bots add), and what the key keeps by name only
 * (request/canonical.ts PRESENCE_ONLY: jQuery's cache buster `_`, `crossorigin`), which adds a
 * warning beside the list's part at most.
 */
const CLIENT_ADDED = ['redirects', 'converttitles', 'assert', 'assertuser', '_', 'crossorigin'];

/**
 * Meta modules a client asks beside each page of a walk (mwclient's `meta=userinfo`), with the
 * prefix of their parameters: their part of the answer stands apart from the list's, whose rows and
 * continuation are those of the list asked alone.
 */
const BESIDE_A_WALK: ReadonlyMap<string, string> = new Map([
  ['userinfo', 'ui'],
  ['siteinfo', 'si'],
]);

/** The prefixes of the parameters of the meta modules a walk's page asks beside its list; null when one of them is not such a module. */
function besideWalk(request: Readonly<Record<string, string>>): string[] | null {
  if (request['meta'] === undefined) return [];
  const prefixes = splitMulti(request['meta']).map((m) => BESIDE_A_WALK.get(m));
  return prefixes.every((p) => p !== undefined) ? prefixes : null;
}

/** The list a question is about, when it asks about exactly one list and nothing else (`meta`: but for meta modules beside it, as `besideWalk` allows). */
function soleList(request: Record<string, string>, lists: readonly ListModule[], meta: 'none' | 'beside' = 'none'): ListModule | null {
  if (request['action'] !== 'query' || request['prop'] || request['titles'] || request['pageids']) return null;
  if (request['meta'] !== undefined && (meta === 'none' || besideWalk(request) === null)) return null;
  const names = splitMulti(request['list'] ?? '');
  if (names.length !== 1) return null;
  return lists.find((l) => l.name === names[0]) ?? null;
}

/** A list's paging parameters (limit, continue, direction, props), prefixed. */
function pagingOf(list: ListModule): string[] {
  const { limit, continue: cont, dir, prop } = list.roles;
  return [limit, cont, dir, prop].filter((r): r is string => r !== null).map((r) => list.prefix + r);
}

/** A list's time window parameters (`start`, `end`), prefixed. */
function windowOf(list: ListModule): string[] {
  const { start, end } = list.roles;
  return [start, end].filter((r): r is string => r !== null).map((r) => list.prefix + r);
}

/** The parameters a page of a walk of a list may have, made once per list (a walk of 1M log events has 2,000 pages). */
const WALK_PARAMS = new WeakMap<ListModule, ReadonlySet<string>>();
function walkParams(list: ListModule): ReadonlySet<string> {
  let allowed = WALK_PARAMS.get(list);
  if (!allowed) WALK_PARAMS.set(list, (allowed = new Set([...NEUTRAL, ...CLIENT_ADDED, ...pagingOf(list), ...windowOf(list), ...list.walk.scopeParams.map((p) => list.prefix + p)])));
  return allowed;
}

/**
 * The list and part an interaction can be a page of a walk of (unfiltered, successful), or null;
 * `window`: its time window's bounds as asked (`start`, `end`), if it has one (such a walk is never
 * complete: windowPrefix says what it proves).
 */
function walkOf(i: Interaction, lists: readonly ListModule[]): { list: ListModule; scope: string; window: string } | null {
  const list = soleList(i.request, lists, 'beside');
  if (!list || i.status !== 200 || i.headers['mediawiki-api-error']) return null;
  const allowed = walkParams(list);
  const meta = besideWalk(i.request) ?? [];
  for (const k in i.request) if (!allowed.has(k) && k !== 'meta' && !meta.some((p) => k.startsWith(p))) return null;
  const scope = list.walk.scope(i.request);
  const bounds = windowOf(list).map((p) => i.request[p]);
  return scope === null ? null : { list, scope, window: bounds.every((b) => b === undefined) ? '' : JSON.stringify(bounds) };
}

/**
 * What a walk of a timestamp list within a time window proves, read to its end (`complete`) or
 * not (its last `continue`: `next`), as the first pages of a walk of the list read `older` (a
 * WalkPrefix's direction and the continuation point its stretch ends at), or null. Read `newer`
 * from `start` to the list's end, or `older` from its newest entry back to `end`, it holds every
 * entry from `start` (or `end`) on: the list's first entries read `older`, down to a point below
 * every entry of that second (the timestamp, then the lowest value of each other part). Read
 * `older` towards `end` and stopped before it, it holds the list's first entries down to its last
 * `continue`, as a walk without a window would. Other windows prove no stretch from the list's
 * first entry.
 */
function windowPrefix(list: ListModule, request: Readonly<Record<string, string>>, dir: string | null, complete: boolean, next: string | undefined, recordedAt: string): { dir: string; until: string } | null {
  const { start, end } = list.roles;
  if (start === null || end === null) return null;
  const from = request[list.prefix + start];
  const to = request[list.prefix + end];
  const older = list.order.backwards;
  const bound = dir === older ? (from === undefined ? to : undefined) : to === undefined ? from : undefined;
  if (bound === undefined) return null;
  if (!complete) return dir === older && next !== undefined ? { dir: older, until: next } : null;
  const ms = parseTimestamp(bound, Date.parse(recordedAt));
  if (ms === null) return null;
  const lowest = list.order.continueTypes.slice(1).map((t) => (t === 'int' ? '-1' : ''));
  return { dir: older, until: [toMw(ms), ...lowest].join('|') };
}

/** The list an interaction can be a page of a complete walk of (unfiltered, successful), or null. */
export function walkList(i: Interaction, lists: readonly ListModule[]): string | null {
  return walkOf(i, lists)?.list.name ?? null;
}

/** Complete walks in the recorded interactions: by list module, then by the part walked ('' : the whole list). */
export function computeCoverage(interactions: Iterable<Interaction>, lists: readonly ListModule[]): Map<string, Map<string, ListCoverage>> {
  return walksIn(interactions, lists).covered;
}

/** The recorded walks: the complete ones (computeCoverage), and the first pages of the others (WalkPrefix), by list module. */
function walksIn(interactions: Iterable<Interaction>, lists: readonly ListModule[]): { covered: Map<string, Map<string, ListCoverage>>; prefixes: Map<string, WalkPrefix[]> } {
  const byGroup = new Map<string, { list: ListModule; scope: string; window: string; pages: Interaction[] }>();
  for (const i of interactions) {
    const w = walkOf(i, lists);
    if (!w) continue;
    const { list, scope, window } = w;
    // One walk: same list and part, time window, limit, direction and props.
    const r = i.request;
    const group = JSON.stringify([list.name, scope, window, r[list.prefix + list.roles.limit], list.roles.dir && r[list.prefix + list.roles.dir], list.roles.prop && r[list.prefix + list.roles.prop]]);
    const g = byGroup.get(group) ?? { list, scope, window, pages: [] };
    g.pages.push(i);
    byGroup.set(group, g);
  }
  const covered = new Map<string, Map<string, ListCoverage>>();
  const prefixes = new Map<string, WalkPrefix[]>();
  for (const { list, scope, window, pages } of byGroup.values()) {
    const contKey = list.prefix + list.roles.continue;
    const byCont = new Map(pages.map((p) => [p.request[contKey] ?? '', p]));
    let page = byCont.get('');
    if (!page) continue;
    // Rows that do not show their ids name no entity: the walk holds none of its part's entries.
    // (a request written without its prop parameter asked for the default props)
    const propParam = list.roles.prop === null ? null : list.prefix + list.roles.prop;
    const props = new Set(propParam === null ? [] : splitMulti(page.request[propParam] ?? ''));
    const shown = propParam !== null && page.request[propParam] === undefined ? new Set(splitMulti(list.key.defaults[propParam] ?? '')) : props;
    if (list.entity.idProps?.some((p) => !shown.has(p))) continue;
    const dirParam = list.roles.dir === null ? null : list.prefix + list.roles.dir;
    const dir = dirParam === null ? null : (page.request[dirParam] ?? list.key.defaults[dirParam] ?? null);
    const first = page;
    let recordedAt = '';
    for (let steps = 0; page && steps <= pages.length; steps++) {
      if (page.recordedAt > recordedAt) recordedAt = page.recordedAt;
      const next: string | undefined = (page.body['continue'] as Record<string, string> | undefined)?.[contKey];
      const following: Interaction | undefined = next === undefined ? undefined : byCont.get(next);
      if (window !== '') {
        // A walk within a time window: what it proves of the list's first entries, once its end or its last recorded page is reached.
        if (next === undefined || !following) {
          const held = windowPrefix(list, first.request, dir, next === undefined, next, recordedAt);
          if (held) prefixes.set(list.name, [...(prefixes.get(list.name) ?? []), { scope, ...held, recordedAt }]);
          break;
        }
        page = following;
        continue;
      }
      if (next === undefined) {
        const parts = covered.get(list.name) ?? new Map<string, ListCoverage>();
        const before = parts.get(scope);
        const wider = !before || props.size > before.props.size;
        parts.set(scope, { props: wider ? props : before.props, recordedAt: before && before.recordedAt > recordedAt ? before.recordedAt : recordedAt });
        covered.set(list.name, parts);
        break;
      }
      if (!following) {
        const held = prefixes.get(list.name) ?? [];
        held.push({ scope, dir, until: next, recordedAt });
        prefixes.set(list.name, held);
      }
      page = following;
    }
  }
  return { covered, prefixes };
}

/**
 * The parts of each list the recordings walked completely (Knowledge.walks), when each was
 * walked (Knowledge.walkTimes: the latest recordedAt of its walk's pages), and the first pages of
 * the walks recorded without their last (Knowledge.walkPrefixes), from one pass over them.
 */
export function completeWalks(
  interactions: Iterable<Interaction>,
  lists: readonly ListModule[],
): { walks: Map<string, Set<string>>; walkTimes: Map<string, Map<string, string>>; walkPrefixes: Map<string, WalkPrefix[]> } {
  const { covered, prefixes } = walksIn(interactions, lists);
  return {
    walks: new Map([...covered].map(([name, parts]) => [name, new Set(parts.keys())])),
    walkTimes: new Map([...covered].map(([name, parts]) => [name, new Map([...parts].map(([scope, c]) => [scope, c.recordedAt]))])),
    walkPrefixes: prefixes,
  };
}

/**
 * The walk of `prop=extlinks` alone an answer is a page of (no protocol or query filter,
 * successful): its question without `elcontinue` and `continue`, as text; null for any other answer.
 */
export function linkWalkOf(i: Interaction): string | null {
  const r = i.request;
  if (r['action'] !== 'query' || r['prop'] !== 'extlinks' || r['list'] || besideWalk(r) === null || r['generator']) return null;
  if (r['elprotocol'] || r['elquery'] !== undefined || i.status !== 200 || i.headers['mediawiki-api-error']) return null;
  const { elcontinue: _e, continue: _c, ...rest } = r;
  return JSON.stringify(Object.entries(rest).sort());
}

/**
 * The pages of one walk of links (its answers: those `linkWalkOf` gives one name) whose links it
 * holds completely: every page it asked about when it goes from its first answer, following
 * `elcontinue`, to an answer without one; none otherwise.
 */
export function linkWalkPages(answers: Iterable<Interaction>): number[] {
  const pages = new Map<string, Interaction>();
  for (const i of answers) pages.set(i.request['elcontinue'] ?? '', i);
  const seen: number[] = [];
  let page = pages.get('');
  for (let steps = 0; page && steps <= pages.size; steps++) {
    const q = page.body['query'] as { pages?: { pageid?: number }[] } | undefined;
    for (const p of q?.pages ?? []) if (typeof p.pageid === 'number') seen.push(p.pageid);
    const next = (page.body['continue'] as Record<string, string> | undefined)?.['elcontinue'];
    if (next === undefined) return seen;
    page = pages.get(next);
  }
  return [];
}

/** The recorded answers of each walk of links (linkWalkOf), by its name, in their order. */
function linkWalks(interactions: Iterable<Interaction>): Map<string, Interaction[]> {
  const byWalk = new Map<string, Interaction[]>();
  for (const i of interactions) {
    const walk = linkWalkOf(i);
    if (walk === null) continue;
    const answers = byWalk.get(walk);
    if (answers) answers.push(i);
    else byWalk.set(walk, [i]);
  }
  return byWalk;
}

/**
 * Pages whose external links the recordings hold completely: a walk of `prop=extlinks` alone
 * (no protocol or query filter) from its first answer, following `elcontinue`, to an answer
 * without one. Every page such a walk asked about is complete.
 */
export function completeLinkPages(interactions: Iterable<Interaction>): Set<number> {
  const complete = new Set<number>();
  for (const answers of linkWalks(interactions).values()) for (const id of linkWalkPages(answers)) complete.add(id);
  return complete;
}

/**
 * Whether coverage proves the answer to this question (see the rule above): it asks about one
 * list alone, of a part walked completely, with paging, filters and props the walk covers (props
 * the question leaves out are the module's defaults).
 */
export function isCovered(params: ParamMap, coverage: ReadonlyMap<string, ReadonlyMap<string, ListCoverage>>, lists: readonly ListModule[]): boolean {
  const request = Object.fromEntries(params);
  const list = soleList(request, lists);
  if (!list) return false;
  const scope = list.walk.scope(request);
  const parts = coverage.get(list.name);
  // (a part walked completely, or one holding it: the props of any one of them)
  const covs = scope === null || !parts ? [] : partsCovering(list, parts.keys(), scope).map((s) => parts.get(s)!);
  if (covs.length === 0) return false;
  const allowed = new Set([...pagingOf(list), ...windowOf(list), ...[...list.filters, ...list.walk.scopeParams].map((p) => list.prefix + p)]);
  for (const k of Object.keys(request)) {
    if (!NEUTRAL.has(k) && !RENDERING_PARAMS.has(k) && !allowed.has(k)) return false;
  }
  if (list.roles.prop === null) return true;
  const param = list.prefix + list.roles.prop;
  const asked = splitMulti(request[param] ?? list.key.defaults[param] ?? '');
  return covs.some((cov) => asked.every((p) => cov.props.has(p)));
}
