// Over 400 lines on purpose: the replay app, the record app and the suites' engine pool (Suites)
// all build engines with loadEngine, and a file of their own at a lower layer could not import it
// (test/unit/layering.test.ts); split it along those seams with loadEngine moved down.
import { stat } from 'node:fs/promises';
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { ReplayEngine } from './engine.js';
import { DEFAULTS, replaySources, type Source, type WikitapeOptions } from './options.js';
import { readBody, requestParams } from './request/body.js';
import type { ParamMap } from './request/params.js';
import { canonicalKey } from './request/canonical.js';
import { KEY_RULES, KNOWLEDGE_ENTITIES, LIST_ENTITIES, MODULES } from './modules/index.js';
import { redactQuery } from './util/secrets.js';
import { shortList } from './util/short-list.js';
import { sendBody } from './output/send.js';
import { answerLoadPhp } from './output/page-styles.js';
import { loadFixtures, mergeFixture, seenWith, type FixtureFile } from './wiki/fixtures.js';
import { emptyModel, type WikiModel } from './wiki/model.js';
import { ownKinds } from './api/list-module.js';
import { loadCassettes } from './replay/cassette-index.js';
import { identityViews, knowledgeOf, mergeModel } from './replay/replay-model.js';
import { entitiesPrepared } from './replay/knowledge.js';
import { harvest } from './record/harvest.js';
import { makeProfile } from './wiki/profile.js';
import { CassetteError, FileCassetteStore, type CassetteStore } from './cassette/store.js';
import { Recorder } from './record/recorder.js';
import { printRecorded } from './replay/render-recorded.js';
import { AccountBook, OfflineSessions, recordedIdentities, type IdentityFacts } from './replay/sessions.js';
import { seesMoreThanReaders } from './api/session.js';
import { isUserKey } from './cassette/format.js';
import { identityKeys } from './cassette/sql-prepare.js';
import { FaultPlan, FaultSpecError, type ArmedFault } from './faults/spec.js';
import { WIKITAPE_INTERNAL } from './api/errors.js';
import { transportFaults } from './faults/transport.js';

