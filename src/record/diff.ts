import { readFile } from 'node:fs/promises';
import type { Cassette, Interaction } from '../cassette/format.js';
import { FileCassetteStore } from '../cassette/store.js';
import { parseKeepingKeyOrder } from '../util/ordered-json.js';
import { redactJson, redactQuery } from '../util/secrets.js';
import type { JsonObject } from '../api/result.js';
import { Recorder } from './recorder.js';
import { notRecordable } from './policy.js';
import { Upstream, type UpstreamOptions } from './upstream.js';
import { entityId, ownKinds, type ListModule } from '../api/list-module.js';
import { MODULES } from '../modules/index.js';

/**
 * `wikitape cassettes diff --upstream URL`: every recorded question asked of the live wiki again
 * (reads only; a few at a time; with maxlag, waiting as the wiki asks when it is lagged), and the
 * answers compared with the recordings, volatile fields aside. `update` records the changed and
 * gone ones again.
 */
export interface DiffOptions {
  upstream: string;
  cassettes: string;
  /** Only this cassette (default: every one in the folder). */
  cassette?: string;
  /** Record the changed and gone questions again. */
  update?: boolean;
  /** Questions in flight at once. Default 2. */
  concurrency?: number;
  /** The maxlag sent with every question. Default 5. */
  maxlag?: number;
  onProgress?: (done: number, total: number) => void;
  /** Waits between maxlag retries (tests make it short). Default: the wiki's Retry-After (at most 120 s: more fails the diff). */
  sleep?: (seconds: number) => Promise<void>;
  /** Bounds on each question (answer size, time, Retry-After): see record/upstream.ts. */
  limits?: UpstreamOptions;
}

type DiffStatus = 'equal' | 'changed' | 'gone' | 'skipped';

export interface DiffEntry {
  cassette: string;
  key: string;
  status: DiffStatus;
  /** changed: the differences, one per line (`query.blocks[0].expiry: "…" → "…"`); skipped and gone: why. */
  details: string[];
  /** With update: recorded again. */
  updated?: boolean;
}

/** Fields of an answer that differ from one asking to the next: never a change. */
const VOLATILE = new Set(['curtimestamp', 'servedby', 'requestid', 'debuginfo']);
const VOLATILE_PATHS = new Set(['query.general.time']);
/** The most differences listed per question. */
const SHOWN = 12;

export async function diffCassettes(options: DiffOptions): Promise<DiffEntry[]> {
  const store = new FileCassetteStore(options.cassettes);
  const all = await store.list();
  if (options.cassette && !all.includes(options.cassette)) throw new Error(`wikitape: no cassette ${options.cassette} in ${store.dir}`);
  const names = options.cassette ? [options.cassette] : all;
  const work: { cassette: string; interaction: Interaction }[] = [];
  for (const name of names) {
    const c = parseKeepingKeyOrder(await readFile(store.locate(name), 'utf8')) as Cassette;
    for (const i of c.interactions) work.push({ cassette: name, interaction: i });
  }
  // Every question through the bounded client: only the upstream, no redirect, answers and waits capped.
  const upstream = new Upstream(options.upstream, { userAgent: 'wikitape cassettes diff', ...options.limits });
  const out: DiffEntry[] = new Array<DiffEntry>(work.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < work.length) {
      const n = next++;
      const { cassette, interaction } = work[n]!;
      out[n] = await compare(cassette, interaction, options, upstream);
      options.onProgress?.(++done, work.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, worker));
  if (options.update) await update(out, work, options, store);
  return out;
}

async function compare(cassette: string, i: Interaction, options: DiffOptions, upstream: Upstream): Promise<DiffEntry> {
  const key = redactQuery(i.key);
  if (i.user !== undefined) return { cassette, key, status: 'skipped', details: [`recorded logged in as ${i.user}: asked again only through record mode, logged in`] };
  const params = new Map(Object.entries(i.request));
  const why = notRecordable(params);
  if (why) return { cassette, key, status: 'skipped', details: [why] };
  const fresh = await ask(options, upstream, i.request);
  const recordedError = errorCode(i.body);
  const freshError = errorCode(fresh.body);
  if (fresh.status !== i.status || (freshError !== null && freshError !== recordedError)) {
    return { cassette, key, status: 'gone', details: [`now HTTP ${fresh.status}${freshError ? `, error ${freshError}` : ''} (recorded: HTTP ${i.status}${recordedError ? `, error ${recordedError}` : ''})`] };
  }
  const changes: string[] = [];
  diffJson(i.body, redactJson(fresh.body), '', changes);
  if (changes.length === 0) return { cassette, key, status: 'equal', details: [] };
  const shown = changes.slice(0, SHOWN);
  if (changes.length > SHOWN) shown.push(`… and ${changes.length - SHOWN} more`);
  return { cassette, key, status: 'changed', details: shown };
}

