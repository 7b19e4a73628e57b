import type { ApiContext } from '../api/context.js';
import { isAllowed } from '../api/session.js';
import { ApiUsageError, apiMessage } from '../api/errors.js';
import { DIR_PARAM, LIMIT_PARAM, pv, type ParamValues } from '../api/param-spec.js';
import { learnProp, mergeKnown, type ListModule } from '../api/list-module.js';
import type { JsonObject } from '../api/result.js';
import { formatBlockDuration } from '../i18n/duration.js';
import { formatHex, isValid, isValidRange, parseRange } from '../util/ip.js';
import { entityKind, tableOf } from '../wiki/model.js';
import { fieldColumn, type IndexColumn, type IndexKey, type IndexSpecs } from '../wiki/entity-table.js';
import { atLeast } from '../wiki/profile.js';
import { requireMaxOneParameter } from './checks.js';
import { compareKeys, deriveUserId, fixtureEntry, ipUserId, type FixtureFields, takePage, windowRange, memoKey, needWalkedWindow, needProps, timeWindow, needPropsOfAll, putField, showRows } from './list-support.js';
import { entityMw } from '../util/timestamp.js';
import { escapeHtmlAllowEntities, formatUntitledComment } from './parse-summary.js';
import { apiClass, continueCondition, sqlLimit, type DebugFacts, type DebugInput } from '../api/debug.js';

const FLAGS = ['automatic', 'anononly', 'nocreate', 'autoblock', 'noemail', 'hidden', 'allowusertalk', 'partial'] as const;
const PROPS_139 = ['id', 'user', 'userid', 'by', 'byid', 'timestamp', 'expiry', 'reason', 'range', 'flags', 'restrictions'];
const SHOW = ['account', '!account', 'temp', '!temp', 'ip', '!ip', 'range', '!range'];
/** $wgBlockCIDRLimit defaults. */
const CIDR_LIMIT = { IPv4: 16, IPv6: 19 } as const;

/**
 * One block, as `list=blocks` shows it with every prop (formatversion=2). What a fixture entry
 * must give (BLOCK_FIXTURE's `required`) is required here; every other field may be left out (a
 * fixture that does not give it, a walk that did not ask for it): its prop is then not `known`,
 * and a reader flags it (needProps) instead of printing a default.
 */
export interface Block {
  id: number;
  /** Absent for autoblocks. */
  user?: string;
  userid?: number;
  by?: string;
  byid?: number;
  timestamp: string;
  /** `infinity` or ISO 8601. */
  expiry: string;
  reason?: string;
  parsedreason?: string;
  rangestart?: string;
  rangeend?: string;
  automatic?: boolean;
  anononly?: boolean;
  nocreate?: boolean;
  autoblock?: boolean;
  noemail?: boolean;
  hidden: boolean;
  allowusertalk?: boolean;
  partial?: boolean;
  /** `[]` for sitewide blocks; partial blocks: `{pages?, namespaces?, actions?}`. */
  restrictions?: unknown;
  /** The props recordings showed this entity with; absent: every field is known. */
  known?: string[];
}

/** The kind blocks are kept as. */
const BLOCKS = entityKind<Block>('blocks');

/** The order's columns (`bl_timestamp`, `bl_id`). */
const ORDER_COLUMNS: IndexColumn<Block>[] = [
  { name: 'ts', type: 'text', value: (b) => entityMw(b.timestamp) },
  fieldColumn('id', 'integer'),
];

/** list=blocks' indexes: its order, and by target (`bkusers`; MediaWiki's bt_user_text, bt_address). */
const BLOCK_INDEXES: IndexSpecs<Block> = {
  order: { columns: ORDER_COLUMNS },
  target: { columns: [fieldColumn('user', 'text'), ...ORDER_COLUMNS] },
};

/** Whether a block's target is given: its name, or that it is an autoblock (which shows none). */
const targetGiven = (b: Block) => typeof b.user === 'string' || b.automatic === true;

/**
 * A fixture's block: its id, timestamp (the order), expiry and `hidden` (whether it is listed at
 * all) are required; each prop is known when the entry gives what it prints. What follows for
 * certain is filled in: an address's user id (0), a sitewide block's restrictions (none).
 */
