import type { ApiMessage } from '../../api/errors.js';
import { pv, type ParamSpec, type ParamValues } from '../../api/param-spec.js';
import { HELP_FORMATS } from './info.js';
import type { ModuleTree } from './tree.js';

/** The names the deprecated querymodules and formatmodules take: query's submodules, the format modules (sorted). */
export function bcNames(tree: ModuleTree): { querymodules: string[]; formatmodules: string[] } {
  return { querymodules: tree.namesIn('query', ['prop', 'list', 'meta']), formatmodules: tree.namesIn('main', ['format']) };
}

/** ApiParamInfo::getAllowedParams over a wiki's module tree (the deprecated ones warn when given). */
export function paramInfoParams(tree: ModuleTree): Record<string, ParamSpec> {
  return {
    modules: { type: 'string', multi: true },
    helpformat: { type: 'enum', values: HELP_FORMATS, default: 'none' },
    querymodules: { type: 'enum', multi: true, values: bcNames(tree).querymodules, deprecated: true },
    // declared without a type: strings, true in PHP's sense (not '' nor '0')
    mainmodule: { type: 'string', deprecated: true },
    pagesetmodule: { type: 'string', deprecated: true },
    formatmodules: { type: 'enum', multi: true, values: bcNames(tree).formatmodules, deprecated: true },
  };
}

/** One module to describe: its path, and the member of the answer it goes to. */
interface Described {
  path: string;
  key: 'modules' | 'querymodules' | 'formatmodules';
  /** A query submodule named in querymodules: its entry also says `querytype` (its group). */
  bcQuery: boolean;
}

/** What ApiParamInfo::execute will describe, and the warnings it gives on the way, in order. */
export interface Plan {
  described: Described[];
  warnings: ApiMessage[];
  /** What the wiki does in order, for debuginfo: a module path described, or a warning it formats. */
  steps: (string | { warning: 'plain' })[];
  mainmodule: boolean;
  pagesetmodule: boolean;
}

/** `*` and `**` are main's; a `+*` (or ` *`) suffix lists the submodules, `+**` recursively. */
function wildcard(path: string): { parent: string; recursive: boolean } | null {
  const p = path === '*' || path === '**' ? `main+${path}` : path;
  if (p.endsWith('+**') || p.endsWith(' **')) return { parent: p.slice(0, -3), recursive: true };
  if (p.endsWith('+*') || p.endsWith(' *')) return { parent: p.slice(0, -2), recursive: false };
  return null;
}

/**
 * ApiParamInfo::execute's walk over the requested paths: wildcards expanded (a parent that cannot
 * be found, or has no submodules, warns), `querymodules` as `query+<name>`, `formatmodules` as
 * they are, duplicates dropped (as strings: `query tokens` and `query+tokens` both stay), then each
 * resolved (a path that cannot be, warns). A query submodule named in querymodules, or a module
 * named in formatmodules, goes to that member (back compatibility).
 */
export function planOf(tree: ModuleTree, v: ParamValues): Plan {
  const warnings: ApiMessage[] = [];
  const paths: string[] = [];
  for (const path of pv.list(v['modules'])) {
    const w = wildcard(path);
    if (!w) {
      paths.push(path);
      continue;
    }
    const parent = tree.resolve(w.parent);
    if ('error' in parent) {
      warnings.push(parent.error);
      continue;
    }
    const subs = tree.submodules(parent.path, w.recursive);
    if (subs.length > 0) paths.push(...subs);
    else warnings.push({ code: 'badmodule', key: 'apierror-badmodule-nosubmodules', params: [w.parent] });
  }
  // validated values are modules already; a recorded answer's values (read loosely) are made so
  const known = bcNames(tree);
  const queryModules = pv.list(v['querymodules']).filter((n) => known.querymodules.includes(n));
  const formatModules = pv.list(v['formatmodules']).filter((n) => known.formatmodules.includes(n));
  paths.push(...queryModules.map((m) => `query+${m}`), ...formatModules);
  const described: Described[] = [];
  const steps: Plan['steps'] = warnings.map(() => ({ warning: 'plain' }));
  for (const path of [...new Set(paths)]) {
    const found = tree.resolve(path);
    if ('error' in found) {
      warnings.push(found.error);
      steps.push({ warning: 'plain' });
      continue;
    }
    steps.push(found.path);
    const name = tree.nameOf(found.path);
    const bcQuery = found.path === `query+${name}` && queryModules.includes(name);
    described.push({ path: found.path, key: formatModules.includes(name) ? 'formatmodules' : bcQuery ? 'querymodules' : 'modules', bcQuery });
  }
  const mainmodule = phpTrue(v['mainmodule']);
  const pagesetmodule = phpTrue(v['pagesetmodule']);
  if (mainmodule) steps.push('main');
  if (pagesetmodule) steps.push('pageset');
  return { described, warnings, steps, mainmodule, pagesetmodule };
}

/** A string parameter's value as PHP's `if ( $value )` reads it. */
function phpTrue(v: ParamValues[string] | undefined): boolean {
  const s = pv.str(v);
  return s !== null && s !== '' && s !== '0';
}
