import type { ActionModule } from '../api/action-module.js';
import { readParams } from '../api/param-reader.js';
import { pv } from '../api/param-spec.js';
import type { Json } from '../api/result.js';
import { matchSpamBlacklist } from './spamblacklist-match.js';

/** action=spamblacklist (SpamBlacklist's ApiSpamBlacklist). */
export const spamblacklist: ActionModule = {
  name: 'spamblacklist',
  params: () => ({ url: { type: 'string', multi: true, required: true } }),
  execute(ctx) {
    const v = readParams(ctx, { path: 'spamblacklist', prefix: '', name: 'spamblacklist' }, this.params(ctx.profile));
    // The API never shows the blacklist's lines: a replayed wiki knows them only from fixtures.
    if (ctx.model.knows && !ctx.model.knows.spamPatterns) ctx.unknown('spamblacklist.patterns');
    const outcome = matchSpamBlacklist(pv.list(v['url']), ctx.model.spamBlacklist, ctx.model.spamWhitelist);
    ctx.result.add('spamblacklist', outcome as unknown as Json);
    ctx.setCacheMode('private');
  },
};