/**
 * One question asked again: GET, formatversion=2 JSON, with maxlag; a lagged wiki is waited for
 * as its Retry-After says (5 tries; a wait past the bound fails the diff, naming it).
 */
async function ask(options: DiffOptions, upstream: Upstream, request: Record<string, string>): Promise<{ status: number; body: JsonObject }> {
  const q = { ...request, format: 'json', formatversion: '2', maxlag: String(options.maxlag ?? 5) };
  for (let attempt = 1; ; attempt++) {
    const r = await upstream.get(q);
    let body: JsonObject;
    try {
      body = parseKeepingKeyOrder(r.text) as JsonObject;
    } catch {
      throw new Error(`wikitape: ${options.upstream} answered HTTP ${r.status} with something that is not JSON`);
    }
    if (errorCode(body) === 'maxlag' && attempt < 5) {
      const wait = upstream.retryAfter(r);
      await (options.sleep ?? ((s) => new Promise((res) => setTimeout(res, s * 1000))))(wait);
      continue;
    }
    const { debuginfo: _d, ...rest } = body;
    return { status: r.status, body: rest };
  }
}

function errorCode(body: JsonObject): string | null {
  const e = body['error'] as { code?: unknown } | undefined;
  if (e && typeof e.code === 'string') return e.code;
  const es = body['errors'] as { code?: unknown }[] | undefined;
  return Array.isArray(es) && typeof es[0]?.code === 'string' ? es[0].code : null;
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
};

/** The differences between two JSON values, one line each, with the path: `a.b[2].c: 1 → 2`, `+ a.d`, `- a.e`. */
function diffJson(was: unknown, now: unknown, path: string, out: string[]): void {
  if (VOLATILE_PATHS.has(path)) return;
  if (Array.isArray(was) && Array.isArray(now)) {
    // Entities (log events, blocks, pages …) are matched by what identifies them, so that one
    // added at the top reads as one added, not as every later one changed.
    const id = identityOf(was, now);
    if (id) {
      const name = (v: unknown) => `${path}[${id.map((f) => `${f}=${String((v as Record<string, unknown>)[f])}`).join(',')}]`;
      const before = new Map(was.map((v) => [name(v), v]));
      const after = new Map(now.map((v) => [name(v), v]));
      for (const [p, v] of before) if (!after.has(p)) out.push(`- ${p}: ${show(v)}`);
      for (const [p, v] of after) {
        if (!before.has(p)) out.push(`+ ${p}: ${show(v)}`);
        else diffJson(before.get(p), v, p, out);
      }
      return;
    }
    for (let n = 0; n < Math.max(was.length, now.length); n++) {
      const p = `${path}[${n}]`;
      if (n >= was.length) out.push(`+ ${p}: ${show(now[n])}`);
      else if (n >= now.length) out.push(`- ${p}: ${show(was[n])}`);
      else diffJson(was[n], now[n], p, out);
    }
    return;
  }
  if (isObject(was) && isObject(now)) {
    for (const k of new Set([...Object.keys(was), ...Object.keys(now)])) {
      if (path === '' && VOLATILE.has(k)) continue;
      const p = path === '' ? k : `${path}.${k}`;
      if (!(k in now)) out.push(`- ${p}: ${show(was[k])}`);
      else if (!(k in was)) out.push(`+ ${p}: ${show(now[k])}`);
      else diffJson(was[k], now[k], p, out);
    }
    return;
  }
  if (typeof was === 'string' && typeof now === 'string' && stable(was) === stable(now)) return;
  if (typeof was === 'string' && typeof now === 'string' && (was.length > 80 || now.length > 80)) {
    // Long texts (a parse result): shown around where they first differ.
    let i = 0;
    while (i < was.length && was[i] === now[i]) i++;
    const from = Math.max(0, i - 30);
    const part = (t: string) => `${from > 0 ? '…' : ''}${t.slice(from, i + 40)}${t.length > i + 40 ? '…' : ''}`;
    out.push(`${path} (from character ${i}): ${JSON.stringify(part(was))} → ${JSON.stringify(part(now))}`);
  } else if (JSON.stringify(was) !== JSON.stringify(now)) out.push(`${path}: ${show(was)} → ${show(now)}`);
}