/** Loads what the options point at and builds the engine that answers requests. */
export async function loadEngine(options: WikitapeOptions, only?: readonly string[]): Promise<ReplayEngine> {
  // Only what the options name is read; given nothing, the spec's wiki (options.ts, DEFAULTS.wiki).
  // A suite's engine (`only`) reads its cassettes of the folder.
  const sources = only ? { cassettes: options.cassettes ?? DEFAULTS.cassettes, fixtures: options.fixtures ?? [], clock: options.clock } : replaySources(options);
  const store = await cassetteStore(options, sources.cassettes, only ?? options.cassetteNames);
  const lists = MODULES.query.list;
  const cassettes = await loadCassettes(store, lists);
  const fixtures = await loadFixtures(sources.fixtures, ownKinds(lists));
  const model = cassettes.model;
  mergeModel(model, fixtures.model, lists);
  const profile = { ...cassettes.profile, ...fixtures.profile };
  if (options.model) {
    const given = emptyModel();
    mergeFixture(given, options.model, ownKinds(lists), 'the model option');
    mergeModel(model, given, lists);
  }
  // A lone database's entities prepared when it was written stay so while nothing adds entities
  // to the model (users' ids would follow from those too: replay/knowledge.ts prepareEntities).
  if (cassettes.prepared && !options.model && !holdsEntities(fixtures.model)) entitiesPrepared(model);
  let identities: Map<string, IdentityFacts> | undefined;
  // (of a database, the keys that can name an identity alone: a snapshot's link-id crawl is most of its keys)
  const recorded = () => (identities ??= recordedIdentities(cassettes.interactions.keys((db) => identityKeys(db.db)), (k) => cassettes.interactions.get(k)));
  // A user who sees the lists as readers do (no VISIBILITY_RIGHTS, as recorded) teaches replay as readers' answers do.
  const readerView = (key: string) => !isUserKey(key) || !seesMoreThanReaders(recorded().get(decodeURIComponent(key.slice(key.indexOf(' @') + 2)))?.rights ?? null);
  const learn = cassettes.interactions.size > 0 ? knowledgeOf(model, lists, cassettes, fixtures.model, readerView) : null;
  const learnAs = learn ? identityViews(model, lists, cassettes, fixtures.model, readerView, harvest) : null;
  // Replay of recordings answers as of the recording, so that it gives the same answers next year
  // (docs/decisions/0005-knowledge-not-defaults.md); fixtures alone follow the real clock.
  const clock = sources.clock ?? (cassettes.recordedAt ? 'recorded' : 'real');
  const fixed = clock === 'real' ? null : Date.parse(clock === 'recorded' ? (cassettes.recordedAt ?? 'now') : clock);
  if (fixed !== null && Number.isNaN(fixed)) {
    throw new Error(`wikitape: --clock must be "real", "recorded" or an ISO time, not "${clock}"`);
  }
  const finalProfile = makeProfile({ ...profile, ...options.profile });
  const scope = only?.join(',') ?? '';
  const shared = options.sharing ? { key: options.sharing.key, scope, state: options.sharing.state(scope) } : undefined;
  const sessions = new OfflineSessions(new AccountBook(fixtures.accounts, recorded), finalProfile.cookiePrefix, shared);
  const engine = new ReplayEngine(finalProfile, model, fixed === null ? Date.now : () => fixed, cassettes, options.onMiss ?? 'error', sessions, learn, learnAs);
  engine.clockFixed = fixed !== null;
  // (the model option is one more source of lists: read with the rights it declares, a reader's without)
  const seen = options.model ? seenWith(fixtures.seenWithRights, options.model as FixtureFile, ownKinds(lists), 'the model option') : fixtures.seenWithRights;
  engine.fixtureRights = seen ?? [];
  // recorded: each recording as of its own time (docs/decisions/0015-a-clock-per-recording.md)
  engine.perRecording = clock === 'recorded';
  engine.sources = { cassettes: cassettes.files, fixtures: fixtures.counts, model: options.model !== undefined, defaultWiki: !only && replaySources(options).defaultWiki, clock };
  return engine;
}

/** The cassettes of `folder` (only `names`, when given), or none when there is no folder. */
async function cassetteStore(options: WikitapeOptions, folder: string | null, names: readonly string[] | undefined): Promise<CassetteStore> {
  if (folder === null) return NO_CASSETTES;
  const files = new FileCassetteStore(folder, { entities: LIST_ENTITIES });
  // A folder named on purpose must be there: a typo would otherwise replay nothing, quietly.
  if (options.cassettes !== undefined && !(await isFolder(files.dir))) {
    throw new CassetteError(`no cassettes folder ${files.dir} (replay reads recordings from there; "wikitape record --cassettes ${options.cassettes}" makes it)`);
  }
  if (names === undefined) return files;
  const present = new Set(await files.list());
  const absent = names.filter((n) => !present.has(n));
  if (absent.length > 0) throw new CassetteError(`no cassette ${absent.join(', ')} in ${files.dir} ("wikitape cassettes list" shows what is there)`);
  return Object.assign(Object.create(files) as FileCassetteStore, { list: () => Promise.resolve([...names]) });
}

/** No cassettes at all: replay of fixtures (or of the spec's wiki) alone. */
const NO_CASSETTES: CassetteStore = {
  list: () => Promise.resolve([]),
  open: (name) => Promise.reject(new CassetteError(`no cassette ${name}: no cassettes folder was given`)),
};

