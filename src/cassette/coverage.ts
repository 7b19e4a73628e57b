import type { Interaction } from './format.js';
import { RENDERING_PARAMS, splitMulti, type KeyRules } from '../request/canonical.js';
import type { ParamMap } from '../request/params.js';

/**
 * The coverage rule: which questions the recordings answer exactly though nobody asked them.
 *
 * A list is *covered* when the cassettes hold a complete walk of it: a first page (no
 * `xxcontinue`) without filters, and, following each page's `continue` to a recorded page, a last
 * page without `continue`. Its entities are then every entry of the list at recording time, with
 * the props the walk asked for. Any question about that list alone, with any limit, continuation
 * point, direction, time window or filter, and props among the recorded ones, is then a
 * computation over those entities: the built-in module does it, and the answer is called
 * `synthesized`. Anything else is `builtin` (a best effort over what was seen).
 */
export interface ListCoverage {
  /** Props the complete walk recorded (a question may ask for these or fewer). */
  props: Set<string>;
}

interface ListInfo {
  module: string;
  prefix: string;
  /** Parameters that change *which* entries a question sees (a complete walk has none of these). */
  filters: readonly string[];
  /** Parameters that only page through or shape the same entries. */
  paging: readonly string[];
  /** The prop parameter. */
  prop: string;
}

const LISTS: readonly ListInfo[] = [
  { module: 'logevents', prefix: 'le', filters: ['letype', 'leaction', 'leuser', 'letitle', 'lenamespace', 'leprefix', 'letag', 'lestart', 'leend'], paging: ['lelimit', 'lecontinue', 'ledir', 'leprop'], prop: 'leprop' },
  { module: 'blocks', prefix: 'bk', filters: ['bkids', 'bkusers', 'bkip', 'bkshow', 'bkstart', 'bkend'], paging: ['bklimit', 'bkcontinue', 'bkdir', 'bkprop'], prop: 'bkprop' },
  { module: 'protectedtitles', prefix: 'pt', filters: ['ptnamespace', 'ptlevel', 'ptstart', 'ptend'], paging: ['ptlimit', 'ptcontinue', 'ptdir', 'ptprop'], prop: 'ptprop' },
];

/** Parameters that do not change which data a question asks for. */
const NEUTRAL = new Set(['action', 'list', 'continue', 'uselang', 'errorformat', 'errorlang']);

/** The list a question is about, when it asks about exactly one list and nothing else. */
function soleList(request: Record<string, string>): ListInfo | null {
  if (request['action'] !== 'query' || request['prop'] || request['meta'] || request['titles'] || request['pageids']) return null;
  const lists = splitMulti(request['list'] ?? '');
  if (lists.length !== 1) return null;
  return LISTS.find((l) => l.module === lists[0]) ?? null;
}

/** The list an interaction can be a page of a complete walk of (unfiltered, successful), or null. */
export function walkList(i: Interaction): string | null {
  const list = soleList(i.request);
  if (!list || i.status !== 200 || i.headers['mediawiki-api-error']) return null;
  if (Object.keys(i.request).some((k) => list.filters.includes(k) || (!NEUTRAL.has(k) && !list.paging.includes(k)))) return null;
  return list.module;
}

/** Complete walks in the recorded interactions, by list module. */
export function computeCoverage(interactions: Iterable<Interaction>): Map<string, ListCoverage> {
  const byGroup = new Map<string, Interaction[]>();
  for (const i of interactions) {
    if (walkList(i) === null) continue;
    const list = soleList(i.request)!;
    // One walk: same list, limit, direction and props.
    const group = `${list.module}|${i.request[`${list.prefix}limit`]}|${i.request[`${list.prefix}dir`]}|${i.request[list.prop]}`;
    byGroup.set(group, [...(byGroup.get(group) ?? []), i]);
  }
  const covered = new Map<string, ListCoverage>();
  for (const [group, pages] of byGroup) {
    const list = LISTS.find((l) => l.module === group.split('|')[0])!;
    const contKey = `${list.prefix}continue`;
    const byCont = new Map(pages.map((p) => [p.request[contKey] ?? '', p]));
    let page = byCont.get('');
    for (let steps = 0; page && steps <= pages.length; steps++) {
      const next = (page.body['continue'] as Record<string, string> | undefined)?.[contKey];
      if (next === undefined) {
        const props = new Set(splitMulti(page.request[list.prop] ?? ''));
        const before = covered.get(list.module);
        if (!before || props.size > before.props.size) covered.set(list.module, { props });
        break;
      }
      page = byCont.get(next);
    }
  }
  return covered;
}

