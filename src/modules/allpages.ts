import type { ApiContext } from '../api/context.js';
import { apiClass, escapeClose, genderCacheLookup, sqlLimit, sqlQuote, type DebugFacts, type DebugInput, type FetchedRow } from '../api/debug.js';
import { ApiUsageError, apiMessage } from '../api/errors.js';
import { PAGE_FIELD_TYPES, type ListModule } from '../api/list-module.js';
import { LIMIT_PARAM, pv, type ParamSpec, type ParamValue, type ParamValues } from '../api/param-spec.js';
import type { JsonObject } from '../api/result.js';
import { escapeWikiText } from '../util/escape.js';
import { PAGES, PAGE_INDEXES, PAGE_SHAPE, mergePage, pageDbKey, tableOf, type Page } from '../wiki/model.js';
import { readFixturePage } from '../wiki/fixtures.js';
import { atLeast, type WikiProfile } from '../wiki/profile.js';
import { makeTitleSafe } from '../wiki/title.js';
import { badContinue, compareKeys, needCompleteList, needWalkedWindow, showRows, takePage } from './list-support.js';

/** RestrictionStore::listAllRestrictionTypes( true ) of a default install, and $wgRestrictionLevels. */
const PR_TYPES = ['edit', 'move', 'upload'];
const PR_LEVELS = ['', 'autoconfirmed', 'sysop'];
/** The namespaces `wikitape snapshot` walks: those of a default install. */
const SNAPSHOT_NAMESPACES = Array.from({ length: 16 }, (_, ns) => String(ns));

/** ApiQueryAllPages::getAllowedParams, in each version's order (1.43 moved filterlanglinks and prexpiry up). */
function allpagesParams(profile: WikiProfile): Record<string, ParamSpec> {
  const langlinks: ParamSpec = { type: 'enum', values: ['withlanglinks', 'withoutlanglinks', 'all'], default: 'all' };
  const prexpiry: ParamSpec = { type: 'enum', values: ['indefinite', 'definite', 'all'], default: 'all' };
  const modern = atLeast(profile, '1.43');
  return {
    from: { type: 'string' },
    continue: { type: 'string' },
    to: { type: 'string' },
    prefix: { type: 'string' },
    namespace: { type: 'namespace' },
    filterredir: { type: 'enum', values: ['all', 'redirects', 'nonredirects'], default: 'all' },
    ...(modern ? { filterlanglinks: langlinks } : {}),
    minsize: { type: 'integer' },
    maxsize: { type: 'integer' },
    prtype: { type: 'enum', multi: true, values: PR_TYPES },
    prlevel: { type: 'enum', multi: true, values: PR_LEVELS },
    prfiltercascade: { type: 'enum', values: ['cascading', 'noncascading', 'all'], default: 'all' },
    ...(modern ? { prexpiry } : {}),
    limit: LIMIT_PARAM,
    dir: { type: 'enum', values: ['ascending', 'descending'], default: 'ascending' },
    ...(modern ? {} : { filterlanglinks: langlinks, prexpiry }),
  };
}

/** Numbers from 1 on (the el_ids of a fixture's links given without one). */
function counter(): () => number {
  let n = 0;
  return () => ++n;
}

/** A page's title as page_title holds it: without its namespace, `_` for spaces. */
const dbkey = pageDbKey;
/** The DB key of a page as an answer shows it. */
const answerDbKey = (p: JsonObject): string => pageDbKey({ ns: Number(p['ns']), title: String(p['title'] ?? '') });

/**
 * list=allpages (ApiQueryAllPages) over the wiki's pages. Which pages exist in a namespace is
 * known from a complete walk of it (its scope: the namespace, and `redirects` for a walk of
 * `apfilterredir=redirects`); page length, protections and language links from fixtures, or
 * from recorded `prop=info&inprop=protection` and `prop=langlinks` answers (record/harvest.ts:
 * `wikitape snapshot` asks them of every page), else flagged (`pages.length`,
 * `pages.protection`, `pages.langlinks`).
 */
