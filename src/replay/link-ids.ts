import type { Interaction } from '../cassette/format.js';
import { isObject } from '../api/result.js';
import { index60, makeIndexes } from '../modules/link-index.js';
import type { ExtLink, WikiModel } from '../wiki/model.js';

/**
 * External links' `el_id`s, learned from continuation. The API shows an id only inside
 * `elcontinue` (1.43: `<el_id>`; 1.39: `<el_index60>|<el_id>` for one page): a recorded request
 * continuing from token T shows first the first link at or after T. When the wiki itself issued T
 * (a recorded answer carries it), that link's id is T exactly; for any other T it is at least T.
 * Either way the link recorded before it (in the page's order, which is id order in 1.43 and
 * (index, id) order in 1.39) has a smaller id. `wikitape snapshot` asks for every link this way.
 */
export function learnLinkIds(model: WikiModel, interactions: () => Iterable<Interaction>): void {
  const issued = new Set<string>();
  for (const i of interactions()) {
    const next = (i.body['continue'] as Record<string, unknown> | undefined)?.['elcontinue'];
    if (typeof next === 'string') issued.add(next);
  }
  for (const i of interactions()) {
    const token = i.request['elcontinue'];
    const r = i.request;
    if (token === undefined || r['prop'] !== 'extlinks' || i.status !== 200 || (r['titles'] ?? '').includes('|') || r['pageids'] || r['elprotocol'] || r['elquery'] !== undefined) continue;
    const q = i.body['query'];
    const shown = isObject(q) && Array.isArray(q['pages']) ? q['pages'].filter(isObject) : [];
    if (shown.length !== 1) continue;
    const page = model.pages.find((p) => p.pageid === shown[0]!['pageid']);
    if (!page) continue;
    const first = Array.isArray(shown[0]!['extlinks']) ? shown[0]!['extlinks'].filter(isObject)[0] : undefined;
    // Nothing at or after the token: every link is before it.
    const at = first === undefined ? page.extlinks.length : page.extlinks.findIndex((l) => l.url === String(first['url']));
    if (at < 0) continue;
    bound(page.extlinks, at, token, issued.has(token));
  }
}

function bound(links: ExtLink[], at: number, token: string, exact: boolean): void {
  const parts = token.split('|');
  const id = Number(parts[parts.length - 1]);
  if (!Number.isSafeInteger(id) || id <= 0 || parts.length > 2) return;
  const link = links[at];
  const prev = links[at - 1];
  // 1.39 orders by (index, id): the id decides only among links of the same index.
  const sameIndex = (l: ExtLink) => parts.length === 1 || index60(makeIndexes(l.url)[0] ?? '') === parts[0]!.replace(/%7C/g, '|').replace(/%25/g, '%');
  if (link && sameIndex(link)) {
    if (exact) link.id = id;
    else link.idMin = Math.max(link.idMin ?? 1, id);
  }
  if (prev && sameIndex(prev) && prev.id === 0) prev.idMax = Math.min(prev.idMax ?? Number.MAX_SAFE_INTEGER, id - 1);
}
