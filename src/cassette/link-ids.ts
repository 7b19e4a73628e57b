import type { Interaction } from '../cassette/format.js';
import { isObject, type JsonObject } from '../api/result.js';
import { idBounds } from '../wiki/link-bounds.js';
import { index60, makeIndexes } from '../wiki/link-index.js';
import { PAGES, entitiesOf, type ExtLink, type Page, type WikiModel } from '../wiki/model.js';

/**
 * External links' `el_id`s, learned from continuation. The API shows an id only inside
 * `elcontinue`, whose form follows the version and the number of pages asked (modules/extlinks.ts):
 * 1.43 `<el_id>`; 1.39 `<el_index_60>|<el_id>` for one page, `<pageid>|<el_index_60>|<el_id>` for
 * several. A recorded request continuing from token T shows first the first link at or after T.
 * When the wiki itself issued T (a recorded answer carries it), that link's id is T's exactly; for
 * any other T it is at least T's. Either way the link before it on the same page (in the page's
 * order, which is id order in 1.43 and (index, id) order in 1.39) has a smaller id.
 * `wikitape snapshot` walks every page's links one by one this way (record/snapshot-link-ids.ts).
 */
export function learnLinkIds(model: WikiModel, interactions: () => Iterable<Interaction>): void {
  const byId = new Map(entitiesOf(model, PAGES).map((p) => [p.pageid, p]));
  learnLinkIdsOf(byId, interactions);
}

/**
 * The ids of the pages learning link ids reads (learnLinkIdsOf looks up no other): those the
 * extlinks answers showed and those their tokens point into. A store that keeps its pages on disk
 * reads these alone (replay/prepare-database.ts).
 */
export function linkPageIds(interactions: Iterable<Interaction>): Set<number> {
  const ids = new Set<number>();
  for (const i of interactions) {
    if (i.request['prop'] !== 'extlinks') continue;
    for (const p of goodPages(i)) ids.add(Number(p['pageid']));
    const token = i.request['elcontinue'];
    if (token !== undefined) ids.add(Number(token.split('|')[0]));
  }
  return ids;
}

/** learnLinkIds over the pages of `byId` (which must hold every page of linkPageIds that the model has). */
export function learnLinkIdsOf(byId: ReadonlyMap<number, Page>, interactions: () => Iterable<Interaction>): void {
  // The links each answer showed that issued a token (1.43: every one of them is before the token),
  // by the question and the token: a token names a row of the question that issued it only.
  const issuers = new Map<string, { token: string; shown: JsonObject[] }>();
  for (const i of interactions()) {
    const next = (i.body['continue'] as Record<string, unknown> | undefined)?.['elcontinue'];
    if (typeof next === 'string' && i.request['prop'] === 'extlinks') issuers.set(issued(i.request, next), { token: next, shown: goodPages(i) });
  }
  const seen: Seen[] = [];
  for (const i of interactions()) {
    const token = i.request['elcontinue'];
    const r = i.request;
    const protocol = r['elprotocol'] ?? '';
    if (token === undefined || r['prop'] !== 'extlinks' || i.status !== 200 || !['', 'http', 'https'].includes(protocol) || r['elquery'] !== undefined) continue;
    const good = goodPages(i);
    const parts = token.split('|');
    const multi = good.length !== 1;
    const modern = parts.length === 1;
    if (!modern && parts.length !== (multi ? 3 : 2)) continue;
    const k = Number(parts[parts.length - 1]);
    if (!Number.isSafeInteger(k) || k <= 0) continue;
    const index = modern ? null : parts[parts.length - 2]!.replace(/%7C/g, '|').replace(/%25/g, '%');
    const shown = good.filter((p) => linksOf(p).length > 0);
    // The first link the answer shows: 1.39 orders pages by id first; in 1.43 the order across
    // pages is the links' ids, which an answer showing one page's links alone settles (its links
    // are listed in id order: the first is the row at the token).
    const firstPage = modern ? (shown.length === 1 ? shown[0] : undefined) : shown.sort((a, b) => Number(a['pageid']) - Number(b['pageid']))[0];
    if (modern && shown.length > 0 && !firstPage) continue;
    const pages = good.map((p) => byId.get(Number(p['pageid']))).filter((p): p is Page => p !== undefined);
    const pageOf = firstPage ? byId.get(Number(firstPage['pageid'])) : undefined;
    const link = pageOf?.extlinks.find((l) => l.url === String(linksOf(firstPage!)[0]!['url']));
    const exact = issuers.has(issued(r, token));
    // With elprotocol=https, 1.39 shows a protocol-relative link by its https row, which has an id of its own.
    if (!modern && protocol === 'https' && link?.url.startsWith('//')) {
      if (exact && pageOf === (multi ? byId.get(Number(parts[0])) : pages[0]) && httpsIndexOf(link) === index) link.httpsId = k;
      continue;
    }
    seen.push({ k, index, tokenPage: modern ? undefined : multi ? byId.get(Number(parts[0])) : pages[0], pages, link, linkPage: pageOf, exact });
  }
  // Lower bounds and exact ids first: the link at the token.
  for (const s of seen) {
    if (!s.link || (s.index !== null && (s.linkPage !== s.tokenPage || indexOf(s.link) !== s.index))) continue;
    if (s.exact) s.link.id = s.k;
    else s.link.idMin = Math.max(s.link.idMin ?? 1, s.k);
  }
  // Then upper bounds: no link lies between the token and the link it shows.
  for (const s of seen) {
    if (s.index !== null) {
      // 1.39: the links of the token's page and index that come before it.
      const page = s.tokenPage;
      if (!page) continue;
      const at = s.link && s.linkPage === page && indexOf(s.link) === s.index ? page.extlinks.indexOf(s.link) : page.extlinks.length;
      for (const l of page.extlinks.slice(0, at)) if (indexOf(l) === s.index) below(l, s.k);
    }
  }
  // 1.43 orders by id alone: what an answer showed before a token issued from it is below it, and
  // a link known to be below the one an answer shows is below that answer's token.
  for (let round = 0; round < 2; round++) {
    for (const { token, shown: shownPages } of issuers.values()) {
      const k = Number(token);
      if (token.includes('|') || !Number.isSafeInteger(k)) continue;
      for (const p of shownPages) {
        const page = byId.get(Number(p['pageid']));
        for (const u of linksOf(p)) {
          const l = page?.extlinks.find((x) => x.url === String(u['url']));
          if (l) below(l, k);
        }
      }
    }
    for (const s of seen) {
      if (s.index !== null) continue;
      const shownLo = s.link ? (s.link.id || (s.link.idMin ?? 1)) : Number.MAX_SAFE_INTEGER;
      for (const page of s.pages) {
        const bounds = idBounds(page, true);
        page.extlinks.forEach((l, n) => {
          if (l !== s.link && bounds[n]!.hi < shownLo) below(l, s.k);
        });
      }
    }
  }
}

