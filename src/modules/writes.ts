import { PAGES, entitiesOf, pageById } from '../wiki/model.js';
import type { ActionModule } from '../api/action-module.js';
import type { ApiContext } from '../api/context.js';
import { ApiUsageError, apiMessage } from '../api/errors.js';
import type { JsonObject } from '../api/result.js';
import { readParams } from '../api/param-reader.js';
import { pv, type ParamSpec, type ParamValues } from '../api/param-spec.js';
import type { TokenType } from '../api/session.js';
import { escapeWikiText } from '../util/escape.js';
import { isSecretParam } from '../util/secrets.js';
import { toIso } from '../util/timestamp.js';
import { parseTitle } from '../wiki/title.js';
import { contentModelOf } from '../wiki/content-model.js';
import { atLeast } from '../wiki/profile.js';

/**
 * Write actions in replay: checked as MediaWiki checks them (POST, the token, `assert`, the
 * parameters each module requires, the right it needs), answered in the module's success shape,
 * and kept in the write log (`server.writes()`); nothing recorded changes. What a real write
 * would have produced that replay cannot know (page and revision ids, log ids, whether the text
 * changed) is named in `X-Wikitape-Unknown` as `<action>.result`, and in the body too (a warning
 * `wikitape-unknown` naming what is made up): bots read warnings, not headers.
 */

interface WriteSpec {
  name: string;
  token?: TokenType;
  /** The right the caller needs. */
  right: string;
  params: Record<string, ParamSpec>;
  /** Parameters of which exactly one is required (requireOnlyOneParameter), in order. */
  oneOf?: readonly string[];
  /** Builds the module's success result from its values and the target title. */
  result(ctx: ApiContext, v: ParamValues, title: string | null): JsonObject;
  /** What of that result replay cannot know (the body's warning says it: "it cannot know …"). */
  madeUp: string;
}

const reason = { reason: { type: 'string' } } as const;
const target = { title: { type: 'string' }, pageid: { type: 'integer' } } as const;

/** The title a write names (by `title` or `pageid`), as MediaWiki normalises it. */
function targetTitle(ctx: ApiContext, v: ParamValues, param = 'title'): string | null {
  const raw = pv.str(v[param]);
  if (raw !== null) {
    const t = parseTitle(raw, ctx.titles);
    if (!t.ok) throw new ApiUsageError(apiMessage('invalidtitle', 'apierror-invalidtitle', [escapeWikiText(raw, atLeast(ctx.profile, '1.43'))]));
    return t.title.prefixedText;
  }
  const id = pv.num(v['pageid']);
  if (id === null) return null;
  const page = pageById(ctx.model, id);
  if (!page) ctx.unknown(`${param}.pageid`);
  return page?.title ?? null;
}

/** ApiEditPage's content model: the page's (or its title's default), as contentModelOf gives it. */
function modelOfTitle(ctx: ApiContext, title: string | null): string {
  const t = title === null ? null : parseTitle(title, ctx.titles);
  return t?.ok ? contentModelOf(ctx.model, t.title) : 'wikitext';
}

function pageIdOf(ctx: ApiContext, title: string | null): number {
  return entitiesOf(ctx.model, PAGES).find((p) => p.title === title)?.pageid ?? 0;
}

const now = (ctx: ApiContext): string => toIso(ctx.now);