async function isFolder(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * What a server needs of an app besides the app itself: in replay, the engine once it is loaded
 * (for the hot path in front of Express); in record mode, the recorder (to flush it on close).
 */
export type WikitapeState =
  | { mode: 'replay'; ready: Promise<ReplayEngine>; /** Lets the suites' engines go. */ close(): void; /** The suites' api.php paths (Suites.prefixes). */ suitePaths(scriptPath: string): Promise<string[]> }
  | { mode: 'record'; recorder: Recorder; scriptPath: string };

/**
 * The Express application: api.php at the profile's script path, answered by the engine.
 * It does not listen; pass it to supertest or `http.createServer`.
 */
export function createApp(options: WikitapeOptions = {}): express.Express {
  return createWikitape(options).app;
}

/** The application and its state (see WikitapeState), for the server. */
export function createWikitape(options: WikitapeOptions = {}): { app: express.Express; state: WikitapeState } {
  if (options.mode === 'record' && options.recordMode !== 'none') return createRecordApp(options);
  const ready = loadEngine(options);
  // A failed load is reported to every request (and to startServer), never as an unhandled rejection.
  ready.catch(() => undefined);
  const suites = new Suites(options);
  const plan = new FaultPlan(options.faults ?? []);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(async (req: Request, res: Response) => {
    const picked = await pickEngine(suites, ready, req, res);
    if (!picked) return;
    const { engine, path } = picked;
    if (path === WRITES_PATH) return answerWrites(engine, req, res);
    if (path === `${engine.profile.scriptPath}/load.php`) {
      const q = req.originalUrl.indexOf('?');
      const out = answerLoadPhp(engine.profile, new URLSearchParams(q < 0 ? '' : req.originalUrl.slice(q + 1)));
      res.status(out.status).set(out.headers).send(out.body);
      return;
    }
    if (path !== `${engine.profile.scriptPath}/api.php`) {
      // A multi-suite server names its suites' paths too: a mistyped prefix is seen at once.
      const suitePaths = await suites.prefixes(engine.profile.scriptPath);
      const listed = suitePaths.length > 0 ? `, and the suites' at ${shortList(suitePaths)}` : '';
      res.status(404).type('text/plain').send(`wikitape: no such path ${path}; the API is at ${engine.profile.scriptPath}/api.php${listed}\n`);
      return;
    }
    await answerApi(engine, plan, options, req, res);
  });
  // Whatever else fails is answered in MediaWiki's error shape too, never as Express's HTML page.
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return void res.destroy();
    sendSetupError(res, err);
  });
  return { app, state: { mode: 'replay', ready, close: () => suites.close(), suitePaths: (p) => suites.prefixes(p) } };
}

/**
 * The engine a request is answered by and the path left for it: a suite's (a path prefix
 * `/<cassette>/…` or the X-Wikitape-Cassette header) or the server's own. Null when the request
 * was answered already (an unknown suite, or replay that could not start).
 */
async function pickEngine(suites: Suites, ready: Promise<ReplayEngine>, req: Request, res: Response): Promise<{ engine: ReplayEngine; path: string } | null> {
  try {
    const picked = await suites.pick(req.path, req.headers['x-wikitape-cassette']);
    if (picked) res.once('close', picked.release);
    return picked ? { engine: picked.engine, path: picked.rest } : { engine: await ready, path: req.path };
  } catch (e) {
    if (e instanceof UnknownCassetteError) sendWikitapeError(res, 404, e.code, e.message);
    // What stopped the start (a cassette file named with what is wrong with it), never a stack.
    else sendSetupError(res, e);
    return null;
  }
}

