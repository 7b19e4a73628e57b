import { splitMulti } from './canonical.js';
import { ARRAY_VALUE, type ParamMap } from './params.js';

/** Parameters that make a query module run (or the page set): a question without any asks nothing. */
const ASKING = ['list', 'prop', 'generator', 'titles', 'pageids', 'revids'] as const;

/**
 * A query that asks `meta=tokens` beside other modules (mwn's login asks
 * `meta=tokens|siteinfo|userinfo`), without its tokens: `tokens` left out of `meta` and `type`
 * (ApiQueryTokens' only parameter) left out, everything else as asked. Record mode stores the
 * answer to this question (the tokens are the session's secrets); replay answers the whole
 * question from that recording and its own tokens (docs/decisions/0003-what-record-mode-stores.md).
 *
 * Null when the request is no such question: not `action=query`, no `meta=tokens`, nothing else
 * asked (`meta=tokens` alone), or a `continue` that names `tokens` as done (ApiContinuationManager
 * then skips the module: the answer holds no tokens).
 */
export function withoutTokens(params: ReadonlyMap<string, string>): ParamMap | null {
  if ((params.get('action') ?? 'help') !== 'query') return null;
  const meta = params.get('meta');
  if (meta === undefined || meta === ARRAY_VALUE) return null;
  const metas = splitMulti(meta);
  if (!metas.includes('tokens')) return null;
  const done = params.get('continue');
  if (done !== undefined && done !== ARRAY_VALUE && splitMulti(done.split('||')[1] ?? '').includes('tokens')) return null;
  const rest = metas.filter((m) => m !== 'tokens');
  if (rest.length === 0 && !ASKING.some((p) => params.has(p))) return null;
  const out: ParamMap = new Map();
  for (const [name, value] of params) {
    if (name === 'type') continue;
    if (name !== 'meta') out.set(name, value);
    else if (rest.length > 0) out.set('meta', rest.some((m) => m.includes('|')) ? `\u001f${rest.join('\u001f')}` : rest.join('|'));
  }
  return out;
}
