import { existsSync } from 'node:fs';
import type { JsonObject } from '../api/result.js';
import { closeCassette, FileCassetteStore, prepareDatabase } from '../cassette/store.js';
import { canonicalKey } from '../request/canonical.js';
import { KEY_RULES, KNOWLEDGE_ENTITIES, LIST_ENTITIES, MODULES } from '../modules/index.js';
import { PAGES, type Page } from '../wiki/model.js';
import { Recorder } from './recorder.js';
import { SpacedWrites } from './spaced-writes.js';
import { UpstreamError } from './upstream.js';
import { recordLinkIds, type LinkedPage } from './snapshot-link-ids.js';

export interface SnapshotOptions {
  /** The live wiki's api.php URL. */
  upstream: string;
  /** Folder of cassettes. Default `./cassettes`. */
  cassettes?: string;
  /** The format of a cassette made new: `json` (default) or `sqlite` (a database cassette). */
  store?: 'json' | 'sqlite';
  /** Cassette name. Default `snapshot`. */
  cassette?: string;
  /** Called after each request with what has been done so far. */
  onProgress?: (p: SnapshotProgress) => void;
}

export interface SnapshotProgress {
  /** What is being crawled: `list=logevents`, `pages`, `extlinks` … */
  step: string;
  requests: number;
  /** Requests answered from the cassette (a resumed snapshot asks the wiki only for what is missing). */
  reused: number;
  entries: number;
  /** Links whose `el_id` the crawl could not learn (their continuation tokens stay flagged in replay). */
  unknownLinkIds: number;
}

/** Every siteinfo part a client may ask (parts a version lacks are only warned about). */
const SITEINFO_PROPS = 'general|namespaces|namespacealiases|specialpagealiases|magicwords|interwikimap|statistics|usergroups|libraries|extensions|fileextensions|rightsinfo|restrictions|languages|languagevariants|skins|extensiontags|functionhooks|showhooks|variables|protocols|defaultoptions|uploaddialog';
/** Every userinfo prop of an anonymous caller but `options`, which holds a secret token. */
const USERINFO_PROPS = 'blockinfo|hasmsg|groups|groupmemberships|implicitgroups|rights|changeablegroups|editcount|ratelimits|theoreticalratelimits|email|realname|acceptlang|registrationdate|unreadcount|centralids|latestcontrib|cancreateaccount';

/**
 * Where each redirect leads: `titles=…&redirects=1`, fifty titles a question (what an anonymous
 * caller may ask at once); the answers' `query.redirects` are harvested (record/harvest-redirects.ts).
 */
async function askTargets(ask: (p: Record<string, string>) => Promise<JsonObject>, redirects: readonly string[]): Promise<void> {
  for (let i = 0; i < redirects.length; i += 50) await ask({ action: 'query', titles: redirects.slice(i, i + 50).join('|'), redirects: '1' });
}

/**
 * What `prop=info` and `prop=langlinks` show of every page, fifty titles a question: its content
 * model, what Title::getContentModel reads (action=parse of a title without `contentmodel`), which
 * a page's title alone does not tell once it was changed; its length, protections and language
 * links, what list=allpages filters on (`apminsize`, `apprtype`, `apfilterlanglinks`). The answers'
 * pages are harvested with them (record/harvest.ts). Where the language links of fifty pages
 * continue past one answer (more than `lllimit=max`), the titles are asked again in halves, so
 * that each answer shows its pages' links whole. A wiki that does not answer it (a wikitape server
 * over fixtures, which has no prop=info: its fixtures tell all that) ends the step; replay then
 * takes each page to have its title's default model, and flags the filters.
 */
async function askPageFacts(answer: (p: Record<string, string>) => Promise<{ body: JsonObject; wrong: string | null }>, titles: readonly string[]): Promise<void> {
  const ask = async (some: readonly string[]): Promise<boolean> => {
    const { body, wrong } = await answer({ action: 'query', prop: 'info|langlinks', inprop: 'protection', lllimit: 'max', titles: some.join('|') });
    if (wrong !== null) return false;
    if (body['continue'] === undefined || some.length === 1) return true;
    const half = Math.ceil(some.length / 2);
    return (await ask(some.slice(0, half))) && ask(some.slice(half));
  };
  for (let i = 0; i < titles.length; i += 50) if (!(await ask(titles.slice(i, i + 50)))) return;
}

