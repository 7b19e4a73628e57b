import { messageCacheLoad, type DebugEntry, type DebugFacts } from '../../api/debug.js';
import type { WikiProfile } from '../../wiki/profile.js';
import { traceData, type DataVersion, type TraceData, type TraceStep } from './data.js';

/**
 * A step of the request: a module path, or a warning formatted (`list`: one whose text lists
 * values, which needs the language's messages from the database: ParamValidator's unrecognizedvalues).
 */
export type TraceStepOf = string | { warning: 'plain' | 'list' };

export interface TraceRequest {
  profile: WikiProfile;
  version: DataVersion;
  /** What the wiki does, in order: a module path described (`main`, `pageset` for pagesetmodule), or a warning it formats. */
  steps: readonly TraceStepOf[];
  /** The language warnings are written in (ApiErrorFormatter's: English for the BC format). */
  warningLang: string;
  format: string;
  lang: string;
}

/** The captured key a module's trace is read from: its own, else en as ru, else the helpformat as none. */
function keyOf(data: Record<string, unknown>, path: string, format: string, lang: string): string | null {
  for (const k of [`${path}|${format}|${lang}`, `${path}|${format}|ru`, `${path}|none|ru`]) if (k in data) return k;
  return null;
}

/** A unit's identity within a request: its last line (what it closes), else all of it. */
function identity(unit: readonly TraceStep[]): string {
  const last = unit[unit.length - 1];
  return typeof last === 'string' ? last : JSON.stringify(unit);
}

/** The line a WAN cache fill leaves when asked again in the same request; none for message pages. */
function repeated(unit: readonly TraceStep[]): string | null {
  const m = /^\[objectcache\] fetchOrRegenerate\(([^)]+)\): miss/.exec(String(unit[unit.length - 1]));
  if (!m || /^[^:]+:(page|messages-big):/.test(m[1]!)) return null;
  return `[objectcache] getWithSetCallback(${m[1]}): process cache hit`;
}

/** The units' steps as debug entries, the cache keys under the profile's prefix. */
function entries(t: TraceData, ids: readonly number[], profile: WikiProfile, state: { seen: Set<string>; connected: boolean }): DebugEntry[] {
  const out: DebugEntry[] = [];
  const prefix = (s: string) => (t.cookiePrefix === profile.cookiePrefix ? s : s.split(`${t.cookiePrefix}:`).join(`${profile.cookiePrefix}:`));
  for (const id of ids) {
    const unit = t.units[id]!;
    const key = identity(unit);
    if (state.seen.has(key)) {
      const again = repeated(unit);
      if (again !== null) out.push(prefix(again));
      continue;
    }
    state.seen.add(key);
    for (const step of unit) {
      if (typeof step === 'string') out.push(prefix(step));
      else if ('c' in step) out.push(state.connected ? { reuse: true } : { connect: true });
      else if ('r' in step) out.push({ reuse: true });
      else out.push({ query: { function: step.q[0], sql: step.q[1] } });
      if (typeof step !== 'string') state.connected = true;
    }
  }
  return out;
}

/** The files the request included: the modules' lists, then what the helpformat and language add, each file once. */
function includeFiles(t: TraceData, paths: readonly string[], req: TraceRequest): Array<readonly [string, number]> {
  const seen = new Set<number>();
  const out: Array<readonly [string, number]> = [];
  const add = (key: string) => {
    const runs = t.includes[key] ?? [];
    for (let r = 0; r < runs.length; r += 2) {
      for (let i = runs[r]!; i < runs[r]! + runs[r + 1]!; i++) {
        if (seen.has(i)) continue;
        seen.add(i);
        out.push([t.paths[i]!, t.sizes[i]!]);
      }
    }
  };
  for (const p of paths) add(`${p}|none|ru`);
  for (const p of paths) add(`${p}|${req.format}|${req.lang}`);
  // a warning listing values loads English (its files, as querymodules=bogus showed them)
  if (req.steps.some((s) => typeof s !== 'string' && s.warning === 'list')) add('!list|none|ru');
  // a request that describes nothing includes about what one describing the lightest module does
  if (out.length === 0) add(lightest(t));
  return out;
}

