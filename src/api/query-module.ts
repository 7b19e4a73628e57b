import type { ApiContext, CacheMode } from './context.js';
import type { ParamSpec, ParamValues } from './param-spec.js';
import type { WikiProfile } from '../wiki/profile.js';
import type { PageSet } from './pageset.js';
import type { DebugFacts, DebugInput, FetchedRow } from './debug.js';
import type { Caller } from './session.js';
import type { KeyFacts } from './key-facts.js';

type ModuleGroup = 'list' | 'prop' | 'meta';

/** What a query module hands back to ApiQuery after running. */
interface ModuleOutcome {
  /** The module's own `xxcontinue` value when it stopped early. */
  continueValue?: string;
  /** The rows its query fetched (one more than the limit, as the database gives them), for its debuginfo trace. */
  fetched?: ReadonlyArray<FetchedRow>;
}

/**
 * A submodule of action=query: everything wikitape knows of it, in one place: its parameters,
 * a function that adds its data under `query` (lists and meta) or to the pages (prop), its cache
 * mode and its trace in debuginfo. Registered in `modules/index.ts`.
 */
export interface QueryModule {
  name: string;
  prefix: string;
  group: ModuleGroup;
  /** Declared parameters; a function where they differ between MediaWiki versions. */
  params: Record<string, ParamSpec> | ((profile: WikiProfile) => Record<string, ParamSpec>);
  /** What it asks ApiQuery for (getCacheMode), from its parameters and the caller; ApiQuery takes the strictest. */
  cacheMode: CacheMode | ((values: ParamValues, caller: Caller) => CacheMode);
  execute(ctx: ApiContext, values: ParamValues, pages: PageSet): ModuleOutcome;
  /** What it adds to the cassette key (defaults, sets, titles); none: nothing. */
  key?: KeyFacts;
  /** Its queries and debug-log lines (debuginfo), see api/debug.ts. */
  debug(input: DebugInput): DebugFacts;
}
