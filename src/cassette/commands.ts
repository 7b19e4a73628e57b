import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import { canonicalKey, type KeyRules } from '../request/canonical.js';
import { redactJson, redactParams, redactQuery } from '../util/secrets.js';
import { walkList } from './coverage.js';
import { identityKey, interactionProblem, type Cassette, type Interaction } from './format.js';
import { cassetteProblems, type EntityShape } from './problems.js';
import { ownKinds, type ListEntity, type ListModule } from '../api/list-module.js';
import { CassetteError, closeCassette, FileCassetteStore, notACassette, prepareDatabase } from './store.js';
import { changesOf } from './changes.js';
import { storedBytes, summarize } from './walk-summary.js';
import { SqliteCassette } from './store-sqlite.js';
import { tableShapes } from './sql-table.js';
import { refiledContinue } from './stale-continue.js';

/** What `wikitape cassettes list` shows of one cassette. */
export interface CassetteSummary {
  name: string;
  interactions: number;
  /** Interactions per module (`query+logevents`, `parse` …). */
  modules: Record<string, number>;
  version: string;
  language: string;
  upstream: string;
  recordedAt: string;
}

function moduleOf(i: Interaction): string {
  const r = i.request;
  if (r['action'] !== 'query') return r['action'] ?? 'help';
  const parts = [r['list'], r['prop'], r['meta']].filter(Boolean).join('|');
  return `query+${parts}`;
}

/** A cassette file, read and checked; a CassetteError naming the file says what is wrong with it. */
async function readCassette(dir: string, name: string): Promise<Cassette> {
  const store = new FileCassetteStore(dir);
  const file = store.locate(name);
  if (file.endsWith('.sqlite')) return databaseDocument(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new CassetteError(`no cassette "${name}" in ${dir}; "wikitape cassettes list" shows the cassettes there`);
    throw new CassetteError(`cassette file ${file} cannot be read: ${(e as Error).message}`);
  }
  let c: unknown;
  try {
    c = JSON.parse(text);
  } catch (e) {
    throw new CassetteError(`cassette file ${file} cannot be read: it is not JSON (${(e as Error).message})`);
  }
  const problem = notACassette(c);
  if (problem) throw new CassetteError(`cassette file ${file} is not a cassette: ${problem}`);
  return c as Cassette;
}

/** A database cassette read whole, as its JSON form would parse (a CassetteError naming a file that is no cassette). */
export function databaseDocument(file: string, entities: readonly EntityShape[] = []): Cassette {
  const db = new SqliteCassette(file, tableShapes(entities));
  try {
    return db.read();
  } finally {
    db.close();
  }
}

export async function listCassettes(dir: string): Promise<CassetteSummary[]> {
  const out: CassetteSummary[] = [];
  for (const name of await new FileCassetteStore(dir).list()) {
    const c = await readCassette(dir, name);
    const modules: Record<string, number> = {};
    for (const i of c.interactions) modules[moduleOf(i)] = (modules[moduleOf(i)] ?? 0) + 1;
    out.push({
      name,
      interactions: c.interactions.length,
      modules,
      version: String(c.meta.profile.version ?? '?'),
      language: String(c.meta.profile.language ?? '?'),
      upstream: c.meta.upstream,
      recordedAt: c.meta.recordedAt,
    });
  }
  return out;
}

/**
 * Problems found by `wikitape cassettes verify`, every one of each file (keys checked under the
 * modules' `rules`, the list modules' `entities` field by field); empty when every file is sound.
 */
export async function verifyCassettes(dir: string, rules: KeyRules, entities: readonly EntityShape[]): Promise<string[]> {
  const problems: string[] = [];
  const store = new FileCassetteStore(dir);
  for (const name of await store.list()) {
    const file = store.locate(name);
    let c: unknown;
    try {
      c = file.endsWith('.sqlite') ? databaseDocument(file, entities) : JSON.parse(await readFile(file, 'utf8'));
    } catch (e) {
      if (e instanceof CassetteError) {
        problems.push(`${name}: ${e.message.replace(/^wikitape: /, '')}`);
        continue;
      }
      const why = e instanceof SyntaxError ? `it is not JSON (${e.message})` : (e as Error).message;
      problems.push(`${name}: cassette file ${file} cannot be read: ${why}`);
      continue;
    }
    const structure = cassetteProblems(c, entities);
    for (const p of structure) problems.push(`${name}: cassette file ${file} is not a cassette: ${p}`);
    const interactions = (c as { interactions?: unknown }).interactions;
    if (!Array.isArray(interactions)) continue;
    const seen = new Set<string>();
    // Keys are checked on every interaction whose shape allows it (the others are reported above).
    for (const i of interactions as Interaction[]) {
      if (interactionProblem(i) !== null) continue;
      const expected = identityKey(canonicalKey(new Map(Object.entries(i.request)), rules), i.user);
      if (i.key !== expected) problems.push(`${name}: key "${i.key}" is not canonical; its request gives "${expected}"`);
      if (seen.has(i.key)) problems.push(`${name}: key "${i.key}" is stored twice`);
      seen.add(i.key);
      if ('debuginfo' in i.body) problems.push(`${name}: "${i.key}" stores debuginfo`);
    }
    if (structure.length === 0) for (const p of summaryContradictions(c as Cassette)) problems.push(`${name}: ${p}`);
  }
  return problems;
}

