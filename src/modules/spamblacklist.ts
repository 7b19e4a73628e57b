import type { ActionModule } from '../api/action-module.js';
import { readParams } from '../api/param-reader.js';
import { pv } from '../api/param-spec.js';
import type { Json } from '../api/result.js';
import { messageCacheLoad, type DebugFacts, type DebugInput } from '../api/debug.js';
import { atLeast } from '../wiki/profile.js';
import { matchSpamBlacklist } from './spamblacklist-match.js';

/** action=spamblacklist (SpamBlacklist's ApiSpamBlacklist). */
export const spamblacklist: ActionModule = {
  name: 'spamblacklist',
  params: () => ({ url: { type: 'string', multi: true, required: true } }),
  execute(ctx) {
    const v = readParams(ctx, { path: 'spamblacklist', prefix: '', name: 'spamblacklist' }, this.params(ctx.profile), { setup: true });
    // The API never shows the blacklist's lines: a replayed wiki knows them only from fixtures.
    if (ctx.knows && !ctx.knows.spamPatterns) ctx.unknown('spamblacklist.patterns');
    const outcome = matchSpamBlacklist(pv.list(v['url']), ctx.model.spamBlacklist, ctx.model.spamWhitelist);
    ctx.result.add('spamblacklist', outcome as unknown as Json);
    return v;
  },
  // ApiSpamBlacklist sets no cache mode: the answer stays private, and nothing is logged.
  cacheMode: () => null,
  debug: spamblacklistDebug,
  key: { sets: ['url'] },
};

/**
 * ApiSpamBlacklist's trace: the content language's messages loaded, the blacklist built from its
 * file (named when the fixtures say which), the URLs compared and the regex checked.
 */
function spamblacklistDebug({ profile, params, model }: DebugInput): DebugFacts {
  const v143 = atLeast(profile, '1.43');
  const urls = (params['url'] ?? '').split('|').filter((u) => u !== '');
  const pfx = profile.cookiePrefix;
  const patterns = model.spamBlacklist.filter((l) => l.replace(/#.*/, '').trim() !== '').map((l) => l.replace(/#.*/, '').trim());
  const entries: DebugFacts['entries'] = v143
    ? ['[MessageCache] MessageCache using store SqlBagOStuff', 'MediaWiki\\Parser\\ParserFactory: using default preprocessor', ...messageCacheLoad(profile, profile.language, { content: true, first: false, reuse: false })]
    : messageCacheLoad(profile, profile.language, { content: true, first: true, reuse: false });
  entries.push(
    `[objectcache] fetchOrRegenerate(${pfx}:spamblacklist:spam:blacklist-regex): miss, new value computed`,
    '[SpamBlacklist] Loading spam regex...',
    '[SpamBlacklist] Constructing spam blacklist',
    ...(model.spamBlacklistFile ? [`[SpamBlacklist] got from file ${model.spamBlacklistFile}`] : []),
    `[objectcache] fetchOrRegenerate(${pfx}:spamblacklist:spam:shared-blacklist-regex): miss, new value computed`,
    `[objectcache] fetchOrRegenerate(${pfx}:spamblacklist:spam:whitelist-regex): miss, new value computed`,
    '[SpamBlacklist] Old URLs:',
    `[SpamBlacklist] New URLs: ${urls.join(', ')}`,
    `[SpamBlacklist] Added URLs: ${urls.join(', ')}`,
    '[SpamBlacklist] Excluding whitelisted URLs from 0 regexes:',
  );
  if (patterns.length > 0) entries.push(`[SpamBlacklist] Checking text against 1 regexes: /(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(${patterns.join('|')})/Sim`);
  return { includes: 'spamblacklist', entries };
}
