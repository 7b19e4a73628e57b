import type { ApiContext } from '../api/context.js';
import { ApiUsageError, apiMessage } from '../api/errors.js';
import { DIR_PARAM, LIMIT_PARAM, pv, type ParamValues } from '../api/param-spec.js';
import { mergeKnown, type ListModule } from '../api/list-module.js';
import type { Json, JsonObject } from '../api/result.js';
import { entityKind, tableOf } from '../wiki/model.js';
import { atLeast } from '../wiki/profile.js';
import { escapeWikiText } from '../util/escape.js';
import { decodeCharReferences, parseTitle, type TitleContext } from '../wiki/title.js';
import { titleContext } from '../wiki/site-tables.js';
import { requireMaxOneParameter } from './checks.js';
import { hiddenLogTypes, logActions, logTypes, readsRestrictedLog } from './log-types.js';
import { deriveUserId, fixtureEntry, ipUserId, type FixtureFields, takePage, memoKey, needWalkedWindow, needProps, timeWindow, needPropsOfAll, putField, showRows, windowRange } from './list-support.js';
import { fieldColumn, type IndexColumn, type IndexKey, type IndexSpecs } from '../wiki/entity-table.js';
import { entityMw } from '../util/timestamp.js';
import { isAllowed, userCanSeeRevDel } from '../api/session.js';
import { formatLogParams } from './log-params.js';
import { formatRowComment } from './parse-summary.js';
import { ARRAY_VALUE } from '../request/params.js';
import { foldTitle } from '../request/title-spelling.js';
import { apiClass, commentLinkBatch, continueCondition, fetchedRows, genderCacheLookup, genderName, messageCacheLoad, sqlLimit, sqlQuote, type DebugFacts, type DebugInput, type FetchedRow } from '../api/debug.js';

const PROPS = ['ids', 'title', 'type', 'user', 'userid', 'timestamp', 'comment', 'parsedcomment', 'details', 'tags'];

/**
 * One row of `logging`, as `list=logevents` shows it with every prop. What a fixture entry must
 * give (LOG_FIXTURE's `required`) is required here; every other field may be left out (a fixture
 * that does not give it, a walk that did not ask for it): its prop is then not `known`, and a
 * reader flags it (needProps) instead of printing a default.
 */
export interface LogEvent {
  logid: number;
  ns?: number;
  title?: string;
  /** Id of the page currently at the title, 0 if none. */
  pageid?: number;
  /** Page id at log time. */
  logpage?: number;
  /** Associated revision (1.43+ output only). */
  revid?: number;
  /** Type-specific parameters in formatversion=2 form (booleans real). */
  params?: Record<string, unknown>;
  type: string;
  action?: string;
  user?: string;
  userid?: number;
  /** ISO 8601 `YYYY-MM-DDTHH:MM:SSZ`. */
  timestamp: string;
  comment?: string;
  parsedcomment?: string;
  tags?: string[];
  /** log_deleted bits: 1 action, 2 comment, 4 user, 8 restricted. */
  deleted?: number;
  /** The props recordings showed this entity with; absent: every field is known. */
  known?: string[];
}

const LOG_EVENTS = entityKind<LogEvent>('logevents');

/** The order's columns (`log_timestamp`, `log_id`): every index of log events ends with them, as MediaWiki's do. */
const ORDER_COLUMNS: IndexColumn<LogEvent>[] = [
  { name: 'ts', type: 'text', value: (e) => entityMw(e.timestamp) },
  fieldColumn('logid', 'integer'),
];

/**
 * list=logevents' indexes, after MediaWiki's on `logging` (type_time, actor_time, page_time):
 * its order, and by type, type and action, user (a hidden user is filtered row by row), page.
 */
const key = memoKey((e: LogEvent) => ORDER_COLUMNS.map((c) => c.value(e)));

const LOG_INDEXES: IndexSpecs<LogEvent> = {
  order: { columns: ORDER_COLUMNS },
  type: { columns: [fieldColumn('type', 'text'), ...ORDER_COLUMNS] },
  action: { columns: [fieldColumn('type', 'text'), fieldColumn('action', 'text'), ...ORDER_COLUMNS] },
  user: { columns: [fieldColumn('user', 'text'), ...ORDER_COLUMNS] },
  page: { columns: [fieldColumn('ns', 'integer'), { name: 'text', type: 'text', value: (e) => (typeof e.title === 'string' ? mainText(e.ns, e.title) : '') }, ...ORDER_COLUMNS] },
};

/** The filters a walk of the log may have: its part is the entries they all let through. */
const SCOPE_PARAMS = ['action', 'namespace', 'prefix', 'tag', 'title', 'type', 'user'];

/**
 * The part of the log a question with these canonical parameters is about: its filters, sorted,
 * as `name=value` joined by `&` ('' : the whole log). `leaction` sets the type itself: a
 * `letype` beside it filters nothing (ApiQueryLogEvents: `elseif ( $params['type'] !== null )`).
 */
function logScope(r: Readonly<Record<string, string>>): string {
  const parts: string[] = [];
  for (const p of SCOPE_PARAMS) {
    const v = r[`le${p}`];
    if (v === undefined || (p === 'type' && r['leaction'] !== undefined)) continue;
    parts.push(`${p}=${encodeURIComponent(v)}`);
  }
  return parts.join('&');
}

