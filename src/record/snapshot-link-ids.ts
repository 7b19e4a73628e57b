import type { JsonObject } from '../api/result.js';
import { index60, makeIndexes } from '../wiki/link-index.js';

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

/** A page with external links, as the snapshot's listing showed it: its links in the order shown. */
export interface LinkedPage {
  pageid: number;
  title: string;
  /** Its links' URLs in the order the wiki lists them under the page (1.43: el_id order). */
  links: readonly string[];
}

/**
 * Records what replay needs to know the external links' `el_id`s (cassette/link-ids.ts). The API
 * shows an id only in `elcontinue`, which names the next link, and a request continuing from it
 * shows that link first; the very first link of a batch is found by searching (a request
 * continuing from id k shows it exactly when its id is at least k). Pages are asked 50 at a time
 * (an anonymous client's limit), in page id order.
 *
 * 1.39 (`[<pageid>|]<el_index_60>|<id>`: its order is by page, index, then id) shows one id an
 * answer, so its links are walked one by one (`ellimit=1`), then the https rows of
 * protocol-relative links (modernCrawl says how 1.43 does with far fewer). Returns how many links'
 * ids stayed unknown (a first link the search could not pin down).
 */
export async function recordLinkIds(ask: Ask, pages: readonly LinkedPage[]): Promise<number> {
  let unknown = 0;
  const ordered = [...pages].sort((a, b) => a.pageid - b.pageid);
  for (let i = 0; i < ordered.length; i += BATCH) {
    const group = ordered.slice(i, i + BATCH);
    const batch = group.map((p) => p.title).join('|');
    const start = await linksFrom(ask, batch);
    if (!start.first) continue;
    const second = start.next?.split('|');
    if (second?.length === 1) await modernCrawl(ask, batch, group, start.first.pageid, start.next!);
    else {
      let cont = start.next;
      for (let steps = 0; cont !== undefined && steps < 1_000_000; steps++) cont = (await linksFrom(ask, batch, cont)).next;
    }
    if (!(await findFirstId(ask, batch, start.first, second))) unknown++;
    // 1.39 (tokens with an index) stores protocol-relative links twice: their https rows' ids
    // show only in a walk of the https rows (a batch without one has no other rows to learn).
    if ((second?.length ?? 0) >= 2 && group.some((p) => p.links.some((u) => u.startsWith('//')))) {
      let next = (await linksFrom(ask, batch, undefined, 'https')).next;
      for (let steps = 0; next !== undefined && steps < 1_000_000; steps++) next = (await linksFrom(ask, batch, next, 'https')).next;
    }
  }
  return unknown;
}

/**
 * 1.43 continues with the el_id alone and orders every page's rows by it (ApiQueryExternalLinks'
 * `$orderBy = [ 'el_id' ]`), and a wiki stores a page's links in one insert, so their ids are
 * usually one run. The crawl asks for a whole run at once: continuing from the token T the wiki
 * issued, with `ellimit` the number of links the page whose turn it is has left (pages in id order;
 * the last page: all but its last link, which the next token names and one more request shows).
 * When the answer shows that page alone, its first link is at T, every link it shows is below the
 * next token T', and when T' − T is the number shown the ids between are T, T+1, … with no room
 * for any other (cassette/link-ids.ts: idBounds). Otherwise (another page's links came between, or
 * the ids have gaps) the rows of that answer are walked again one by one, each at its own token.
 * About one request a page instead of one a link.
 */
async function modernCrawl(ask: Ask, titles: string, pages: readonly LinkedPage[], firstPage: number, second: string): Promise<void> {
  // The first answer showed the first link (of `firstPage`); `second` is the next one's token.
  const left = new Map(pages.map((p) => [p.pageid, p.links.length]));
  left.set(firstPage, (left.get(firstPage) ?? 1) - 1);
  let turn = firstPage;
  let token: string | undefined = second;
  while (token !== undefined) {
    const open = pages.filter((p) => (left.get(p.pageid) ?? 0) > 0);
    if (open.length === 0) return;
    // Pages are guessed in page id order (a wiki fills them one after another); the answer says.
    if ((left.get(turn) ?? 0) === 0) turn = (open.find((p) => p.pageid > turn) ?? open[0]!).pageid;
    const last = open.length === 1;
    const limit = (left.get(turn) ?? 0) - (last ? 1 : 0);
    if (limit > 0) {
      const body = await ask({ action: 'query', prop: 'extlinks', titles, ellimit: String(limit), elcontinue: token });
      const shown = shownCounts(body);
      const next = (body['continue'] as Record<string, string> | undefined)?.['elcontinue'];
      if (shown.size === 1 && shown.get(turn) === limit && next !== undefined) {
        left.set(turn, (left.get(turn) ?? limit) - limit);
        // Ids with a gap between them: each is learned at its own token.
        if (Number(next) - Number(token) !== limit) await walkOneByOne(ask, titles, token, limit);
        token = next;
        continue;
      }
    }
    // Another page's link is at the token (or the very last link is): the answer continuing
    // there with one link shows which, at its token.
    const one = await linksFrom(ask, titles, token);
    if (one.first) {
      left.set(one.first.pageid, (left.get(one.first.pageid) ?? 1) - 1);
      turn = one.first.pageid;
    }
    token = one.next;
  }
}

/** Walks `rows` rows from `token` one by one (`ellimit=1`): each answer's one link is at its token. */
async function walkOneByOne(ask: Ask, titles: string, token: string, rows: number): Promise<void> {
  let at: string | undefined = token;
  for (let n = 0; n < rows && at !== undefined; n++) at = (await linksFrom(ask, titles, at)).next;
}

/** How many links an answer shows of each page. */
function shownCounts(body: JsonObject): Map<number, number> {
  const pages = ((body['query'] as JsonObject | undefined)?.['pages'] ?? []) as { pageid?: number; extlinks?: unknown[] }[];
  const out = new Map<number, number>();
  for (const p of pages) if ((p.extlinks ?? []).length > 0) out.set(p.pageid ?? 0, p.extlinks!.length);
  return out;
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
  // Ids of one page's links are usually consecutive: when the link shows from the id just below
  // the next one's, that is its id (one request instead of a search).
  if (sameHead && hi > 1 && (await shows(hi))) return true;
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
