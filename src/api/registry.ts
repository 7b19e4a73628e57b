import type { ParamMap } from '../request/params.js';
import type { WikiProfile } from '../wiki/profile.js';
import type { ActionModule, RanModule } from './action-module.js';
import type { QueryModules } from './query.js';
import type { CacheMode } from './context.js';
import { looseParamValues } from './param-reader.js';
import type { Caller } from './session.js';
import type { GeneratorOrder } from './list-module.js';

/**
 * The modules an API answers with (ApiMain's module manager and ApiQuery's): `action=` modules
 * and the query submodules by group. The concrete list is `modules/index.ts`.
 */
export interface ModuleRegistry {
  actions: readonly ActionModule[];
  query: QueryModules;
}

/** The lists whose order as a generator the answer shows (ListModule.generatorOrder), by name. */
export function generatorOrders(registry: ModuleRegistry): ReadonlyMap<string, GeneratorOrder> {
  return new Map(registry.query.list.flatMap((l) => (l.generatorOrder ? [[l.name, l.generatorOrder] as const] : [])));
}

/**
 * The modules a request names, as the wiki ran them (for a recorded answer, which wikitape did
 * not compute): the action, and for action=query the query itself and its submodules in the
 * order ApiQuery runs them. Values are read loosely (raw strings, lists split, defaults), enough
 * for cache modes and debuginfo. Modules wikitape does not implement are left out.
 */
export function modulesNamed(registry: ModuleRegistry, params: ParamMap, profile: WikiProfile): RanModule[] {
  const actionName = params.get('action') ?? 'help';
  const action = registry.actions.find((a) => a.name === actionName);
  if (!action) return [];
  const out: RanModule[] = [];
  if (action.debug) out.push({ path: actionName, values: looseParamValues(params, '', action.params(profile)), debug: action.debug });
  if (actionName !== 'query') return out;
  for (const group of ['prop', 'list', 'meta'] as const) {
    for (const name of (params.get(group) ?? '').split('|')) {
      const mod = registry.query[group].find((m) => m.name === name);
      if (!mod || out.some((r) => r.path === `query+${name}`)) continue;
      const specs = typeof mod.params === 'function' ? mod.params(profile) : mod.params;
      out.push({ path: `query+${name}`, values: looseParamValues(params, mod.prefix, specs), debug: mod.debug });
    }
  }
  return out;
}

/** The strictest of the cache modes the modules of a recorded answer ask for the caller (ApiQuery's rule), or null. */
export function requestedCacheMode(registry: ModuleRegistry, ran: readonly RanModule[], params: ParamMap, caller: Caller): CacheMode | null {
  const action = registry.actions.find((a) => a.name === (params.get('action') ?? 'help'));
  if (!action) return null;
  if (action.name !== 'query') return action.cacheMode?.(ran[0]?.values ?? {}, caller) ?? null;
  const strict = { public: 0, 'anon-public-user-private': 1, private: 2 } as const;
  let mode: CacheMode = 'public';
  for (const r of ran) {
    const name = r.path.startsWith('query+') ? r.path.slice(6) : null;
    const mod = name === null ? undefined : [...registry.query.prop, ...registry.query.list, ...registry.query.meta].find((m) => m.name === name);
    if (!mod) continue;
    const m = typeof mod.cacheMode === 'function' ? mod.cacheMode(r.values, caller) : mod.cacheMode;
    if (strict[m] > strict[mode]) mode = m;
  }
  return mode;
}
