import type { ApiContext } from '../api/context.js';
import { ApiUsageError, apiMessage } from '../api/errors.js';
import { LIMIT_PARAM, pv, type ParamValues } from '../api/param-spec.js';
import type { QueryModule } from '../api/query-module.js';
import type { JsonObject } from '../api/result.js';
import type { Page } from '../wiki/model.js';
import { atLeast } from '../wiki/profile.js';
import type { SortKey } from '../api/list-module.js';
import { badContinue, compareKeys } from './list-support.js';
import { SLASHLESS_PROTOCOLS, decodeURIComponentSafe, index60, makeIndexes, reconstructUrl } from '../wiki/link-index.js';
import { linkQuery, rowOf143 } from './link-query.js';
import { idBounds } from '../wiki/link-bounds.js';
import { apiClass, escapeClose, sqlLimit, type DebugFacts, type DebugInput } from '../api/debug.js';

/** $wgUrlProtocols of a default install, cut at `:` (ApiQueryExternalLinks' `elprotocol`). */
const PROTOCOLS = ['bitcoin', 'ftp', 'ftps', 'geo', 'git', 'gopher', 'http', 'https', 'irc', 'ircs', 'magnet', 'mailto', 'matrix', 'mms', 'news', 'nntp', 'redis', 'sftp', 'sip', 'sips', 'sms', 'ssh', 'svn', 'tel', 'telnet', 'urn', 'worldwind', 'xmpp'];
const SLASHLESS = new Set(SLASHLESS_PROTOCOLS);

interface Row {
  page: Page;
  /** The link's el_id, or the bounds the known ids of its page set on it (equal when known). */
  id: { lo: number; hi: number };
  /** Its place among its page's links as recorded. */
  pos: number;
  url: string;
  index: string;
  /** Whether it is 1.39's https row of a protocol-relative link (see ExtLink.httpsId). */
  own: boolean;
}

/** prop=extlinks (ApiQueryExternalLinks). */
export const extlinks: QueryModule = {
  name: 'extlinks',
  prefix: 'el',
  group: 'prop',
  cacheMode: 'public',
  debug: extlinksDebug,
  key: { defaults: { ellimit: '10' } },
  params: (profile) => ({
    limit: LIMIT_PARAM,
    continue: { type: 'string' },
    protocol: { type: 'enum', values: ['', ...PROTOCOLS], default: '' },
    query: { type: 'string' },
    // 1.43 keeps protocol-relative links as https: expanding them is deprecated.
    expandurl: { type: 'boolean', deprecated: atLeast(profile, '1.43') },
  }),
  execute(ctx, v, pages) {
    if (pages.good.length === 0) return {};
    const modern = atLeast(ctx.profile, '1.43');
    const knows = ctx.knows;
    if (knows && pages.good.some((p) => !knows.completeLinks.has(p.pageid))) ctx.unknown('extlinks.entries');
    let rows = collectRows(v, pages.good, modern);
    const multi = pages.good.length > 1;
    const cont = pv.str(v['continue']);
    const limit = pv.num(v['limit']) ?? 10;
    // Where ids are not all known, a single page's links are in the order recorded, which is id
    // order in 1.43 and (index, id) order in 1.39; across pages 1.43 orders by id alone. That
    // order shows only where the limit cuts or a continuation starts: each page's links are
    // listed under the page (ApiQueryBase::addPageSubItem), so when all fit, it is invisible.
    const cut = cont !== null || rows.length > limit;
    if (cut && modern && multi && rows.some((r) => r.id.lo !== r.id.hi) && new Set(rows.map((r) => r.page.pageid)).size > 1) ctx.unknown('extlinks.id');
    const allKnown = rows.every((r) => r.id.lo === r.id.hi);
    // The recorded order places https rows of protocol-relative links by their http row: among
    // rows of the same page and index, their place follows ids no recording showed.
    if (!allKnown && rows.some((r) => r.own && r.id.lo !== r.id.hi && rows.some((o) => o !== r && o.page === r.page && index60(o.index) === index60(r.index)))) ctx.unknown('extlinks.id');
    const idKey = (r: Row): number => (allKnown ? r.id.lo : r.pos);
    const sortKey = (r: Row): SortKey =>
      modern ? [idKey(r)] : multi ? [r.page.pageid, index60(r.index), idKey(r)] : [index60(r.index), idKey(r)];
    rows.sort((a, b) => compareKeys(sortKey(a), sortKey(b)));
    if (cont !== null) {
      const parts = cont.split('|').map((p) => decodeURIComponentSafe(p));
      const width = modern ? 1 : multi ? 3 : 2;
      // (its width follows from how many pages exist: where the page set could not tell, neither
      // can the error, and the answer is flagged already)
      if (parts.length !== width) {
        if (!pages.certain) return {};
        throw badContinue();
      }
      const c: SortKey = parts.map((p, i) => (i === width - 1 || (!modern && width === 3 && i === 0) ? Number(p) : p));
      rows = rows.filter((r) => atOrAfter(ctx, r, c, modern, multi));
    }
    const page = rows.slice(0, limit);
    // elexpandurl: protocol-relative links get $wgCanonicalServer's protocol.
    const expand = v['expandurl'] === true;
    const canonicalProtocol = ctx.profile.server.startsWith('https:') ? 'https:' : 'http:';
    for (const r of page) {
      const entry = pages.entries.get(r.page.pageid) as JsonObject;
      const list = (entry['extlinks'] as JsonObject[] | undefined) ?? [];
      list.push({ url: modern ? reconstructUrl(r.url) : expand && r.url.startsWith('//') ? `${canonicalProtocol}${r.url}` : r.url });
      entry['extlinks'] = list;
    }
    const next = rows[limit];
    if (!next) return {};
    if (next.id.lo !== next.id.hi) ctx.unknown('extlinks.id');
    const key: SortKey = modern ? [next.id.lo] : multi ? [next.page.pageid, index60(next.index), next.id.lo] : [index60(next.index), next.id.lo];
    return { continueValue: key.map((k) => String(k).replace(/%/g, '%25').replace(/\|/g, '%7C')).join('|') };
  },
};