/** The part of the log a question asks about, as `logScope` reads its canonical parameters (`letitle` folded, as cassette keys fold it). */
function askedScope(ctx: ApiContext): string {
  const r: Record<string, string> = {};
  for (const p of SCOPE_PARAMS) {
    const v = ctx.request.params.get(`le${p}`);
    // (`le…[]=`: MediaWiki reads no value, as if absent)
    if (v === undefined || v === ARRAY_VALUE) continue;
    r[`le${p}`] = p === 'title' ? (foldTitle(v) ?? v) : v;
  }
  return logScope(r);
}

/**
 * The parts of an entry log_deleted hides (LogPage::DELETED_ACTION, DELETED_USER, DELETED_COMMENT,
 * as its bits), each with the props that print it and what an entry must give for each to be
 * shown to a caller with the rights to the hidden part (a reader's crawl or recording shows only
 * that it is hidden). One table for the row printer (a row marks a part hidden only with a prop
 * that prints it: markableBits), the merge with a recording (hidden.shown), a fixture's hidden
 * parts (givenOr) and the flags for a caller with the rights (needHiddenParts).
 */
const HIDDEN_PARTS: readonly { bit: number; props: Readonly<Record<string, (e: LogEvent) => boolean>> }[] = [
  { bit: 1, props: { title: (e) => e.ns !== undefined && e.title !== undefined, ids: (e) => e.pageid !== undefined && e.logpage !== undefined, details: (e) => e.params !== undefined } },
  { bit: 4, props: { user: (e) => e.user !== undefined && e.userid !== undefined, userid: (e) => e.userid !== undefined } },
  { bit: 2, props: { comment: (e) => e.comment !== undefined, parsedcomment: (e) => e.parsedcomment !== undefined || commentFormattable(e) } },
];

/** The log_deleted bit of the part a prop prints (HIDDEN_PARTS). */
function hiddenBitOf(prop: string): number {
  const part = HIDDEN_PARTS.find((p) => Object.hasOwn(p.props, prop));
  if (!part) throw new Error(`logevents: the prop ${prop} prints no part log_deleted hides`);
  return part.bit;
}

/** A prop of a fixture's entry: what it prints given, or the part it prints hidden (log_deleted), which a reader's crawl cannot show. */
const givenOr = (prop: string, given: (e: LogEvent) => boolean) => {
  const bit = hiddenBitOf(prop);
  return (e: LogEvent) => ((e.deleted ?? 0) & bit) !== 0 || given(e);
};

/**
 * A fixture's log event: its id, timestamp (the order) and type (restricted types are never
 * listed) are required; each prop is known when the entry gives what it prints, or hides it
 * (`actionhidden`, `userhidden`, `commenthidden`: what a caller with the rights would see is
 * flagged when shown, see needHiddenParts). An IP actor's user id (0) follows from its name.
 */
const LOG_FIXTURE: FixtureFields<LogEvent> = {
  required: { logid: 'number', timestamp: 'timestamp', type: 'string' },
  props: {
    ids: givenOr('ids', (e) => typeof e.pageid === 'number' && typeof e.logpage === 'number'),
    title: givenOr('title', (e) => typeof e.ns === 'number' && typeof e.title === 'string'),
    type: (e) => typeof e.action === 'string',
    // `anon` is printed with the user when its id is 0: an IP's (filled in), an imported name's
    // (`prefix>Name`, whose actor may have no account), never an account's.
    user: givenOr('user', (e) => typeof e.user === 'string' && (typeof e.userid === 'number' || !e.user.includes('>'))),
    userid: givenOr('userid', (e) => typeof e.userid === 'number'),
    timestamp: () => true,
    comment: givenOr('comment', (e) => typeof e.comment === 'string'),
    // (the comment is formatted with the entry's title: its section links name the page)
    parsedcomment: givenOr('parsedcomment', (e) => typeof e.parsedcomment === 'string' || commentFormattable(e)),
    details: givenOr('details', (e) => typeof e.params === 'object' && e.params !== null),
    tags: (e) => Array.isArray(e.tags),
  },
  normalize: (x) => {
    const raw = x as unknown as Record<string, unknown>;
    const { actionhidden: _a, commenthidden: _c, userhidden: _u, suppressed: _s, ...rest } = raw;
    const deleted = x.deleted ?? deletedBits(raw);
    const userid = x.userid === undefined ? ipUserId(x.user) : undefined;
    return { ...(rest as unknown as LogEvent), ...(deleted ? { deleted } : {}), ...(userid !== undefined ? { userid } : {}) };
  },
};

