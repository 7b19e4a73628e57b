import type { TitleContext } from '../wiki/title.js';
import type { Knowledge, WikiModel } from '../wiki/model.js';
import type { WikiProfile } from '../wiki/profile.js';
import type { Language } from '../i18n/language.js';
import type { ErrorFormatter } from './error-formatter.js';
import type { ApiMessage } from './errors.js';
import type { ApiRequest } from './request.js';
import type { ApiResult } from './result.js';
import type { RanModule } from './action-module.js';
import type { SessionPort } from './session.js';

export type CacheMode = 'private' | 'public' | 'anon-public-user-private';

/**
 * ApiMain::setCacheMode's downgrade (1.39, 1.43): `public` becomes `anon-public-user-private`
 * when the request leaves the user language to the user (`uselang` absent or `user`), since the
 * answer's language then depends on who asks. The one copy of the rule: computed answers
 * (runApi) and recorded ones (replay/render-recorded.ts) both ask it.
 */
export function cacheModeForUselang(mode: CacheMode, uselang: string | undefined): CacheMode {
  return mode === 'public' && (uselang ?? 'user') === 'user' ? 'anon-public-user-private' : mode;
}

/** Everything one API call's modules see. Built per request by `runApi`. */
export interface ApiContext {
  readonly request: ApiRequest;
  readonly profile: WikiProfile;
  readonly model: WikiModel;
  /**
   * What the recordings prove about the model (handed down by the engine); null for a model of
   * fixtures only, which describe the whole wiki (every entity, field and pattern is known).
   */
  readonly knows: Knowledge | null;
  /** The clock: milliseconds since the epoch that count as "now" (block expiry, `now`). */
  readonly now: number;
  /** The user language (`uselang`, default the content language for anonymous callers). */
  readonly userLang: Language;
  readonly titles: TitleContext;
  readonly result: ApiResult;
  readonly formatter: ErrorFormatter;
  /** The caller has `apihighlimits` (anonymous callers never have it). */
  readonly highLimits: boolean;
  /** Who calls, and their session (tokens, login, the write log). */
  readonly session: SessionPort;
  addWarning(module: string, msg: ApiMessage): void;
  /** Tightens the cache mode (ApiQuery takes the strictest of its modules). */
  setCacheMode(mode: CacheMode): void;
  /**
   * Says that the answer needed something no recording showed (`blocks.byid`,
   * `extlinks.id` …): the answer is then flagged (`X-Wikitape-Unknown`), never called exact.
   * `said`: the module's answer says so in its body too (a warning), so that a client reading no
   * header is not misled: such an answer is served even under `--on-miss error`.
   */
  unknown(what: string, said?: 'said'): void;
  /** Notes a module that ran, with its values (in the order they ran; debuginfo prints their traces). */
  ran(module: RanModule): void;
}