/**
 * Whether a row is at or after the continuation point `c`: by page and index first (1.39), then
 * by el_id. An id known only within bounds decides when the bounds do; otherwise the answer is
 * flagged.
 */
function atOrAfter(ctx: ApiContext, r: Row, c: SortKey, modern: boolean, multi: boolean): boolean {
  const head: SortKey = modern ? [] : multi ? [r.page.pageid, index60(r.index)] : [index60(r.index)];
  const byHead = compareKeys(head, c.slice(0, head.length));
  if (byHead !== 0) return byHead > 0;
  const want = Number(c[c.length - 1]);
  if (r.id.lo >= want) return true;
  if (r.id.hi < want) return false;
  ctx.unknown('extlinks.id');
  return false;
}

function collectRows(v: ParamValues, good: Page[], modern: boolean): Row[] {
  const protocol = pv.str(v['protocol']) ?? '';
  // ApiQueryExtLinksUsage::getProtocolPrefix: `https` → `https://`, `mailto` → `mailto:`.
  const prefix = protocol === '' ? null : SLASHLESS.has(protocol) ? `${protocol}:` : `${protocol}://`;
  const query = pv.str(v['query']);
  const match = query === null || query === '' ? null : linkQuery(query, prefix, modern);
  if (match === null && query !== null && query !== '') throw new ApiUsageError(apiMessage('badquery', 'apierror-badquery'));
  const rows: Row[] = [];
  for (const page of good) {
    const bounds = idBounds(page, modern);
    for (const [pos, link] of page.extlinks.entries()) {
      const indexes = makeIndexes(link.url);
      // Protocol-relative links have an http and an https row: 1.39 lists them once (by the http
      // row) unless a protocol or query picks one; 1.41+ stores only the https row.
      const candidates = modern ? indexes.slice(-1) : prefix === null && match === null ? indexes.slice(0, 1) : indexes;
      const row143 = modern && match ? rowOf143(link.url) : null;
      for (const index of candidates) {
        const ok = match ? match({ index, domain: row143?.domain ?? '', path: row143?.path ?? '' }) : prefix === null || index.startsWith(prefix);
        if (ok) {
          // 1.39's https row of a protocol-relative link has an id of its own, known only when a token named it.
          const own = !modern && link.url.startsWith('//') && index.startsWith('https://');
          const id = own ? (link.httpsId !== undefined ? { lo: link.httpsId, hi: link.httpsId } : { lo: 1, hi: Number.MAX_SAFE_INTEGER }) : bounds[pos]!;
          rows.push({ page, id, pos, url: link.url, index, own });
          break;
        }
      }
    }
  }
  return rows;
}

/**
 * ApiQueryExternalLinks' trace: for pages that exist, its SELECT, as the live wikis print it.
 * 1.39 filters protocol-relative links and orders by `el_index_60,el_id`, after `el_from` for more
 * than one page (an order field it adds to the fields as well, so el_from is selected twice); 1.43
 * orders by `el_id` alone, however many pages (its `$orderBy = [ 'el_id' ]`). The page lookup is
 * the page set's.
 */
function extlinksDebug({ profile, params, pages }: DebugInput): DebugFacts {
  const v143 = atLeast(profile, '1.43');
  const setup = v143 ? ['[MessageCache] MessageCache using store SqlBagOStuff', 'MediaWiki\\Parser\\ParserFactory: using default preprocessor'] : [];
  if (pages.length === 0) return { includes: 'extlinks', setup, entries: [] };
  const ids = pages.map((p) => p.id);
  const from = ids.length === 1 ? `el_from = ${ids[0]}` : `el_from IN (${ids.join(',')}) `;
  const limit = sqlLimit(params, 'ellimit');
  const multi = ids.length > 1;
  const sql = v143
    ? `SELECT  el_from,el_to_domain_index,el_to_path,el_id  FROM "externallinks"    WHERE ${from}  ORDER BY el_id LIMIT ${limit}  `
    : `SELECT  el_from,el_to,${multi ? 'el_from,' : ''}el_index_60,el_id  FROM "externallinks"    WHERE ${from} AND ((el_to NOT LIKE '//%' ${escapeClose(profile)} OR (el_index_60  LIKE 'http://%' ${escapeClose(profile)})  ORDER BY ${multi ? 'el_from,' : ''}el_index_60,el_id LIMIT ${limit}  `;
  return { includes: 'extlinks', setup, entries: [{ query: { sql, function: `${apiClass(profile, 'ApiQueryExternalLinks')}::execute` } }] };
}