/** list=logevents (ApiQueryLogEvents). */
export const logevents: ListModule<LogEvent> = {
  name: 'logevents',
  prefix: 'le',
  group: 'list',
  // ApiQueryLogEvents::getCacheMode (1.39, 1.43): a user who may see deleted parts gets a private
  // answer; comments formatted into HTML use the user's language; a user who may read a restricted
  // log ($wgLogRestrictions) sees other entries than the public.
  cacheMode: (v, caller) =>
    userCanSeeRevDel(caller) ? 'private' : pv.list(v['prop']).includes('parsedcomment') || readsRestrictedLog((r) => isAllowed(caller, r)) ? 'anon-public-user-private' : 'public',
  debug: logeventsDebug,
  key: { defaults: { leprop: 'comment|details|ids|timestamp|title|type|user', ledir: 'older', lelimit: '10' }, sets: ['leprop'], titles: ['letitle'] },
  roles: { limit: 'limit', continue: 'continue', dir: 'dir', prop: 'prop', start: 'start', end: 'end' },
  // (its other filters pick the part of the log a walk covers: SCOPE_PARAMS)
  filters: [],
  walk: {
    scopeParams: SCOPE_PARAMS,
    scope: logScope,
    // Every filter narrows (MediaWiki ANDs them): a walk of a filter holds each entry of a question
    // that has its filters and more. (`letitle` of a walked `lenamespace` is not seen as narrower: a miss.)
    covers: (walked, asked) => {
      if (walked === '') return true;
      const has = new Set(asked.split('&'));
      return walked.split('&').every((f) => has.has(f));
    },
  },
  props: PROPS,
  snapshot: [{ lelimit: 'max', leprop: PROPS.join('|') }],
  // Hidden parts and the suppression log show to those with the rights (LogEventsList::userCan).
  widerForRights: true,
  // ApiQueryLogEvents::extractRowInfo types each entry (and its params) assoc.
  assocEntries: true,
  entity: {
    kind: LOG_EVENTS,
    idFields: ['logid'],
    idProps: ['ids'],
    fromRow(row, props) {
      if (typeof row['logid'] !== 'number') return null;
      const { actionhidden: _a, commenthidden: _c, userhidden: _u, suppressed: _s, ...rest } = row;
      const deleted = deletedBits(row);
      return { tags: [], params: {}, ...rest, ...(deleted ? { deleted } : {}), known: [...props] } as unknown as LogEvent;
    },
    merge: mergeSightings,
    indexes: LOG_INDEXES,
    fieldTypes: {
      required: { logid: 'integer' },
      optional: { ns: 'integer', title: 'string', pageid: 'integer', logpage: 'integer', revid: 'integer', params: 'object', type: 'string', action: 'string', user: 'string', userid: 'integer', timestamp: 'string', comment: 'string', parsedcomment: 'string', tags: 'strings', deleted: 'integer', known: 'strings' },
    },
    // A fixture written as the API shows it (a crawl, the bundled wiki) may mark hidden parts too.
    fromFixture: (e) => fixtureEntry<LogEvent>(e, LOG_FIXTURE),
    propFields: { ids: 'pageid', title: 'title', type: 'action', user: 'user', userid: 'userid', timestamp: 'timestamp', comment: 'comment', parsedcomment: 'parsedcomment', details: 'params', tags: 'tags' },
    // (extractRowInfo; `anon` follows from the user id)
    printedFields: {
      ids: ['logid', 'pageid', 'logpage', 'revid'],
      title: ['ns', 'title'],
      type: ['type', 'action'],
      user: ['user'],
      userid: ['userid'],
      timestamp: ['timestamp'],
      comment: ['comment'],
      parsedcomment: ['parsedcomment'],
      details: ['params'],
      tags: ['tags'],
    },
    hidden: {
      bits: (e) => e.deleted ?? 0,
      // A row marks a part hidden only with a prop that prints the part, and `suppressed` beside a part it marks.
      shown(e, known) {
        const bits = markableBits((p) => known.includes(p));
        return (e.deleted ?? 0) & bits ? bits | 8 : bits;
      },
      withBits(e, bits) {
        const { deleted: _d, ...rest } = e;
        return bits ? { ...rest, deleted: bits } : rest;
      },
    },
    *users(e) {
      if (!((e.deleted ?? 0) & 4)) yield [e.user, e.userid];
    },
    derive(e, ids) {
      if (e.known?.includes('user') && !((e.deleted ?? 0) & 4)) deriveUserId(e, 'userid', e.user, ids);
    },
  },
  order: {
    key: (e) => key(e),
    continueValue: (e) => `${entityMw(e.timestamp)}|${e.logid}`,
    continueTypes: ['timestamp', 'int'],
    backwards: 'older',
  },
  params: (profile) => ({
    prop: { type: 'enum', multi: true, values: PROPS, default: 'ids|title|type|user|timestamp|comment|details' },
    type: { type: 'enum', values: logTypes(profile) },
    action: { type: 'string' },
    start: { type: 'timestamp' },
    end: { type: 'timestamp' },
    dir: DIR_PARAM,
    user: { type: 'user', kinds: ['name', 'ip', 'id', 'interwiki'] },
    title: { type: 'string' },
    namespace: { type: 'namespace', extra: [-1, -2] },
    prefix: { type: 'string' },
    tag: { type: 'string' },
    limit: LIMIT_PARAM,
    continue: { type: 'string' },
  }),
  execute(ctx, v) {
    requireMaxOneParameter(`query+${this.name}`, this.prefix, v, ['title', 'prefix', 'namespace']);
    const limit = pv.num(v['limit']) ?? 10;
    // MediaWiki reads limit + 1 rows in the list's order: so many are read here, from the order's index.
    const rows: LogEvent[] = [];
    for (const e of eventsAsked(ctx, v)) if (rows.push(e) > limit) break;
    needWalkedWindow(ctx, this, rows, limit, pv.str(v['dir']), askedScope(ctx), timeWindow(ctx, v, this.order));
    const { page, next } = takePage(rows, limit);
    const props = new Set(pv.list(v['prop']));
    const rights = hiddenRights(ctx);
    for (const e of page) {
      needProps(ctx, 'logevents', e, props);
      needHiddenParts(ctx, rights, e, props);
    }
    // What extractRowInfo reads besides the entry: the props, the caller's rights to hidden parts,
    // the version and (a block's duration, from 1.44 on) the user language.
    const variant = `${[...props].sort().join('|')} ${+rights.hidden}${+rights.suppressed} ${ctx.profile.version} ${ctx.userLang.code}`;
    showRows(ctx, 'logevents', page, variant, (e, c) => extractRowInfo(c, rights, e, props));
    const fetched = next ? [...page, next] : page;
    return next ? { continueValue: this.order.continueValue(next), fetched } : { fetched };
  },
};