/**
 * Pages whose external links the recordings hold completely: a walk of `prop=extlinks` alone
 * (no protocol or query filter) from its first answer, following `elcontinue`, to an answer
 * without one. Every page such a walk asked about is complete.
 */
export function completeLinkPages(interactions: Iterable<Interaction>): Set<number> {
  const byWalk = new Map<string, Map<string, Interaction>>();
  for (const i of interactions) {
    const r = i.request;
    if (r['action'] !== 'query' || r['prop'] !== 'extlinks' || r['list'] || r['meta'] || r['generator']) continue;
    if (r['elprotocol'] || r['elquery'] !== undefined || i.status !== 200 || i.headers['mediawiki-api-error']) continue;
    const { elcontinue, continue: _c, ...rest } = r;
    const walk = JSON.stringify(Object.entries(rest).sort());
    const pages = byWalk.get(walk) ?? new Map<string, Interaction>();
    pages.set(elcontinue ?? '', i);
    byWalk.set(walk, pages);
  }
  const complete = new Set<number>();
  for (const pages of byWalk.values()) {
    const seen: number[] = [];
    let page = pages.get('');
    for (let steps = 0; page && steps <= pages.size; steps++) {
      const q = page.body['query'] as { pages?: { pageid?: number }[] } | undefined;
      for (const p of q?.pages ?? []) if (typeof p.pageid === 'number') seen.push(p.pageid);
      const next = (page.body['continue'] as Record<string, string> | undefined)?.['elcontinue'];
      if (next === undefined) {
        for (const id of seen) complete.add(id);
        break;
      }
      page = pages.get(next);
    }
  }
  return complete;
}

/**
 * Namespaces whose every page (`all`) or every redirect (`redirects`) the recordings list: a
 * complete walk of `list=allpages` for one namespace, unfiltered but for `apfilterredir`.
 */
export function completeNamespaces(interactions: Iterable<Interaction>): { all: Set<number>; redirects: Set<number> } {
  const byWalk = new Map<string, Map<string, Interaction>>();
  const paging = new Set(['action', 'list', 'apnamespace', 'apfilterredir', 'aplimit', 'apcontinue', 'continue', 'apdir']);
  for (const i of interactions) {
    const r = i.request;
    if (r['action'] !== 'query' || r['list'] !== 'allpages' || r['prop'] || r['meta'] || r['generator']) continue;
    if (Object.keys(r).some((k) => !paging.has(k)) || i.status !== 200 || i.headers['mediawiki-api-error']) continue;
    const { apcontinue, continue: _c, ...rest } = r;
    const walk = JSON.stringify(Object.entries(rest).sort());
    const pages = byWalk.get(walk) ?? new Map<string, Interaction>();
    pages.set(apcontinue ?? '', i);
    byWalk.set(walk, pages);
  }
  const out = { all: new Set<number>(), redirects: new Set<number>() };
  for (const pages of byWalk.values()) {
    let page = pages.get('');
    const r = page?.request;
    const into = r?.['apfilterredir'] === 'redirects' ? out.redirects : (r?.['apfilterredir'] ?? 'all') === 'all' ? out.all : null;
    for (let steps = 0; page && into && steps <= pages.size; steps++) {
      const next = (page.body['continue'] as Record<string, string> | undefined)?.['apcontinue'];
      if (next === undefined) {
        into.add(Number(r!['apnamespace'] ?? '0'));
        break;
      }
      page = pages.get(next);
    }
  }
  return out;
}

/** Whether coverage proves the answer to this question (see the rule above; props the question leaves out are the modules' defaults in `rules`). */
export function isCovered(params: ParamMap, coverage: ReadonlyMap<string, ListCoverage>, rules: KeyRules): boolean {
  const request = Object.fromEntries(params);
  const list = soleList(request);
  if (!list) return false;
  const cov = coverage.get(list.module);
  if (!cov) return false;
  for (const k of Object.keys(request)) {
    if (!NEUTRAL.has(k) && !RENDERING_PARAMS.has(k) && !list.paging.includes(k) && !list.filters.includes(k)) return false;
  }
  const props = request[list.prop] ?? rules.defaults.get(list.module)?.[list.prop] ?? '';
  return splitMulti(props).every((p) => cov.props.has(p));
}