const lightestKey = new WeakMap<TraceData, string>();

/** The captured none|ru key with the fewest included files. */
function lightest(t: TraceData): string {
  let key = lightestKey.get(t);
  if (key === undefined) {
    const count = (k: string) => (t.includes[k] ?? []).reduce((n, x, i) => (i % 2 === 1 ? n + x : n), 0);
    key = Object.keys(t.includes).filter((k) => k.endsWith('|none|ru') && !k.startsWith('!')).reduce((a, b) => (count(b) < count(a) ? b : a));
    lightestKey.set(t, key);
  }
  return key;
}

/**
 * What formatting a warning's text starts (ApiErrorFormatter, without the database): MessageCache,
 * and in 1.43 the parser its transform asks for. A text that lists values (Language::commaList)
 * also loads the language's messages from the database (1.43: and the language's core data; 1.39
 * then builds the parser). Each once per request, like every service.
 */
function warningEntries(req: TraceRequest, kind: 'plain' | 'list', state: { seen: Set<string>; connected: boolean }): DebugEntry[] {
  const v143 = req.version === '1.43';
  const { profile, warningLang: lang } = req;
  const lines = ['[MessageCache] MessageCache using store SqlBagOStuff', ...(v143 ? ['MediaWiki\\Parser\\ParserFactory: using default preprocessor'] : [])];
  const out: DebugEntry[] = [];
  const once = (line: string) => {
    if (state.seen.has(line)) return;
    state.seen.add(line);
    out.push(line);
  };
  lines.forEach(once);
  if (kind === 'plain') return out;
  // the language, then English, its fallback
  for (const code of lang === 'en' ? ['en'] : [lang, 'en']) {
    const load = messageCacheLoad(profile, code, { content: code === profile.language, first: false, reuse: state.connected });
    if (state.seen.has(String(load[load.length - 1]))) continue;
    state.seen.add(String(load[load.length - 1]));
    state.connected = true;
    out.push(...load);
  }
  if (v143 && lang !== profile.language) once(`[localisation] LocalisationCache::loadCoreData: got localisation for ${lang} from source`);
  if (!v143) once('ParserFactory: using default preprocessor');
  return out;
}

/**
 * ApiParamInfo's trace in debuginfo, composed from the captured traces of each module it
 * describes (scripts/generate/paraminfo-trace.mjs cuts them into units). The modules run in the
 * order described; a unit runs at most once per request (services, caches and messages load once),
 * identified by its last line: a WAN cache fill asked again is a process cache hit
 * (WANObjectCache's pcTTL, e.g. the change tags every write module lists), a message page looked
 * up again is in MessageCache already. Where a unit first asks for the database, it opens the
 * connection, or reuses the open one.
 *
 * Modules listed by a wildcard (`query+*`) are built while the list is made, before any is
 * described; this trace builds each where it is described (the same lines, in another order).
 */
export function paramInfoTrace(req: TraceRequest): DebugFacts {
  const t = traceData(req.version);
  const state = { seen: new Set<string>(), connected: false };
  const all: DebugEntry[] = [];
  for (const step of req.steps) {
    if (typeof step !== 'string') {
      all.push(...warningEntries(req, step.warning, state));
      continue;
    }
    const key = keyOf(t.traces, step, req.format, req.lang);
    if (key !== null) all.push(...entries(t, t.traces[key]!, req.profile, state));
  }
  const paths = req.steps.filter((s): s is string => typeof s === 'string');
  return { includes: `paraminfo:${paths.join('|')}:${req.format}`, includeFiles: () => includeFiles(t, paths, req), entries: all };
}