/**
 * Revision-deleted parts of an entry as the API marks them (`actionhidden`, `commenthidden`,
 * `userhidden`, `suppressed`), as MediaWiki's log_deleted bits, which the model keeps.
 */
function deletedBits(row: Record<string, unknown>): number {
  return (row['actionhidden'] ? 1 : 0) | (row['commenthidden'] ? 2 : 0) | (row['userhidden'] ? 4 : 0) | (row['suppressed'] ? 8 : 0);
}

/** Whether replay can format an entry's comment itself (formatRowComment): its comment, and the title it is formatted with. */
const commentFormattable = (e: LogEvent): e is LogEvent & { comment: string; ns: number; title: string } => typeof e.comment === 'string' && typeof e.ns === 'number' && typeof e.title === 'string';

/** An entry's title without its namespace prefix (namespace names contain no colon). */
const mainText = (ns: number | undefined, title: string) => (ns === 0 ? title : title.slice(title.indexOf(':') + 1));


/** The props each filter reads (a filter over a field nobody recorded cannot pick the right rows). */
const FILTER_PROPS: Record<string, string> = { type: 'type', action: 'type', user: 'user', title: 'title', namespace: 'title', prefix: 'title', tag: 'tags' };

/**
 * The index a question reads and the part of it its filters fix: a user's, a page's, an action's
 * or a type's entries (MediaWiki's index for each), else the whole order.
 */
function indexFor(ctx: ApiContext, v: ParamValues, action: [string, string] | null): { index: string; prefix: IndexKey } {
  const user = pv.str(v['user']);
  if (user !== null) return { index: 'user', prefix: [user] };
  const page = pageAsked(ctx, v);
  if (page) return { index: 'page', prefix: [page.ns, page.text] };
  if (action) return { index: 'action', prefix: action };
  const type = pv.str(v['type']);
  return type !== null ? { index: 'type', prefix: [type] } : { index: 'order', prefix: [] };
}

/** The page `letitle` names (its namespace and title without prefix), refused when it is no title. */
function pageAsked(ctx: ApiContext, v: ParamValues): { ns: number; text: string } | null {
  const title = pv.str(v['title']);
  if (title === null) return null;
  const t = parseTitle(title, ctx.titles);
  if (!t.ok || t.title.interwiki) {
    throw new ApiUsageError(apiMessage('invalidtitle', 'apierror-invalidtitle', [escapeWikiText(title, atLeast(ctx.profile, '1.43'))]));
  }
  return { ns: t.title.ns, text: t.title.text };
}

/**
 * The events a question shows, in its order, read lazily from the order's index within the
 * question's window (start, end, continue) and filtered row by row; bad filter values are refused
 * before any row is read.
 */
function eventsAsked(ctx: ApiContext, v: ParamValues): Iterable<LogEvent> {
  const read = ['type', 'timestamp', 'ids', ...Object.entries(FILTER_PROPS).filter(([f]) => v[f] !== null).map(([, p]) => p)];
  const table = tableOf(ctx.model, logevents.entity);
  needPropsOfAll(ctx, 'logevents', table, read);
  // The restricted logs the caller may not read (a sysop with `suppressionlog` reads the suppression log).
  const hidden = hiddenLogTypes((right) => isAllowed(ctx.session.caller, right));
  const tests: ((e: LogEvent) => boolean)[] = [(e) => !hidden.includes(e.type)];
  const tag = pv.str(v['tag']);
  if (tag !== null) tests.push((e) => (e.tags ?? []).includes(tag));
  const action = pv.str(v['action']);
  const type = pv.str(v['type']);
  let actionKey: [string, string] | null = null;
  if (action !== null) {
    const slash = action.indexOf('/');
    const t = action.slice(0, slash);
    const actions = logActions(ctx.profile);
    const valid = slash >= 0 && (actions.includes(action) || actions.includes(`${t}/*`));
    if (!valid) {
      throw new ApiUsageError(
        apiMessage('unknown_leaction', 'apierror-unrecognizedvalue', ['leaction', escapeWikiText(action, atLeast(ctx.profile, '1.43'))]),
      );
    }
    const a = action.slice(slash + 1);
    tests.push((e) => e.type === t && e.action === a);
    actionKey = [t, a];
  } else if (type !== null) tests.push((e) => e.type === type);
  const window = windowRange(ctx, v, ['timestamp', 'int']);
  tests.push(...titleTests(ctx, v));
  // The filters' index, from the part they fix, within the window (bounds on the order's columns).
  const { index, prefix } = indexFor(ctx, v, actionKey);
  const within = (bounds: readonly IndexKey[]) => [...(prefix.length > 0 ? [prefix] : []), ...bounds.map((b) => [...prefix, ...b])];
  const rows = table.range(index, { from: within(window.from), to: within(window.to) }, v['dir'] !== 'newer');
  return (function* () {
    for (const e of rows) if (tests.every((t) => t(e))) yield e;
  })();
}

