import { pv } from '../api/param-spec.js';
import type { QueryModule } from '../api/query-module.js';
import type { JsonObject } from '../api/result.js';
import { atLeast } from '../wiki/profile.js';
import { USERINFO_ORDER, blockInfoFromList, userInfoFormKey, userInfoFromRecordings } from './recorded-meta-answer.js';
import type { DebugFacts, DebugInput } from '../api/debug.js';

const PROPS = ['blockinfo', 'hasmsg', 'rights', 'changeablegroups', 'options', 'editcount', 'ratelimits', 'theoreticalratelimits', 'email', 'realname', 'acceptlang', 'registrationdate', 'unreadcount', 'centralids', 'latestcontrib', 'cancreateaccount', 'groups', 'groupmemberships', 'implicitgroups'];
/** uiprop=cancreateaccount is 1.43's (1.39 warns about it as an unrecognized value, and `*` leaves it out). */
const PROPS_139 = PROPS.filter((p) => p !== 'cancreateaccount');

/**
 * The props MediaWiki's code, not a wiki's configuration, decides for every user with no account,
 * so no recording is needed (read in 1.39 and 1.43, checked on both live wikis): no explicit group
 * memberships, `*` its only implicit group (UserGroupManager::getUserImplicitGroups), an edit count
 * of 0 (UserEditTracker::getUserEditCount is null for id 0, ApiQueryUserInfo casts it to int) and
 * no `registrationdate` (User::getRegistration is false for anonymous users).
 */
const ANON_BY_RULE: ReadonlySet<string> = new Set(['groupmemberships', 'implicitgroups', 'editcount', 'registrationdate', 'acceptlang']);

/** WebRequest::getAcceptLang's pattern: a language code or `*`, then an optional `;q=` of 0.000 to 1.000 (PCRE's `\s` is ASCII). */
const ACCEPT_LANG = /([a-z]{1,8}(?:-[a-z]{1,8})*|\*)[ \t\n\v\f\r]*(?:;[ \t\n\v\f\r]*q[ \t\n\v\f\r]*=[ \t\n\v\f\r]*(1(?:\.0{0,3})?|0(?:\.\d{0,3})?)?)?/g;

/**
 * `uiprop=acceptlang`: the caller's own `Accept-Language` header as WebRequest::getAcceptLang
 * reads it (the same in 1.39 and 1.43), never a recording's (the recorder's client sent its own):
 * lower-cased, each code with its q (1 when none is given; q=0 leaves it out, a code given again
 * keeps its first place with its last q), sorted by q, highest first, ties in the order given.
 */
function acceptLang(header: string | undefined): JsonObject[] {
  if (!header) return [];
  const langs = new Map<string, number>();
  for (const m of header.replace(/[A-Z]/g, (c) => c.toLowerCase()).matchAll(ACCEPT_LANG)) {
    const q = m[2] === undefined ? 1 : Number.parseFloat(m[2]);
    if (q) langs.set(m[1]!, q);
  }
  return [...langs].sort((a, b) => b[1] - a[1]).map(([code, q]) => ({ q, code }));
}

/** The props the built-in wiki answers for an anonymous caller (blockinfo: from the fixture's blocks), those MediaWiki's code decides among them. */
const BUILT: ReadonlySet<string> = new Set(['blockinfo', 'hasmsg', 'groups', 'rights', 'changeablegroups', ...ANON_BY_RULE]);

/**
 * meta=userinfo for the anonymous callers wikitape serves: the wiki names them by their address
 * (127.0.0.1 on loopback). Clients such as mwclient and pywikibot add it to every query.
 */