const BLOCK_FIXTURE: FixtureFields<Block> = {
  required: { id: 'number', timestamp: 'timestamp', expiry: 'expiry', hidden: 'boolean' },
  props: {
    id: () => true,
    user: targetGiven,
    userid: (b) => b.automatic === true || typeof b.userid === 'number',
    by: (b) => typeof b.by === 'string',
    byid: (b) => typeof b.byid === 'number',
    timestamp: () => true,
    expiry: () => true,
    reason: (b) => typeof b.reason === 'string',
    parsedreason: (b) => typeof b.parsedreason === 'string' || typeof b.reason === 'string',
    range: targetGiven,
    flags: (b) => FLAGS.every((f) => typeof b[f] === 'boolean'),
    restrictions: (b) => b.restrictions !== undefined,
  },
  normalize: (b) => {
    const id = b.userid === undefined && b.automatic !== true ? ipUserId(b.user) : undefined;
    return { ...b, ...(id !== undefined ? { userid: id } : {}), ...(b.restrictions === undefined && b.partial === false ? { restrictions: [] } : {}) };
  },
};

/** list=blocks (ApiQueryBlocks). The prop list grows `parsedreason` in 1.44; see `blocksParams`. */
export const blocks: ListModule<Block> = {
  name: 'blocks',
  prefix: 'bk',
  group: 'list',
  cacheMode: 'private',
  debug: blocksDebug,
  key: { defaults: { bkprop: 'by|expiry|flags|id|reason|timestamp|user', bkdir: 'older', bklimit: '10' }, sets: ['bkprop', 'bkshow', 'bkids', 'bkusers'] },
  roles: { limit: 'limit', continue: 'continue', dir: 'dir', prop: 'prop', start: 'start', end: 'end' },
  filters: ['ids', 'users', 'ip', 'show'],
  walk: { scopeParams: [], scope: () => '' },
  props: PROPS_139,
  snapshot: [{ bklimit: 'max', bkprop: PROPS_139.join('|') }],
  // Hidden blocks show to those with `hideuser`.
  widerForRights: true,
  // ApiQueryBlocks::execute types each entry assoc.
  assocEntries: true,
  // An expired block is not listed (ApiQueryBlocks: bl_expiry > now).
  expiry: (row) => (typeof row['expiry'] === 'string' && row['expiry'] !== 'infinity' ? row['expiry'] : null),
  entity: {
    kind: BLOCKS,
    idFields: ['id'],
    idProps: ['id'],
    fromRow: (row, props) => (typeof row['id'] === 'number' ? ({ ...row, known: [...props] } as unknown as Block) : null),
    merge: mergeKnown,
    indexes: BLOCK_INDEXES,
    // A changed block keeps its id and gets a new timestamp (DatabaseBlockStore::updateBlock writes the new block's ipb_timestamp).
    version: (b) => (typeof b.timestamp === 'string' ? b.timestamp : null),
    fieldTypes: {
      required: { id: 'integer' },
      optional: { user: 'string', userid: 'integer', by: 'string', byid: 'integer', timestamp: 'string', expiry: 'string', reason: 'string', parsedreason: 'string', rangestart: 'string', rangeend: 'string', automatic: 'boolean', anononly: 'boolean', nocreate: 'boolean', autoblock: 'boolean', noemail: 'boolean', hidden: 'boolean', allowusertalk: 'boolean', partial: 'boolean', known: 'strings' },
    },
    fromFixture: (e) => fixtureEntry<Block>(e, BLOCK_FIXTURE),
    propFields: { id: 'id', user: 'user', userid: 'userid', by: 'by', byid: 'byid', timestamp: 'timestamp', expiry: 'expiry', reason: 'reason', parsedreason: 'parsedreason', range: 'rangestart', flags: 'automatic', restrictions: 'restrictions' },
    // (blockInfo)
    printedFields: {
      id: ['id'],
      user: ['user'],
      userid: ['userid'],
      by: ['by'],
      byid: ['byid'],
      timestamp: ['timestamp'],
      expiry: ['expiry'],
      reason: ['reason'],
      parsedreason: ['parsedreason'],
      range: ['rangestart', 'rangeend'],
      flags: [...FLAGS],
      restrictions: ['restrictions'],
    },
    // A block listed at all shows whether it is hidden: only a caller with `hideuser` is shown a hidden one.
    hidden: {
      bits: (b) => (b.hidden ? 1 : 0),
      shown: () => 1,
      withBits: (b, bits) => (Boolean(b.hidden) === (bits === 1) ? b : { ...b, hidden: bits === 1 }),
    },
    *users(b) {
      yield [b.by, b.byid];
      if (!b.automatic && b.user !== undefined && !isValid(b.user) && !isValidRange(b.user)) yield [b.user, b.userid];
    },
    derive: deriveBlock,
  },
  order: {
    key: (b) => key(b),
    continueValue: (b) => `${entityMw(b.timestamp)}|${b.id}`,
    continueTypes: ['timestamp', 'int'],
    backwards: 'older',
  },
  params: (profile) => ({
    start: { type: 'timestamp' },
    end: { type: 'timestamp' },
    dir: DIR_PARAM,
    // ApiQueryBlocks declares no minimum: 0 or -1 names no block (an empty list, no warning).
    ids: { type: 'integer', multi: true },
    users: { type: 'user', multi: true, kinds: ['name', 'ip', 'cidr'] },
    ip: { type: 'string' },
    limit: LIMIT_PARAM,
    prop: { type: 'enum', multi: true, values: propValues(profile.version), default: 'id|user|by|timestamp|expiry|reason|flags' },
    show: { type: 'enum', multi: true, values: SHOW },
    continue: { type: 'string' },
  }),
  execute(ctx, v) {
    requireMaxOneParameter(`query+${this.name}`, this.prefix, v, ['users', 'ip']);
    const limit = pv.num(v['limit']) ?? 10;
    const inOrder = blocksInOrder(ctx, v);
    const tests = blockTests(ctx, v);
    const rows: Block[] = [];
    for (const b of inOrder) if (tests.every((t) => t(b)) && rows.push(b) > limit) break;
    needWalkedWindow(ctx, this, rows, limit, pv.str(v['dir']), '', timeWindow(ctx, v, this.order));
    const { page, next } = takePage(rows, limit);
    const props = new Set(pv.list(v['prop']));
    for (const b of page) needProps(ctx, 'blocks', b, props);
    // Whether a block is an autoblock decides whether its target, user id and range are shown.
    if ((props.has('user') || props.has('userid') || props.has('range')) && page.some((b) => autoblock(b) === null)) ctx.unknown('blocks.user');
    // A fixture's block without its parsed reason: CommentFormatter::format without a title, which
    // only a reason with neither autocomment nor link is known to give (escaped, nothing else).
    // (one without its reason either is flagged already: needProps)
    if (props.has('parsedreason') && page.some((b) => b.parsedreason === undefined && (b.reason === undefined || formatUntitledComment(b.reason) === null))) ctx.unknown('blocks.parsedreason');
    // blockInfo reads the props, the version and (a block's duration, from 1.44 on) the user language.
    showRows(ctx, 'blocks', page, `${[...props].sort().join('|')} ${ctx.profile.version} ${ctx.userLang.code}`, (b, c) => blockInfo(c, b, props));
    return next ? { continueValue: this.order.continueValue(next) } : {};
  },
};

