import type { ParamMap } from '../request/params.js';
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
  if (action === 'query' && (params.get('meta') ?? '').split(/[|\u001f]/).includes('tokens')) return 'meta=tokens hands out tokens';
  return null;
}

/** Response headers worth keeping: the ones that carry meaning for replay. Never cookies. */
export const KEPT_HEADERS: readonly string[] = ['cache-control', 'content-language', 'mediawiki-api-error', 'retry-after', 'vary', 'x-database-lag'];