/**
 * Every page's external links: `prop=extlinks&ellimit=max`, fifty titles a walk (an anonymous
 * caller's limits), each walk to its end (so replay knows those pages' links are complete:
 * cassette/coverage.ts completeLinkPages). A page's links continue across answers in order.
 */
async function listLinks(walk: (params: Record<string, string>, pick: (b: JsonObject) => unknown[]) => Promise<unknown[]>, titles: readonly string[]): Promise<LinkedPage[]> {
  const pages = new Map<number, { pageid: number; title: string; links: string[] }>();
  for (let i = 0; i < titles.length; i += 50) {
    // One item a link (the progress counts links), with its page.
    const links = (await walk({ prop: 'extlinks', titles: titles.slice(i, i + 50).join('|'), ellimit: 'max' }, (b) =>
      (((b['query'] as JsonObject | undefined)?.['pages'] ?? []) as { pageid?: number; title?: string; extlinks?: { url: string }[] }[]).flatMap((p) => (p.extlinks ?? []).map((l) => ({ pageid: p.pageid, title: p.title, url: l.url }))),
    )) as { pageid?: number; title?: string; url: string }[];
    for (const l of links) {
      if (typeof l.pageid !== 'number' || typeof l.title !== 'string') continue;
      const page = pages.get(l.pageid) ?? { pageid: l.pageid, title: l.title, links: [] };
      page.links.push(l.url);
      pages.set(l.pageid, page);
    }
  }
  return [...pages.values()];
}

/**
 * A question asked again (up to twice) when the connection failed: a kept-alive connection the
 * wiki closed while the snapshot was busy (writing its cassette, which blocks for seconds on a big
 * database) fails the next question on it (undici's UND_ERR_SOCKET), and the pool may hold more
 * than one such connection. A GET asks nothing twice that matters; a wiki that is really gone
 * fails each time.
 */
async function askAgain<T>(ask: () => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ask();
    } catch (e) {
      if (!(e instanceof UpstreamError) || e.kind !== 'unreachable' || attempt >= tries) throw e;
    }
  }
}

/**
 * The answers a cassette held when the snapshot began, by key (a resumed snapshot asks none of
 * them again): a database cassette's read by key as they are asked (resuming the snapshot of a
 * million log events read it whole, and kept every answer in memory to the end), a file's from its
 * document.
 */
async function recordedAnswers(store: FileCassetteStore, name: string, upstream: string): Promise<{ get(key: string): JsonObject | undefined; close(): void }> {
  const database = existsSync(store.databaseFile(name)) ? store.databaseOf(name) : null;
  if (database) {
    const keys = new Set(database.keys());
    return { get: (key) => (keys.has(key) ? database.interaction(key)?.body : undefined), close: () => database.close() };
  }
  const db = await store.open(name, upstream);
  const recorded = new Map(db.data.interactions.map((i) => [i.key, i.body]));
  // (read only: a database's connection closed, the recorder's own the one writing)
  closeCassette(db);
  return { get: (key) => recorded.get(key), close: () => undefined };
}

/**
 * `wikitape snapshot`: a complete cassette of a wiki. Every list is walked to its end as its
 * module says (ListModule.snapshot: the maximum limit, every prop; list=allpages for every
 * namespace, and its redirects), so replay can synthesize any page of it; then where each
 * redirect leads, the external links, content model, length, protections and language links of
 * every page the lists showed. Each question is asked and stored by a recorder in this process;
 * one already in the cassette is answered from it, so an interrupted snapshot resumes where it
 * stopped.
 */