export const allpages: ListModule<Page> = {
  name: 'allpages',
  prefix: 'ap',
  group: 'list',
  cacheMode: 'public',
  debug: allpagesDebug,
  params: allpagesParams,
  // Cassettes recorded before list=allpages was built in keep their keys: no defaults are folded in.
  key: { defaults: {}, sets: ['apprtype', 'apprlevel'] },
  roles: { limit: 'limit', continue: 'continue', dir: 'dir', prop: null, start: null, end: null },
  filters: ['from', 'to', 'prefix', 'minsize', 'maxsize', 'prtype', 'prlevel', 'prfiltercascade', 'prexpiry', 'filterlanglinks'],
  walk: {
    scopeParams: ['namespace', 'filterredir'],
    scope(r) {
      const ns = r['apnamespace'] ?? '0';
      const redirects = r['apfilterredir'] ?? 'all';
      return redirects === 'all' ? ns : redirects === 'redirects' ? `${ns}|redirects` : null;
    },
    // A complete walk of a namespace lists every page in it: any other title there is missing (and,
    // of `redirects`, every redirect: its other pages are none).
    learn(scopes, knows) {
      for (const s of scopes) {
        const [ns, what] = s.split('|');
        (what === 'redirects' ? knows.completeRedirects : knows.completeNamespaces).add(Number(ns));
      }
    },
  },
  props: [],
  snapshot: [...SNAPSHOT_NAMESPACES.map((ns) => ({ apnamespace: ns, aplimit: 'max' })), ...SNAPSHOT_NAMESPACES.map((ns) => ({ apnamespace: ns, aplimit: 'max', apfilterredir: 'redirects' }))],
  widerForRights: false,
  assocEntries: false,
  entity: {
    kind: PAGES,
    idFields: ['pageid'],
    fromRow(row, _props, request) {
      if (typeof row['pageid'] !== 'number') return null;
      // Every page a list shows exists; a walk of redirects shows which are redirects.
      const redirect = request['apfilterredir'] === 'redirects';
      return { pageid: row['pageid'], ns: Number(row['ns']), title: String(row['title']), extlinks: [], ...(redirect ? { redirect: true } : {}) };
    },
    merge: mergePage,
    indexes: PAGE_INDEXES,
    fieldTypes: PAGE_FIELD_TYPES,
    // The wiki's own pages: read as fixture files' pages are (links without an id numbered in order).
    fromFixture: (e) => readFixturePage(e, counter()),
    // Pages keep no `known`: what is known of them is said per field (see Page).
    propFields: {},
    printedFields: {},
  },
  order: {
    key: (p) => [p.ns, dbkey(p)],
    continueValue: dbkey,
    continueTypes: ['string'],
    backwards: 'descending',
  },
  // ApiQueryAllPages hands the page set its rows (processDbRow) by page_title, in `dir`'s direction.
  generatorOrder: (a, b, params) => (params.get('gapdir') === 'descending' ? -1 : 1) * Buffer.compare(Buffer.from(answerDbKey(a)), Buffer.from(answerDbKey(b))),
  execute(ctx, v) {
    const ns = pv.num(v['namespace']) ?? 0;
    const desc = v['dir'] === 'descending';
    // 1.39 explodes the value (one part, else badcontinue); 1.43 parses it as one string.
    const cont = pv.str(v['continue']);
    if (cont !== null && cont.includes('|')) throw badContinue();
    const from = keyOf(ctx, v['from'], ns);
    const to = keyOf(ctx, v['to'], ns);
    const prefix = keyOf(ctx, v['prefix'], ns);
    const protection = protectionFilter(ctx, v);
    const [lo, hi] = desc ? [to, from] : [from, to];
    const filterredir = pv.str(v['filterredir']) ?? 'all';
    const [min, max] = [pv.num(v['minsize']), pv.num(v['maxsize'])];
    const langlinks = pv.str(v['filterlanglinks']) ?? 'all';
    const limit = pv.num(v['limit']) ?? 10;
    // The namespace's pages in the order's index, within from/to and the continuation.
    const bound = (k: string | null) => (k === null ? [[ns]] : [[ns, k]]);
    const range = { from: [...bound(lo), ...(cont !== null && !desc ? bound(cont) : [])], to: [...bound(hi), ...(cont !== null && desc ? bound(cont) : [])] };
    const read = tableOf(ctx.model, PAGE_SHAPE).range('order', range, desc);
    const inPrefix = (p: Page) => prefix === null || dbkey(p).startsWith(prefix);
    let rows: Page[];
    if (filterredir === 'all' && min === null && max === null && !protection && langlinks === 'all') {
      // No filter reads what only some pages say: the first limit + 1 rows are the answer's.
      rows = firstOf(read, inPrefix, limit + 1);
      // (the window ends at `to` and past the titles `prefix` starts, in the reading direction)
      const past = (k: string) => (desc ? lo !== null && compareKeys([k], [lo]) < 0 : hi !== null && compareKeys([k], [hi]) > 0);
      const pastPrefix = (k: string) => prefix !== null && (desc ? compareKeys([k], [prefix]) < 0 : !k.startsWith(prefix) && compareKeys([k], [prefix]) > 0);
      needWalkedWindow(ctx, this, rows, limit, pv.str(v['dir']), `${ns}`, { pastEnd: ([k]) => past(String(k)) || pastPrefix(String(k)) });
    } else {
      // Filters that flag what they cannot know read every page of the window (as before).
      rows = byRedirect(ctx, this, ns, filterredir, firstOf(read, inPrefix, Infinity));
      rows = bySize(ctx, rows, min, max);
      if (protection) rows = rows.filter((p) => protectionsOf(ctx, p).some(protection));
      rows = byLanglinks(ctx, rows, langlinks);
    }
    const { page, next } = takePage(rows, limit);
    showRows(ctx, 'allpages', page, '', (p): JsonObject => ({ pageid: p.pageid, ns: p.ns, title: p.title }));
    const fetched = next ? [...page, next] : page;
    return next ? { continueValue: dbkey(next), fetched } : { fetched };
  },
};