/** An api.php request in replay: the faults it asks for, then the engine's answer (or a transport fault's). */
async function answerApi(engine: ReplayEngine, plan: FaultPlan, options: WikitapeOptions, req: Request, res: Response): Promise<void> {
  const startedAt = process.hrtime.bigint();
  let faults: readonly ArmedFault[];
  try {
    faults = plan.forRequest(req.headers['x-wikitape-fault']);
  } catch (e) {
    if (!(e instanceof FaultSpecError)) throw e;
    return sendWikitapeError(res, 400, 'wikitape-badfault', `X-Wikitape-Fault: ${e.message}`);
  }
  const body = (await readBody(req)) ?? Buffer.alloc(0);
  const log: RequestLog = (key, source, status, nearMisses) =>
    options.onRequest?.({ method: req.method, key, source, status, ms: Number(process.hrtime.bigint() - startedAt) / 1e6, ...(nearMisses ? { nearMisses } : {}) });
  // Transport faults act before (or around) the API's answer; they match on the question's parameters.
  const params = faults.length > 0 ? requestParams(req.method, req.originalUrl, req.headers['content-type'], body).params : null;
  const transport = params ? transportFaults(faults, params) : null;
  if (transport && params && (await answeredByTransportFault(transport, params, req, res, log))) return;
  let out: ReturnType<ReplayEngine['handle']>;
  try {
    out = engine.handle({ method: req.method, url: req.originalUrl, headers: req.headers, body, startedAt }, faults.length > 0 ? { faults } : {});
  } catch (e) {
    // A recording that cannot be replayed (a cassette edited into something else): said in
    // MediaWiki's error shape, naming what is wrong, never as a stack trace.
    return sendSetupError(res, e);
  }
  // A write or logout is known to every process serving these cassettes before its client hears of it.
  await engine.sessions?.state.settled();
  res.status(out.status);
  for (const [k, v] of out.headers) res.append(k, v);
  res.setHeader('X-Wikitape-Source', out.source);
  if (transport?.cutoff) {
    // The whole length is announced, a share of the body sent, then the connection closed.
    const whole = Array.isArray(out.body) ? Buffer.concat(out.body) : Buffer.from(out.body);
    res.setHeader('Content-Length', String(whole.length));
    res.setHeader('X-Wikitape-Fault', transport.cutoff.fault);
    res.flushHeaders();
    res.write(whole.subarray(0, Math.floor(whole.length * transport.cutoff.at)), () => req.socket.destroy());
    return log(out.key, 'fault', out.status);
  }
  sendBody(res, out.body);
  log(out.key, out.source, out.status, out.nearMisses);
}

/** Logs one answered request (options.onRequest). */
type RequestLog = (key: string, source: Source, status: number, nearMisses?: { key: string; differences: string[] }[]) => void;

/** A delay, then a reset connection or a fault's page instead of the API's answer; true when the request was answered so. */
async function answeredByTransportFault(transport: NonNullable<ReturnType<typeof transportFaults>>, params: ParamMap, req: Request, res: Response, log: RequestLog): Promise<boolean> {
  if (transport.delayMs > 0) await new Promise((r) => setTimeout(r, transport.delayMs));
  if (transport.reset) {
    log(redactQuery(canonicalKey(params, KEY_RULES)), 'fault', 0);
    req.socket.destroy();
    return true;
  }
  if (!transport.page) return false;
  const { page } = transport;
  res.status(page.status).set(page.headers).setHeader('X-Wikitape-Fault', page.fault);
  res.setHeader('X-Wikitape-Source', 'fault');
  res.send(page.body);
  log(redactQuery(canonicalKey(params, KEY_RULES)), 'fault', page.status);
  return true;
}

/** A request named cassettes the server does not have (a client's mistake: a 404 that names no server path). */
class UnknownCassetteError extends Error {
  readonly code = 'wikitape-nosuchcassette';
}

/** How many suite engines are kept loaded (least recently used first out): the sets a client can name are endless. */
export const MAX_SUITE_ENGINES = 64;

/** A suite's engine, leased to one request: released when its answer is done (an engine let go closes only then). */
interface Lease {
  engine: ReplayEngine;
  rest: string;
  release(): void;
}

