import type { WikiProfile } from '../wiki/profile.js';
import type { ActionModule } from './action-module.js';
import type { ApiUsageError } from './errors.js';

/**
 * Where ApiMain raises the faults wikitape can be asked for (faults/api.ts), in its order
 * (ApiMain::executeAction): checkAsserts, setupModule's token check, checkExecutePermissions,
 * checkMaxLag, then the module.
 */
export type FaultStage = 'asserts' | 'token' | 'permissions' | 'maxlag' | 'execute';

export interface FaultFacts {
  action: ActionModule;
  profile: WikiProfile;
  /** The request's `maxlag` (validated as ApiMain does), null without one. */
  maxlag: number | null;
  assert: string | null;
}

/** A fault that fired: the error it raises and the fault as written. */
interface FiredFault {
  error: ApiUsageError;
  fault: string;
}

/** Asked at each stage of a request; returns the fault that fires there, if any. */
export type ApiFaultHook = (stage: FaultStage, facts: FaultFacts) => FiredFault | null;