/** The first `n` entries of `rows` that pass `keep`. */
function firstOf<T>(rows: Iterable<T>, keep: (x: T) => boolean, n: number): T[] {
  const out: T[] = [];
  if (n <= 0) return out;
  for (const x of rows) if (keep(x) && out.push(x) >= n) break;
  return out;
}

/** ApiQueryBase::titlePartToKey: a title part as page_title holds it in `ns`, or null when not given. */
function keyOf(ctx: ApiContext, value: ParamValue | undefined, ns: number): string | null {
  const part = pv.str(value);
  if (part === null) return null;
  const t = makeTitleSafe(ns, `${part}x`, ctx.titles);
  // A bad character or a `#`, another namespace's prefix or an interwiki prefix.
  if (!t || t.fragment !== '' || t.ns !== ns || t.interwiki !== '') {
    throw new ApiUsageError(apiMessage('invalidtitle', 'apierror-invalidtitle', [escapeWikiText(part, atLeast(ctx.profile, '1.43'))]));
  }
  return t.dbkey.slice(0, -1);
}

/** Whether a page is a redirect, as far as is known (a redirect nobody recorded as one is flagged). */
function redirectOf(ctx: ApiContext, p: Page): boolean {
  if (p.redirect !== undefined) return p.redirect;
  if (ctx.knows && !ctx.knows.completeRedirects.has(p.ns)) ctx.unknown('pages.redirect');
  return false;
}

/**
 * The pages of `ns` that `filterredir` lets through: every page of a namespace walked completely;
 * its redirects from a complete walk of them, or from a complete walk of all its pages whose
 * redirects are known.
 */
function byRedirect(ctx: ApiContext, list: ListModule<Page>, ns: number, filter: string, rows: Page[]): Page[] {
  if (filter === 'all') {
    needCompleteList(ctx, list, `${ns}`);
    return rows;
  }
  const want = filter === 'redirects';
  if (want && ctx.knows?.walks.get(list.name)?.has(`${ns}|redirects`)) return rows.filter((p) => p.redirect === true);
  needCompleteList(ctx, list, `${ns}`);
  return rows.filter((p) => redirectOf(ctx, p) === want);
}

/** `minsize`/`maxsize` over page_len, which fixtures and prop=info give (a page without it is flagged, never sized). */
function bySize(ctx: ApiContext, rows: Page[], min: number | null, max: number | null): Page[] {
  if (min === null && max === null) return rows;
  return rows.filter((p) => {
    if (p.length === undefined) {
      ctx.unknown('pages.length');
      return false;
    }
    return (min === null || p.length >= min) && (max === null || p.length <= max);
  });
}

/** A page's protections as far as is known: a page a recording showed has none known (flagged). */
function protectionsOf(ctx: ApiContext, p: Page): NonNullable<Page['protection']> {
  if (p.protection) return p.protection;
  if (ctx.knows) ctx.unknown('pages.protection');
  return [];
}