/** The filters on who and which page (leuser, letitle, lenamespace, leprefix), each refused when bad. */
function titleTests(ctx: ApiContext, v: ParamValues): ((e: LogEvent) => boolean)[] {
  const tests: ((e: LogEvent) => boolean)[] = [];
  const user = pv.str(v['user']);
  if (user !== null) tests.push((e) => e.user === user);
  const page = pageAsked(ctx, v);
  // (an entry without its title is flagged: needPropsOfAll)
  if (page) tests.push((e) => e.ns === page.ns && typeof e.title === 'string' && mainText(e.ns, e.title) === page.text);
  const ns = pv.num(v['namespace']);
  if (ns !== null) tests.push((e) => e.ns === ns);
  const prefix = pv.str(v['prefix']);
  if (prefix !== null) {
    // $wgMiserMode is off on a default install: prefix search is allowed.
    const t = parseTitle(prefix, ctx.titles);
    if (!t.ok || t.title.interwiki) {
      throw new ApiUsageError(apiMessage('invalidtitle', 'apierror-invalidtitle', [escapeWikiText(prefix, atLeast(ctx.profile, '1.43'))]));
    }
    const { ns: pns, dbkey } = t.title;
    tests.push((e) => e.ns === pns && typeof e.title === 'string' && mainText(e.ns, e.title).replace(/ /g, '_').startsWith(dbkey));
  }
  // Paranoia against brute-force searches (T19342): asked by user, title, namespace or prefix,
  // the entries whose user or action the caller may not see are left out (a reader: hidden ones;
  // with deletedhistory alone: hidden and suppressed ones).
  const rights = hiddenRights(ctx);
  const [titleBits, userBits] = !rights.hidden ? [1, 4] : !rights.suppressed ? [1 | 8, 4 | 8] : [0, 0];
  if ((ns !== null || page !== null || prefix !== null) && titleBits) tests.push((e) => ((e.deleted ?? 0) & titleBits) !== titleBits);
  if (user !== null && userBits) tests.push((e) => ((e.deleted ?? 0) & userBits) !== userBits);
  return tests;
}

/** The caller's rights to an entry's hidden parts: `deletedhistory`, and `suppressrevision` or `viewsuppressed`. */
interface HiddenRights {
  readonly hidden: boolean;
  readonly suppressed: boolean;
}

function hiddenRights(ctx: ApiContext): HiddenRights {
  const caller = ctx.session.caller;
  return { hidden: isAllowed(caller, 'deletedhistory'), suppressed: isAllowed(caller, 'suppressrevision') || isAllowed(caller, 'viewsuppressed') };
}

/**
 * LogEventsList::userCanBitfield: a hidden part of an entry shows to callers with `deletedhistory`,
 * a suppressed one to those with `suppressrevision` or `viewsuppressed` (readers see neither).
 */
function userCan(rights: HiddenRights, deleted: number, field: number): boolean {
  if ((deleted & field) === 0) return true;
  return deleted & 8 ? rights.suppressed : rights.hidden;
}

/**
 * The hidden parts of an entry (log_deleted) shown to a caller with the rights to them, where the
 * entry leaves their fields out (a reader's crawl or recording sees only that they are hidden):
 * flagged, never printed empty.
 */
function needHiddenParts(ctx: ApiContext, rights: HiddenRights, e: LogEvent, props: Set<string>): void {
  const deleted = e.deleted ?? 0;
  if (deleted === 0) return;
  for (const part of HIDDEN_PARTS) {
    if (!(deleted & part.bit) || !userCan(rights, deleted, part.bit)) continue;
    for (const [prop, given] of Object.entries(part.props)) if (props.has(prop) && !given(e)) ctx.unknown(`logevents.${prop}`);
  }
}

/**
 * A log entry seen again (ListEntity.merge): the later row's fields over the held one's, but a row
 * prints `params` only with `details`, `tags` only with `tags`, and marks only the hidden parts its
 * props print: a sighting without them says nothing of those (its empty defaults must not replace
 * what an earlier walk showed).
 */
function mergeSightings(held: LogEvent, seen: LogEvent): LogEvent {
  const out = mergeKnown(held, seen);
  const saw = (p: string) => seen.known?.includes(p) ?? true;
  // (what the held entry lacks too stays out: a field left out is not known, never an empty default)
  if (!saw('details')) {
    if (held.params === undefined) delete out.params;
    else out.params = held.params;
  }
  if (!saw('tags')) {
    if (held.tags === undefined) delete out.tags;
    else out.tags = held.tags;
  }
  const markable = markableBits(saw);
  const [was, now] = [held.deleted ?? 0, seen.deleted ?? 0];
  const parts = (now & markable) | (was & ~markable & 7);
  // (`suppressed` shows only beside a mark: a sighting that marks nothing cannot tell it; nothing hidden, nothing suppressed)
  const bits = parts === 0 ? 0 : parts | ((now & markable ? now : was) & 8);
  const { deleted: _d, ...rest } = out;
  return bits ? { ...rest, deleted: bits } : rest;
}

/** The hidden parts (log_deleted bits) a row marks with these props: each only with a prop that prints it (HIDDEN_PARTS). */
function markableBits(has: (prop: string) => boolean): number {
  let bits = 0;
  for (const part of HIDDEN_PARTS) if (Object.keys(part.props).some(has)) bits |= part.bit;
  return bits;
}

