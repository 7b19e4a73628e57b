import type { ApiContext } from '../api/context.js';
import type { JsonObject } from '../api/result.js';
import { toIso } from '../util/timestamp.js';
import { isValid, parseRange } from '../util/ip.js';
import { tableOf } from '../wiki/model.js';
import { blocks } from './blocks.js';

/** Which uiprop shows each field of ApiQueryUserInfo::getCurrentUserInfo. */
export const USERINFO_FIELD_PROP: Readonly<Record<string, string>> = {
  blockid: 'blockinfo', blockedby: 'blockinfo', blockedbyid: 'blockinfo', blockreason: 'blockinfo', blockedtimestamp: 'blockinfo',
  blockexpiry: 'blockinfo', blockpartial: 'blockinfo', blocknocreate: 'blockinfo', blockanononly: 'blockinfo', blockemail: 'blockinfo',
  blockowntalk: 'blockinfo', blockcomponents: 'blockinfo', blockedtimestampformatted: 'blockinfo', blockexpiryformatted: 'blockinfo',
  blockexpiryrelative: 'blockinfo',
  messages: 'hasmsg', groups: 'groups', groupmemberships: 'groupmemberships', implicitgroups: 'implicitgroups', rights: 'rights',
  changeablegroups: 'changeablegroups', options: 'options', editcount: 'editcount', ratelimits: 'ratelimits',
  theoreticalratelimits: 'theoreticalratelimits', email: 'email', emailauthenticated: 'email', realname: 'realname',
  acceptlang: 'acceptlang', registrationdate: 'registrationdate', unreadcount: 'unreadcount', centralids: 'centralids',
  attachedlocal: 'centralids', attachedwiki: 'centralids', latestcontrib: 'latestcontrib', cancreateaccount: 'cancreateaccount',
  cancreateaccounterror: 'cancreateaccount',
};
/** Fields MediaWiki writes in the request's language or error format (ApiErrorFormatter::arrayFromStatus, Language::formatExpiry …). */
export const SAID_IN_FORM: ReadonlySet<string> = new Set(['cancreateaccounterror', 'blockedtimestampformatted', 'blockexpiryformatted', 'blockexpiryrelative']);

/** The key a userinfo prop said in a request's form is kept under: the error format and languages as the request gives them. */
export function userInfoFormKey(prop: string, param: (name: string) => string | undefined): string {
  return `${prop}?errorformat=${param('errorformat') ?? 'bc'}&uselang=${param('uselang') ?? 'user'}&errorlang=${param('errorlang') ?? 'uselang'}`;
}

/** ApiQueryUserInfo::getCurrentUserInfo's order of props. */
export const USERINFO_ORDER = ['blockinfo', 'hasmsg', 'groups', 'groupmemberships', 'implicitgroups', 'rights', 'changeablegroups', 'options', 'editcount', 'ratelimits', 'theoreticalratelimits', 'realname', 'email', 'registrationdate', 'acceptlang', 'unreadcount', 'centralids', 'latestcontrib', 'cancreateaccount'];

/** The address the wiki sees for a caller on loopback, which names anonymous users. */
const CALLER = '127.0.0.1';

/**
 * `meta=userinfo` on a replayed wiki: every prop from what a recorded answer showed (a wiki's
 * rights and groups are its own configuration, never a default install's). `blockinfo` also
 * follows from a complete walk of the blocks list (no block covers the caller: no block fields).
 * Returns null when the model is not learned from recordings (the built-in answers); flags
 * each prop nobody recorded but those in `byRule`, which MediaWiki's code decides (the
 * built-in's value is then exact).
 */
export function userInfoFromRecordings(ctx: ApiContext, props: readonly string[], builtin: JsonObject, byRule: ReadonlySet<string>): JsonObject | null {
  const k = ctx.knows;
  if (!k) return null;
  const recorded = k.meta.get('userinfo') ?? new Map<string, Record<string, unknown>>();
  const base = recorded.get('') as JsonObject | undefined;
  const info: JsonObject = base ? { ...base } : { id: builtin['id']!, name: builtin['name']!, anon: builtin['anon']! };
  for (const p of USERINFO_ORDER) {
    if (!props.includes(p)) continue;
    // (a prop said in the request's language or error format only as recorded in the same form)
    const fields = recorded.get(p) ?? recorded.get(userInfoFormKey(p, (name) => ctx.request.raw(name))) ?? (p === 'blockinfo' ? blockInfoFromList(ctx) : undefined);
    if (fields !== undefined) {
      Object.assign(info, fields);
      continue;
    }
    // Nobody recorded it: the built-in's value, flagged unless the code decides it.
    if (!byRule.has(p)) ctx.unknown(`userinfo.${p}`);
    for (const [f, v] of Object.entries(builtin)) if (USERINFO_FIELD_PROP[f] === p) info[f] = v;
  }
  return info;
}

