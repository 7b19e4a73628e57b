import type { Json, JsonObject } from '../api/result.js';
import type { GeneratorOrder } from '../api/list-module.js';
import { isObject } from '../api/result.js';
import { splitMulti } from '../request/canonical.js';
import type { ParamMap } from '../request/params.js';
import type { NamespaceContext } from '../wiki/namespaces.js';
import { parseTitle } from '../wiki/title.js';

/** What decides the order of a formatversion=1 `query.pages`: the request and how the wiki reads titles. */
export interface PageOrderContext {
  params: ParamMap;
  titles: NamespaceContext;
  /** The generators whose order the answer shows (ListModule.generatorOrder), by name. */
  generatorOrders: ReadonlyMap<string, GeneratorOrder>;
}

const strings = (v: Json | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
const dbKeyOf = (p: JsonObject): string => {
  const t = String(p['title'] ?? '');
  return (p['ns'] === 0 ? t : t.slice(t.indexOf(':') + 1)).replace(/ /g, '_');
};
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * The good pages (those with an id) in the order ApiPageSet found them, from the formatversion=2
 * answer and the request: first the pages asked for (`pageids`: by id; `titles`: namespace by
 * namespace in the order first named, by DB key within one: one `page` lookup with an OR term per
 * namespace), then each round of redirect targets the same way, namespaces in the order of
 * `query.redirects` (the `redirect` rows come by page id). Checked on both live wikis.
 */
export function goodPagesInOrder(all: JsonObject[], good: JsonObject[], query: JsonObject, ctx: PageOrderContext): JsonObject[] {
  // A generator hands the page set its pages in its own order; one the answer does not show
  // leaves them by id (such an answer is flagged: pageOrderKnown).
  const generator = ctx.params.get('generator');
  if (generator !== undefined) {
    const order = ctx.generatorOrders.get(generator);
    return order ? [...good].sort((a, b) => order(a, b, ctx.params)) : good;
  }
  const redirects = strings(query['redirects']).filter((r) => r['tointerwiki'] === undefined);
  const placed = new Set<JsonObject>();
  const out: JsonObject[] = [];
  const take = (list: JsonObject[]) => list.forEach((p) => (placed.add(p), out.push(p)));
  const byTitle = (titles: readonly string[]) => good.filter((p) => !placed.has(p) && titles.includes(String(p['title'])));
  let frontier: string[];
  const ids = ctx.params.get('pageids');
  if (ctx.params.get('titles') === undefined && ids !== undefined) {
    const asked = new Set(splitMulti(ids).map((id) => Math.trunc(Number(id))));
    take(good.filter((p) => asked.has(p['pageid'] as number)).sort((a, b) => (a['pageid'] as number) - (b['pageid'] as number)));
    const targets = new Set(redirects.map((r) => String(r['to'])));
    frontier = redirects.map((r) => String(r['from'])).filter((f) => !targets.has(f));
  } else {
    frontier = askedTitles(query, ctx);
    take(inBatchOrder(byTitle(frontier), frontier, all, ctx));
  }
  const seen = new Set(frontier);
  for (let round = 0; round < 50 && frontier.length > 0; round++) {
    const targets = redirects.filter((r) => frontier.includes(String(r['from']))).map((r) => String(r['to'])).filter((t) => !seen.has(t));
    targets.forEach((t) => seen.add(t));
    take(inBatchOrder(byTitle(targets), targets, all, ctx));
    frontier = targets;
  }
  take(good.filter((p) => !placed.has(p)));
  return out;
}

/**
 * Whether formatversion=1's order of `query.pages` follows from the formatversion=2 answer (pages
 * by id) and the request. A generator hands ApiPageSet its pages in its own order (categorymembers
 * by type and sort key, links and search through a lookup of their titles …), which the answer
 * shows only for those of `orders` (allpages: by DB key), and not when `redirects` adds targets.
 */
export function pageOrderKnown(params: ParamMap, orders: ReadonlyMap<string, GeneratorOrder>): boolean {
  const generator = params.get('generator');
  return generator === undefined || (orders.has(generator) && !params.has('redirects'));
}

/** The request's titles as the wiki writes them (through `normalized`), in the order given. */
function askedTitles(query: JsonObject, ctx: PageOrderContext): string[] {
  const normalized = new Map<string, string>();
  for (const n of strings(query['normalized'])) {
    const from = n['fromencoded'] === true ? decodeURIComponentSafe(String(n['from'])) : String(n['from']);
    normalized.set(from, String(n['to']));
  }
  const once = (t: string) => normalized.get(t) ?? t;
  return splitMulti(ctx.params.get('titles') ?? '').map((t) => once(once(t)));
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Pages of one lookup: namespaces in the order the titles named them, DB keys in byte order within one. */
function inBatchOrder(pages: JsonObject[], titles: readonly string[], all: JsonObject[], ctx: PageOrderContext): JsonObject[] {
  const rank = new Map<number, number>();
  for (const t of titles) {
    const ns = nsOf(t, all, ctx);
    if (ns !== null && !rank.has(ns)) rank.set(ns, rank.size);
  }
  return [...pages].sort((a, b) => (rank.get(a['ns'] as number) ?? 0) - (rank.get(b['ns'] as number) ?? 0) || byBytes(dbKeyOf(a), dbKeyOf(b)));
}

/** A title's namespace: as a page of the answer shows it, else as the wiki's namespace names read it. */
function nsOf(title: string, pages: JsonObject[], ctx: PageOrderContext): number | null {
  const shown = pages.find((p) => p['title'] === title);
  if (shown) return shown['ns'] as number;
  const t = parseTitle(title, ctx.titles);
  return t.ok && !t.title.interwiki && t.title.ns >= 0 ? t.title.ns : null;
}
