import type { WikiProfile } from '../wiki/profile.js';
import type { Language } from '../i18n/language.js';
import { atLeast } from '../wiki/profile.js';
import type { ParamValues } from './param-spec.js';
import type { WikiModel } from '../wiki/model.js';
import type { JsonObject } from './result.js';

/**
 * What a module knows about its own trace in `debuginfo` ($wgDebugToolbar): the queries it runs
 * on the wiki's database and the debug-log lines it writes, in order. `output/debuginfo.ts` keeps
 * only the envelope (the request line, the session and connection lines, the cache-mode lines,
 * the includes) and prints each entry in the form of the wiki's version.
 *
 * The facts were read off real MediaWiki 1.39.17 and 1.43.9 on SQLite (the wikis of
 * `scripts/live-wiki.sh`); the live tier compares them with both (`test/live/debuginfo.test.ts`).
 */
interface DebugQuery {
  /** SQL without the server prefix (`SELECT …`). */
  sql: string;
  /** Caller as the DB layer reports it (`ApiQueryLogEvents::execute`). */
  function: string;
  /** Seconds; rounded to 3 decimals in the output. Default 0. */
  time?: number;
}

/**
 * One step of a module's trace: a log line as the wiki writes it; a query (printed as a
 * `[DBQuery]` / `[rdbms]` line and listed in `queries`; the first one after the connection
 * opened is preceded by the implied `BEGIN`); the moment the connection opens (`connect`: the
 * open PRAGMAs and the load balancer's lines; without it the first query opens it); another
 * reference to the open connection (`reuse`: the envelope also writes it before a query that
 * follows anything but a query on an open connection); or where ApiMain logs the cache mode (`cacheMode`,
 * default: after every module ran).
 */
export type DebugEntry = string | { query: DebugQuery } | { connect: true } | { reuse: true } | { cacheMode: true };

/** What a module's `debug` is given: the request as the wiki saw it, and what the module read of it. */
export interface DebugInput {
  profile: WikiProfile;
  /** $_POST + $_GET merged, as strings. */
  params: Readonly<Record<string, string>>;
  /** The module's parameter values when it ran (none for a recorded answer, which ran on the wiki). */
  values?: ParamValues;
  /** GET or POST (SQLite opens POSTs' transactions IMMEDIATE). */
  method: string;
  /** Now as a MediaWiki timestamp (`yyyymmddhhmmss`), or its template mark. */
  nowMw: string;
  /** The user language. */
  userLang: Language;
  /** The answer's data (formatversion=2 shape). */
  answer: JsonObject;
  /** The rows the module's query fetched (limit + 1) when it ran here; absent for a recorded answer. */
  fetched?: ReadonlyArray<FetchedRow>;
  /** The pages of `titles` that exist, with their ids, in the order the page set holds them. */
  pages: ReadonlyArray<{ id: number; title: string }>;
  /** What the wiki holds (the spam blacklist's patterns and file for action=spamblacklist). */
  model: WikiModel;
}

/** A module's part of debuginfo for one request. */
export interface DebugFacts {
  /** Its key in the includes lists (`output/includes-<version>.json`), or of `includeFiles`. */
  includes: string;
  /**
   * The included files, for a module that composes its own list (action=paraminfo): paths
   * relative to the install root (or absolute), sizes in bytes; made per request.
   */
  includeFiles?: () => ReadonlyArray<readonly [path: string, size: number]>;
  /** Lines written when ApiQuery builds the module (1.43: the services it is given), before any module runs. */
  setup?: string[];
  entries: DebugEntry[];
}

/** `ApiQueryLogEvents` as the wiki names the class: 1.43 moved the API into `MediaWiki\Api`. */
export function apiClass(profile: WikiProfile, name: string): string {
  return atLeast(profile, '1.43') ? `MediaWiki\\Api\\${name}` : name;
}