/**
 * Many suites on one server: the cassettes a request is answered from, chosen by a path prefix
 * (`/<name>/wiki/api.php` for the cassette `<name>`; `options.suites` names prefixes of several
 * cassettes) or by the `X-Wikitape-Cassette: a,b` header. Each choice gets its own engine (its own
 * recordings, sessions and write log), loaded on first use and shared by every spelling of the
 * same choice (`a`, `a,a`, ` a , a`: names deduplicated, the first occurrence kept, since the
 * cassettes are consulted in order). At most MAX_SUITE_ENGINES are kept; the least recently used
 * is let go (its cassette files closed once no request uses it).
 */
class Suites {
  private readonly engines = new Map<string, { load: Promise<ReplayEngine>; users: number; retired: boolean }>();
  private names: { list: Promise<Set<string>>; mtimeMs: number } | null = null;
  /** The cassettes folder, or null when replay was given none (then no cassette is a suite: it reads only what it is given). */
  private readonly dir: string | null;
  constructor(private readonly options: WikitapeOptions) {
    const folder = replaySources(options).cassettes;
    this.dir = folder === null ? null : new FileCassetteStore(folder).dir;
  }

  /**
   * The path prefixes that pick suites, each with its api.php (`/<name><scriptPath>/api.php`):
   * the `suites` option's, then each cassette of the folder's, sorted (for the 404 and the start line).
   */
  async prefixes(scriptPath: string): Promise<string[]> {
    const named = Object.keys(this.options.suites ?? {});
    const names = [...new Set([...named, ...[...(await this.cassetteNames(true))].sort()])];
    return names.map((n) => `/${n}${scriptPath}/api.php`);
  }

  /** The engine for a request's choice and the path left after the prefix; null: the server's own cassettes. */
  async pick(path: string, header: string | string[] | undefined): Promise<Lease | null> {
    const fromHeader = typeof header === 'string' ? [...new Set(header.split(',').map((n) => n.trim()).filter((n) => n !== ''))] : [];
    if (fromHeader.length > 0) {
      const absent = await this.absent(fromHeader);
      if (absent.length > 0) throw new UnknownCassetteError(`no cassette ${absent.join(', ')} (X-Wikitape-Cassette names cassettes of the server's folder; "wikitape cassettes list" shows them)`);
      return this.lease(fromHeader, path);
    }
    const slash = path.indexOf('/', 1);
    if (slash < 0) return null;
    const prefix = path.slice(1, slash);
    const suites = this.options.suites;
    // Own entries only: `/constructor/…` is no suite (Object.prototype's names are not options).
    const named = suites && Object.hasOwn(suites, prefix) ? suites[prefix] : undefined;
    if (Array.isArray(named)) return this.lease([...new Set(named)], path.slice(slash));
    if ((await this.absent([prefix])).length > 0) return null;
    return this.lease([prefix], path.slice(slash));
  }

  /** Lets every engine go (the server closes). */
  close(): void {
    for (const [key, e] of [...this.engines]) this.retire(key, e);
  }

  /** The names that are no cassette of the folder (read again when the folder changed since). */
  private async absent(names: readonly string[]): Promise<string[]> {
    let list = await this.cassetteNames(false);
    if (names.every((n) => list.has(n))) return [];
    list = await this.cassetteNames(true);
    return names.filter((n) => !list.has(n));
  }

  private async cassetteNames(check: boolean): Promise<Set<string>> {
    if (this.dir === null) return new Set();
    if (this.names && !check) return this.names.list;
    // A cassette added since the folder was listed changed its modification time.
    const mtimeMs = await stat(this.dir).then((s) => s.mtimeMs, () => -1);
    if (!this.names || this.names.mtimeMs !== mtimeMs) {
      const list = new FileCassetteStore(this.dir).list().then((l) => new Set(l), () => new Set<string>());
      this.names = { list, mtimeMs };
    }
    return this.names.list;
  }

