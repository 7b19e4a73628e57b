import type { ApiContext } from '../api/context.js';
import { formatBlockDuration } from '../i18n/duration.js';
import type { LogEvent } from './logevents.js';
import { atLeast } from '../wiki/profile.js';

const BLOCK_ACTIONS = new Set(['block/block', 'block/reblock', 'suppress/block', 'suppress/reblock']);

/**
 * The `params` of a log entry for the profile's version. The model keeps them as some
 * version showed them; BlockLogFormatter's `duration-l10n` exists from 1.44 on, appended last,
 * in the user language.
 */
export function formatLogParams(ctx: ApiContext, e: LogEvent): Record<string, unknown> {
  const params = { ...e.params };
  if (!BLOCK_ACTIONS.has(`${e.type}/${e.action}`)) return params;
  delete params['duration-l10n'];
  if (atLeast(ctx.profile, '1.44')) {
    const expiry = typeof params['expiry'] === 'string' ? params['expiry'] : 'infinity';
    params['duration-l10n'] = formatBlockDuration(ctx.userLang, e.timestamp, expiry);
  }
  return params;
}