function extractRowInfo(ctx: ApiContext, rights: HiddenRights, e: LogEvent, props: Set<string>): JsonObject {
  const out: JsonObject = {};
  const deleted = e.deleted ?? 0;
  // (each hidden part is marked only where a prop shows it, and `suppressed` only beside a mark)
  const marked = deleted & markableBits((p) => props.has(p));
  if (props.has('ids')) out['logid'] = e.logid;
  const actionMarked = (marked & 1) !== 0;
  if (actionMarked) out['actionhidden'] = true;
  if (userCan(rights, deleted, 1)) {
    // (a field the entry leaves out is flagged, and left out: needProps, needHiddenParts)
    if (props.has('title')) {
      putField(out, 'ns', e.ns);
      putField(out, 'title', e.title);
    }
    if (props.has('ids')) {
      putField(out, 'pageid', e.pageid);
      putField(out, 'logpage', e.logpage);
      if (e.revid !== undefined && atLeast(ctx.profile, '1.43')) out['revid'] = e.revid;
    }
    if (props.has('details') && e.params !== undefined) out['params'] = formatLogParams(ctx, e) as Json;
  }
  if (props.has('type')) {
    out['type'] = e.type;
    putField(out, 'action', e.action);
  }
  const userMarked = (marked & 4) !== 0;
  if (userMarked) out['userhidden'] = true;
  if (userCan(rights, deleted, 4)) {
    if (props.has('user')) putField(out, 'user', e.user);
    if (props.has('userid')) putField(out, 'userid', e.userid);
    if ((props.has('user') || props.has('userid')) && e.userid === 0) out['anon'] = true;
  }
  if (props.has('timestamp')) out['timestamp'] = e.timestamp;
  const commentMarked = (marked & 2) !== 0;
  if (commentMarked) out['commenthidden'] = true;
  if (userCan(rights, deleted, 2)) {
    if (props.has('comment')) putField(out, 'comment', e.comment);
    // (a comment no recording showed is flagged, and not formatted)
    if (props.has('parsedcomment')) putField(out, 'parsedcomment', e.parsedcomment ?? (commentFormattable(e) ? formatRowComment(ctx, e.comment, e.ns, e.title) : undefined));
  }
  // (an entry without tags is flagged: needProps)
  if (props.has('tags') && e.tags !== undefined) out['tags'] = [...e.tags];
  // Suppressed is said only beside a hidden part the entry shows (ApiQueryLogEvents' $anyHidden).
  if (deleted & 8 && (actionMarked || userMarked || commentMarked)) out['suppressed'] = true;
  return out;
}

/**
 * ApiQueryLogEvents' trace: its SELECT (fields and joins from `prop`, as each version adds them;
 * type, direction, continuation and limit), the gender lookup of User titles, the connection taken
 * again for details. 1.43 builds it with MessageCache, the parser factory and MicroStash.
 */
function logeventsDebug(input: DebugInput): DebugFacts {
  const { profile, params } = input;
  const v143 = atLeast(profile, '1.43');
  const prop = new Set((params['leprop'] ?? 'ids|title|type|user|timestamp|comment|details').split('|'));
  const has = (p: string) => prop.has(p);
  const fields = ['log_id', 'log_type', 'log_action', 'log_timestamp', 'log_deleted'];
  const actor = 'JOIN "actor" ON ((actor_id=log_actor))';
  const page = 'LEFT JOIN "page" ON ((log_namespace=page_namespace) AND (log_title=page_title))';
  const joins: string[] = [];
  const userFields = () => {
    if (has('user')) fields.push('actor_name', 'actor_user');
    if (has('userid') && !has('user')) fields.push('actor_user');
  };
  if (v143) {
    if (has('user') || has('userid') || params['leuser'] !== undefined) {
      joins.push(actor);
      userFields();
    }
    if (has('ids')) {
      joins.push(page);
      fields.push('page_id', 'log_page');
    }
  } else {
    joins.push(actor);
    if (has('ids')) {
      joins.push(page);
      fields.push('page_id', 'log_page');
    }
    userFields();
  }
  if (has('title') || has('parsedcomment')) fields.push('log_namespace', 'log_title');
  if (has('details') || (v143 && has('ids'))) fields.push('log_params');
  if (has('comment') || has('parsedcomment')) {
    fields.push('comment_log_comment.comment_text AS "log_comment_text"', 'comment_log_comment.comment_data AS "log_comment_data"', 'comment_log_comment.comment_id AS "log_comment_cid"');
    joins.push('JOIN "comment" "comment_log_comment" ON ((comment_log_comment.comment_id = log_comment_id))');
  }
  const newer = params['ledir'] === 'newer';
  // LogEventsList::getExcludeClause: $wgLogRestrictions' types (in its order) a reader may not see.
  const where = [`(log_type NOT IN (${profile.restrictedLogTypes.map((t) => `'${t}'`).join(',')}))`];
  const type = params['letype'];
  if (type !== undefined && type !== '') where.push(`log_type = '${type}'`);
  const cont = continueCondition(profile, params['lecontinue'], 'log_timestamp', 'log_id', newer);
  if (cont) where.push(cont);
  const order = newer ? 'log_timestamp,log_id' : 'log_timestamp DESC,log_id DESC';
  const fn = `${apiClass(profile, 'ApiQueryLogEvents')}::execute`;
  const select = {
    query: {
      sql: `SELECT  /*! STRAIGHT_JOIN */ ${fields.join(',')}  FROM "logging" ${joins.join(' ')}   WHERE ${where.join(' AND ')}  ORDER BY ${order} LIMIT ${sqlLimit(params, 'lelimit')}  `,
      function: fn,
      time: 0.001,
    },
  };
  // Titles in the User namespaces of the fetched rows (the page and the row after it) are looked up
  // in GenderCache; formatting the details of a protection takes another reference to the
  // connection (checked on 1.39 and 1.43: one for any number of protect rows on the page, none for
  // the row after it, none for other types).
  const titlesLookedUp = [...fetchedRows(input, 'logevents'), ...(input.fetched ? [] : rowAfter(input))];
  const gender = has('title') ? genderCacheLookup(profile, titlesLookedUp, fn) : [];
  const shown = shownRows(input);
  const protect = has('details') && shown.some((e) => e.type === 'protect') ? [{ reuse: true as const }] : [];
  const formatting = has('parsedcomment') ? commentFormatting(input, v143, has('title') ? titlesLookedUp : []) : { entries: [], linked: false };
  // formatItems formats every comment before the first row's details are.
  const after: DebugFacts['entries'] = [...gender, ...formatting.entries, ...protect];
  const setup = v143 ? ['[MessageCache] MessageCache using store SqlBagOStuff', 'MediaWiki\\Parser\\ParserFactory: using default preprocessor', '[SQLBagOStuff] MicroStash using store SqlBagOStuff'] : [];
  // (linking a page loads the link renderer's classes)
  return { includes: formatting.linked ? 'logeventslinks' : 'logevents', setup, entries: [select, ...after] };
}