/**
 * Summaries replay would use (their answer has the length they say) that say something else than
 * their answer: an answer edited by hand to the same length (docs/decisions/0020-knowledge-per-walk.md).
 */
function summaryContradictions(c: Cassette): string[] {
  const byKey = new Map(c.interactions.map((i) => [i.key, i]));
  const out: string[] = [];
  for (const s of c.summaries ?? []) {
    const i = byKey.get(s.key);
    if (!i || s.bytes === undefined || s.bytes !== storedBytes(i) || isDeepStrictEqual(s, summarize(i, s.bytes))) continue;
    out.push(`the summary of "${s.key}" says otherwise than its answer (remove the "summaries" member: wikitape makes it again)`);
  }
  return out;
}

/** The keys of one cassette's interactions, in file order (their index is what `show` takes). */
export async function listKeys(dir: string, name: string): Promise<string[]> {
  return (await readCassette(dir, name)).interactions.map((i) => i.key);
}

/** One interaction, found by key or by its position in `list` order. */
export async function showInteraction(dir: string, name: string, which: string): Promise<Interaction | null> {
  const c = await readCassette(dir, name);
  const n = Number(which);
  return c.interactions.find((i) => i.key === which) ?? (Number.isInteger(n) ? (c.interactions[n] ?? null) : null);
}

/** An interaction as `cassettes show` prints it: secrets (a cassette edited by hand may hold some) as the marker. */
export function redactInteraction(i: Interaction): Interaction {
  return { ...i, key: redactQuery(i.key), request: Object.fromEntries(redactParams(Object.entries(i.request ?? {}))), body: redactJson(i.body) };
}

/**
 * Usage recorded by `replay --track-usage FILE`: the keys of the interactions that answered
 * (`cassette`) and `list:<module>` for lists that synthesized answers.
 */
export async function readUsage(file: string): Promise<Set<string>> {
  try {
    return new Set(JSON.parse(await readFile(file, 'utf8')) as string[]);
  } catch {
    return new Set();
  }
}

/**
 * `wikitape cassettes prune --usage FILE`: removes interactions no test used. Pages of complete
 * walks of the `lists` stay while their list synthesized answers (removing them would break the
 * coverage). Entities stay: the built-in fallback answers from them. A database cassette is read
 * key by key, never whole, the interactions that go taken out in one transaction, its lists' kinds
 * kept in their tables (the `lists`' entities, their shapes) and prepared again for `knowledge`
 * (the lists' entities in their order, modules/index.ts KNOWLEDGE_ENTITIES; none: left unprepared).
 */
export async function pruneCassettes(dir: string, usage: ReadonlySet<string>, lists: readonly ListModule[], dryRun = false, knowledge: readonly ListEntity<object>[] = []): Promise<{ name: string; removed: number; kept: number; removedKeys: string[] }[]> {
  const out: { name: string; removed: number; kept: number; removedKeys: string[] }[] = [];
  const store = new FileCassetteStore(dir, { entities: ownKinds(lists), knowledge });
  for (const name of await store.list()) {
    const database = store.databaseToPrune(name);
    if (database) {
      out.push(pruneDatabase(name, database, usage, lists, dryRun));
      if (knowledge.length > 0 && !dryRun) prepareDatabase(store, name);
      continue;
    }
    const db = await store.open(name, '');
    try {
      if (!Array.isArray(db.data?.interactions)) continue; // not a cassette: `verify` reports it
      const keep = db.data.interactions.filter((i) => used(i, usage, lists));
      const kept = new Set(keep);
      const removedKeys = db.data.interactions.filter((i) => !kept.has(i)).map((i) => i.key);
      out.push({ name, removed: removedKeys.length, kept: keep.length, removedKeys });
      if (dryRun || removedKeys.length === 0) continue;
      db.data.interactions = keep;
      for (const key of removedKeys) changesOf(db)?.removed(key);
      await db.write();
    } finally {
      closeCassette(db);
    }
  }
  return out;
}

/**
 * Whether replay used an interaction: its key (or the key replay holds it under when an older
 * wikitape filed it without its empty `continue`: cassette/stale-continue.ts), or its walk's
 * list where the list synthesized answers.
 */
function used(i: Interaction | undefined, usage: ReadonlySet<string>, lists: readonly ListModule[]): boolean {
  if (i === undefined) return false;
  return usage.has(i.key) || usage.has(refiledContinue(i)?.key ?? '') || usage.has(`list:${walkList(i, lists)}`);
}

/**
 * A database cassette pruned key by key, never read whole: each interaction not named in `usage`
 * is read alone to learn its walk's list, and those to go are taken out in one transaction.
 */
function pruneDatabase(name: string, database: SqliteCassette, usage: ReadonlySet<string>, lists: readonly ListModule[], dryRun: boolean): { name: string; removed: number; kept: number; removedKeys: string[] } {
  try {
    const removedKeys: string[] = [];
    let kept = 0;
    for (const key of database.keys()) {
      if (usage.has(key) || used(database.interaction(key), usage, lists)) kept++;
      else removedKeys.push(key);
    }
    // (a recording taken out leaves a prepared database unprepared: sql-prepare-step.ts; the caller prepares it again)
    if (!dryRun && removedKeys.length > 0) database.remove(removedKeys);
    return { name, removed: removedKeys.length, kept, removedKeys };
  } finally {
    database.close();
  }
}
