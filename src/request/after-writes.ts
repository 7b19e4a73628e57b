import type { ParamMap } from './params.js';
import { splitMulti } from './canonical.js';

/**
 * Reads after a write. Replay applies no write (modules/writes.ts): the page an edit made is not
 * there, its revisions, the log entries, contributions and recent changes it would add are not
 * listed, the account's edit count stays. What a recording shows, and what is computed from
 * recordings and fixtures, is the wiki as it was before the first write, and from that write on it
 * differs from what the wiki says after it in ways nobody recorded. So once a write is in the
 * write log (any session's: a write changes what everyone reads), a question about the wiki's
 * content is refused, naming the write, until the log is emptied (`DELETE /_wikitape/writes`).
 */

/** The actions whose answers show the wiki's content (record mode's read actions but paraminfo, which shows the code). */
const CONTENT_ACTIONS: ReadonlySet<string> = new Set(['query', 'parse', 'spamblacklist', 'expandtemplates', 'compare', 'opensearch']);

/** Query parameters that name pages or run modules: with any of them a query reads content. */
const QUERY_PARTS = ['prop', 'list', 'generator', 'titles', 'pageids', 'revids'] as const;

/**
 * What `meta=userinfo` shows that no write replay takes changes (ApiQueryUserInfo): who the caller
 * is, its groups and rights (a block leaves them: User::getRights), its settings. The edit count,
 * the latest contribution, the block, new messages and whether it may create accounts change.
 */
const USERINFO_KEPT: ReadonlySet<string> = new Set(['groups', 'groupmemberships', 'implicitgroups', 'rights', 'options', 'preferencestoken', 'ratelimits', 'theoreticalratelimits', 'realname', 'email', 'acceptlang', 'registrationdate', 'centralids']);

/** Whether a `meta` module's answer can change with a write: tokens are the session's, userinfo as above. */
function metaChanges(meta: string, params: ParamMap): boolean {
  if (meta === 'tokens') return false;
  if (meta === 'userinfo') return splitMulti(params.get('uiprop') ?? '').some((p) => !USERINFO_KEPT.has(p));
  return true;
}

/**
 * Whether an answer to these parameters shows what writes change: any read action, except a query
 * of the session's tokens or of who the caller is (`meta=tokens`, `meta=userinfo` without the
 * props a write changes), and one that asks nothing.
 */
export function readsContent(params: ParamMap): boolean {
  const action = params.get('action') ?? 'help';
  if (!CONTENT_ACTIONS.has(action)) return false;
  if (action !== 'query') return true;
  if (QUERY_PARTS.some((p) => params.has(p))) return true;
  return splitMulti(params.get('meta') ?? '').some((m) => metaChanges(m, params));
}