/**
 * The rows the answer shows: each with its entity (the row fetched, when the module ran here; else
 * the model's by its id: an answer without ids cannot name it), its type and its parsed comment
 * (the answer's, else the entity's).
 */
function shownRows(input: DebugInput): { type: string | undefined; html: string | undefined; row: LogEvent | undefined }[] {
  const rows = (input.answer['query'] as JsonObject | undefined)?.['logevents'];
  if (!Array.isArray(rows)) return [];
  const fetched = input.fetched as readonly LogEvent[] | undefined;
  const table = tableOf(input.model, logevents.entity);
  return rows.map((r, i) => {
    const o = (r ?? {}) as JsonObject;
    const row = fetched?.[i] ?? table.get(String(o['logid']));
    return { type: typeof o['type'] === 'string' ? o['type'] : row?.type, html: typeof o['parsedcomment'] === 'string' ? o['parsedcomment'] : row?.parsedcomment, row };
  });
}

/**
 * What RowCommentFormatter::formatItems writes for the comments of every fetched row (the row
 * past the limit too), formatted in one batch before any row is printed. Each comment in turn:
 * - an autocomment's section name is normalized as a title's fragment (`#` and the name): a name
 *   with a colon has the words before it looked up as an interwiki prefix, once per request;
 * - a section link or page link of a row in the User namespaces names the row's user: GenderCache
 *   looks it up, unless the titles' lookup had it;
 * - the first comment with text beside an autocomment reads autocomment-prefix or colon-separator
 *   in the content language: MessageCache loads it, then English, its fallback.
 * (1.43 with `uselang=en` reads English's core localisation for the first section link's arrow.)
 * Then the page links of all comments, deferred (CommentParser::addPageLink), are looked up in
 * one LinkBatch (section links, interwiki links and special pages are not), with the gender of
 * User pages among them; a red link's title is `red-link-title` in the content language:
 * MessageCache loads it, if the autocomments have not.
 * (Media: links, looked up in the file repository, are not modelled.)
 */
function commentFormatting(input: DebugInput, v143: boolean, titlesLookedUp: ReadonlyArray<FetchedRow>): { entries: DebugFacts['entries']; linked: boolean } {
  const { profile } = input;
  const ctx = titleContext(profile, input.model, null);
  const gendered = new Set(titlesLookedUp.map(genderName).filter((n) => n !== null));
  const prefixes = new Set<string>();
  const out: DebugFacts['entries'] = [];
  const links: { ns: number; dbkey: string; red: boolean }[] = [];
  let messages = false;
  let arrow = false;
  const english = v143 && input.userLang.code === 'en' && profile.language !== 'en' ? ['[localisation] LocalisationCache::loadCoreData: got localisation for en from source'] : [];
  const genderOf = (rows: ReadonlyArray<FetchedRow>, caller: string) => {
    const fresh: FetchedRow[] = [];
    for (const r of rows) {
      const name = genderName(r);
      if (name === null || gendered.has(name)) continue;
      gendered.add(name);
      fresh.push(r);
    }
    return genderCacheLookup(profile, fresh, caller);
  };
  for (const { html, row } of formattedComments(input)) {
    if (html === undefined) continue;
    const sections = autocommentSections(html);
    for (const name of sections) {
      const prefix = interwikiPrefixOfSection(name);
      if (prefix === undefined || prefixes.has(prefix)) continue;
      prefixes.add(prefix);
      out.push(...interwikiLookup(profile, prefix));
    }
    // (the arrow of a section link is the user language's: 1.43 loads English's core data then)
    if (sections.length > 0 && !arrow) {
      arrow = true;
      out.push(...english);
    }
    const own = commentPageLinks(html, ctx);
    links.push(...own);
    if (row && (sections.length > 0 || own.length > 0)) out.push(...genderOf([row], `${v143 ? 'MediaWiki\\Title\\' : ''}MediaWikiTitleCodec::getNamespaceName`));
    if (!messages && autocommentBesideText(html)) {
      messages = true;
      out.push(...messageCacheLoad(profile, profile.language, { content: true, first: !v143, reuse: true }), ...(profile.language === 'en' ? [] : messageCacheLoad(profile, 'en', { content: false, first: false, reuse: true })));
    }
  }
  out.push(...commentLinkBatch(profile, links));
  const userPages = links.filter((l) => l.ns === 2 || l.ns === 3).map((l) => ({ ns: l.ns, title: `User:${l.dbkey}` }));
  out.push(...genderOf(userPages, 'MediaWiki\\CommentFormatter\\CommentParser::addPageLink'));
  if (!messages && links.some((l) => l.red)) out.push(...messageCacheLoad(profile, profile.language, { content: true, first: !v143, reuse: true }));
  return { entries: out, linked: links.length > 0 || arrow };
}