/** `bkprop` values for a version: 1.44 adds `parsedreason`. */
function propValues(version: string): string[] {
  return atLeast({ version }, '1.44') ? [...PROPS_139.slice(0, 8), 'parsedreason', ...PROPS_139.slice(8)] : PROPS_139;
}

const key = memoKey((b: Block) => [entityMw(b.timestamp), b.id] as const);

/**
 * The blocks a question may show, in its order, within its window (start, end, continue): read by
 * id (`bkids`), by target (`bkusers`) or along the order's index.
 */
function blocksInOrder(ctx: ApiContext, v: ParamValues): Iterable<Block> {
  const table = tableOf(ctx.model, blocks.entity);
  // Every block's expiry, and the target and flags any filter reads, decide which rows show.
  const read = ['id', 'timestamp', 'expiry', ...(v['users'] !== null || v['ip'] !== null || v['show'] !== null ? ['user', 'flags'] : [])];
  needPropsOfAll(ctx, 'blocks', table, read);
  const newer = v['dir'] === 'newer';
  const window = windowRange(ctx, v, ['timestamp', 'int']);
  // addWhereFld adds no condition for an empty list (`bkids=`, `bkusers=`): every block shows.
  const ids = pv.nums(v['ids']);
  const users = pv.list(v['users']);
  if (ids.length === 0 && users.length === 0) return table.range('order', window, !newer);
  const within = (prefix: IndexKey) => (bounds: readonly IndexKey[]) => [prefix, ...bounds.map((b) => [...prefix, ...b])];
  const found =
    ids.length > 0
      ? [...new Set(ids)].map((id) => table.get(String(id))).filter((b): b is Block => b !== undefined && inWindow(key(b), window))
      : [...new Set(users)].flatMap((u) => [...table.range('target', { from: within([u])(window.from), to: within([u])(window.to) }, false)]);
  return found.sort((a, b) => compareKeys(key(a), key(b)) * (newer ? 1 : -1));
}