const SPECS: WriteSpec[] = [
  {
    name: 'edit',
    madeUp: "whether the text differs from the page's current text (a wiki answers nochange, with no new revision, when it does not), nor the ids of the page's revisions (oldrevid, newrevid)",
    right: 'edit',
    params: { ...target, section: { type: 'string' }, sectiontitle: { type: 'string' }, text: { type: 'string' }, summary: { type: 'string' }, tags: { type: 'string', multi: true }, minor: { type: 'boolean' }, notminor: { type: 'boolean' }, bot: { type: 'boolean' }, baserevid: { type: 'integer' }, basetimestamp: { type: 'timestamp' }, starttimestamp: { type: 'timestamp' }, recreate: { type: 'boolean' }, createonly: { type: 'boolean' }, nocreate: { type: 'boolean' }, watchlist: { type: 'string' }, md5: { type: 'string' }, prependtext: { type: 'string' }, appendtext: { type: 'string' }, undo: { type: 'integer' }, undoafter: { type: 'integer' }, redirect: { type: 'boolean' }, contentformat: { type: 'string' }, contentmodel: { type: 'string' }, captchaword: { type: 'string' }, captchaid: { type: 'string' } },
    oneOf: ['title', 'pageid'],
    result: (ctx, v, title) => ({ result: 'Success', pageid: pageIdOf(ctx, title), title, contentmodel: pv.str(v['contentmodel']) ?? modelOfTitle(ctx, title), oldrevid: 0, newrevid: 0, newtimestamp: now(ctx) }),
  },
  {
    name: 'move',
    madeUp: 'what the move finds and makes (whether the target is a redirect it moves over, the redirect left behind, the talk page and subpages moved)',
    right: 'move',
    params: { from: { type: 'string' }, fromid: { type: 'integer' }, to: { type: 'string', required: true }, ...reason, movetalk: { type: 'boolean' }, movesubpages: { type: 'boolean' }, noredirect: { type: 'boolean' }, watchlist: { type: 'string' }, ignorewarnings: { type: 'boolean' }, tags: { type: 'string', multi: true } },
    oneOf: ['from', 'fromid'],
    result: (ctx, v, title) => {
      const to = parseTitle(pv.str(v['to']) ?? '', ctx.titles);
      if (!to.ok) throw new ApiUsageError(apiMessage('invalidtitle', 'apierror-invalidtitle', [escapeWikiText(pv.str(v['to']) ?? '', atLeast(ctx.profile, '1.43'))]));
      return { from: title, to: to.title.prefixedText, reason: pv.str(v['reason']) ?? '', redirectcreated: !pv.bool(v['noredirect']), moveoverredirect: false };
    },
  },
  {
    name: 'delete',
    madeUp: "the id of the deletion's log entry (logid)",
    right: 'delete',
    params: { ...target, ...reason, tags: { type: 'string', multi: true }, watchlist: { type: 'string' }, oldimage: { type: 'string' } },
    oneOf: ['title', 'pageid'],
    result: (_ctx, v, title) => ({ title, reason: pv.str(v['reason']) ?? '', logid: 0 }),
  },
  {
    name: 'undelete',
    madeUp: 'how many revisions and file versions it restores (revisions, fileversions)',
    right: 'undelete',
    params: { title: { type: 'string', required: true }, ...reason, tags: { type: 'string', multi: true }, timestamps: { type: 'string', multi: true }, fileids: { type: 'string', multi: true }, undeletetalk: { type: 'boolean' }, watchlist: { type: 'string' } },
    result: (_ctx, v, title) => ({ title, revisions: 0, fileversions: 0, reason: pv.str(v['reason']) ?? '' }),
  },
  {
    name: 'protect',
    madeUp: 'the protections the wiki stores (levels and expiries as it normalises them, cascading)',
    right: 'protect',
    params: { ...target, protections: { type: 'string', multi: true, required: true }, expiry: { type: 'string', multi: true, default: 'infinite' }, ...reason, tags: { type: 'string', multi: true }, cascade: { type: 'boolean' }, watchlist: { type: 'string' } },
    oneOf: ['title', 'pageid'],
    result: (_ctx, v, title) => {
      const expiry = pv.list(v['expiry']);
      const protections = pv.list(v['protections']).map((p, i) => {
        const [type, level] = p.split('=');
        return { [type ?? '']: level ?? '', expiry: expiry[i] ?? expiry[0] ?? 'infinite' };
      });
      return { title, reason: pv.str(v['reason']) ?? '', protections };
    },
  },
  {
    name: 'block',
    madeUp: 'the ids of the block and of the user (id, userID) nor the expiry as the wiki stores it',
    right: 'block',
    params: { user: { type: 'string' }, userid: { type: 'integer' }, expiry: { type: 'string', default: 'never' }, ...reason, anononly: { type: 'boolean' }, nocreate: { type: 'boolean' }, autoblock: { type: 'boolean' }, noemail: { type: 'boolean' }, hidename: { type: 'boolean' }, allowusertalk: { type: 'boolean' }, reblock: { type: 'boolean' }, watchuser: { type: 'boolean' }, tags: { type: 'string', multi: true }, partial: { type: 'boolean' }, pagerestrictions: { type: 'string', multi: true }, namespacerestrictions: { type: 'string', multi: true } },
    oneOf: ['user', 'userid'],
    result: (_ctx, v) => ({ user: pv.str(v['user']) ?? '', userID: pv.num(v['userid']) ?? 0, expiry: pv.str(v['expiry']) === 'never' || pv.str(v['expiry']) === 'infinite' ? 'infinite' : pv.str(v['expiry']), id: 0, reason: pv.str(v['reason']) ?? '' }),
  },
  {
    name: 'unblock',
    madeUp: 'the block lifted and its user (id, user, userid)',
    right: 'block',
    params: { id: { type: 'integer' }, user: { type: 'string' }, userid: { type: 'integer' }, ...reason, tags: { type: 'string', multi: true }, watchuser: { type: 'boolean' } },
    oneOf: ['id', 'user', 'userid'],
    result: (_ctx, v) => ({ id: pv.num(v['id']) ?? 0, user: pv.str(v['user']) ?? '', userid: pv.num(v['userid']) ?? 0, reason: pv.str(v['reason']) ?? '' }),
  },
  {
    name: 'upload',
    madeUp: 'the file the wiki stores (its name, description page, and the warnings about duplicates or an existing file)',
    right: 'upload',
    params: { filename: { type: 'string' }, comment: { type: 'string' }, text: { type: 'string' }, tags: { type: 'string', multi: true }, watchlist: { type: 'string' }, ignorewarnings: { type: 'boolean' }, file: { type: 'string' }, url: { type: 'string' }, filekey: { type: 'string' }, stash: { type: 'boolean' }, filesize: { type: 'integer' }, offset: { type: 'integer' }, chunk: { type: 'string' }, async: { type: 'boolean' }, checkstatus: { type: 'boolean' } },
    oneOf: ['filename'],
    result: (_ctx, v) => ({ result: 'Success', filename: pv.str(v['filename']) ?? '' }),
  },
  {
    name: 'rollback',
    madeUp: 'the revisions it reverts and makes (revid, old_revid, last_revid)',
    token: 'rollback',
    right: 'rollback',
    params: { ...target, user: { type: 'string', required: true }, summary: { type: 'string' }, markbot: { type: 'boolean' }, tags: { type: 'string', multi: true }, watchlist: { type: 'string' } },
    oneOf: ['title', 'pageid'],
    result: (ctx, v, title) => ({ title, pageid: pageIdOf(ctx, title), summary: pv.str(v['summary']) ?? '', revid: 0, old_revid: 0, last_revid: 0 }),
  },
];