/**
 * The protection filter (`prtype`, `prlevel`, `prfiltercascade`, `prexpiry`): which protections
 * make a page listed, or null when none is asked. Only unexpired protections count.
 */
function protectionFilter(ctx: ApiContext, v: ParamValues): ((r: NonNullable<Page['protection']>[number]) => boolean) | null {
  const types = pv.list(v['prtype']);
  const expiry = pv.str(v['prexpiry']) ?? 'all';
  if (types.length === 0 && expiry === 'all') {
    if (v['prlevel'] !== null) throw new ApiUsageError(apiMessage('invalidparammix', 'apierror-invalidparammix-mustusewith', ['prlevel', 'prtype']));
    return null;
  }
  // The empty level and `*` mean any.
  const levels = pv.list(v['prlevel']).filter((l) => l !== '' && l !== '*');
  const cascade = pv.str(v['prfiltercascade']) ?? 'all';
  return (r) => {
    if (r.expiry !== 'infinity' && !(Date.parse(r.expiry) > ctx.now)) return false;
    if (types.length > 0) {
      if (!types.includes(r.type) || (levels.length > 0 && !levels.includes(r.level))) return false;
      if ((cascade === 'cascading' && !r.cascade) || (cascade === 'noncascading' && r.cascade)) return false;
    }
    return expiry === 'all' || (expiry === 'indefinite') === (r.expiry === 'infinity');
  };
}

/** `filterlanglinks`: pages with (or without) language links, which fixtures and whole prop=langlinks answers give (flagged otherwise). */
function byLanglinks(ctx: ApiContext, rows: Page[], filter: string): Page[] {
  if (filter === 'all') return rows;
  return rows.filter((p) => {
    if (p.langlinks === undefined && ctx.knows) ctx.unknown('pages.langlinks');
    return ((p.langlinks ?? []).length > 0) === (filter === 'withlanglinks');
  });
}