export const userinfo: QueryModule = {
  name: 'userinfo',
  prefix: 'ui',
  group: 'meta',
  cacheMode: 'private',
  debug: userinfoDebug,
  key: { sets: ['uiprop'] },
  params: (profile) => ({
    prop: { type: 'enum', multi: true, values: atLeast(profile, '1.43') ? PROPS : PROPS_139, allowAll: true },
    attachedwiki: { type: 'string' },
  }),
  execute(ctx, v) {
    const props = new Set(pv.list(v['prop']));
    const caller = ctx.session.caller;
    if (!caller.anon) {
      // A session logged in offline: what the user's recordings (or a fixture) say of them; the rest is flagged.
      // (an account a fixture declares without its id: flagged, as login's `lguserid` is)
      if (caller.id === null) ctx.unknown('userinfo.id');
      const info: JsonObject = { id: caller.id ?? 0, name: caller.name };
      for (const p of USERINFO_ORDER) {
        if (!props.has(p)) continue;
        // (a prop said in the request's language or error format only as recorded in the same form)
        const recorded = caller.userinfo?.get(p) ?? caller.userinfo?.get(userInfoFormKey(p, (name) => ctx.request.raw(name)));
        if (p === 'acceptlang') info['acceptlang'] = acceptLang(ctx.request.http.acceptLanguage);
        else if (recorded) Object.assign(info, recorded);
        else if (p === 'groups' && caller.groups) info['groups'] = [...caller.groups];
        else if (p === 'rights' && caller.rights) info['rights'] = [...caller.rights];
        else ctx.unknown(`userinfo.${p}`);
      }
      ctx.result.query()['userinfo'] = info;
      return {};
    }
    const info: JsonObject = { id: 0, name: '127.0.0.1', anon: true };
    // ApiQueryUserInfo::getCurrentUserInfo, in its order, for a user with no account.
    if (props.has('hasmsg')) info['messages'] = false;
    if (props.has('groups')) info['groups'] = ['*'];
    if (props.has('groupmemberships')) info['groupmemberships'] = [];
    if (props.has('implicitgroups')) info['implicitgroups'] = ['*'];
    // The rights of group `*` on a default install (read from real 1.39 and 1.43 wikis: 1.43 has no
    // `writeapi`, and its watchlist rights belong to `user`).
    if (props.has('rights')) {
      info['rights'] = atLeast(ctx.profile, '1.43')
        ? ['createaccount', 'read', 'edit', 'createpage', 'createtalk', 'viewmyprivateinfo', 'editmyprivateinfo', 'editmyoptions']
        : ['createaccount', 'read', 'edit', 'createpage', 'createtalk', 'writeapi', 'viewmywatchlist', 'editmywatchlist', 'viewmyprivateinfo', 'editmyprivateinfo', 'editmyoptions'];
    }
    if (props.has('changeablegroups')) info['changeablegroups'] = { add: [], remove: [], 'add-self': [], 'remove-self': [] };
    if (props.has('editcount')) info['editcount'] = 0;
    if (props.has('acceptlang')) info['acceptlang'] = acceptLang(ctx.request.http.acceptLanguage);
    // A replayed wiki: what its recorded answers showed (every prop nobody recorded is flagged).
    const recorded = userInfoFromRecordings(ctx, [...props], info, ANON_BY_RULE);
    if (!recorded) {
      // The built-in wiki: a block covering the caller, or the wiki's configuration (options, rate
      // limits …), would show in what it does not make: flagged.
      if (props.has('blockinfo') && blockInfoFromList(ctx) === undefined) ctx.unknown('userinfo.blockinfo');
      for (const p of props) if (!BUILT.has(p)) ctx.unknown(`userinfo.${p}`);
    }
    const shown = recorded ?? info;
    // The caller's header, whatever a recording of the recorder's client showed.
    if ('acceptlang' in shown) shown['acceptlang'] = info['acceptlang']!;
    // Nobody in a bot-password session: only the rights the bot password's grants allow, and what
    // they decide: the email only with `viewmyprivateinfo` (ApiQueryUserInfo::getCurrentUserInfo).
    const allowed = caller.allowedRights;
    if (allowed !== undefined && Array.isArray(shown['rights'])) {
      if (allowed === null) ctx.unknown('userinfo.rights');
      else shown['rights'] = shown['rights'].filter((r) => typeof r === 'string' && allowed.includes(r));
    }
    // `cancreateaccount` needs `createaccount` among them; where it is not, MediaWiki's error names
    // the groups that have it, in the group pages' and members' names, which no recording holds.
    const can = shown['cancreateaccount'];
    if (allowed !== undefined && can !== undefined && can !== false && !allowed?.includes('createaccount')) ctx.unknown('userinfo.cancreateaccount');
    if (allowed !== undefined && props.has('email')) {
      if (allowed === null) ctx.unknown('userinfo.email');
      else if (!allowed.includes('viewmyprivateinfo')) {
        delete shown['email'];
        delete shown['emailauthenticated'];
      }
    }
    ctx.result.query()['userinfo'] = shown;
    return {};
  },
};

/** ApiQueryUserInfo's trace for an anonymous caller: the object stash (and, in 1.43, the services it builds); no query. */
function userinfoDebug({ profile }: DebugInput): DebugFacts {
  const entries = ['[SQLBagOStuff] MainObjectStash using store SqlBagOStuff'];
  if (atLeast(profile, '1.43')) entries.push('[MessageCache] MessageCache using store SqlBagOStuff', 'MediaWiki\\Parser\\ParserFactory: using default preprocessor', '[SQLBagOStuff] MicroStash using store SqlBagOStuff');
  return { includes: 'userinfo', entries };
}
