import { apiMessage, type ApiMessage } from '../../api/errors.js';
import { escapeWikiText } from '../../util/escape.js';
import type { VersionData } from './data.js';
import { atLeast } from '../../wiki/profile.js';

/**
 * The wiki's module tree as the captured data shows it (every module by path): `main` with the
 * action and format modules, `query` with its submodules. The walks of ApiBase::getModuleFromPath
 * and ApiParamInfo::listAllSubmodules over it.
 */
export class ModuleTree {
  private readonly children = new Map<string, string[]>();

  constructor(private readonly data: VersionData) {
    for (const path of Object.keys(data.modules)) {
      if (path === 'main') continue;
      const at = path.lastIndexOf('+');
      const parent = at < 0 ? 'main' : path.slice(0, at);
      let list = this.children.get(parent);
      if (!list) this.children.set(parent, (list = []));
      list.push(path);
    }
  }

  /** The module's name (the last part of its path). */
  nameOf(path: string): string {
    return String(this.data.modules[path]?.['name'] ?? path);
  }

  /** Whether the module has a module manager (submodules). */
  hasSubmodules(path: string): boolean {
    return this.children.has(path);
  }

  /** The path of a submodule, or null when the parent has none of that name. */
  private child(parent: string, name: string): string | null {
    const path = parent === 'main' ? name : `${parent}+${name}`;
    return this.children.get(parent)?.includes(path) ? path : null;
  }

  /**
   * ApiBase::getModuleFromPath: `main`, or parts joined by `+` (a space when no `+`: a `+` typed
   * into a URL arrives as one). Returns the module's path, or the error MediaWiki dies with.
   */
  resolve(path: string): { path: string } | { error: ApiMessage } {
    if (path === 'main') return { path: 'main' };
    let parts = path.split('+');
    if (parts.length === 1) parts = path.split(' ');
    let current = 'main';
    for (let i = 0; i < parts.length; i++) {
      if (!this.hasSubmodules(current)) {
        return { error: apiMessage('badmodule', 'apierror-badmodule-nosubmodules', [parts.slice(0, i).join('+')]) };
      }
      const next = this.child(current, parts[i]!);
      if (next === null) {
        const where = i > 0 ? parts.slice(0, i).join('+') : this.nameOf(current);
        return { error: apiMessage('badmodule', 'apierror-badmodule-badsubmodule', [where, escapeWikiText(parts[i]!, atLeast(this.data, '1.43'))]) };
      }
      current = next;
    }
    return { path: current };
  }

  /** ApiParamInfo::listAllSubmodules: the submodules' paths by sorted name, each followed by its own when recursive. */
  submodules(path: string, recursive: boolean): string[] {
    const names = (this.children.get(path) ?? []).map((p) => this.nameOf(p)).sort();
    return names.flatMap((name) => {
      const sub = this.child(path, name)!;
      return recursive && this.hasSubmodules(sub) ? [sub, ...this.submodules(sub, true)] : [sub];
    });
  }

  /** The names of a group's submodules of `parent` (`query`'s prop, list and meta; `main`'s format), sorted. */
  namesIn(parent: string, groups: readonly string[]): string[] {
    return (this.children.get(parent) ?? []).filter((p) => groups.includes(String(this.data.modules[p]?.['group']))).map((p) => this.nameOf(p)).sort();
  }
}
