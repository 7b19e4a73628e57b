import type { JsonObject } from '../api/result.js';
import { index60, makeIndexes } from '../modules/link-index.js';

/** Asks the wiki (through the recorder) and returns its formatversion=2 answer. */
export type Ask = (params: Record<string, string>) => Promise<JsonObject>;

/** How many titles one request may name (an anonymous client's limit). */
const BATCH = 50;

interface Shown {
  /** The first link the answer shows, with its page. */
  first?: { pageid: number; url: string };
  next?: string;
}

async function linksFrom(ask: Ask, titles: string, token?: string, protocol?: string): Promise<Shown> {
  const body = await ask({ action: 'query', prop: 'extlinks', titles, ellimit: '1', ...(protocol ? { elprotocol: protocol } : {}), ...(token !== undefined ? { elcontinue: token } : {}) });
  const pages = ((body['query'] as JsonObject | undefined)?.['pages'] ?? []) as { pageid?: number; extlinks?: { url: string }[] }[];
  const next = (body['continue'] as Record<string, string> | undefined)?.['elcontinue'];
  const page = pages.find((p) => (p.extlinks ?? []).length > 0);
  return { ...(page ? { first: { pageid: page.pageid ?? 0, url: page.extlinks![0]!.url } } : {}), ...(next !== undefined ? { next } : {}) };
}

/**
 * Records what replay needs to know the external links' `el_id`s (replay/link-ids.ts). The API
 * shows an id only in `elcontinue`, which names the next link: walking the pages' links one by one
 * (`ellimit=1`, up to 50 titles a request) names every link but the very first, whose id is then
 * found by searching (a request continuing from id k shows that link exactly when its id is at
 * least k). One request per link (1.39: and per https row) plus a few dozen per 50 pages. Returns how many links' ids stayed
 * unknown (a first link the search could not pin down).
 */
export async function recordLinkIds(ask: Ask, titles: readonly string[]): Promise<number> {
  let unknown = 0;
  for (let i = 0; i < titles.length; i += BATCH) {
    const batch = titles.slice(i, i + BATCH).join('|');
    const start = await linksFrom(ask, batch);
    if (!start.first) continue;
    let cont = start.next;
    let second: string[] | undefined;
    for (let steps = 0; cont !== undefined && steps < 1_000_000; steps++) {
      second ??= cont.split('|');
      cont = (await linksFrom(ask, batch, cont)).next;
    }
    if (!(await findFirstId(ask, batch, start.first, second))) unknown++;
    // 1.39 (tokens with an index) stores protocol-relative links twice: their https rows' ids
    // show only in a walk of the https rows.
    if ((second?.length ?? 0) >= 2) {
      let next = (await linksFrom(ask, batch, undefined, 'https')).next;
      for (let steps = 0; next !== undefined && steps < 1_000_000; steps++) next = (await linksFrom(ask, batch, next, 'https')).next;
    }
  }
  return unknown;
}

/** Searches the first link's id; false when the token form cannot be built for it. */
async function findFirstId(ask: Ask, titles: string, first: { pageid: number; url: string }, second: string[] | undefined): Promise<boolean> {
  // The token forms (see modules/extlinks.ts): 1.43 `<id>`; 1.39 `[<pageid>|]<el_index_60>|<id>`.
  const form = second?.length ?? 0;
  const multi = titles.includes('|');
  // A single link: no token the wiki issues names it, so no answer needs its id.
  if (form === 0) return true;
  const indexed = form >= 2;
  const index = index60(makeIndexes(first.url)[0] ?? '').replace(/%/g, '%25').replace(/\|/g, '%7C');
  const head = !indexed ? '' : multi ? `${first.pageid}|${index}|` : `${index}|`;
  const shows = async (k: number) => {
    const s = await linksFrom(ask, titles, `${head}${k}`);
    return s.first?.pageid === first.pageid && s.first.url === first.url;
  };
  // The largest k whose answer still shows the first link is its id.
  const sameHead = second !== undefined && second.slice(0, -1).join('|') + (indexed ? '|' : '') === head;
  let lo = 1;
  let hi = sameHead ? Number(second![second!.length - 1]) - 1 : 0;
  if (hi <= 0) {
    hi = 1;
    while (await shows(hi * 2)) {
      hi *= 2;
      // A head that does not match the link's own (an index computed otherwise) shows it for every k.
      if (hi > 2 ** 40) return false;
    }
    hi = hi * 2 - 1;
  }
  if (!(await shows(lo))) return false;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (await shows(mid)) lo = mid;
    else hi = mid - 1;
  }
  // The answer at the id itself shows the first link: that request is the recorded proof.
  await shows(lo);
  return true;
}