/** LIKE's escaping (Database::buildLike, escape character `` ` ``). */
const escapeLike = (s: string) => s.replace(/[`_%]/g, (c) => `\`${c}`);

/** The part of a title a parameter gives, as page_title holds it (first letter upper, `_`), for the trace. */
const traceKey = (part: string) => {
  const k = part.replace(/ /g, '_');
  return k.charAt(0).toUpperCase() + k.slice(1);
};

/**
 * ApiQueryAllPages' trace: its SELECT as each version prints it (the tables, joins and conditions
 * its filters add, in the order it adds them; the page_name_title index forced unless a size,
 * protection or language-link filter is given, which shows as one more space on SQLite), and, in
 * the User namespaces, the gender lookup of the names it fetched.
 */
function allpagesDebug(input: DebugInput): DebugFacts {
  const { profile, params } = input;
  const v143 = atLeast(profile, '1.43');
  const p = (name: string): string | undefined => params[`ap${name}`];
  const desc = p('dir') === 'descending';
  const ns = Number(p('namespace') ?? '0');
  const where: string[] = [];
  const cont = p('continue');
  if (cont !== undefined) where.push(`(page_title ${desc ? '<=' : '>='} ${sqlQuote(cont)})`);
  const redirects = p('filterredir');
  if (redirects === 'redirects' || redirects === 'nonredirects') where.push(`page_is_redirect = ${redirects === 'redirects' ? 1 : 0}`);
  where.push(`page_namespace = ${ns}`);
  // ApiQueryBase::addWhereRange: 1.39 writes the comparison without spaces.
  const range = (op: string, part: string | undefined) => (part === undefined ? [] : [v143 ? `(page_title ${op} ${sqlQuote(traceKey(part))})` : `(page_title${op}${sqlQuote(traceKey(part))})`]);
  where.push(...range(desc ? '<=' : '>=', p('from')), ...range(desc ? '>=' : '<=', p('to')));
  const prefix = p('prefix');
  if (prefix !== undefined) where.push(`(page_title LIKE ${sqlQuote(`${escapeLike(traceKey(prefix))}%`)} ${escapeClose(profile)}`);
  const tables = ['"page"'];
  let force = true;
  for (const [name, op] of [['minsize', '>='], ['maxsize', '<=']] as const) {
    const n = Number.parseInt(p(name) ?? '', 10);
    if (Number.isNaN(n)) continue;
    where.push(`(page_len${op}${n})`);
    force = false;
  }
  const distinct = protectionConditions(input, where, tables);
  if (distinct) force = false;
  const langlinks = p('filterlanglinks');
  const leftJoin = langlinks === 'withoutlanglinks';
  const straight = langlinks === 'withlanglinks';
  if (leftJoin) where.push(v143 ? 'll_from IS NULL' : '(ll_from IS NULL)');
  if (straight) {
    tables.push('"langlinks"');
    where.push('(page_id=ll_from)');
  }
  if (leftJoin || straight) force = false;
  const from = `FROM ${tables.join(',')}${leftJoin ? ' LEFT JOIN "langlinks" ON ((page_id=ll_from))' : ''}${force ? '     ' : leftJoin ? '   ' : '    '}`;
  const select = `SELECT ${distinct ? 'DISTINCT' : ''} ${straight ? '/*! STRAIGHT_JOIN */ ' : ''}page_namespace,page_title,page_id  `;
  const tail = `${straight ? 'GROUP BY page_title ' : ''}ORDER BY page_title${desc ? ' DESC' : ''} LIMIT ${sqlLimit(params, 'aplimit')}  `;
  const fn = `${apiClass(profile, 'ApiQueryAllPages')}::run`;
  const query = { query: { sql: `${select}${from}WHERE ${where.join(' AND ')}  ${tail}`, function: fn, time: 0.001 } };
  // GenderCache::doQuery over every fetched title (the row past the limit too).
  const gender = ns === 2 || ns === 3 ? genderCacheLookup(profile, fetchedOf(input), fn) : [];
  const setup = v143 ? ['[MessageCache] MessageCache using store SqlBagOStuff', 'MediaWiki\\Parser\\ParserFactory: using default preprocessor'] : [];
  return { includes: 'allpages', setup, entries: [query, ...gender] };
}

/** The rows the query fetched: as it fetched them here, else the answer's and the row its continuation names. */
function fetchedOf(input: DebugInput): ReadonlyArray<FetchedRow> {
  if (input.fetched) return input.fetched;
  const q = input.answer['query'] as JsonObject | undefined;
  const rows = Array.isArray(q?.['allpages']) ? (q['allpages'] as JsonObject[]) : [];
  const shown = rows.map((r) => ({ ns: Number(r['ns']), title: String(r['title']) }));
  const cont = (input.answer['continue'] as JsonObject | undefined)?.['apcontinue'];
  return typeof cont === 'string' ? [...shown, { ns: Number(input.params['apnamespace'] ?? '0'), title: `:${cont}` }] : shown;
}

/** The protection conditions and table a protection filter adds (DISTINCT), in MediaWiki's order; whether it adds them. */
function protectionConditions(input: DebugInput, where: string[], tables: string[]): boolean {
  const { profile, params, nowMw } = input;
  const listed = (name: string, valid: readonly string[]) => (params[name] ?? '').split(params[name]?.startsWith('\u001f') ? '\u001f' : '|').filter((x) => valid.includes(x));
  const types = [...new Set(listed('apprtype', PR_TYPES))];
  const expiry = params['apprexpiry'] ?? 'all';
  if (types.length === 0 && expiry === 'all') return false;
  tables.push('"page_restrictions"');
  const fld = (col: string, values: string[]) => (values.length === 1 ? `${col} = ${sqlQuote(values[0]!)}` : `${col} IN (${values.map(sqlQuote).join(',')}) `);
  const unexpired = `(pr_expiry > '${nowMw}' OR pr_expiry IS NULL)`;
  const entries: string[] = ['(page_id=pr_page)', atLeast(profile, '1.43') ? `(${unexpired})` : unexpired];
  if (types.length > 0) {
    entries.push(fld('pr_type', types));
    const levels = [...new Set(listed('apprlevel', PR_LEVELS).filter((l) => l !== ''))];
    if (levels.length > 0) entries.push(fld('pr_level', levels));
    const cascade = params['apprfiltercascade'];
    if (cascade === 'cascading' || cascade === 'noncascading') entries.push(`pr_cascade = ${cascade === 'cascading' ? 1 : 0}`);
  }
  if (expiry === 'indefinite') entries.push("(pr_expiry = 'infinity' OR pr_expiry IS NULL)");
  else if (expiry === 'definite') entries.push("(pr_expiry != 'infinity')");
  where.push(...entries);
  return true;
}
