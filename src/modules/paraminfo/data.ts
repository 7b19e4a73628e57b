import { readFileSync } from 'node:fs';
import type { Json, JsonObject } from '../../api/result.js';
import type { WikiProfile } from '../../wiki/profile.js';

/**
 * The captured `action=paraminfo` of real MediaWiki 1.39 and 1.43 (scripts/generate/paraminfo.mjs,
 * paraminfo-trace.mjs): read from the JSON files beside this one on first use only, so that
 * starting a server and every other request pay nothing for them.
 */

/** The versions captured. */
const DATA_VERSIONS = ['1.39', '1.43'] as const;
export type DataVersion = (typeof DATA_VERSIONS)[number];

/**
 * A module's help texts in one helpformat, in getModuleInfo's order: the description, the
 * examples' descriptions, each parameter's description (by index; null where it has none), their
 * info texts, the dynamic parameters' text.
 */
export interface Slots<T> {
  d?: T;
  x: T[];
  p: (T | null)[];
  i?: (T[] | null)[];
  y?: T;
}

/** Where the wiki the data came from was, as its answers show it. */
export interface Capture {
  server: string;
  scriptPath: string;
  /** Content language. */
  language: string;
  /** Its local names of the Special namespace and of Special:Version. */
  specialNs: string;
  version: string;
}

/** One version's modules (helpformat=none) and their language-independent help (raw). */
export interface VersionData {
  version: string;
  capture: Capture;
  params: JsonObject[];
  /** Every module by path; `parameters` are indexes into `params`; `licenselink` null (computed). */
  modules: Record<string, JsonObject>;
  /** ApiPageSet (pagesetmodule), alike. */
  pageset: JsonObject;
  examples: Record<string, string[]>;
  raw: Record<string, Slots<Json>>;
}

/** The wikitext and html help of the served modules in one user language, both versions. */
export type HelpData = { strings: string[] } & Record<`${DataVersion}/${'wikitext' | 'html'}`, Record<string, Slots<number>>>;

/** The local pages the html help links to, and whether each existed when captured. */
export type HelpLinks = Record<string, [string, boolean][]>;

/** One step of a captured trace unit (see scripts/generate/paraminfo-trace.mjs). */
export type TraceStep = string | { c: 1 } | { r: 1 } | { q: [string, string] };

export interface TraceData {
  cookiePrefix: string;
  units: TraceStep[][];
  /** By `<path>|<helpformat>|<uselang>`: indexes into `units`. */
  traces: Record<string, number[]>;
  paths: string[];
  sizes: number[];
  /** By the same keys: runs of [first, count] into `paths`. */
  includes: Record<string, number[]>;
}

const loaded = new Map<string, unknown>();

function load<T>(name: string): T {
  let v = loaded.get(name);
  if (v === undefined) {
    v = JSON.parse(readFileSync(new URL(`./${name}.json`, import.meta.url), 'utf8')) as unknown;
    loaded.set(name, v);
  }
  return v as T;
}

/** The data files read so far (by name): none until a paraminfo request needs one. */
export const loadedData = (): string[] => [...loaded.keys()];

export const versionData = (v: DataVersion): VersionData => load(v);
export const traceData = (v: DataVersion): TraceData => load(`trace-${v}`);

/** The help texts of a user language, or null when none were captured for it. */
export function helpData(lang: string): HelpData | null {
  return lang === 'ru' || lang === 'en' ? load(`help-${lang}`) : null;
}

export function helpLinks(lang: 'ru' | 'en', v: DataVersion): HelpLinks {
  return (load<Record<string, HelpLinks>>(`help-${lang}`))[`${v}/links`] ?? {};
}

/**
 * The data a profile's version is answered from, and whether it is that version's own. A
 * MediaWiki release keeps its API modules within a branch (1.39.x, 1.43.x); another branch is not
 * shown to be identical (1.44 adds main's `crossorigin`, see api/main.ts), so 1.44 and newer take
 * 1.43's data and older or in-between versions 1.39's, flagged `paraminfo.version`.
 */
export function dataVersionOf(profile: Pick<WikiProfile, 'version'>): { version: DataVersion; exact: boolean } {
  const branch = profile.version.split('.').slice(0, 2).join('.');
  if ((DATA_VERSIONS as readonly string[]).includes(branch)) return { version: branch as DataVersion, exact: true };
  const [major, minor] = branch.split('.').map((x) => parseInt(x, 10) || 0);
  return { version: major! > 1 || minor! >= 43 ? '1.43' : '1.39', exact: false };
}
