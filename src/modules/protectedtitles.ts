import type { ApiContext } from '../api/context.js';
import { DIR_PARAM, LIMIT_PARAM, pv, type ParamValues } from '../api/param-spec.js';
import { mergeKnown, type ListModule } from '../api/list-module.js';
import type { JsonObject } from '../api/result.js';
import { entityKind, tableOf } from '../wiki/model.js';
import { fieldColumn } from '../wiki/entity-table.js';
import { compareKeys, deriveUserId, fixtureEntry, ipUserId, type FixtureFields, takePage, windowRange, memoKey, needWalkedWindow, needProps, timeWindow, needPropsOfAll, putField, showRows } from './list-support.js';
import { entityMw } from '../util/timestamp.js';
import { apiClass, fetchedRows, genderCacheLookup, sqlLimit, type DebugFacts, type DebugInput } from '../api/debug.js';
import { atLeast } from '../wiki/profile.js';
import { formatRowComment } from './parse-summary.js';

const PROPS = ['timestamp', 'user', 'userid', 'comment', 'parsedcomment', 'expiry', 'level'];

/**
 * One create-protected title, as `list=protectedtitles` shows it with every prop. What a fixture
 * entry must give (TITLE_FIXTURE's `required`) is required here; every other field may be left
 * out (a fixture that does not give it, a walk that did not ask for it): its prop is then not
 * `known`, and a reader flags it (needProps) instead of printing a default.
 */
export interface ProtectedTitle {
  ns: number;
  title: string;
  timestamp: string;
  user?: string;
  userid?: number;
  comment?: string;
  parsedcomment?: string;
  expiry?: string;
  level?: string;
  /** The props recordings showed this entity with; absent: every field is known. */
  known?: string[];
}

const PROTECTED_TITLES = entityKind<ProtectedTitle>('protectedtitles');

/**
 * A fixture's protected title: its namespace, title and timestamp (the order) are required; each
 * prop is known when the entry gives what it prints (`user` prints the user id too).
 */
const TITLE_FIXTURE: FixtureFields<ProtectedTitle> = {
  required: { ns: 'number', title: 'string', timestamp: 'timestamp' },
  props: {
    timestamp: () => true,
    user: (p) => typeof p.user === 'string' && typeof p.userid === 'number',
    userid: (p) => typeof p.userid === 'number',
    comment: (p) => typeof p.comment === 'string',
    parsedcomment: (p) => typeof p.parsedcomment === 'string' || typeof p.comment === 'string',
    expiry: (p) => typeof p.expiry === 'string',
    level: (p) => typeof p.level === 'string',
  },
  normalize: (p) => (p.userid === undefined && ipUserId(p.user) !== undefined ? { ...p, userid: 0 } : p),
};

/** list=protectedtitles (ApiQueryProtectedTitles). Expired rows are not filtered, as in MediaWiki. */
export const protectedtitles: ListModule<ProtectedTitle> = {
  name: 'protectedtitles',
  prefix: 'pt',
  group: 'list',
  // ApiQueryProtectedTitles::getCacheMode: comments formatted into HTML use the user's language.
  cacheMode: (v) => (pv.list(v['prop']).includes('parsedcomment') ? 'anon-public-user-private' : 'public'),
  debug: protectedtitlesDebug,
  key: { defaults: { ptprop: 'level|timestamp', ptdir: 'older', ptlimit: '10' }, sets: ['ptprop', 'ptlevel', 'ptnamespace'] },
  roles: { limit: 'limit', continue: 'continue', dir: 'dir', prop: 'prop', start: 'start', end: 'end' },
  filters: ['namespace', 'level'],
  walk: { scopeParams: [], scope: () => '' },
  props: PROPS,
  snapshot: [{ ptlimit: 'max', ptprop: PROPS.join('|') }],
  widerForRights: false,
  assocEntries: false,
  entity: {
    kind: PROTECTED_TITLES,
    idFields: ['ns', 'title'],
    fromRow: (row, props) => ({ ...row, known: [...props] }) as unknown as ProtectedTitle,
    merge: mergeKnown,
    indexes: { order: { columns: [{ name: 'ts', type: 'text', value: (p) => key(p)[0]! }, fieldColumn('ns', 'integer'), { name: 'dbkey', type: 'text', value: (p) => key(p)[2]! }] } },
    // Protecting the title again rewrites its row (WikiPage::doUpdateRestrictions): a new pt_timestamp, and its level.
    version: (p) => (typeof p.timestamp === 'string' && typeof p.level === 'string' ? `${p.timestamp}|${p.level}` : null),
    fieldTypes: {
      required: { ns: 'integer', title: 'string' },
      optional: { timestamp: 'string', user: 'string', userid: 'integer', comment: 'string', parsedcomment: 'string', expiry: 'string', level: 'string', known: 'strings' },
    },
    fromFixture: (e) => fixtureEntry<ProtectedTitle>(e, TITLE_FIXTURE),
    propFields: { timestamp: 'timestamp', user: 'user', userid: 'userid', comment: 'comment', parsedcomment: 'parsedcomment', expiry: 'expiry', level: 'level' },
    // (titleInfo: `user` prints the user id too)
    printedFields: { timestamp: ['timestamp'], user: ['user', 'userid'], userid: ['userid'], comment: ['comment'], parsedcomment: ['parsedcomment'], expiry: ['expiry'], level: ['level'] },
    *users(p) {
      yield [p.user, p.userid];
    },
    derive(p, ids) {
      if (p.known?.includes('user')) deriveUserId(p, 'userid', p.user, ids);
    },
  },
  order: {
    key: (p) => key(p),
    continueValue: (p) => key(p).join('|'),
    continueTypes: ['timestamp', 'int', 'string'],
    backwards: 'older',
  },
  params: {
    namespace: { type: 'namespace', multi: true },
    level: { type: 'enum', multi: true, values: ['autoconfirmed', 'sysop'] },
    limit: LIMIT_PARAM,
    dir: DIR_PARAM,
    start: { type: 'timestamp' },
    end: { type: 'timestamp' },
    prop: { type: 'enum', multi: true, values: PROPS, default: 'timestamp|level' },
    continue: { type: 'string' },
  },
  execute(ctx, v) {
    const rows = filterRows(ctx, v);
    const newer = v['dir'] === 'newer';
    rows.sort((a, b) => compareKeys(key(a), key(b)) * (newer ? 1 : -1));
    const limit = pv.num(v['limit']) ?? 10;
    needWalkedWindow(ctx, this, rows, limit, pv.str(v['dir']), '', timeWindow(ctx, v, this.order));
    const { page, next } = takePage(rows, limit);
    const props = new Set(pv.list(v['prop']));
    // B/C: userid comes with user too.
    const shown = props.has('user') ? new Set([...props, 'userid']) : props;
    for (const p of page) needProps(ctx, 'protectedtitles', p, shown);
    // (a comment formatted here has the user language's arrow in its section links)
    const variant = `${[...props].sort().join('|')}${props.has('parsedcomment') ? ` ${ctx.userLang.code}` : ''}`;
    showRows(ctx, 'protectedtitles', page, variant, (p, c) => titleInfo(c, p, props));
    const fetched = next ? [...page, next] : page;
    return next ? { continueValue: this.order.continueValue(next), fetched } : { fetched };
  },
};

