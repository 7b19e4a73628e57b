import type { ApiContext } from '../api/context.js';
import { ApiUsageError, apiMessage } from '../api/errors.js';
import { LIMIT_PARAM, pv, type ParamValues } from '../api/param-spec.js';
import type { QueryModule } from '../api/query-module.js';
import type { JsonObject } from '../api/result.js';
import type { Page } from '../wiki/model.js';
import { atLeast } from '../wiki/profile.js';
import { badContinue, compareKeys, type SortKey } from './list-support.js';
import { index60, makeIndexes, reconstructUrl, reverseHost, splitUrl } from './link-index.js';

/** $wgUrlProtocols of a default install, cut at `:` (ApiQueryExternalLinks' `elprotocol`). */
const PROTOCOLS = ['bitcoin', 'ftp', 'ftps', 'geo', 'git', 'gopher', 'http', 'https', 'irc', 'ircs', 'magnet', 'mailto', 'matrix', 'mms', 'news', 'nntp', 'redis', 'sftp', 'sip', 'sips', 'sms', 'ssh', 'svn', 'tel', 'telnet', 'urn', 'worldwind', 'xmpp'];
const SLASHLESS = new Set(['bitcoin', 'geo', 'magnet', 'mailto', 'news', 'sip', 'sips', 'sms', 'tel', 'urn', 'xmpp']);

interface Row {
  page: Page;
  id: number;
  url: string;
  index: string;
}

/** prop=extlinks (ApiQueryExternalLinks). */
export const extlinks: QueryModule = {
  name: 'extlinks',
  prefix: 'el',
  group: 'prop',
  cacheMode: 'public',
  params: {
    limit: LIMIT_PARAM,
    continue: { type: 'string' },
    protocol: { type: 'enum', values: ['', ...PROTOCOLS], default: '' },
    query: { type: 'string' },
    expandurl: { type: 'boolean' },
  },
  execute(ctx, v, pages) {
    if (pages.good.length === 0) return {};
    const modern = atLeast(ctx.profile, '1.43');
    if (modern && v['expandurl'] === true) {
      ctx.addWarning('query+extlinks', apiMessage('deprecation', 'paramvalidator-param-deprecated', [{ plaintext: 'elexpandurl' }], { feature: 'action=query&prop=extlinks&elexpandurl' }));
      ctx.addWarning('main', apiMessage('deprecation-help', 'api-usage-mailinglist-ref'));
    }
    let rows = collectRows(ctx, v, pages.good, modern);
    const sortKey = (r: Row): SortKey =>
      modern ? [r.id] : pages.good.length > 1 ? [r.page.pageid, index60(r.index), r.id] : [index60(r.index), r.id];
    rows.sort((a, b) => compareKeys(sortKey(a), sortKey(b)));
    const cont = pv.str(v['continue']);
    if (cont !== null) {
      const parts = cont.split('|').map((p) => decodeURIComponentSafe(p));
      const width = sortKey(rows[0] ?? { page: pages.good[0]!, id: 0, url: '', index: '' }).length;
      if (parts.length !== width) throw badContinue();
      const c: SortKey = parts.map((p, i) => (i === width - 1 || (!modern && width === 3 && i === 0) ? Number(p) : p));
      rows = rows.filter((r) => compareKeys(sortKey(r), c) >= 0);
    }
    const limit = pv.num(v['limit']) ?? 10;
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
    return { continueValue: sortKey(next).map((k) => String(k).replace(/%/g, '%25').replace(/\|/g, '%7C')).join('|') };
  },
};

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function collectRows(ctx: ApiContext, v: ParamValues, good: Page[], modern: boolean): Row[] {
  const protocol = pv.str(v['protocol']) ?? '';
  const query = pv.str(v['query']);
  const prefixes = protocolPrefixes(protocol, query !== null, modern);
  const like = query === null ? null : likePattern(ctx, query);
  const rows: Row[] = [];
  for (const page of good) {
    for (const link of page.extlinks) {
      const indexes = makeIndexes(link.url);
      // Protocol-relative links have an http and an https row: 1.39 lists them once (by the http
      // row) unless a protocol or query picks one; 1.41+ stores only the https row.
      const candidates = modern ? indexes.slice(-1) : prefixes === null ? indexes.slice(0, 1) : indexes;
      for (const index of candidates) {
        const ok = (prefixes === null || prefixes.some((p) => index.startsWith(p))) && (like === null || prefixes!.some((p) => like(index, p)));
        if (ok) {
          rows.push({ page, id: link.id, url: link.url, index });
          break;
        }
      }
    }
  }
  return rows;
}

/** Index prefixes selected by elprotocol (and elquery's default protocols). */
function protocolPrefixes(protocol: string, hasQuery: boolean, modern: boolean): string[] | null {
  if (protocol !== '') return [SLASHLESS.has(protocol) ? `${protocol}:` : `${protocol}://`];
  if (!hasQuery) return null;
  return modern ? ['http://', 'https://'] : ['http://'];
}

/** LinkFilter::makeLikeArray for `elquery`: `[*.]domain[/path]`. */
function likePattern(_ctx: ApiContext, query: string): (index: string, prefix: string) => boolean {
  const wildcard = query.startsWith('*.');
  const parts = splitUrl(`//${wildcard ? query.slice(2) : query}`);
  if (!parts || parts.host === '' || /[*]/.test(parts.host)) {
    throw new ApiUsageError(apiMessage('badquery', 'apierror-badquery'));
  }
  const host = reverseHost(parts.host);
  const path = parts.port + parts.path;
  return (index, prefix) => {
    if (!index.startsWith(prefix)) return false;
    const rest = index.slice(prefix.length);
    if (wildcard ? !rest.startsWith(host.slice(0, -1)) : !rest.startsWith(host)) return false;
    if (!wildcard && !path) return rest.startsWith(host + '/') || rest === host || rest.startsWith(host + ':');
    return path ? rest.slice(host.length).startsWith(path) : true;
  };
}