/** The comments of the rows the query fetched, with the row where known: those shown, then the row past the limit when known. */
function formattedComments(input: DebugInput): { html: string | undefined; row: LogEvent | undefined }[] {
  const shown = shownRows(input);
  const fetched = input.fetched as readonly LogEvent[] | undefined;
  const past = fetched ? (fetched.length > shown.length ? fetched[fetched.length - 1] : undefined) : rowPastLimit(input);
  return past ? [...shown, { html: past.parsedcomment, row: past }] : shown;
}

/** The section names of a parsed comment's autocomments, as their links show them (after the arrow and direction mark). */
function autocommentSections(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<span class="autocomment"><a [^>]*>(.*?)<\/a>/g)) {
    const inner = m[1]!.replace(/^[→←](?:\u200e|\u200f)?/, '').replace(/<\/?bdi[^>]*>/g, '');
    out.push(decodeCharReferences(inner));
  }
  return out;
}

/**
 * Parser::normalizeSectionName: MediaWikiTitleCodec::splitTitleString of `#` and the name, whose
 * words before a colon are no namespace and so are looked up as an interwiki prefix (lower case).
 */
function interwikiPrefixOfSection(name: string): string | undefined {
  const key = `#${name.replace(/[ _]+/g, ' ').trim()}`.replace(/ /g, '_');
  const m = /^(.+?)_*:_*(.*)$/s.exec(key);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** ClassicInterwikiLookup::load of a prefix no interwiki has: the query, the cache's miss. */
function interwikiLookup(profile: DebugInput['profile'], prefix: string): DebugFacts['entries'] {
  return [
    { reuse: true },
    { query: { sql: `SELECT  iw_prefix,iw_url,iw_api,iw_wikiid,iw_local,iw_trans  FROM "interwiki"    WHERE iw_prefix = ${sqlQuote(prefix)}  LIMIT 1  `, function: 'MediaWiki\\Interwiki\\ClassicInterwikiLookup::load' } },
    `[objectcache] fetchOrRegenerate(${profile.cookiePrefix}:interwiki:${prefix}): miss, new value computed`,
  ];
}

/** Where an autocomment's span is (its section link is made as known, never batched). */
const AUTOCOMMENT_SPAN = /<span class="autocomment">(?:<a [^>]*>.*?<\/a>)?[^<]*<\/span>/g;

/**
 * The page links of a parsed comment, as CommentParser added them to its LinkBatch: every link but
 * the autocomments' section links, interwiki links (`extiw`) and Media: links; a red link
 * (`new`) names its title in its edit URL, a blue one in its title attribute.
 */
function commentPageLinks(html: string, ctx: TitleContext): { ns: number; dbkey: string; red: boolean }[] {
  if (!html.includes('<a ')) return [];
  const out: { ns: number; dbkey: string; red: boolean }[] = [];
  for (const m of html.replace(AUTOCOMMENT_SPAN, '').matchAll(/<a ([^>]*)>/g)) {
    const attrs = m[1]!;
    const cls = /\bclass="([^"]*)"/.exec(attrs)?.[1]?.split(' ') ?? [];
    if (cls.includes('extiw') || cls.includes('internal') || cls.includes('external')) continue;
    const red = cls.includes('new');
    let text: string | undefined;
    if (red) {
      const href = /\bhref="([^"]*)"/.exec(attrs)?.[1]?.replaceAll('&amp;', '&') ?? '';
      text = new URLSearchParams(href.slice(href.indexOf('?') + 1)).get('title') ?? undefined;
    } else {
      text = /\btitle="([^"]*)"/.exec(attrs)?.[1];
    }
    if (text === undefined) continue;
    const t = parseTitle(text, ctx);
    if (t.ok && t.title.interwiki === '') out.push({ ns: t.title.ns, dbkey: t.title.dbkey, red });
  }
  return out;
}

/** An autocomment's span as a parsed comment opens it: 1.39 within `<span dir="auto">`, 1.43 alone. */
const AUTOCOMMENT = /^(?:<span dir="auto">)?<span class="autocomment">/;
const AUTOCOMMENT_ANYWHERE = /(?:<span dir="auto">)?<span class="autocomment">/;
/**
 * Whether a parsed comment holds an autocomment (`/* section *\/`) with text before or after it:
 * its span then follows other text, or other text follows the span (which holds no span of its
 * own), before the spans closed at the end.
 */
function autocommentBesideText(html: string | undefined): boolean {
  const m = html === undefined ? null : AUTOCOMMENT_ANYWHERE.exec(html);
  if (html === undefined || !m) return false;
  if (!AUTOCOMMENT.test(html)) return true;
  const end = html.indexOf('</span>', m[0].length);
  return end >= 0 && html.slice(end + '</span>'.length).replaceAll('</span>', '') !== '';
}

/**
 * A recorded answer holds the page but not the row fetched after it (its continuation names it):
 * that row, when the model knows it.
 */
function rowAfter(input: DebugInput): FetchedRow[] {
  const e = rowPastLimit(input);
  return e ? [{ ...(e.ns !== undefined ? { ns: e.ns } : {}), ...(e.title !== undefined ? { title: e.title } : {}) }] : [];
}

/** The row a recorded answer's continuation names (fetched, not shown), when the model knows it. */
function rowPastLimit(input: DebugInput): LogEvent | undefined {
  const cont = (input.answer['continue'] as JsonObject | undefined)?.['lecontinue'];
  if (typeof cont !== 'string') return undefined;
  const id = Number(cont.split('|')[1]);
  return Number.isInteger(id) ? tableOf(input.model, logevents.entity).get(String(id)) : undefined;
}