/** Whether a key is within a range's bounds (each compared over its own parts). */
function inWindow(k: IndexKey, { from, to }: { from: readonly IndexKey[]; to: readonly IndexKey[] }): boolean {
  const part = (b: IndexKey) => compareKeys(k.slice(0, b.length), b);
  return from.every((b) => part(b) >= 0) && to.every((b) => part(b) <= 0);
}

/** The tests a block passes to be shown: not expired, not hidden from the caller, the filters'. */
function blockTests(ctx: ApiContext, v: ParamValues): ((b: Block) => boolean)[] {
  // Expired blocks never show; hidden ones only to a caller with `hideuser` (ApiQueryBlocks: ipb_deleted = 0 otherwise).
  const seesHidden = isAllowed(ctx.session.caller, 'hideuser');
  const tests: ((b: Block) => boolean)[] = [(b) => (seesHidden || !b.hidden) && (b.expiry === 'infinity' || Date.parse(b.expiry) > ctx.now)];
  const ids = pv.nums(v['ids']);
  if (ids.length > 0) tests.push((b) => ids.includes(b.id));
  const users = pv.list(v['users']);
  if (users.length > 0) tests.push((b) => b.user !== undefined && users.includes(b.user) && !b.automatic);
  const ip = pv.str(v['ip']);
  if (ip !== null) tests.push(ipTest(ip));
  const show = pv.list(v['show']);
  for (const [a, b] of [['account', '!account'], ['temp', '!temp'], ['ip', '!ip'], ['range', '!range']] as const) {
    if (show.includes(a) && show.includes(b)) {
      throw new ApiUsageError(apiMessage('show', 'apierror-show'));
    }
  }
  const modern = atLeast(ctx.profile, '1.43');
  for (const s of show) tests.push((b) => matchesShow(b, s, modern));
  return tests;
}

function kind(b: Block): 'account' | 'ip' | 'range' | 'auto' {
  if (b.automatic || b.user === undefined) return 'auto';
  if (isValidRange(b.user)) return 'range';
  if (isValid(b.user)) return 'ip';
  return 'account';
}

/**
 * One `bkshow` value. 1.39 tests ipb_user = 0 and compares ipb_range_start/end, which are '' for
 * accounts. 1.42+ keeps targets in block_target, where bt_user is NULL (not 0) for addresses and
 * bt_range_start/end are NULL except for ranges, so `ip` and `!account` match nothing there,
 * `!ip` means accounts and ranges, and `!range` nothing (ApiQueryBlocks::execute, 1.43).
 */
function matchesShow(b: Block, s: string, modern: boolean): boolean {
  const neg = s.startsWith('!');
  const what = neg ? s.slice(1) : s;
  const k = kind(b);
  if (what === 'temp') return (b.expiry !== 'infinity') !== neg;
  if (!modern) {
    const yes = what === k;
    return neg ? !yes : yes;
  }
  switch (s) {
    case 'account':
      return k === 'account';
    case '!ip':
      return k === 'account' || k === 'range';
    case 'range':
      return k === 'range';
    default: // ip, !account, !range
      return false;
  }
}

/** `bkip`: the blocks of addresses and ranges that cover an address or range (refused when too broad). */
function ipTest(ip: string): (b: Block) => boolean {
  const isRange = isValidRange(ip);
  if (!isValid(ip) && !isRange) throw new ApiUsageError(apiMessage('param_ip', 'apierror-badip'));
  if (isRange) {
    const v6 = ip.includes(':');
    const bits = Number(ip.slice(ip.indexOf('/') + 1));
    const limit = v6 ? CIDR_LIMIT.IPv6 : CIDR_LIMIT.IPv4;
    if (bits < limit) {
      throw new ApiUsageError(apiMessage('cidrtoobroad', 'apierror-cidrtoobroad', [v6 ? 'IPv6' : 'IPv4', limit]));
    }
  }
  const want = parseRange(ip);
  if (!want) return () => false;
  return (b) => {
    if (b.automatic || b.user === undefined) return false;
    const k = kind(b);
    if (k !== 'ip' && k !== 'range') return false;
    const have = parseRange(b.user);
    return have !== null && have.start.length === want.start.length && have.start <= want.start && have.end >= want.end;
  };
}

