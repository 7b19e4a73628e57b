import type { Interaction } from '../cassette/format.js';
import type { JsonObject } from '../api/result.js';
import { isObject } from './diff-json.js';

/**
 * What `cassettes diff` checks as one unit: a walk, the pages a client reads of one question from
 * a first page, following each answer's continuation to the next. A question whose answer does
 * not continue is a walk of one page. A walk changes as a whole: a new entry at the top moves
 * every later page's start, so a page recorded again alone would continue at a point nobody
 * recorded (and a recorded later page would no longer be on the walk).
 *
 * The pages are found by MediaWiki's own word: an answer's `continue` object (ApiContinuationManager;
 * rawcontinue's `query-continue`) names the parameters the next page is asked with, so a walk of
 * any module is found (every list, `prop=extlinks`, several modules at once, modules wikitape does
 * not implement) without naming one.
 */
export interface Walk {
  cassette: string;
  /** Who recorded it (Interaction.user), or null: an anonymous reader. */
  user: string | null;
  /** The recorded pages, the first one first, each followed by the page its answer continues to. */
  pages: Interaction[];
  /**
   * Whether the recording shows the walk's last page (an answer that does not continue): the live
   * walk is then followed to its end; otherwise as far as the recording went (a client that stopped).
   */
  toEnd: boolean;
}

/** The parameters an answer says to ask the next page with, or null: it is the last page. */
export function continuationOf(body: JsonObject): Record<string, string> | null {
  const c = body['continue'];
  if (isObject(c)) return stringsOf(c);
  // rawcontinue: per module, the parameters that continue it.
  const q = body['query-continue'];
  if (!isObject(q)) return null;
  const out: Record<string, string> = {};
  for (const m of Object.values(q)) if (isObject(m)) Object.assign(out, stringsOf(m));
  return out;
}

function stringsOf(o: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) out[k] = String(v);
  return out;
}

/** The request of the page after `request` (a page of the walk), continuing with `cont`. */
export function nextPage(request: Readonly<Record<string, string>>, cont: Readonly<Record<string, string>>, continuing: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(request)) if (!continuing.has(k)) out[k] = v;
  return { ...out, ...cont };
}

/**
 * Where a page starts: its module continuation parameters (`elcontinue=…`). Not `continue`: it
 * only says which modules are done (ApiContinuationManager), and a client that walks without it
 * (`elcontinue` alone) asks for the same page.
 */
export function pointOf(request: Readonly<Record<string, string>>, continuing: ReadonlySet<string>): string {
  const entries = Object.entries(request).filter(([k]) => continuing.has(k) && k !== 'continue');
  return JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Where a page starts, as the report names it: `lecontinue=…` (the first page: `the first page`). */
export function pageName(request: Readonly<Record<string, string>>, continuing: ReadonlySet<string>): string {
  const parts = JSON.parse(pointOf(request, continuing)) as [string, string][];
  return parts.length === 0 ? 'the first page' : `page ${parts.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/** The parameters that continue a walk in this cassette: `continue`, and each one an answer names. */
export function continuingParams(interactions: readonly Interaction[]): Set<string> {
  const out = new Set(['continue']);
  for (const i of interactions) for (const k of Object.keys(continuationOf(i.body) ?? {})) out.add(k);
  return out;
}

/** The same question but for where it starts, asked as the same identity. */
function baseOf(i: Interaction, continuing: ReadonlySet<string>): string {
  const rest = Object.entries(i.request).filter(([k]) => !continuing.has(k));
  return JSON.stringify([i.user ?? null, rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}

/**
 * A cassette's recordings as walks. Each recorded page belongs to one walk: its first page (one
 * no recorded page continues to), then the page each answer continues to, while it is recorded.
 * A walk that stops at a point nobody recorded while other pages of the same question are
 * recorded is a walk recorded again in part (as an earlier `--update` did: its first page alone):
 * those pages are taken into it, so that it is checked, and recorded again, whole.
 */
export function walksOf(cassette: string, interactions: readonly Interaction[]): Walk[] {
  const continuing = continuingParams(interactions);
  const groups = new Map<string, Map<string, Interaction>>();
  for (const i of interactions) {
    const base = baseOf(i, continuing);
    const g = groups.get(base) ?? new Map<string, Interaction>();
    g.set(pointOf(i.request, continuing), i);
    groups.set(base, g);
  }
  const out: Walk[] = [];
  for (const pages of groups.values()) {
    const successor = (i: Interaction) => {
      const cont = continuationOf(i.body);
      return cont === null ? undefined : pages.get(pointOf(nextPage(i.request, cont, continuing), continuing));
    };
    const continuedTo = new Set<Interaction>();
    for (const i of pages.values()) {
      const s = successor(i);
      if (s && s !== i) continuedTo.add(s);
    }
    const walks: Walk[] = [];
    const taken = new Set<Interaction>();
    // First pages first: the question's own first page (no continuation) before any stray page.
    const roots = [...pages.values()].filter((i) => !continuedTo.has(i)).sort((a, b) => Number(pointOf(a.request, continuing) !== '[]') - Number(pointOf(b.request, continuing) !== '[]'));
    for (const root of roots) {
      const chain: Interaction[] = [];
      for (let p: Interaction | undefined = root; p && !taken.has(p); p = successor(p)) {
        chain.push(p);
        taken.add(p);
      }
      walks.push({ cassette, user: root.user ?? null, pages: chain, toEnd: continuationOf(chain[chain.length - 1]!.body) === null });
    }
    // Pages on a loop of continuations (no first page): each its own walk.
    for (const i of pages.values()) if (!taken.has(i)) walks.push({ cassette, user: i.user ?? null, pages: [i], toEnd: continuationOf(i.body) === null });
    const first = walks[0]!;
    if (walks.length > 1 && pointOf(first.pages[0]!.request, continuing) === '[]' && !first.toEnd) {
      // Broken: the first page continues to nothing recorded, while later pages are.
      out.push({ ...first, pages: walks.flatMap((w) => w.pages), toEnd: walks.some((w) => w.toEnd) });
    } else out.push(...walks);
  }
  return out;
}