  private async lease(names: readonly string[], rest: string): Promise<Lease> {
    const key = names.join(',');
    let e = this.engines.get(key);
    if (e) this.engines.delete(key);
    else {
      const load = loadEngine(this.options, names);
      e = { load, users: 0, retired: false };
      load.catch(() => this.engines.get(key)?.load === load && this.engines.delete(key));
    }
    // Most recently used last; the first ones are let go past the bound.
    this.engines.set(key, e);
    for (const [k, old] of this.engines) {
      if (this.engines.size <= MAX_SUITE_ENGINES) break;
      this.retire(k, old);
    }
    const entry = e;
    entry.users++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      entry.users--;
      if (entry.retired && entry.users === 0) void entry.load.then((x) => x.close(), () => undefined);
    };
    try {
      return { engine: await entry.load, rest, release };
    } catch (err) {
      release();
      throw err;
    }
  }

  private retire(key: string, e: { load: Promise<ReplayEngine>; users: number; retired: boolean }): void {
    this.engines.delete(key);
    e.retired = true;
    if (e.users === 0) void e.load.then((x) => x.close(), () => undefined);
  }
}

/** Where the write log is read (GET) and cleared (DELETE), outside api.php. */
const WRITES_PATH = '/_wikitape/writes';

/** The write log over HTTP: `GET` gives `{"writes":[…],"dropped":N}` (N: the oldest writes dropped to keep its bounds), `DELETE` empties it. */
async function answerWrites(engine: ReplayEngine, req: Request, res: Response): Promise<void> {
  // One log for every process serving these cassettes (held by the primary of --workers, or a --state-socket holder).
  const state = engine.sessions?.state;
  if (req.method === 'DELETE') await state?.clearWrites();
  else if (req.method !== 'GET') {
    res.status(405).setHeader('Allow', 'GET, DELETE');
    res.type('text/plain').send('wikitape: the write log is read with GET and cleared with DELETE\n');
    return;
  }
  const log = (await state?.readWrites()) ?? { writes: [], dropped: 0 };
  res.type('application/json').send(JSON.stringify({ writes: log.writes, dropped: log.dropped }));
}

/** An error of wikitape's own (not the wiki's), in MediaWiki's error shape. */
function sendWikitapeError(res: Response, status: number, code: string, info: string): void {
  res.status(status).setHeader('MediaWiki-API-Error', code);
  res.type('application/json').send(JSON.stringify({ error: { code, info } }));
}

/**
 * A request that cannot be answered because replay could not start, or failed outside the API
 * (a recording it cannot print, the recorder's own failure): a 500 in MediaWiki's error shape whose info is the reason (it
 * names the file or folder), never a stack trace, from `X-Wikitape-Source: internal`, with
 * `X-Wikitape-Unknown: wikitape.internal`, as every error of wikitape's own in place of the wiki's answer says.
 */
function sendSetupError(res: Response, e: unknown): void {
  const info = (e instanceof Error ? e.message : String(e)).replace(/^wikitape: /, '');
  res.status(500).setHeader('MediaWiki-API-Error', 'wikitape-setup');
  res.setHeader('X-Wikitape-Source', 'internal');
  res.setHeader('X-Wikitape-Unknown', WIKITAPE_INTERNAL);
  res.type('application/json').send(JSON.stringify({ error: { code: 'wikitape-setup', info } }));
}

/**
 * One request in record mode: the cassette's exact recording of it for the identity the wiki
 * would answer as (`--mode new`), printed as recorded, else the wiki asked through the recorder
 * (which stores what its plan says). Resolves to what the log line says of it.
 */
async function recordOne(recorder: Recorder, req: Request, res: Response, options: WikitapeOptions, startedAt: bigint): Promise<{ params: ParamMap; note: string | null }> {
  const r = await recorder.receive(req);
  const hit = await recorder.recorded(r);
  // Nothing is computed and no session is touched: the recording as the wiki gave it (an expired
  // block included), in the client's format; in a form wikitape cannot print as the wiki does
  // (XML, an unchecked module's formatversion=1), the wiki answers instead.
  const out = hit ? printRecorded(hit.interaction, { method: req.method, url: req.url, headers: req.headers, body: r.body, startedAt }, makeProfile({ ...hit.profile, ...options.profile }), Date.now(), MODULES) : null;
  if (!out) recorder.forward(req, res, r);
  else {
    res.statusCode = out.status;
    for (const [k, v] of out.headers) res.appendHeader(k, v);
    res.setHeader('X-Wikitape-Source', 'cassette');
    sendBody(res, out.body);
  }
  return { params: r.params, note: r.plan.note };
}