export async function snapshot(options: SnapshotOptions): Promise<SnapshotProgress> {
  const cassettes = options.cassettes ?? './cassettes';
  const name = options.cassette ?? 'snapshot';
  // Written in bounded batches (a tenth of the time at most), not whole after every answer.
  const spaced = new SpacedWrites(9);
  const files = new FileCassetteStore(cassettes, { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, ...(options.store ? { format: options.store } : {}) });
  const store = spaced.wrap(files);
  const recorded = await recordedAnswers(files, name, options.upstream);
  // The recorder in this process: each question goes straight to the wiki and into the cassette.
  const recorder = new Recorder({ upstream: options.upstream, store, cassette: name });
  try {
    await recorder.ready();
  } catch (e) {
    recorder.close();
    recorded.close();
    throw e;
  }
  const progress: SnapshotProgress = { step: '', requests: 0, reused: 0, entries: 0, unknownLinkIds: 0 };

  // The answer, or what went wrong (a stored answer is never an error).
  const answer = async (params: Record<string, string>): Promise<{ body: JsonObject; wrong: string | null }> => {
    progress.requests++;
    const canonical = { format: 'json', formatversion: '2', ...params };
    const stored = recorded.get(canonicalKey(new Map(Object.entries(canonical)), KEY_RULES));
    if (stored) {
      progress.reused++;
      return { body: stored, wrong: null };
    }
    const { status, body } = await askAgain(() => recorder.ask(params));
    return { body, wrong: status !== 200 || body['error'] ? JSON.stringify(body['error'] ?? status) : null };
  };
  const ask = async (params: Record<string, string>): Promise<JsonObject> => {
    const { body, wrong } = await answer(params);
    if (wrong !== null) throw new Error(`wikitape: snapshot stopped: ${wrong}`);
    return body;
  };
  const walk = async (params: Record<string, string>, pick: (b: JsonObject) => unknown[]): Promise<unknown[]> => {
    const items: unknown[] = [];
    let cont: Record<string, string> = {};
    for (;;) {
      const body = await ask({ action: 'query', ...params, ...cont });
      items.push(...pick(body));
      progress.entries += pick(body).length;
      options.onProgress?.(progress);
      const next = body['continue'] as Record<string, string> | undefined;
      if (!next) return items;
      cont = next;
    }
  };
  const query = (b: JsonObject) => (b['query'] ?? {}) as Record<string, unknown[]>;

  try {
    // Every page a list shows (list=allpages), in the order shown, once; the redirects among them.
    const titles = new Set<string>();
    const redirects: string[] = [];
    for (const list of MODULES.query.list) {
      progress.step = `list=${list.name}`;
      for (const params of list.snapshot) {
        const rows = (await walk({ list: list.name, ...params }, (b) => query(b)[list.name] ?? [])) as JsonObject[];
        if (list.entity.kind !== PAGES) continue;
        for (const row of rows) {
          const page = list.entity.fromRow(row, [], { action: 'query', list: list.name, ...params }) as Page | null;
          if (!page) continue;
          titles.add(page.title);
          if (page.redirect) redirects.push(page.title);
        }
      }
    }
    await askTargets(ask, redirects);
    progress.step = 'extlinks';
    const linked = await listLinks(walk, [...titles]);
    progress.step = 'extlinks ids';
    progress.unknownLinkIds = await recordLinkIds((p) => ask(p), linked);
    progress.step = 'page info and language links';
    await askPageFacts(answer, [...titles]);
    progress.step = 'siteinfo and userinfo';
    await ask({ action: 'query', meta: 'siteinfo', siprop: SITEINFO_PROPS });
    await ask({ action: 'query', meta: 'userinfo', uiprop: USERINFO_PROPS });
  } finally {
    try {
      spaced.hurry();
      await recorder.flush();
    } finally {
      recorder.close();
      recorded.close();
    }
  }
  // Its writes kept a database cassette prepared (cassette/sql-prepare.ts) unless it was not when
  // the snapshot began (made by an older wikitape, say): prepared now, once, at what the data costs.
  prepareDatabase(store, name);
  return progress;
}