/** The title without its namespace prefix, in DB-key form. */
function dbkey(p: ProtectedTitle): string {
  const text = p.ns === 0 ? p.title : p.title.slice(p.title.indexOf(':') + 1);
  return text.replace(/ /g, '_');
}

const key = memoKey((p: ProtectedTitle) => [entityMw(p.timestamp), p.ns, dbkey(p)] as const);

function filterRows(ctx: ApiContext, v: ParamValues): ProtectedTitle[] {
  // addWhereFld adds no condition for an empty list: a filter whose every value was dropped with a
  // warning (`ptlevel=superuser`) filters nothing.
  const ns = v['namespace'] !== null ? pv.nums(v['namespace']) : [];
  const levels = v['level'] !== null ? pv.list(v['level']) : [];
  const table = tableOf(ctx.model, protectedtitles.entity);
  needPropsOfAll(ctx, 'protectedtitles', table, levels.length > 0 ? ['timestamp', 'level'] : ['timestamp']);
  let rows = [...table.range('order', windowRange(ctx, v, ['timestamp', 'int', 'string']), false)];
  if (ns.length > 0) rows = rows.filter((p) => ns.includes(p.ns));
  // (one without its level is flagged: needPropsOfAll)
  if (levels.length > 0) rows = rows.filter((p) => p.level !== undefined && levels.includes(p.level));
  return rows;
}

function titleInfo(ctx: ApiContext, p: ProtectedTitle, props: Set<string>): JsonObject {
  const out: JsonObject = { ns: p.ns, title: p.title };
  if (props.has('timestamp')) out['timestamp'] = p.timestamp;
  // (a field the entry leaves out is flagged, and left out: needProps)
  if (props.has('user')) putField(out, 'user', p.user);
  // B/C: userid comes with user too.
  if (props.has('userid') || props.has('user')) putField(out, 'userid', p.userid);
  if (props.has('comment')) putField(out, 'comment', p.comment);
  // (a comment no recording showed is flagged, and not formatted)
  if (props.has('parsedcomment')) putField(out, 'parsedcomment', p.parsedcomment ?? (p.comment === undefined ? undefined : formatRowComment(ctx, p.comment, p.ns, p.title)));
  if (props.has('expiry')) putField(out, 'expiry', p.expiry);
  if (props.has('level')) putField(out, 'level', p.level);
  return out;
}

/** ApiQueryProtectedTitles' trace: its SELECT (default props; direction and limit). */
function protectedtitlesDebug(input: DebugInput): DebugFacts {
  const { profile, params } = input;
  const newer = params['ptdir'] === 'newer';
  const order = newer ? 'pt_timestamp,pt_namespace,pt_title' : 'pt_timestamp DESC,pt_namespace DESC,pt_title DESC';
  const select = {
    query: {
      sql: `SELECT  pt_namespace,pt_title,pt_timestamp,pt_create_perm  FROM "protected_titles"     ORDER BY ${order} LIMIT ${sqlLimit(params, 'ptlimit')}  `,
      function: `${apiClass(profile, 'ApiQueryProtectedTitles')}::run`,
      time: 0.001,
    },
  };
  const setup = atLeast(profile, '1.43') ? ['[MessageCache] MessageCache using store SqlBagOStuff', 'MediaWiki\\Parser\\ParserFactory: using default preprocessor'] : [];
  // Its titles in the User namespaces are looked up in GenderCache.
  // A recorded answer holds the page; the row fetched after it is named by its continuation (ts|ns|dbkey).
  const cont = (input.answer['continue'] as JsonObject | undefined)?.['ptcontinue'];
  const parts = typeof cont === 'string' ? cont.split('|') : [];
  const after = !input.fetched && parts.length >= 3 ? [{ ns: Number(parts[1]), title: `:${parts.slice(2).join('|')}` }] : [];
  return { includes: 'protectedtitles', setup, entries: [select, ...genderCacheLookup(profile, [...fetchedRows(input, 'protectedtitles'), ...after], select.query.function)] };
}
