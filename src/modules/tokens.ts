import { apiMessage } from '../api/errors.js';
import { pv } from '../api/param-spec.js';
import type { QueryModule } from '../api/query-module.js';
import { TOKEN_TYPES, type TokenType } from '../api/session.js';
import type { DebugFacts } from '../api/debug.js';

/**
 * meta=tokens (ApiQueryTokens): the session's tokens of the types asked for (default csrf; `*`
 * every type), as `<type>token`. An anonymous caller's CSRF-like tokens are `+\`; a login or
 * create-account token starts a session (its cookie is set).
 */
export const tokens: QueryModule = {
  name: 'tokens',
  prefix: '',
  group: 'meta',
  cacheMode: 'private',
  debug: (): DebugFacts => ({ includes: 'tokens', entries: [] }),
  params: {
    type: { type: 'enum', multi: true, values: TOKEN_TYPES, default: 'csrf', allowAll: true },
  },
  execute(ctx, v) {
    // ApiQueryTokens::execute: no tokens where the same-origin policy does not hold (JSONP, origin=*).
    if (ctx.session.credentialsStripped) {
      ctx.addWarning('query+tokens', apiMessage('tokens-origin', 'apiwarn-tokens-origin'));
      return {};
    }
    const out: Record<string, string> = {};
    for (const t of pv.list(v['type']) as TokenType[]) out[`${t}token`] = ctx.session.token(t);
    ctx.result.query()['tokens'] = out;
    return {};
  },
};