/** A parse result without the parser's reports (times and cache keys that differ every time it parses). */
function stable(text: string): string {
  return text.replace(/<!--\s*(?:NewPP limit report|Transclusion expansion time report|Saved in (?:parser|RevisionOutput) cache)[\s\S]*?-->\n?/g, '');
}

/**
 * What may name the elements of a list in an answer: each list's entity id (ListEntity.idFields),
 * a page's id, a title, a link's URL; fewer fields first (a page row also has a title).
 */
const IDENTITIES: readonly (readonly string[])[] = [...MODULES.query.list.map((l) => l.entity.idFields), ['pageid'], ['ns', 'title'], ['url']]
  .filter((f, n, all) => all.findIndex((g) => g.join('|') === f.join('|')) === n)
  .sort((a, b) => a.length - b.length);

/** The fields that name each element of both lists (and name each once), if any do. */
function identityOf(was: unknown[], now: unknown[]): readonly string[] | null {
  const all = [...was, ...now];
  if (all.length === 0 || !all.every(isObject)) return null;
  for (const fields of IDENTITIES) {
    const unique = (list: unknown[]) => {
      const seen = new Set(list.map((v) => fields.map((f) => JSON.stringify((v as Record<string, unknown>)[f])).join('|')));
      return seen.size === list.length;
    };
    if (all.every((v) => fields.every((f) => f in (v as object))) && unique(was) && unique(now)) return fields;
  }
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The ids (ListEntity.idFields) of the entities a list shows in an answer. */
function entityNames(body: unknown, list: ListModule): string[] {
  const rows = isObject(body) && isObject(body['query']) ? body['query'][list.name] : undefined;
  return Array.isArray(rows) ? rows.filter(isObject).map((r) => entityId(list.entity.idFields, r)) : [];
}

/**
 * After recording again: an entity of a list's own kind the old answers showed and no answer shows
 * now (a block since lifted) leaves the cassette's entities, so that no page replay computes still
 * shows it. (Pages stay: other answers than lists show them too.)
 */
function dropVanished(c: Cassette, oldBodies: readonly unknown[]): void {
  const kinds = new Set(ownKinds(MODULES.query.list).map((e) => e.kind));
  for (const list of MODULES.query.list.filter((l) => kinds.has(l.entity.kind))) {
    const gone = new Set(oldBodies.flatMap((b) => entityNames(b, list)));
    if (gone.size === 0) continue;
    for (const i of c.interactions) for (const n of entityNames(i.body, list)) gone.delete(n);
    if (gone.size === 0 || !c.entities[list.entity.kind]) continue;
    c.entities[list.entity.kind] = c.entities[list.entity.kind]!.filter((e) => !gone.has(entityId(list.entity.idFields, e)));
  }
}

/** Records the changed and gone questions again, one recorder per cassette (its lock refuses a second). */
async function update(entries: DiffEntry[], work: { cassette: string; interaction: Interaction }[], options: DiffOptions, store: FileCassetteStore): Promise<void> {
  const byCassette = new Map<string, number[]>();
  entries.forEach((e, n) => {
    if (e.status === 'changed' || e.status === 'gone') byCassette.set(e.cassette, [...(byCassette.get(e.cassette) ?? []), n]);
  });
  for (const [cassette, ns] of byCassette) {
    const recorder = new Recorder({ upstream: options.upstream, store, cassette, reRecord: true });
    try {
      await recorder.ready();
      for (const n of ns) {
        const { status } = await recorder.ask(work[n]!.interaction.request);
        entries[n]!.updated = status === 200;
      }
      await recorder.flush();
    } finally {
      recorder.close();
    }
    const release = await store.lock(cassette);
    try {
      const db = await store.open(cassette, options.upstream);
      dropVanished(db.data, ns.map((n) => work[n]!.interaction.body));
      await db.write();
    } finally {
      release();
    }
  }
}