/**
 * What follows from a block's known props: the blocker's id from any answer that showed it, the
 * target's id (an address: 0), an address block's range from its target (an account block has
 * none), a sitewide block's empty restrictions.
 */
function deriveBlock(b: Block, ids: ReadonlyMap<string, number>): void {
  const k = b.known;
  if (!k) return;
  if (!k.includes('byid') && k.includes('by') && b.by !== undefined && ids.has(b.by)) {
    b.byid = ids.get(b.by)!;
    learnProp(b, 'byid');
  }
  const target = k.includes('user') || k.includes('flags') ? b.user : undefined;
  if (target !== undefined && !b.automatic) deriveUserId(b, 'userid', target, ids);
  if (!k.includes('range') && target !== undefined) {
    // An IP block's range is its target's; an account block has none (blockInfo prints each
    // version's form of "none").
    const range = isValid(target) || isValidRange(target) ? parseRange(target) : null;
    if (range) {
      b.rangestart = formatHex(range.start);
      b.rangeend = formatHex(range.end);
    }
    learnProp(b, 'range');
  }
  if (!k.includes('restrictions') && k.includes('flags') && b.partial === false) {
    b.restrictions = [];
    learnProp(b, 'restrictions');
  }
}

/** An address block's bounds: as recorded, else from its target (IPUtils::formatHex of the parsed range). */
function rangeOf(b: Block): { start: string; end: string } | null {
  if (b.rangestart !== undefined) return { start: b.rangestart, end: b.rangeend ?? b.rangestart };
  const r = b.user === undefined ? null : parseRange(b.user);
  return r ? { start: formatHex(r.start), end: formatHex(r.end) } : null;
}

/**
 * Whether a block is an autoblock (ApiQueryBlocks shows an autoblock's target, user id and range
 * not at all), as what is known of it tells: its `automatic` flag, else the absence of its target
 * or, shown without the target, of its user id; null when nothing known tells (a walk of
 * `bkprop=id|range`, say: its account blocks and autoblocks alike show no range from 1.43 on).
 */
function autoblock(b: Block): boolean | null {
  if (typeof b.automatic === 'boolean') return b.automatic;
  if (!b.known || b.known.includes('user')) return b.user === undefined;
  if (b.known.includes('userid')) return b.userid === undefined;
  return null;
}

function blockInfo(ctx: ApiContext, b: Block, props: Set<string>): JsonObject {
  const out: JsonObject = {};
  // (a block nothing known tells the kind of is flagged: execute)
  const auto = autoblock(b) ?? false;
  if (props.has('id')) out['id'] = b.id;
  if (props.has('user') && !auto && b.user !== undefined) out['user'] = b.user;
  // (a field the block leaves out is flagged, and left out: needProps)
  if (props.has('userid') && !auto) putField(out, 'userid', b.userid);
  if (props.has('by')) putField(out, 'by', b.by);
  if (props.has('byid')) putField(out, 'byid', b.byid);
  if (props.has('timestamp')) out['timestamp'] = b.timestamp;
  if (props.has('expiry')) {
    out['expiry'] = b.expiry;
    if (atLeast(ctx.profile, '1.44')) out['duration-l10n'] = formatBlockDuration(ctx.userLang, b.timestamp, b.expiry);
  }
  if (props.has('reason')) putField(out, 'reason', b.reason);
  if (props.has('parsedreason')) putField(out, 'parsedreason', b.parsedreason ?? (b.reason === undefined ? undefined : (formatUntitledComment(b.reason) ?? escapeHtmlAllowEntities(b.reason))));
  if (props.has('range') && !auto) {
    const k = kind(b);
    const range = rangeOf(b);
    // 1.42+ keeps bt_range_start/end for ranges only; 1.39 formats the empty bounds of account
    // blocks as 0.0.0.0. A block recorded with its range but not its target (`bkprop=id|range`)
    // shows the bounds its recording showed (none: not a range, on 1.43): kind() cannot tell.
    const targetKnown = b.user !== undefined || b.automatic === true;
    const shown = !targetKnown ? range : atLeast(ctx.profile, '1.43') ? (k === 'range' ? range : null) : k === 'account' ? { start: '0.0.0.0', end: '0.0.0.0' } : range;
    if (shown) {
      out['rangestart'] = shown.start;
      out['rangeend'] = shown.end;
    }
  }
  if (props.has('flags')) for (const f of FLAGS) putField(out, f, b[f]);
  if (props.has('restrictions')) putField(out, 'restrictions', b.restrictions as JsonObject | undefined);
  return out;
}

