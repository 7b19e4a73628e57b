import type { ActionModule } from '../api/action-module.js';
import type { ApiContext } from '../api/context.js';
import { ApiUsageError, apiMessage } from '../api/errors.js';
import type { JsonObject } from '../api/result.js';
import { readParams } from '../api/param-reader.js';
import { pv } from '../api/param-spec.js';
import type { Account } from '../api/session.js';
import { message } from '../i18n/message.js';
import { getLanguage } from '../i18n/language.js';

/**
 * action=login, action=clientlogin and action=logout against replay's offline sessions, in the
 * shapes MediaWiki 1.39 and 1.43 give (checked against both): `NeedToken`, `WrongToken`,
 * `Failed`, `Success` (with the deprecation warning of a main-account `action=login`), PASS/FAIL.
 * Accounts and passwords come from fixtures; an account only known from recordings takes any
 * password, and the answer says so, in `X-Wikitape-Unknown: login.password` and in its body (a
 * `wikitape-unverifiedpassword` warning: a bot reading no header is told too).
 */

/** Which account a name logs in, and whether the password is right; null: the login fails. */
function authenticate(ctx: ApiContext, name: string, password: string): { account: Account; bot: string | null } | null {
  const at = name.indexOf('@');
  const user = normalizeName(at >= 0 ? name.slice(0, at) : name);
  const bot = at >= 0 ? name.slice(at + 1) : null;
  const account = user === null ? null : ctx.session.account(user);
  if (!account || (bot !== null && !account.hasBot(bot))) {
    // An account nobody recorded may still exist on the wiki, unless fixtures list them all.
    if (!ctx.session.accountsComplete) ctx.unknown('login.account');
    return null;
  }
  return account.accepts(password, bot) ? { account, bot } : null;
}

/**
 * A login that succeeded with a password nobody could check (an account known from recordings
 * only): said in the header and, for clients that read none, as a warning of the module.
 */
function sayUnverified(ctx: ApiContext, module: 'login' | 'clientlogin', account: Account): void {
  if (account.passwordKnown) return;
  ctx.unknown('login.password', 'said');
  ctx.addWarning(module, apiMessage('wikitape-unverifiedpassword', 'wikitape-unverifiedpassword', [account.name]));
}

/** A user name as MediaWiki normalises it for login: underscores to spaces, first letter upper-cased; null when empty. */
function normalizeName(name: string): string | null {
  const n = name.replace(/_/g, ' ').trim();
  return n === '' ? null : n.charAt(0).toUpperCase() + n.slice(1);
}

/** The English text of `wrongpassword` as action=login gives it (its newline becomes a space). */
function wrongPassword(version: string): string {
  return message(getLanguage('en', version), 'wrongpassword', []).replace(/\n/g, ' ');
}

export const login: ActionModule = {
  name: 'login',
  mustBePosted: true,
  params: () => ({
    name: { type: 'string' },
    password: { type: 'string' },
    domain: { type: 'string' },
    token: { type: 'string' },
  }),
  execute(ctx) {
    // (ApiMain::setupModule reads the module's parameters before it runs.)
    const v = readParams(ctx, { path: 'login', prefix: 'lg', name: 'login' }, login.params(ctx.profile), { setup: true });
    // ApiLogin::execute: no login where the same-origin policy does not hold (JSONP, origin=*,
    // Treat-as-Untrusted); the session stays as it was.
    if (ctx.session.credentialsStripped) {
      ctx.result.add('login', { result: 'Aborted', reason: message(getLanguage('en', ctx.profile.version), 'api-login-fail-sameorigin', []) });
      return v;
    }
    const out: JsonObject = {};
    ctx.result.add('login', out);
    const token = pv.str(v['token']);
    if (token === null) {
      // ApiBase::addDeprecation: the module's warning, then main's (each new module goes on top).
      ctx.addWarning('login', apiMessage('deprecation', 'apiwarn-deprecation-login-token'));
      ctx.addWarning('main', apiMessage('deprecation-help', 'api-usage-mailinglist-ref'));
      out['result'] = 'NeedToken';
      out['token'] = ctx.session.token('login');
      return v;
    }
    if (!ctx.session.tokenValid('login', token)) {
      out['result'] = 'WrongToken';
      return v;
    }
    const found = authenticate(ctx, pv.str(v['name']) ?? '', pv.str(v['password']) ?? '');
    if (!found) {
      out['result'] = 'Failed';
      out['reason'] = wrongPassword(ctx.profile.version);
      return v;
    }
    if (found.bot === null) {
      ctx.addWarning('login', apiMessage('deprecation', 'apiwarn-deprecation-login-botpw'));
      ctx.addWarning('main', apiMessage('deprecation-help', 'api-usage-mailinglist-ref'));
    }
    sayUnverified(ctx, 'login', found.account);
    ctx.session.login(found.account, found.bot, 'login');
    out['result'] = 'Success';
    const id = found.account.id;
    if (id === null) ctx.unknown('login.userid');
    out['lguserid'] = id ?? 0;
    out['lgusername'] = found.account.name;
    return v;
  },
};

export const clientlogin: ActionModule = {
  name: 'clientlogin',
  prefix: 'login',
  mustBePosted: true,
  needsToken: 'login',
  params: () => ({
    requests: { type: 'string', multi: true },
    messageformat: { type: 'enum', values: ['html', 'wikitext', 'raw', 'none'], default: 'wikitext' },
    mergerequestfields: { type: 'boolean' },
    preservestate: { type: 'boolean' },
    returnurl: { type: 'string' },
    continue: { type: 'boolean' },
    token: { type: 'string', required: true },
  }),
  execute(ctx) {
    const v = readParams(ctx, { path: 'clientlogin', prefix: 'login', name: 'clientlogin' }, clientlogin.params(ctx.profile), { setup: true });
    if (pv.str(v['returnurl']) === null && !pv.bool(v['continue'])) {
      throw new ApiUsageError(apiMessage('missingparam', 'apierror-missingparam-at-least-one-of', [{ list: ['<var>logincontinue</var>', '<var>loginreturnurl</var>'], type: 'text' }, 2]));
    }
    // The authentication fields are read by AuthManager, whatever they are named.
    const username = ctx.request.get('username') ?? '';
    const password = ctx.request.get('password') ?? '';
    const out: JsonObject = {};
    ctx.result.add('clientlogin', out);
    const found = authenticate(ctx, username, password);
    if (!found || found.bot !== null) {
      out['status'] = 'FAIL';
      out['message'] = message(ctx.userLang, 'wrongpassword', []);
      out['messagecode'] = 'wrongpassword';
      out['canpreservestate'] = false;
      return v;
    }
    sayUnverified(ctx, 'clientlogin', found.account);
    ctx.session.login(found.account, null, 'clientlogin');
    out['status'] = 'PASS';
    out['username'] = found.account.name;
    return v;
  },
};

export const logout: ActionModule = {
  name: 'logout',
  mustBePosted: true,
  needsToken: 'csrf',
  params: () => ({ token: { type: 'string', required: true } }),
  execute(ctx) {
    const v = readParams(ctx, { path: 'logout', prefix: '', name: 'logout' }, logout.params(ctx.profile), { setup: true });
    ctx.session.logout();
    return v;
  },
};