/** Record mode: every request to the upstream's api.php path goes through the recorder. */
function createRecordApp(options: WikitapeOptions): { app: express.Express; state: WikitapeState } {
  if (!options.upstream) throw new Error('wikitape: record mode needs --upstream, the api.php URL of the wiki to record');
  let target: URL;
  try {
    target = new URL(options.upstream);
  } catch {
    throw new Error(`wikitape: --upstream must be a URL like https://wiki.example/w/api.php, not "${options.upstream}"`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('wikitape: --upstream must be an http(s) URL');
  if (!/\/api\.php$/.test(target.pathname)) {
    const guess = new URL(target.href);
    guess.pathname = `${target.pathname.replace(/\/+$/, '')}/api.php`;
    guess.search = '';
    throw new Error(`wikitape: --upstream must be the wiki's api.php URL, ending in /api.php (${options.upstream} is not; did you mean ${guess.href}?)`);
  }
  if ((options.faults ?? []).length > 0) throw new Error('wikitape: faults are served in replay, not while recording (drop --fault, or replay the cassette)');
  const mode = options.recordMode ?? (options.reRecord ? 'all' : 'new');
  const cassette = options.cassette ?? 'default';
  // --mode new: what the cassette already holds is answered from it (recordOne); only the rest is asked.
  const recorder = new Recorder({
    upstream: target.href,
    store: new FileCassetteStore(options.cassettes ?? DEFAULTS.cassettes, { entities: LIST_ENTITIES, knowledge: KNOWLEDGE_ENTITIES, ...(options.store ? { format: options.store } : {}) }),
    cassette,
    ...(mode === 'all' ? { reRecord: true } : {}),
    ...(options.upstreamTimeoutMs ? { timeoutMs: options.upstreamTimeoutMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req: Request, res: Response) => {
    if (req.path !== recorder.path) {
      res.status(404).type('text/plain').send(`wikitape: no such path ${req.path}; the recorded API is at ${recorder.path}\n`);
      return;
    }
    if (req.headers['x-wikitape-fault'] !== undefined) {
      return sendWikitapeError(res, 400, 'wikitape-badfault', 'X-Wikitape-Fault: faults are served in replay, not while recording; nothing was sent to the wiki');
    }
    const startedAt = process.hrtime.bigint();
    const done = recordOne(recorder, req, res, options, startedAt);
    // A failure of wikitape's own is answered as one (the client was left waiting), never unhandled.
    done.catch((e: unknown) => (res.headersSent ? void res.destroy() : sendSetupError(res, e)));
    if (options.onRequest) {
      const log = options.onRequest;
      // The question as recorded (query and body), secrets shown as the marker.
      res.on('finish', () =>
        void done.then(
          ({ params, note }) => {
            const source = res.getHeader('x-wikitape-source') === 'cassette' ? 'cassette' : 'upstream';
            log({ method: req.method, key: redactQuery(canonicalKey(params, KEY_RULES)), source, status: res.statusCode, ms: Number(process.hrtime.bigint() - startedAt) / 1e6, ...(note ? { note } : {}) });
          },
          () => undefined,
        ),
      );
    }
  });
  return { app, state: { mode: 'record', recorder, scriptPath: recorder.path.replace(/\/api\.php$/, '') } };
}

/** Whether a model holds any page or list entity. */
function holdsEntities(m: WikiModel): boolean {
  return m.pages.length > 0 || [...m.entities.values()].some((l) => l.length > 0);
}