/**
 * ApiQueryBlocks' trace: its SELECT over `ipblocks` (1.39) or `block` and `block_target` (1.43),
 * unexpired rows only (the clock's now), then another reference to the connection.
 */
function blocksDebug({ profile, params, nowMw }: DebugInput): DebugFacts {
  const v143 = atLeast(profile, '1.43');
  const newer = params['bkdir'] === 'newer';
  const p = v143 ? 'bl' : 'ipb';
  const cont = continueCondition(profile, params['bkcontinue'], `${p}_timestamp`, `${p}_id`, newer);
  const order = newer ? `${p}_timestamp,${p}_id` : `${p}_timestamp DESC,${p}_id DESC`;
  const limit = sqlLimit(params, 'bklimit');
  const fn = `${apiClass(profile, 'ApiQueryBlocks')}::execute`;
  const sql = v143
    ? `SELECT  bt_auto,bl_id,bl_timestamp,bt_address,bt_user,COALESCE(bt_address, bt_user_text) AS "bt_address_or_user_name",actor_user,actor_name,bl_expiry,bl_anon_only,bl_create_account,bl_enable_autoblock,bl_block_email,bl_deleted,bl_allow_usertalk,bl_sitewide,comment_bl_reason.comment_text AS "bl_reason_text",comment_bl_reason.comment_data AS "bl_reason_data",comment_bl_reason.comment_id AS "bl_reason_cid"  FROM "block" JOIN "block_target" ON ((bt_id=bl_target)) LEFT JOIN "user" "block_target_user" ON ((user_id=bt_user)) JOIN "actor" ON ((actor_id=bl_by_actor)) JOIN "comment" "comment_bl_reason" ON ((comment_bl_reason.comment_id = bl_reason_id))   WHERE ${cont ? `${cont} AND ` : ''}bl_deleted = 0 AND ((SELECT  1  FROM "block_target" "hu_block_target" JOIN "block" "hu_block" ON ((hu_block.bl_target=hu_block_target.bt_id))   WHERE (hu_block_target.bt_user=block_target.bt_user) AND hu_block.bl_deleted = 1  ) IS NULL) AND (bl_expiry > '${nowMw}')  ORDER BY ${order} LIMIT ${limit}  `
    : `SELECT  ipb_auto,ipb_id,ipb_timestamp,ipb_address,ipb_user,actor_user,actor_name,ipb_expiry,ipb_anon_only,ipb_create_account,ipb_enable_autoblock,ipb_block_email,ipb_deleted,ipb_allow_usertalk,ipb_sitewide,comment_ipb_reason.comment_text AS "ipb_reason_text",comment_ipb_reason.comment_data AS "ipb_reason_data",comment_ipb_reason.comment_id AS "ipb_reason_cid"  FROM "ipblocks" JOIN "actor" ON ((actor_id=ipb_by_actor)) JOIN "comment" "comment_ipb_reason" ON ((comment_ipb_reason.comment_id = ipb_reason_id))   WHERE ${cont ? `${cont} AND ` : ''}ipb_deleted = 0 AND (ipb_expiry > '${nowMw}')  ORDER BY ${order} LIMIT ${limit}  `;
  const select = { query: { sql, function: fn, time: 0.001 } };
  if (!v143) return { includes: 'blocks', entries: [select, { reuse: true }] };
  return {
    includes: 'blocks',
    setup: ['[MessageCache] MessageCache using store SqlBagOStuff', 'MediaWiki\\Parser\\ParserFactory: using default preprocessor'],
    entries: [{ connect: true }, '[SQLBagOStuff] MicroStash using store SqlBagOStuff', select, { reuse: true }],
  };
}
