import { randomBytes } from 'node:crypto';
import type { ApiFaultHook, FaultFacts, FaultStage } from '../api/fault-hook.js';
import { apiMessage, ApiUsageError } from '../api/errors.js';
import { atLeast } from '../wiki/profile.js';
import type { ApiFaultName, ArmedFault } from './spec.js';

/**
 * The faults MediaWiki's API itself gives, each raised where ApiMain raises it (see
 * api/fault-hook.ts), so that what fails before it (a bad format, a missing token) still fails
 * first. Texts, codes, data and headers as MediaWiki 1.39 and 1.43 give them (checked against
 * their source and against live wikis configured to fail: test/live/faults.test.ts).
 */
const STAGE: Record<ApiFaultName, FaultStage> = {
  assertuserfailed: 'asserts',
  assertbotfailed: 'asserts',
  badtoken: 'token',
  readonly: 'permissions',
  maxlag: 'maxlag',
  ratelimited: 'execute',
  internal_api_error: 'execute',
};

/** Modules MediaWiki rate-limits by default ($wgRateLimits: edit, move, upload, rollback). */
const RATE_LIMITED = new Set(['edit', 'move', 'upload', 'rollback']);

/** The hook for one request: its faults, tried in order at each stage. */
export function apiFaultHook(faults: readonly ArmedFault[], params: ReadonlyMap<string, string>): ApiFaultHook | undefined {
  const api = faults.filter((f) => f.spec.name in STAGE);
  if (api.length === 0) return undefined;
  return (stage, facts) => {
    for (const f of api) {
      const name = f.spec.name as ApiFaultName;
      if (STAGE[name] !== stage || !applies(name, f, facts) || !f.matches(params) || !f.fires()) continue;
      return { error: errorOf(name, f, facts), fault: f.spec.header };
    }
    return null;
  };
}

/** Whether a fault can hit this request at all (only such requests count for first=N and rate). */
function applies(name: ApiFaultName, f: ArmedFault, facts: FaultFacts): boolean {
  const { action, profile } = facts;
  switch (name) {
    case 'maxlag':
      return facts.maxlag !== null && lagOf(f, facts.maxlag) > facts.maxlag;
    case 'readonly':
      // ApiBase::isWriteMode: the writes, and logging in (in 1.43 logging out too). The login
      // modules are named here rather than marked writeMode: that flag also runs 1.39's writeapi
      // check, which would refuse logins of recordings whose anonymous rights lack writeapi.
      return action.writeMode === true || action.name === 'login' || action.name === 'clientlogin' || (action.name === 'logout' && atLeast(profile, '1.43'));
    case 'ratelimited':
      return RATE_LIMITED.has(action.name);
    case 'badtoken':
      return action.needsToken !== undefined;
    case 'assertuserfailed':
      return facts.assert === 'user';
    case 'assertbotfailed':
      return facts.assert === 'bot';
    case 'internal_api_error':
      return true;
  }
}

/** The lag a maxlag fault reports: `lag=`, else one second more than the request allows. */
function lagOf(f: ArmedFault, maxlag: number): number {
  const lag = f.spec.options['lag'];
  return lag === undefined ? Math.max(maxlag, 0) + 1 : Number(lag);
}

function errorOf(name: ApiFaultName, f: ArmedFault, facts: FaultFacts): ApiUsageError {
  const o = f.spec.options;
  const { action, profile } = facts;
  switch (name) {
    case 'maxlag': {
      // ApiMain::checkMaxLag ($wgShowHostnames off): the generic text; host, lag and type as data.
      const lag = lagOf(f, facts.maxlag!);
      const host = o['host'] ?? 'localhost';
      return new ApiUsageError(apiMessage('maxlag', 'apierror-maxlag-generic', [lag], { host, lag, type: 'db' }), 'main', {
        headers: { 'Retry-After': String(Math.max(Math.trunc(facts.maxlag!), 5)), 'X-Database-Lag': String(Math.trunc(lag)) },
      });
    }
    case 'readonly':
      // ApiBase::dieReadOnly: the reason ($wgReadOnly) as data.
      return new ApiUsageError(apiMessage('readonly', 'apierror-readonly', [], { readonlyreason: o['reason'] ?? 'The wiki is read-only (wikitape fault readonly).' }));
    case 'ratelimited': {
      // 1.39: an edit (and a rollback) fails with EditPage's (WikiPage's) actionthrottledtext; 1.43
      // maps that to apierror-ratelimited, as the other modules always did.
      const old = !atLeast(profile, '1.43') && (action.name === 'edit' || action.name === 'rollback');
      return new ApiUsageError(apiMessage('ratelimited', old ? 'actionthrottledtext' : 'apierror-ratelimited'), action.name);
    }
    case 'badtoken':
      return new ApiUsageError(apiMessage('badtoken', 'apierror-badtoken'));
    case 'assertuserfailed':
      return new ApiUsageError(apiMessage('assertuserfailed', 'apierror-assertuserfailed'));
    case 'assertbotfailed':
      return new ApiUsageError(apiMessage('assertbotfailed', 'apierror-assertbotfailed'));
    case 'internal_api_error': {
      // ApiMain::errorMessagesFromException, exception details not shown: the request id and class.
      const cls = o['class'] ?? 'Wikimedia\\Rdbms\\DBQueryError';
      const id = randomBytes(12).toString('hex');
      return new ApiUsageError(
        apiMessage(`internal_api_error_${cls.replace(/^Wikimedia\\Rdbms\\/, '')}`, 'apierror-exceptioncaughttype', [id, cls], { errorclass: cls }),
        'main',
        { headers: { 'X-Request-Id': id } },
      );
    }
  }
}
