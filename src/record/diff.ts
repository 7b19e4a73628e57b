import { readFile } from 'node:fs/promises';
import type { Cassette } from '../cassette/format.js';
import { FileCassetteStore } from '../cassette/store.js';
import { databaseDocument } from '../cassette/commands.js';
import { KNOWLEDGE_ENTITIES, LIST_ENTITIES } from '../modules/index.js';
import { parseKeepingKeyOrder } from '../util/ordered-json.js';
import { redactJson, redactQuery } from '../util/secrets.js';
import type { JsonObject } from '../api/result.js';
import { notRecordable } from './policy.js';
import { answerJson } from './own-questions.js';
import { Upstream, type UpstreamOptions } from './upstream.js';
import { diffAnswers, joinPages } from './diff-json.js';
import { DiffSessions, type DiffCredential } from './diff-login.js';
import { continuationOf, continuingParams, nextPage, pageName, pointOf, walksOf, type Walk } from './diff-walks.js';
import { updateWalks } from './diff-update.js';

/**
 * `wikitape cassettes diff --upstream URL`: every recorded walk asked of the live wiki again (reads
 * only; a few at a time; with maxlag, waiting as the wiki asks when it is lagged), and the answers
 * compared with the recordings, volatile fields aside. A walk (a question's pages from the first,
 * following continuation: diff-walks.ts) is one unit; what was recorded logged in is asked in a
 * session of the same identity (diff-login.ts). `update` records the changed and gone walks again,
 * each whole (diff-update.ts).
 */
export interface DiffOptions {
  upstream: string;
  cassettes: string;
  /** Only this cassette (default: every one in the folder). */
  cassette?: string;
  /** Record the changed and gone walks again. */
  update?: boolean;
  /** Walks in flight at once. Default 2. */
  concurrency?: number;
  /** The maxlag sent with every question. Default 5. */
  maxlag?: number;
  onProgress?: (done: number, total: number) => void;
  /** Waits between maxlag retries (tests make it short). Default: the wiki's Retry-After (at most 120 s: more fails the diff). */
  sleep?: (seconds: number) => Promise<void>;
  /** Bounds on each question (answer size, time, Retry-After): see record/upstream.ts. */
  limits?: UpstreamOptions;
  /** The passwords of the identities recordings were made as (never stored or shown). Default none: their recordings are reported unchecked. */
  credentials?: readonly DiffCredential[];
  /** What an unchecked report says to give for an identity's credentials. Default: the CLI's environment variables and option. */
  credentialsHint?: string;
}

/** What a walk is now: the same, changed, gone (the wiki answers an error or another status), or not checked. */
const DIFF_STATUSES = ['equal', 'changed', 'gone', 'unchecked'] as const;
type DiffStatus = (typeof DIFF_STATUSES)[number];

/**
 * The CLI's exit codes: 1 while anything is changed or gone (and not recorded again), else 3
 * while anything was not checked (a logged-in recording without credentials), else 0; 2 when the
 * diff itself failed (the wiki could not be asked, a bound was passed, bad options).
 */
export const DIFF_EXIT = { fresh: 0, changed: 1, failed: 2, unchecked: 3 } as const;

export interface DiffEntry {
  cassette: string;
  /** The key of the walk's first page (its identity as ` @user`), secrets redacted. */
  key: string;
  status: DiffStatus;
  /** changed: the differences, one per line (`query.blocks[id=3].expiry: "…" → "…"`); unchecked and gone: why. */
  details: string[];
  /** The pages recorded (1: a question whose answer does not continue, or whose next page was not recorded). */
  pages: number;
  /** The pages of the walk now, as far as it was followed. */
  livePages?: number;
  /** The live walk was cut short (it goes on past the pages followed, or loops): never recorded again in part. */
  cut?: true;
  /** With update: recorded again (the whole walk). */
  updated?: boolean;
}

/** The most differences listed per walk. */
const SHOWN = 12;
/** The most pages named one by one as added to or gone from a walk; more are counted. */
const PAGES_SHOWN = 3;

