import type { ParamMap } from '../request/params.js';
import { splitMulti } from '../request/canonical.js';
import { withoutTokens } from '../request/token-part.js';
import { isSecretParam } from '../util/secrets.js';

/**
 * What record mode may store. Only read actions are recorded; anything that carries a secret
 * (tokens, passwords) or hands one out (meta=tokens, login) passes through to the wiki and is
 * never written to a cassette.
 */
const RECORDED_ACTIONS: ReadonlySet<string> = new Set(['query', 'parse', 'spamblacklist', 'expandtemplates', 'compare', 'paraminfo', 'opensearch']);


/** Why a request is not recorded, or null when it may be. */
export function notRecordable(params: ParamMap): string | null {
  const action = params.get('action') ?? 'help';
  if (!RECORDED_ACTIONS.has(action)) return `action=${action} is not a read action`;
  for (const name of params.keys()) if (isSecretParam(name)) return `it carries the secret parameter ${name}`;
  if (action === 'query' && splitMulti(params.get('meta') ?? '').includes('tokens')) return 'meta=tokens hands out tokens';
  return null;
}

/**
 * What record mode stores for one request, decided once (docs/decisions/0003): the answer to the
 * request itself (`own`: the client's answer can serve when it is the canonical form), the
 * answer to its question without its secret part (`meta=tokens` beside other modules: that
 * question is asked of the wiki again), or nothing. `note` says so on the log line.
 */
export type RecordingPlan = { stores: ParamMap; own: boolean; note: string | null } | { stores: null; note: string };

export function recordingPlan(params: ParamMap): RecordingPlan {
  const why = notRecordable(params);
  if (why === null) return { stores: params, own: true, note: null };
  const part = withoutTokens(params);
  if (part !== null && notRecordable(part) === null) return { stores: part, own: false, note: 'recorded without meta=tokens: the tokens are the session\'s' };
  return { stores: null, note: `not recorded: ${why}` };
}

/**
 * Actions that change nothing another request reads: logging in and out, help, feeds (the other
 * actions that are not read actions change the wiki: edit, move, delete, block, upload, options …).
 */
const NOT_WRITES: ReadonlySet<string> = new Set(['login', 'clientlogin', 'logout', 'help', 'checktoken', 'validatepassword', 'feedcontributions', 'feedrecentchanges', 'feedwatchlist', 'rsd', 'stashedit']);

/** Whether a request that the wiki answered without an error changed what later reads show. */
export function changesTheWiki(params: ParamMap): boolean {
  const action = params.get('action') ?? 'help';
  return !RECORDED_ACTIONS.has(action) && !NOT_WRITES.has(action);
}

/** Response headers worth keeping: the ones that carry meaning for replay. Never cookies. */
export const KEPT_HEADERS: readonly string[] = ['cache-control', 'content-language', 'mediawiki-api-error', 'retry-after', 'vary', 'x-database-lag'];
