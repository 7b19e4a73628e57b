import type { ApiContext, CacheMode } from './context.js';
import type { ParamSpec, ParamValues } from './param-spec.js';
import type { WikiProfile } from '../wiki/profile.js';
import type { PageSet } from './pageset.js';

export const MODULE_GROUPS = ['list', 'prop', 'meta'] as const;
export type ModuleGroup = (typeof MODULE_GROUPS)[number];

/** What a query module hands back to ApiQuery after running. */
export interface ModuleOutcome {
  /** The module's own `xxcontinue` value when it stopped early. */
  continueValue?: string;
}

/**
 * A submodule of action=query: a declaration of parameters and a function that adds its
 * data under `query` (lists and meta) or to the pages (prop).
 */
export interface QueryModule {
  name: string;
  prefix: string;
  group: ModuleGroup;
  /** Declared parameters; a function where they differ between MediaWiki versions. */
  params: Record<string, ParamSpec> | ((profile: WikiProfile) => Record<string, ParamSpec>);
  cacheMode: CacheMode | ((values: ParamValues) => CacheMode);
  execute(ctx: ApiContext, values: ParamValues, pages: PageSet): ModuleOutcome;
}