export function sqlQuote(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

/** `LIKE … ESCAPE '`'` closes with a space before the parenthesis in 1.39, without in 1.43. */
export function escapeClose(profile: WikiProfile): string {
  return atLeast(profile, '1.43') ? "ESCAPE '`')" : "ESCAPE '`' )";
}

/** The LIMIT a list module asks the database for: its limit plus one (to know whether to continue). */
export function sqlLimit(params: Readonly<Record<string, string>>, name: string, max = 500, dflt = 10): number {
  const v = params[name];
  if (v === 'max') return max + 1;
  const n = parseInt(v ?? '', 10);
  return (Number.isFinite(n) && n > 0 ? Math.min(n, max) : dflt) + 1;
}

/**
 * The row condition of a `<timestamp>|<id>` continuation: 1.39's modules write it by hand, 1.43's
 * with buildComparison (which puts the last column in parentheses of its own).
 */
export function continueCondition(profile: WikiProfile, value: string | undefined, tsCol: string, idCol: string, newer: boolean): string | null {
  const m = /^(\d{14})\|(\d+)$/.exec(value ?? '');
  if (!m) return null;
  const op = newer ? '>' : '<';
  const id = `${idCol} ${op}= ${m[2]}`;
  return `(${tsCol} ${op} '${m[1]}' OR (${tsCol} = '${m[1]}' AND ${atLeast(profile, '1.43') ? `(${id})` : id}))`;
}

const MC_SMALL_COLS_139 =
  'rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS "rev_comment_text",comment_rev_comment.comment_data AS "rev_comment_data",comment_rev_comment.comment_id AS "rev_comment_cid",actor_rev_user.actor_user AS "rev_user",actor_rev_user.actor_name AS "rev_user_text",rev_actor,page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len';
const MC_SMALL_FROM_139 =
  'FROM "page" JOIN "revision" ON ((page_id = rev_page)) JOIN "revision_comment_temp" "temp_rev_comment" ON ((temp_rev_comment.revcomment_rev = rev_id)) JOIN "comment" "comment_rev_comment" ON ((comment_rev_comment.comment_id = temp_rev_comment.revcomment_comment_id)) JOIN "actor" "actor_rev_user" ON ((actor_rev_user.actor_id = rev_actor))';
const MC_SMALL_COLS_143 =
  'rev_id,rev_page,rev_actor,actor_rev_user.actor_user AS "rev_user",actor_rev_user.actor_name AS "rev_user_text",rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,rev_sha1,comment_rev_comment.comment_text AS "rev_comment_text",comment_rev_comment.comment_data AS "rev_comment_data",comment_rev_comment.comment_id AS "rev_comment_cid",page_namespace,page_title,page_id,page_latest,page_is_redirect,page_len';
const MC_SMALL_FROM_143 =
  'FROM "page" JOIN "revision" ON ((page_id = rev_page)) JOIN "actor" "actor_rev_user" ON ((actor_rev_user.actor_id = rev_actor)) JOIN "comment" "comment_rev_comment" ON ((comment_rev_comment.comment_id = rev_comment_id))';

/**
 * MessageCache loading the messages of one language from the database (its first use of that
 * language in the request): the store line (`first`: MessageCache's first use), the blob fetch,
 * the two queries and the "loading from DB" line. `content`: the content language (its own
 * pages, without a `/<lang>` suffix); `reuse`: the connection is open already.
 */
export function messageCacheLoad(profile: WikiProfile, lang: string, opts: { content: boolean; first: boolean; reuse: boolean }): DebugEntry[] {
  const v143 = atLeast(profile, '1.43');
  const close = escapeClose(profile);
  const like = opts.content ? `(page_title NOT LIKE '%/%' ${close}` : `(page_title LIKE '%/${lang}' ${close}`;
  const out: DebugEntry[] = [];
  if (opts.first) out.push('[MessageCache] MessageCache using store SqlBagOStuff');
  out.push(`[SQLBagOStuff] SqlBagOStuff debug: SqlBagOStuff::fetchBlobs: retrieved ${profile.cookiePrefix}:messages:${lang}; expiry time is 99991231235959`);
  if (opts.reuse) out.push({ reuse: true });
  out.push(
    {
      query: {
        sql: `SELECT  page_title,page_latest  FROM "page"    WHERE page_is_redirect = 0 AND page_namespace = 8 AND ${like} AND (page_len > 10000)  `,
        function: `MessageCache::loadFromDB(${lang})-big`,
      },
    },
    {
      query: {
        sql: `SELECT  /*! STRAIGHT_JOIN */ ${v143 ? MC_SMALL_COLS_143 : MC_SMALL_COLS_139}  ${v143 ? MC_SMALL_FROM_143 : MC_SMALL_FROM_139}   WHERE page_is_redirect = 0 AND page_namespace = 8 AND ${like} AND (page_len <= 10000) AND (page_latest = rev_id)  `,
        function: `MessageCache::loadFromDB(${lang})-small`,
      },
    },
    `[MessageCache] MessageCache::loadUnguarded: Loading ${lang}... local cache is empty, global cache is expired/volatile, loading from DB`,
  );
  return out;
}

/** The DB key of a title in the main namespace as the page table holds it (first letter upper, `_`). */
export function mainDbKey(title: string): string {
  const k = title.trim().replace(/ /g, '_');
  return k.charAt(0).toUpperCase() + k.slice(1);
}

/**
 * A row a list module's query fetched, as its trace reads it: its namespace and title, either of
 * which a fixture's entry may leave out (an answer that shows them is flagged then: needProps).
 */
export interface FetchedRow {
  ns?: number;
  title?: string;
}

/**
 * The rows a list module's query fetched: as it fetched them when it ran here, else (a recorded
 * answer) the rows the answer shows (the row past the limit, which the wiki also fetched, is not in it).
 */
export function fetchedRows(input: DebugInput, list: string): ReadonlyArray<FetchedRow> {
  if (input.fetched) return input.fetched;
  const q = input.answer['query'];
  const rows = q && typeof q === 'object' && !Array.isArray(q) ? (q as JsonObject)[list] : undefined;
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((r) => (r && typeof r === 'object' && !Array.isArray(r) && typeof r['ns'] === 'number' && typeof r['title'] === 'string' ? [{ ns: r['ns'], title: r['title'] }] : []));
}

/**
 * LinkBatch::doQuery for the page links a comment formatter deferred (CommentParser::addPageLink,
 * flushed once for every comment of a batch): one query over the titles, by namespace in the order
 * first added (LinkBatch's 2-d set: `=` for one title, `IN` for more), after another reference to
 * the connection. None: no entries.
 */
export function commentLinkBatch(profile: WikiProfile, titles: ReadonlyArray<{ ns: number; dbkey: string }>): DebugEntry[] {
  // (sets in insertion order: a summary of 120,000 links must not take a scan per link)
  const byNs = new Map<number, Set<string>>();
  for (const t of titles) {
    // LinkBatch::add: no special pages, no empty keys
    if (t.ns < 0 || t.dbkey === '') continue;
    (byNs.get(t.ns) ?? byNs.set(t.ns, new Set()).get(t.ns)!).add(t.dbkey);
  }
  if (byNs.size === 0) return [];
  const v143 = atLeast(profile, '1.43');
  const sets = [...byNs].map(([ns, set]) => {
    const keys = [...set];
    return keys.length === 1 ? `(page_namespace = ${ns} AND page_title = ${sqlQuote(keys[0]!)})` : `(page_namespace = ${ns} AND page_title IN (${keys.map(sqlQuote).join(',')}) )`;
  });
  const cond = sets.join(' OR ');
  return [
    { reuse: true },
    {
      query: {
        sql: `SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_latest,page_touched,page_len,page_content_model  FROM "page"    WHERE ${v143 ? `(${cond})` : cond}  `,
        function: `${v143 ? 'MediaWiki\\Cache\\' : ''}LinkBatch::doQuery (for MediaWiki\\CommentFormatter\\CommentParser::addPageLink)`,
      },
    },
  ];
}

/**
 * The user a title in the User or User talk namespace names, as GenderCache normalizes it (no
 * subpage); null for other namespaces, and for a fixture's entry that leaves its title out (an
 * answer that shows the title is flagged then: needProps).
 */
export function genderName(r: FetchedRow): string | null {
  if ((r.ns !== 2 && r.ns !== 3) || typeof r.title !== 'string') return null;
  return r.title.slice(r.title.indexOf(':') + 1).split('/')[0]!.replace(/_/g, ' ');
}

/**
 * ApiQueryBase::executeGenderCacheFromResultWrapper: the user names of fetched rows in the User
 * and User talk namespaces (a gendered content language), looked up in one query, after another
 * reference to the connection. None: no entries.
 */
export function genderCacheLookup(profile: WikiProfile, rows: ReadonlyArray<FetchedRow>, caller: string): DebugEntry[] {
  if (profile.language !== 'ru') return [];
  const names: string[] = [];
  for (const r of rows) {
    const name = genderName(r);
    if (name !== null && !names.includes(name)) names.push(name);
  }
  if (names.length === 0) return [];
  const v143 = atLeast(profile, '1.43');
  const where = names.length === 1 ? `user_name = ${sqlQuote(names[0]!)}  ` : `user_name IN (${names.map(sqlQuote).join(',')})   `;
  return [
    { reuse: true },
    {
      query: {
        sql: `SELECT  user_name,up_value  FROM "user" LEFT JOIN "user_properties" ON ((user_id = up_user) AND up_property = 'gender')   WHERE ${where}`,
        function: `${v143 ? 'MediaWiki\\Cache\\' : ''}GenderCache::doQuery/${caller}`,
      },
    },
  ];
}