/**
 * The pages a walk now goes on to that were not recorded (+) and the recorded ones it no longer
 * has (-): each named, or, when many are (every page boundary moved), counted from the first.
 */
function pageLinesOf(added: readonly string[], dropped: readonly string[]): string[] {
  const what = { '+': 'the walk goes on there now; not recorded', '-': 'recorded, no longer on the walk' } as const;
  if (added.length + dropped.length <= PAGES_SHOWN) return [...added.map((n) => `+ ${n}: ${what['+']}`), ...dropped.map((n) => `- ${n}: ${what['-']}`)];
  const counted = (sign: '+' | '-', names: readonly string[]) => (names.length === 0 ? [] : [`${sign} ${names.length} page${names.length === 1 ? '' : 's'} from ${names[0]}: ${what[sign]}`]);
  return [...counted('+', added), ...counted('-', dropped)];
}
/** How far a walk recorded to its end is followed: 10 times its recorded pages, at least 100 pages. */
const FOLLOW_FACTOR = 10;
const FOLLOW_MIN = 100;

/** The longest walk followed for one recorded with `pages` pages (to its end, or as far as recorded). */
function followLimit(walk: Walk): number {
  return walk.toEnd ? Math.max(FOLLOW_MIN, FOLLOW_FACTOR * walk.pages.length) : walk.pages.length;
}

/**
 * Whether `--update` may record the walk again: not when the live walk was cut short (it goes on
 * past what is followed, or comes back to a page it gave): recorded in part, it would be the
 * broken walk this avoids; said so.
 */
function followable(entry: DiffEntry): boolean {
  if (!entry.cut) return true;
  entry.details.push('not recorded again: the walk was not followed to its end');
  return false;
}

interface Context {
  options: DiffOptions;
  upstream: Upstream;
  sessions: DiffSessions;
  /** Per cassette, the parameters that continue its walks. */
  continuing: Map<string, Set<string>>;
}