/**
 * No block fields when the complete blocks list (a fixture's is complete) has no active block
 * covering the caller; else unknown.
 */
export function blockInfoFromList(ctx: ApiContext): Record<string, unknown> | undefined {
  if (ctx.knows && !ctx.knows.walks.get(blocks.name)?.has('')) return undefined;
  const me = parseRange(CALLER)!;
  // Read along the table (a database's rows one by one), not the whole kind into memory.
  for (const b of tableOf(ctx.model, blocks.entity).range('order', {}, false)) {
    if (b.user === undefined || b.automatic || !(b.expiry === 'infinity' || Date.parse(b.expiry) > ctx.now)) continue;
    const r = isValid(b.user) || b.user.includes('/') ? parseRange(b.user) : null;
    if (r !== null && r.start.length === me.start.length && r.start <= me.start && r.end >= me.end) return undefined;
  }
  return {};
}

/** The siteinfo parameters that change a part (without their `si` prefix): `showalldb` and `numberingroup` count by presence. */
export interface SiteinfoModifiers {
  filteriw?: string | null;
  showalldb?: boolean;
  numberingroup?: boolean;
  inlanguagecode?: string | null;
}

/**
 * Which modifiers change which part (ApiQuerySiteinfo): the interwiki map is filtered by
 * `filteriw` and names its languages in `inlanguagecode`, as do `languages` and `skins`;
 * `showalldb` lists every replica's lag, `numberingroup` counts each group's members.
 */
const PART_MODIFIERS: Readonly<Record<string, readonly (keyof SiteinfoModifiers)[]>> = {
  interwikimap: ['filteriw', 'inlanguagecode'], dbrepllag: ['showalldb'], usergroups: ['numberingroup'], languages: ['inlanguagecode'], skins: ['inlanguagecode'],
};

/** The key a recorded siteinfo part is kept under: the prop, and each modifier of that part the question gave (`interwikimap?filteriw=local`). */
export function siteinfoPartKey(prop: string, m: SiteinfoModifiers): string {
  const given = (PART_MODIFIERS[prop] ?? []).flatMap((name) => {
    const v = m[name];
    // An empty inlanguagecode is no code (ApiQuerySiteinfo reads `?? ''`, then `if ( $code … )`).
    return v === true ? [name] : typeof v === 'string' && v !== '' ? [`${name}=${v}`] : [];
  });
  return given.length === 0 ? prop : `${prop}?${given.join('&')}`;
}

/**
 * `meta=siteinfo` on a replayed wiki: each requested part as a recorded answer with the same
 * modifiers showed it (`general.time` is the clock's); a filtered interwiki map is also read from
 * the unfiltered one (each entry says whether it is `local`). Null when the model is not learned
 * from recordings; flags each part nobody recorded.
 */
export function siteInfoFromRecordings(ctx: ApiContext, props: readonly string[], m: SiteinfoModifiers = {}): JsonObject | null {
  const k = ctx.knows;
  if (!k) return null;
  const recorded = k.meta.get('siteinfo') ?? new Map<string, Record<string, unknown>>();
  const out: JsonObject = {};
  for (const p of props) {
    const part = recorded.get(siteinfoPartKey(p, m))?.[p] ?? (p === 'interwikimap' ? filteredInterwikis(recorded, m) : undefined);
    if (part === undefined) {
      ctx.unknown(`siteinfo.${p}`);
      continue;
    }
    const value = part as JsonObject;
    out[p] = p === 'general' && typeof value['time'] === 'string' ? { ...value, time: toIso(ctx.now) } : value;
  }
  return out;
}

/** `sifilteriw=local` / `!local` of a recorded unfiltered interwiki map (InterwikiLookup::getAllPrefixes by iw_local). */
function filteredInterwikis(recorded: ReadonlyMap<string, Record<string, unknown>>, m: SiteinfoModifiers): JsonObject[] | undefined {
  if (m.filteriw !== 'local' && m.filteriw !== '!local') return undefined;
  const all = recorded.get(siteinfoPartKey('interwikimap', { ...m, filteriw: null }))?.['interwikimap'];
  if (!Array.isArray(all)) return undefined;
  const local = m.filteriw === 'local';
  return (all as JsonObject[]).filter((e) => (e['local'] === true) === local);
}
