import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { blacklistHosts } from './bot-forms.js';
import { pool } from './bot-ask.js';
import type { LiveWiki } from './live-wiki.js';

/**
 * What the bots' differential's questions are made of: the live wiki's own titles, timestamps,
 * users, moves, namespaces and blacklist, read from it before anything is recorded. The question
 * generators are pure functions of these, so the questions follow the wiki's data and are the
 * same on every run over the same data.
 */
export interface WikiFacts {
  /** Every page, namespace by namespace (0 to 15), in `list=allpages` order. */
  pages: { title: string; pageid: number; ns: number }[];
  /** Titles of the pages that have external links, in the same order. */
  linked: string[];
  /** Every external link those pages show. */
  urls: string[];
  /** The log's moves: the old title (now a redirect) and the new one. */
  moves: { from: string; to: string }[];
  /** Every log event's timestamp, newest first. */
  logTimestamps: string[];
  /** Who made log events, most active first. */
  logUsers: string[];
  blocks: { id: number; user: string; timestamp: string }[];
  namespaces: { id: number; name: string; canonical?: string }[];
  aliases: { id: number; alias: string }[];
  /** The interwiki map's prefixes. */
  interwiki: string[];
  /** A host each line of the spam blacklist matches (the API never shows the list: read from the wiki's file). */
  blacklistHosts: string[];
}

async function get(api: string, params: Record<string, string>): Promise<Record<string, any>> {
  const r = await fetch(`${api}?${new URLSearchParams({ format: 'json', formatversion: '2', ...params })}`);
  return (await r.json()) as Record<string, any>;
}

/** The pages of one namespace and their external links (`generator=allpages`, continued). */
async function namespacePages(api: string, ns: number): Promise<{ title: string; pageid: number; ns: number; extlinks?: { url: string }[] }[]> {
  const pages = new Map<number, { title: string; pageid: number; ns: number; extlinks?: { url: string }[] }>();
  let cont: Record<string, string> = {};
  for (let i = 0; i < 20; i++) {
    const body = await get(api, { action: 'query', generator: 'allpages', gapnamespace: String(ns), gaplimit: 'max', prop: 'extlinks', ellimit: 'max', ...cont });
    for (const p of (body['query']?.['pages'] ?? []) as { title: string; pageid: number; ns: number; extlinks?: { url: string }[] }[]) {
      const seen = pages.get(p.pageid);
      if (seen) seen.extlinks = [...(seen.extlinks ?? []), ...(p.extlinks ?? [])];
      else pages.set(p.pageid, p);
    }
    if (!body['continue']) break;
    cont = body['continue'] as Record<string, string>;
  }
  // allpages order: by title within the namespace (the generator gives pages in page id order).
  return [...pages.values()].sort((x, y) => (x.title < y.title ? -1 : x.title > y.title ? 1 : 0));
}

/** Reads the facts from a live wiki, three questions at a time. */
export async function wikiFacts(live: LiveWiki): Promise<WikiFacts> {
  const api = live.apiUrl;
  const namespaces = await pool([...Array(16).keys()], 3, (ns) => namespacePages(api, ns));
  const [log, blocks, site] = await pool<Record<string, string>, Record<string, any>>(
    [
      { action: 'query', list: 'logevents', lelimit: 'max', leprop: 'title|type|user|timestamp|details' },
      { action: 'query', list: 'blocks', bklimit: 'max', bkprop: 'id|user|timestamp' },
      { action: 'query', meta: 'siteinfo', siprop: 'namespaces|namespacealiases|interwikimap' },
    ],
    3,
    (p) => get(api, p),
  );
  const pages = namespaces.flat();
  const events = log!['query']['logevents'] as { title: string; type: string; user?: string; timestamp: string; params?: { target_title?: string } }[];
  const users = new Map<string, number>();
  for (const e of events) if (e.user) users.set(e.user, (users.get(e.user) ?? 0) + 1);
  const lines = (await readFile(join(live.dir, 'spam-blacklist.txt'), 'utf8')).split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
  const ns = site!['query']['namespaces'] as Record<string, { id: number; name: string; canonical?: string }>;
  return {
    pages: pages.map(({ title, pageid, ns }) => ({ title, pageid, ns })),
    linked: pages.filter((p) => (p.extlinks?.length ?? 0) > 0).map((p) => p.title),
    urls: pages.flatMap((p) => (p.extlinks ?? []).map((l) => l.url)),
    moves: events.filter((e) => e.type === 'move' && e.params?.target_title).map((e) => ({ from: e.title, to: e.params!.target_title! })),
    logTimestamps: events.map((e) => e.timestamp),
    logUsers: [...users].sort((x, y) => y[1] - x[1]).map(([u]) => u),
    blocks: blocks!['query']['blocks'] as WikiFacts['blocks'],
    namespaces: Object.values(ns).map((n) => ({ id: n.id, name: n.name, ...(n.canonical ? { canonical: n.canonical } : {}) })),
    aliases: site!['query']['namespacealiases'] as WikiFacts['aliases'],
    interwiki: (site!['query']['interwikimap'] as { prefix: string }[]).map((i) => i.prefix),
    blacklistHosts: blacklistHosts(lines),
  };
}

/**
 * What another test changes when it changes the wiki (a block, log events, a protection): read
 * before and after a run, so that a report can say when differences may be the wiki's own.
 */
export async function wikiState(api: string): Promise<string> {
  const body = await get(api, { action: 'query', list: 'logevents|blocks|protectedtitles', lelimit: '1', leprop: 'ids', bklimit: 'max', bkprop: 'id', ptlimit: 'max', ptprop: 'timestamp' });
  const q = body['query'] as Record<string, { logid?: number; id?: number; title?: string }[]>;
  return `newest log event ${q['logevents']?.[0]?.logid}, blocks ${q['blocks']?.map((b) => b.id).join(',')}, protected titles ${q['protectedtitles']?.length}`;
}