export async function diffCassettes(options: DiffOptions): Promise<DiffEntry[]> {
  // (the lists' kinds and knowledge: a database cassette --update writes keeps them in its tables, prepared)
  const store = new FileCassetteStore(options.cassettes, { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES });
  const all = await store.list();
  if (options.cassette && !all.includes(options.cassette)) throw new Error(`wikitape: no cassette ${options.cassette} in ${store.dir}`);
  const names = options.cassette ? [options.cassette] : all;
  const walks: Walk[] = [];
  const continuing = new Map<string, Set<string>>();
  for (const name of names) {
    const file = store.locate(name);
    const c = file.endsWith('.sqlite') ? databaseDocument(file, LIST_ENTITIES) : (parseKeepingKeyOrder(await readFile(file, 'utf8')) as Cassette);
    walks.push(...walksOf(name, c.interactions));
    continuing.set(name, continuingParams(c.interactions));
  }
  // Every question through the bounded client: only the upstream, no redirect, answers and waits capped.
  const upstream = new Upstream(options.upstream, { userAgent: 'wikitape cassettes diff', ...options.limits });
  const hint = options.credentialsHint ?? 'WIKITAPE_DIFF_USER and WIKITAPE_DIFF_PASSWORD, or --credentials FILE';
  const ctx: Context = { options, upstream, sessions: new DiffSessions(upstream, options.credentials ?? [], hint), continuing };
  const out: DiffEntry[] = new Array<DiffEntry>(walks.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < walks.length) {
      const n = next++;
      out[n] = await check(walks[n]!, ctx);
      options.onProgress?.(++done, walks.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  if (options.update) {
    const work = out.map((entry, n) => ({ entry, walk: walks[n]! })).filter(({ entry }) => (entry.status === 'changed' || entry.status === 'gone') && followable(entry));
    await updateWalks(work, { upstream: options.upstream, store, sessions: ctx.sessions, continuing, follow: followLimit });
  }
  return out;
}

/** A page as the wiki answers it now. */
interface LivePage {
  request: Record<string, string>;
  status: number;
  body: JsonObject;
}

async function check(walk: Walk, ctx: Context): Promise<DiffEntry> {
  const first = walk.pages[0]!;
  const entry = { cassette: walk.cassette, key: redactQuery(first.key), pages: walk.pages.length };
  const why = notRecordable(new Map(Object.entries(first.request)));
  if (why) return { ...entry, status: 'unchecked', details: [`${why}: never asked again`] };
  let cookie: string | null = null;
  if (walk.user !== null) {
    const s = await ctx.sessions.session(walk.user);
    if ('unchecked' in s) return { ...entry, status: 'unchecked', details: [s.unchecked] };
    cookie = s.cookie;
  }
  const continuing = new Set(ctx.continuing.get(walk.cassette));
  const live: LivePage[] = [];
  let end: string | null = null;
  for (let request = first.request; ; ) {
    const a = await ask(ctx, request, cookie);
    if (cookie !== null && errorCode(a.body) === 'assertuserfailed') return { ...entry, status: 'unchecked', details: [`the wiki ended ${walk.user}'s session while it was asked (assertuserfailed)`] };
    live.push({ request, ...a });
    const cont = continuationOf(a.body);
    if (cont === null || a.status !== 200 || errorCode(a.body) !== null) break;
    for (const k of Object.keys(cont)) continuing.add(k);
    request = nextPage(request, cont, continuing);
    if (live.some((p) => pointOf(p.request, continuing) === pointOf(request, continuing))) {
      end = `the wiki's walk comes back to ${pageName(request, continuing)}, which it already gave`;
      break;
    }
    if (live.length >= followLimit(walk)) {
      if (walk.toEnd) end = `the walk goes on past ${live.length} pages (${walk.pages.length} recorded): not followed further`;
      break;
    }
  }
  // Cut short: a walk recorded to its end that goes on past what is followed, or one that loops.
  const cut = end !== null;
  return { ...entry, livePages: live.length, ...(cut ? { cut: true as const } : {}), ...compareWalk(walk, live, continuing, end) };
}

/** The recorded walk beside the live one: equal only when they have the same pages, each answering the same. */
function compareWalk(walk: Walk, live: readonly LivePage[], continuing: ReadonlySet<string>, end: string | null): { status: DiffStatus; details: string[] } {
  const recorded = new Map(walk.pages.map((p) => [pointOf(p.request, continuing), p]));
  const gone: string[] = [];
  const added: string[] = [];
  const changedPages: string[] = [];
  for (const p of live) {
    const point = pointOf(p.request, continuing);
    const rec = recorded.get(point);
    recorded.delete(point);
    const name = pageName(p.request, continuing);
    const [recordedError, freshError] = [rec ? errorCode(rec.body) : null, errorCode(p.body)];
    if ((rec && p.status !== rec.status) || (freshError !== null && freshError !== recordedError)) {
      const was = rec ? ` (recorded: HTTP ${rec.status}${recordedError ? `, error ${recordedError}` : ''})` : ' (not recorded)';
      gone.push(`${live.length > 1 || walk.pages.length > 1 ? `${name}: ` : ''}now HTTP ${p.status}${freshError ? `, error ${freshError}` : ''}${was}`);
    } else if (!rec) added.push(name);
    else if (diffAnswers(rec.body, redactJson(p.body)).length > 0) changedPages.push(name);
  }
  const pageLines = pageLinesOf(added, [...recorded.values()].map((p) => pageName(p.request, continuing)));
  if (gone.length > 0) return { status: 'gone', details: gone };
  if (pageLines.length === 0 && changedPages.length === 0 && end === null) return { status: 'equal', details: [] };
  const single = walk.pages.length === 1 && live.length === 1;
  const lines = single ? diffAnswers(walk.pages[0]!.body, redactJson(live[0]!.body)) : diffAnswers(joinPages(walk.pages.map((p) => p.body)), joinPages(live.map((p) => redactJson(p.body))));
  // Pages that differ only where they end (the entries are the same): named.
  if (lines.length === 0 && changedPages.length > 0) lines.push(`changed where they end: ${changedPages.join(', ')}`);
  const head = single ? [] : [`a walk of ${walk.pages.length} page${walk.pages.length === 1 ? '' : 's'} recorded, ${live.length}${end && walk.toEnd ? ' or more' : ''} now`];
  const all = [...head, ...(end ? [end] : []), ...lines, ...pageLines];
  const shown = all.slice(0, SHOWN);
  if (all.length > SHOWN) shown.push(`… and ${all.length - SHOWN} more`);
  return { status: 'changed', details: shown };
}

/**
 * One question asked again: GET, formatversion=2 JSON, with maxlag (and, logged in, the session
 * and `assert=user`, so that a session the wiki dropped is never taken for an anonymous answer);
 * a lagged wiki is waited for as its Retry-After says (5 tries; a wait past the bound fails the
 * diff, naming it).
 */
async function ask(ctx: Context, request: Record<string, string>, cookie: string | null): Promise<{ status: number; body: JsonObject }> {
  const { options, upstream } = ctx;
  const q = { ...request, ...(cookie !== null && request['assert'] === undefined ? { assert: 'user' } : {}), format: 'json', formatversion: '2', maxlag: String(options.maxlag ?? 5) };
  for (let attempt = 1; ; attempt++) {
    const r = await upstream.get(q, cookie !== null ? { headers: { cookie } } : {});
    const body = answerJson(upstream, r);
    if (errorCode(body) === 'maxlag' && attempt < 5) {
      const wait = upstream.retryAfter(r);
      await (options.sleep ?? ((s) => new Promise((res) => setTimeout(res, s * 1000))))(wait);
      continue;
    }
    const { debuginfo: _d, ...rest } = body;
    return { status: r.status, body: rest };
  }
}

function errorCode(body: JsonObject): string | null {
  const e = body['error'] as { code?: unknown } | undefined;
  if (e && typeof e.code === 'string') return e.code;
  const es = body['errors'] as { code?: unknown }[] | undefined;
  return Array.isArray(es) && typeof es[0]?.code === 'string' ? es[0].code : null;
}

/**
 * The report the CLI prints: each walk that is not equal (its status, cassette, first page's key,
 * then its details indented), and a last line counting walks per status; and the exit code
 * (DIFF_EXIT): changed or gone walks not recorded again win over unchecked ones.
 */
export function diffReport(entries: readonly DiffEntry[], updating: boolean): { text: string; exit: number } {
  const count = Object.fromEntries(DIFF_STATUSES.map((s) => [s, 0])) as Record<DiffStatus, number>;
  const lines: string[] = [];
  for (const e of entries) {
    count[e.status]++;
    if (e.status === 'equal') continue;
    lines.push(`${e.status}${e.updated ? ' (recorded again)' : ''}\t${e.cassette}\t${e.key}`, ...e.details.map((d) => `    ${d}`));
  }
  const stale = entries.some((e) => (e.status === 'changed' || e.status === 'gone') && !e.updated);
  const pages = entries.reduce((n, e) => n + e.pages, 0);
  const updated = entries.filter((e) => e.updated).length;
  const counts = DIFF_STATUSES.map((s) => `${count[s]} ${s}`).join(', ');
  lines.push(`${entries.length} walks (${pages} recorded pages): ${counts}${updating ? `; ${updated} recorded again` : ''}`);
  if (count.unchecked > 0 && !stale) lines.push(`not fresh: ${count.unchecked} walk(s) not checked (exit ${DIFF_EXIT.unchecked})`);
  return { text: `${lines.join('\n')}\n`, exit: stale ? DIFF_EXIT.changed : count.unchecked > 0 ? DIFF_EXIT.unchecked : DIFF_EXIT.fresh };
}