interface Seen {
  /** The token's id part. */
  k: number;
  /** The token's el_index_60 (1.39), or null (1.43). */
  index: string | null;
  /** The page the token points into (1.39). */
  tokenPage: Page | undefined;
  /** The pages the request asked about. */
  pages: Page[];
  /** The first link the answer showed, and its page. */
  link: ExtLink | undefined;
  linkPage: Page | undefined;
  /** Whether the wiki issued the token (then `link` is at it exactly). */
  exact: boolean;
}

/**
 * A token as issued to one question: its rows are the same whatever the limit or the point it
 * continues from (ApiQueryExternalLinks cuts and resumes one ordered set of rows), so a request
 * continuing at a token shows the row it names only when it asks the question that issued it.
 */
function issued(request: Readonly<Record<string, string>>, token: string): string {
  const { elcontinue: _e, continue: _c, ellimit: _l, ...question } = request;
  return `${JSON.stringify(Object.entries(question).sort(([a], [b]) => (a < b ? -1 : 1)))}\n${token}`;
}

/** A link whose id is below the token `k`. */
function below(l: ExtLink, k: number): void {
  if (l.id === 0) l.idMax = Math.min(l.idMax ?? Number.MAX_SAFE_INTEGER, k - 1);
}

/** A link's (first) row's el_index_60: a protocol-relative link's http row. */
function indexOf(l: ExtLink): string {
  return index60(makeIndexes(l.url)[0] ?? '');
}

/** The el_index_60 of a protocol-relative link's https row (1.39). */
function httpsIndexOf(l: ExtLink): string {
  return index60(makeIndexes(l.url)[1] ?? '');
}

/** The pages of an answer that exist (ApiPageSet's good pages, which decide the token's form). */
function goodPages(i: Interaction): JsonObject[] {
  const q = i.body['query'];
  const pages = isObject(q) && Array.isArray(q['pages']) ? q['pages'].filter(isObject) : [];
  return pages.filter((p) => typeof p['pageid'] === 'number' && p['pageid'] > 0 && !p['missing'] && !p['invalid']);
}

function linksOf(p: JsonObject): JsonObject[] {
  return Array.isArray(p['extlinks']) ? p['extlinks'].filter(isObject) : [];
}
