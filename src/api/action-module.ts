import type { WikiProfile } from '../wiki/profile.js';
import type { ApiContext } from './context.js';
import type { ParamSpec } from './param-spec.js';

/** A module of `action=`: parameters and a function writing its result. */
export interface ActionModule {
  name: string;
  params: (profile: WikiProfile) => Record<string, ParamSpec>;
  execute(ctx: ApiContext): void;
}