/** requireOnlyOneParameter: exactly one of them (the message lists them all). */
function requireOne(v: ParamValues, names: readonly string[]): void {
  const given = names.filter((n) => v[n] !== null && v[n] !== undefined && v[n] !== false);
  if (given.length === 1) return;
  const list = { list: names.map((n) => `<var>${n}</var>`), type: 'text' as const };
  if (given.length === 0) throw new ApiUsageError(apiMessage('missingparam', names.length === 1 ? 'apierror-missingparam' : 'apierror-missingparam-one-of', names.length === 1 ? [names[0]!] : [list, names.length]));
  throw new ApiUsageError(apiMessage('invalidparammix', 'apierror-invalidparammix', [{ list: given.map((n) => `<var>${n}</var>`), type: 'text' }, given.length]));
}

function writeModule(spec: WriteSpec): ActionModule {
  const params = (): Record<string, ParamSpec> => ({ ...spec.params, token: { type: 'string', required: true } });
  return {
    name: spec.name,
    mustBePosted: true,
    writeMode: true,
    needsToken: spec.token ?? 'csrf',
    params,
    execute(ctx) {
      const v = readParams(ctx, { path: spec.name, prefix: '', name: spec.name }, params(), { setup: true });
      if (spec.oneOf) requireOne(v, spec.oneOf);
      const title = spec.oneOf?.includes('title') || spec.oneOf?.includes('from') ? targetTitle(ctx, v, spec.oneOf[0]) : pv.str(v['title']);
      const rights = ctx.session.caller.rights;
      if (rights !== null && !rights.includes(spec.right)) {
        // The wiki names the groups that have the right (its own configuration): the code is known, its text is not.
        ctx.unknown('permissions.message');
        throw new ApiUsageError(apiMessage('permissiondenied', 'apierror-permissiondenied-generic'));
      }
      const result = spec.result(ctx, v, title);
      ctx.unknown(`${spec.name}.result`);
      // Said in the body as well: a bot that ignores headers still logs the API's warnings.
      ctx.addWarning(spec.name, apiMessage('wikitape-unknown', 'wikitape-write-unknown', [spec.name, spec.madeUp]));
      ctx.result.add(spec.name, result);
      const sent: Record<string, string> = {};
      for (const [k, value] of ctx.request.params) if (!isSecretParam(k) && k !== 'format' && k !== 'formatversion' && k !== 'action') sent[k] = value;
      ctx.session.write({ action: spec.name, params: sent, result });
      return v;
    },
  };
}

/** The write modules replay answers (checked, logged, never applied). */
export const WRITES: readonly ActionModule[] = SPECS.map(writeModule);
