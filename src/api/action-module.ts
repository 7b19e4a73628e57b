import type { WikiProfile } from '../wiki/profile.js';
import type { ApiContext, CacheMode } from './context.js';
import type { DebugFacts, DebugInput, FetchedRow } from './debug.js';
import type { ParamSpec, ParamValues } from './param-spec.js';
import type { Caller, TokenType } from './session.js';
import type { KeyFacts } from './key-facts.js';

/**
 * A module of `action=`: everything wikitape knows of it, in one place: its parameters, a function
 * writing its result, the cache mode it asks ApiMain for and its trace in debuginfo. Registered
 * in `modules/index.ts`.
 */
export interface ActionModule {
  name: string;
  /** Its parameter prefix (`lg`, `login`); the token parameter is `<prefix>token`. Default none. */
  prefix?: string;
  params: (profile: WikiProfile) => Record<string, ParamSpec>;
  /** Only POST requests may run it (ApiBase::mustBePosted). */
  mustBePosted?: boolean;
  /** The token type its `token` parameter must hold (ApiBase::needsToken); implies mustBePosted. */
  needsToken?: TokenType;
  /** It writes (ApiBase::isWriteMode): the caller needs `writeapi`. */
  writeMode?: boolean;
  /** Runs the module; returns the parameter values it read (for its cache mode and debuginfo). */
  execute(ctx: ApiContext): ParamValues | void;
  /**
   * The cache mode ApiMain sets from the module's getCacheMode (null: it sets none, the answer
   * stays private and nothing is logged). Modules that set it themselves (ApiQuery) leave it out.
   */
  cacheMode?: (values: ParamValues, caller: Caller) => CacheMode | null;
  /** Its queries and debug-log lines (debuginfo), see api/debug.ts; none: the modules it ran tell. */
  debug?(input: DebugInput): DebugFacts;
  /** What it adds to the cassette key (defaults, sets, titles); none: nothing. */
  key?: KeyFacts;
}

/** A module that ran for a request, with what it read: output prints its debuginfo from this. */
export interface RanModule {
  /** `query+logevents`, `parse` … */
  path: string;
  values: ParamValues;
  /** The rows its query fetched (ModuleOutcome.fetched). */
  fetched?: ReadonlyArray<FetchedRow>;
  debug?(input: DebugInput): DebugFacts;
}
