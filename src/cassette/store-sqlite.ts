import { existsSync } from 'node:fs';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../util/ordered-json.js';
import { isUserKey, type Cassette, type Interaction } from './format.js';
import { SqlEntityTable, appendRows, entityRow, indexColumns, kindSchema, putEntity, tableName, type KindShape } from './sql-table.js';
import { CassetteError } from './store.js';
import { PREPARED, prepareTables, readColumn } from './sql-prepare.js';
import { LinkAnswers, PrepareStep } from './sql-prepare-step.js';
import { StoredMembers, StoredSummaries, fromRow, toRow, type Row, type StoredMember } from './sql-document.js';
import { everything, type Changed } from './changes.js';
import type { ListEntity } from '../api/list-module.js';
import type { AnswerSummary } from './walk-summary.js';
import { databasesUnavailable, openDatabase, type Database, type Statement } from './sqlite-driver.js';

/**
 * A database cassette (`<name>.sqlite`, docs/decisions/0018-database-cassettes.md): the same
 * document as a JSON cassette, kept so that replay reads what a question needs, not the file:
 * - `members`: each top-level member of the cassette in its order, as JSON text; `interactions`
 *   and `entities` as markers (so members added later go along without a schema change);
 *   `entities` holds the kinds that have no table (missing titles, redirects) and a marker per
 *   kind kept in a table;
 * - `interactions`: one row per recorded question, by key; request and headers as JSON, the
 *   answer's body as stored text;
 * - one table per kind of entity with declared indexes (sql-table.ts).
 * The document's parts a write keeps by what changed, the walks' summaries and the interaction rows
 * are in sql-document.ts. (Over 400 lines: its two ways of writing, a document's `write` and the
 * recorder's `append`, share the state a transaction keeps, the counts, tables made and extlinks
 * answers, which stay private to it.)
 */

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS members (position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, json TEXT)',
  'CREATE TABLE IF NOT EXISTS interactions (key TEXT PRIMARY KEY, request TEXT NOT NULL, status INTEGER NOT NULL, headers TEXT NOT NULL, body TEXT NOT NULL, recorded_at TEXT, user TEXT, extra TEXT) WITHOUT ROWID',
];
/** A kind kept in its table, as `entities` marks it. */
const TABLED = { $table: true } as const;
const isTabled = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Record<string, unknown>)['$table'] === true;

/** How a write stores a document (SqliteCassette.write). */
export interface WriteOptions {
  /** Keep the database prepared (when opened with `knowledge`). Default true. */
  prepare?: boolean;
  /** The walks' summaries: `made` by the write, per interaction, or the document's member `given` as it is. Default made. */
  summaries?: 'made' | 'given';
}

/** One open database cassette. */
export class SqliteCassette {
  readonly db: Database;
  private readonly shapes: Map<string, KindShape>;
  private readonly tables = new Map<string, SqlEntityTable<object>>();
  private byKey: Statement | null = null;
  private holding: Statement | null = null;
  /** How many interactions it holds, counted at the first write and kept by each (see checkTold). */
  private held: number | null = null;
  /** The parts a write keeps by what changed (sql-document.ts). */
  private readonly members: StoredMembers;
  private readonly summaries: StoredSummaries;
  /** The document's extlinks answers by page, once a prepare step asked for them (kept as interactions are stored). */
  private links: LinkAnswers | null = null;
  /** The kinds whose tables this instance made sure of; the `entities` member as last made. */
  private readonly made = new Set<string>();
  private entitiesHeld: { kinds: string; text: string } | null = null;
  private putRow: Statement | null = null;

  /**
   * Opens (or, with `create`, makes) the database file; one that is no cassette is a CassetteError
   * naming it. With `knowledge` (the list modules' entities, in the lists' order), its writes keep
   * it prepared (see write).
   */
  constructor(
    readonly file: string,
    shapes: readonly KindShape[],
    create = false,
    private readonly knowledge: readonly ListEntity<object>[] = [],
  ) {
    this.shapes = new Map(shapes.map((s) => [s.kind, s]));
    const unavailable = databasesUnavailable();
    if (unavailable !== null) throw new CassetteError(`cassette file ${file} cannot be ${create ? 'made' : 'read'}: ${unavailable}`);
    if (!create && !existsSync(file)) throw new CassetteError(`cassette file ${file} cannot be read: it does not exist`);
    try {
      this.db = openDatabase(file, { fileMustExist: !create });
      this.db.pragma('journal_mode = WAL');
      if (create) this.db.exec(SCHEMA.join(';'));
      const has = this.db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('members', 'interactions')").pluck().get();
      // Tables without members are a cassette made but not yet written (a recorder that opened it).
      if (has !== 2) throw new Error('it has no cassette tables (members, interactions)');
    } catch (e) {
      throw new CassetteError(`cassette file ${file} is not a cassette database: ${(e as Error).message.replace(/^wikitape: /, '')}`);
    }
    this.members = new StoredMembers(this.db);
    this.summaries = new StoredSummaries(this.db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** A member's parsed JSON, or undefined. */
  member(name: string): unknown {
    const json = this.db.prepare('SELECT json FROM members WHERE name = ?').pluck().get(name) as string | null | undefined;
    return json === undefined || json === null ? undefined : parseKeepingKeyOrder(json);
  }

  /** The kinds kept in tables (marked in `entities`). */
  tabled(): string[] {
    const entities = this.member('entities');
    if (typeof entities !== 'object' || entities === null) return [];
    return Object.entries(entities).filter(([, v]) => isTabled(v)).map(([k]) => k);
  }

  /**
   * Every member but `interactions` (and those named in `leaveOut`: replay reads `summaries` by key,
   * walkSummariesOf), parsed, with the tabled kinds of `entities` left out (replay reads them through tables).
   */
  rest(leaveOut: readonly string[] = []): Omit<Cassette, 'interactions'> {
    const out: Record<string, unknown> = {};
    // (a member left out is not read either: a snapshot's `summaries` is tens of megabytes)
    const members = this.db.prepare('SELECT name, json FROM members WHERE name NOT IN (SELECT value FROM json_each(?)) ORDER BY position').all(JSON.stringify(leaveOut));
    for (const { name, json } of members as { name: string; json: string | null }[]) {
      if (name === 'interactions' || json === null) continue;
      const v = parseKeepingKeyOrder(json);
      out[name] = name === 'entities' ? Object.fromEntries(Object.entries(v as object).filter(([, x]) => !isTabled(x))) : v;
    }
    return out as unknown as Omit<Cassette, 'interactions'>;
  }

  /** The keys of the recorded interactions, in key order. */
  *keys(): IterableIterator<string> {
    for (const k of this.db.prepare('SELECT key FROM interactions ORDER BY key').pluck().iterate()) yield k as string;
  }

  /** The keys of the interactions that are not of `action=query` by their first parameter, in key order (a query's key may start with a parameter sorted before `action`: the caller looks again). */
  *keysBesideQueries(): IterableIterator<string> {
    for (const k of this.db.prepare("SELECT key FROM interactions WHERE substr(key, 1, 13) <> 'action=query&' ORDER BY key").pluck().iterate()) yield k as string;
  }

  /** Whether it holds an interaction of a key (its primary key: one index read). */
  holds(key: string): boolean {
    this.holding ??= this.db.prepare('SELECT 1 FROM interactions WHERE key = ?').pluck();
    return this.holding.get(key) !== undefined;
  }

  /** How many interactions it holds. */
  count(): number {
    return this.db.prepare('SELECT count(*) FROM interactions').pluck().get() as number;
  }

  /** The interaction of a key, read by key. */
  interaction(key: string): Interaction | undefined {
    this.byKey ??= this.db.prepare('SELECT * FROM interactions WHERE key = ?');
    const row = this.byKey.get(key) as Row | undefined;
    return row && fromRow(row);
  }

  /** The table of a kind kept in one. */
  table(kind: string): SqlEntityTable<object> {
    let t = this.tables.get(kind);
    if (!t) this.tables.set(kind, (t = new SqlEntityTable(this.db, this.shapeOf(kind), this.prepared())));
    return t;
  }

  /** Every entity of a tabled kind, in the cassette's order, as recorded (the document's). */
  all(kind: string): object[] {
    return this.allOf(kind, 'data');
  }

  /** Every entity of a tabled kind as replay reads it: prepared, when the database is (see `prepared`). */
  entities(kind: string): object[] {
    return this.allOf(kind, readColumn(this.prepared()));
  }

  /**
   * Whether its entities are prepared (cassette/sql-prepare.ts): what they imply worked out when
   * it was written, so replay makes no pass over them. Any later write of the document clears it.
   */
  prepared(): boolean {
    return this.db.pragma('user_version', { simple: true }) === PREPARED;
  }

  /**
   * Prepares its entities for the list modules' `entities` (in the lists' order), when every list
   * kind it holds is in a table, with the links' ids its recorded `prop=extlinks` answers teach;
   * whether it did (cassette/sql-prepare.ts). Replay learns link ids from what readers were shown;
   * whether a logged-in recording shows what readers see depends on its user's rights, known at
   * replay only: a database holding a logged-in extlinks recording is left unprepared (replay works
   * it all out, as for a JSON cassette).
   */
  prepare(entities: readonly ListEntity<object>[] = this.knowledge): boolean {
    const links: Interaction[] = [];
    for (const i of this.extlinksAnswers()) {
      if (isUserKey(i.key)) return false;
      links.push(i);
    }
    const members = this.member('entities');
    const loose = (kind: string) => typeof members === 'object' && members !== null && Array.isArray((members as Record<string, unknown>)[kind]) && ((members as Record<string, unknown[]>)[kind]!.length > 0);
    const done = prepareTables(this.db, this.shapes, this.tabled(), loose, entities, links);
    this.tables.clear();
    return done;
  }

  private allOf(kind: string, column: string): object[] {
    return (this.db.prepare(`SELECT ${column} FROM ${tableName(kind)} ORDER BY seq`).pluck().all() as string[]).map((d) => parseKeepingKeyOrder(d) as object);
  }

  /** The whole cassette as one document (a JSON cassette's, member for member). */
  read(): Cassette {
    const out: Record<string, unknown> = {};
    for (const { name, json } of this.db.prepare('SELECT name, json FROM members ORDER BY position').all() as { name: string; json: string | null }[]) {
      if (name === 'interactions') out[name] = (this.db.prepare('SELECT * FROM interactions ORDER BY key').all() as Row[]).map(fromRow);
      else if (name === 'summaries' && json === null) out[name] = this.summaries.all();
      else if (name === 'entities' && json !== null) {
        out[name] = Object.fromEntries(Object.entries(parseKeepingKeyOrder(json) as object).map(([k, v]) => [k, isTabled(v) ? this.all(k) : v]));
      } else if (json !== null) out[name] = parseKeepingKeyOrder(json);
    }
    return out as unknown as Cassette;
  }

  /**
   * Stores a cassette document in one transaction: what changed since the last read or write, as
   * its writer told (`changed`, cassette/changes.ts: the interactions and entity places told, each
   * kind's rows past the end of its list taken out); of its members those whose text changed
   * (sql-document.ts); the walks' summaries of the interactions it stores, in
   * `walk_summaries`, marked by a `summaries` member without text (`summaries: 'given'`: the
   * document's own member stored as it is, as `import` does). A recording costs what it changed,
   * not what the cassette holds. Opened with the lists' entities (`knowledge`), it keeps the
   * database prepared (sql-prepare.ts): a new one is prepared after its first write (it holds that
   * write alone), a prepared one prepares what the write changed (sql-prepare-step.ts); else, and
   * when `prepare` is false, the write leaves it unprepared.
   */
  write(c: Cassette, changed: Changed, options: WriteOptions = {}): void {
    const { prepare = true, summaries = 'made' } = options;
    const follow = prepare && this.knowledge.length > 0;
    const fresh = follow && this.member('meta') === undefined;
    try {
      this.db.transaction(() => {
        const step = follow ? this.stepFor((kind) => (c.entities[kind]?.length ?? 0) > 0) : null;
        // What was prepared may no longer follow from the entities, until the step says it does.
        this.db.pragma('user_version = 0');
        this.summaries.ready(() => c.interactions);
        this.store(c, changed, step);
        this.members.write(this.membersOf(c, summaries === 'made', changed));
        step?.finish();
      })();
    } catch (e) {
      this.rolledBack();
      throw e;
    }
    // Its tables read as the database is now.
    this.tables.clear();
    if (fresh) this.prepare();
  }

  /**
   * Stores recordings appended without a document (sql-recording.ts DatabaseRecording), in one
   * transaction: the interactions, the entities at their places, the members whose text is given
   * (`meta`; `entities` when a kind it keeps itself changed or a kind got a table); kept prepared
   * as `write` keeps it.
   */
  append(batch: { interactions: readonly Interaction[]; rows: ReadonlyMap<string, ReadonlyMap<number, object>>; members: ReadonlyMap<string, string> }): void {
    try {
      this.db.transaction(() => {
        const text = batch.members.get('entities');
        const entities = (text === undefined ? this.member('entities') : parseKeepingKeyOrder(text)) as Record<string, unknown>;
        const step = this.stepFor((kind) => Array.isArray(entities[kind]) && (entities[kind] as unknown[]).length > 0);
        this.db.pragma('user_version = 0');
        this.summaries.ready(() => this.everyInteraction());
        this.held ??= this.count();
        for (const i of batch.interactions) this.storeInteraction(i, step);
        for (const [kind, rows] of batch.rows) this.putRows(kind, rows, step);
        const members = new Map<string, string | null>(batch.members);
        // (the walks' summaries are in their table: marked so, as write marks them)
        if (this.summaries.any()) members.set('summaries', null);
        this.members.update(members);
        step?.finish();
      })();
    } catch (e) {
      this.rolledBack();
      throw e;
    }
    this.tables.clear();
  }

  /**
   * Takes interactions out by key, in one transaction, without reading the cassette whole
   * (`wikitape cassettes prune`): the walks' summaries follow, kept prepared as `write` keeps it.
   * Keys it does not hold are passed over.
   */
  remove(keys: Iterable<string>): void {
    try {
      this.db.transaction(() => {
        const entities = (this.member('entities') ?? {}) as Record<string, unknown>;
        const step = this.stepFor((kind) => Array.isArray(entities[kind]) && (entities[kind] as unknown[]).length > 0);
        this.db.pragma('user_version = 0');
        this.summaries.ready(() => this.everyInteraction());
        this.held ??= this.count();
        for (const key of keys) this.dropInteraction(key, step);
        if (this.summaries.any()) this.members.update(new Map([['summaries', null]]));
        step?.finish();
      })();
    } catch (e) {
      this.rolledBack();
      throw e;
    }
    this.tables.clear();
  }

  /**
   * The step that keeps the database prepared through a write (sql-prepare-step.ts), or null: not
   * opened with the lists' entities, or one of them kept in the `entities` member (`loose`).
   */
  private stepFor(loose: (kind: string) => boolean): PrepareStep | null {
    if (this.knowledge.length === 0 || this.knowledge.some((e) => !this.shapes.has(e.kind) && loose(e.kind))) return null;
    return PrepareStep.of(this.db, this.shapes, this.knowledge, () => (this.links ??= new LinkAnswers(this.extlinksAnswers())));
  }

  /** After a write rolled back: what this instance knew of the tables is read again. */
  private rolledBack(): void {
    this.members.forget();
    this.summaries.forget();
    this.made.clear();
    this.held = null;
    // (its extlinks answers too: kept as the write stored and removed them, they would hold answers
    // the database does not, and the next write's step would learn links' ids and walks of links from them)
    this.links = null;
    // (and the `entities` member's text it made of its document: the next write, told that only tabled
    // kinds changed, would store that text, the kinds kept in the member as the write that failed had them)
    this.entitiesHeld = null;
  }

  /** Every interaction, in key order (a database written before the walks' summaries had their table needs them once). */
  private everyInteraction(): Interaction[] {
    return (this.db.prepare('SELECT * FROM interactions ORDER BY key').all() as Row[]).map(fromRow);
  }

  /** The recorded `prop=extlinks` answers, in key order (only those read whole). */
  private *extlinksAnswers(): IterableIterator<Interaction> {
    for (const key of [...this.keys()]) {
      if (!/(?:^|&)prop=/.test(key)) continue;
      const i = this.interaction(key);
      if (i?.request['prop'] === 'extlinks') yield i;
    }
  }

  /** Stores what the document's writer said it changed. */
  private store(c: Cassette, changed: Changed, step: PrepareStep | null): void {
    this.held ??= this.count();
    for (const [key, i] of changed.interactions) {
      if (i) this.storeInteraction(i, step);
      else this.dropInteraction(key, step);
    }
    // (every tabled kind: its table is made with its first write, rows or none)
    for (const [kind, list] of Object.entries(c.entities)) {
      if (!this.shapes.has(kind) || !Array.isArray(list)) continue;
      this.writePlaces(kind, list, changed.entities.get(kind) ?? [], step);
      // A list made shorter (entities taken out: cassettes diff --update) loses its rows past its end.
      if (this.db.prepare(`DELETE FROM ${tableName(kind)} WHERE seq >= ?`).run(list.length).changes > 0) step?.removes();
    }
    this.checkTold(c);
  }

  /**
   * Refuses a write that would leave the database holding more or fewer interactions or entities
   * of a kind than its document (a writer that added or took out some without telling: changes.ts),
   * its transaction rolled back: a recording lost or stale is a loud error, never a quiet one.
   */
  private checkTold(c: Cassette): void {
    const sizes: [string, number, number][] = Array.isArray(c.interactions) ? [['interactions', c.interactions.length, this.held!]] : [];
    for (const [kind, list] of Object.entries(c.entities)) {
      if (this.shapes.has(kind) && Array.isArray(list)) sizes.push([`entities.${kind}`, list.length, ((this.db.prepare(`SELECT max(seq) FROM ${tableName(kind)}`).pluck().get() as number | null) ?? -1) + 1]);
    }
    const wrong = sizes.find(([, doc, rows]) => doc !== rows);
    if (wrong) throw new CassetteError(`cassette file ${this.file} was not written (it is as it was): its document holds ${wrong[1]} ${wrong[0]}, the database would hold ${wrong[2]}: a change was not told to its store (a defect of wikitape: please report it)`);
  }

  private storeInteraction(i: Interaction, step: PrepareStep | null): void {
    if (!this.holds(i.key)) this.held!++;
    (this.putRow ??= this.db.prepare('INSERT OR REPLACE INTO interactions (key, request, status, headers, body, recorded_at, user, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')).run(...toRow(i));
    this.summaries.put(i);
    this.links?.set(i.key, i);
    step?.stores(i);
  }

  private dropInteraction(key: string, step: PrepareStep | null): void {
    this.held! -= Number(this.db.prepare('DELETE FROM interactions WHERE key = ?').run(key).changes);
    this.summaries.drop(key);
    this.links?.set(key, null);
    step?.removes();
  }

  /** The members as stored: `interactions` and (made here) `summaries` as markers, `entities` with its tabled kinds marked. */
  private membersOf(c: Cassette, made: boolean, changed: Changed): StoredMember[] {
    const out: StoredMember[] = [];
    for (const [name, value] of Object.entries(c)) {
      if (name === 'interactions' || (made && name === 'summaries')) out.push([name, null]);
      else if (name === 'entities') out.push([name, this.entitiesText(c.entities as Record<string, unknown>, changed)]);
      else out.push([name, stringifyKeepingKeyOrder(value)]);
    }
    // As the JSON store writes it (store.ts withSummaries): a member once there are summaries.
    if (made && c.summaries === undefined && this.summaries.any()) out.push(['summaries', null]);
    return out;
  }

  /** The `entities` member's text, made again unless the writer told that only tabled kinds changed. */
  private entitiesText(entities: Record<string, unknown>, changed: Changed): string {
    const kinds = Object.keys(entities).join('\n');
    const same = this.entitiesHeld?.kinds === kinds && [...changed.entities.keys()].every((k) => this.shapes.has(k));
    if (!same || !this.entitiesHeld) this.entitiesHeld = { kinds, text: stringifyKeepingKeyOrder(this.entitiesMember(entities)) };
    return this.entitiesHeld.text;
  }

  /**
   * Stores a cassette read piece by piece (`wikitape cassettes convert`): its members in `order`,
   * `interactions` taken one by one from an iterable, never held together; the walks' summaries
   * made as they pass, its own `summaries` member kept as it is (so that convert back gives the
   * file it was made of).
   */
  import(order: readonly string[], rest: Omit<Cassette, 'interactions'>, interactions: Iterable<Interaction>): void {
    const doc: Record<string, unknown> = {};
    for (const name of order) doc[name] = name === 'interactions' ? interactions : (rest as unknown as Record<string, unknown>)[name];
    this.write(doc as unknown as Cassette, everything(interactions, rest.entities), { prepare: false, summaries: 'given' });
  }

  /**
   * The summaries of its walks replay uses: those of `walk_summaries`, which every write keeps (one
   * per interaction stored), or, in a database written by a wikitape that emptied them at each
   * write, its `summaries` member (sql-document.ts StoredSummaries.used).
   */
  walkSummaries(): AnswerSummary[] {
    return this.summaries.used();
  }

  /**
   * The summaries of the walks of those `keys` that have one (what walkSummaries gives, read for
   * these keys alone: replay reads a database's summaries when knowledge needs them, and not those
   * of answers a prepared database's tables answer for, its link-id crawl's).
   */
  walkSummariesOf(keys: readonly string[]): AnswerSummary[] {
    return this.summaries.usedOf(keys);
  }

  /**
   * Adds entities of a tabled kind after those it holds, one transaction per 10,000 (a cassette
   * made piece by piece: the scale benchmark writes a big wiki so, never holding it whole).
   */
  appendEntities(kind: string, items: Iterable<object>): number {
    this.db.pragma('user_version = 0');
    const n = appendRows(this.db, this.shapeOf(kind), items);
    this.tables.delete(kind);
    return n;
  }

  /** About how many bytes the cassette is as pretty JSON (its stored text; what the JSON form would weigh). */
  textBytes(): number {
    let n = this.db.prepare('SELECT coalesce(sum(length(body) + length(request) + length(headers) + length(key)), 0) FROM interactions').pluck().get() as number;
    for (const kind of this.tabled()) n += this.db.prepare(`SELECT coalesce(sum(length(data)), 0) FROM ${tableName(kind)}`).pluck().get() as number;
    return n;
  }

  /** The `entities` member as stored: kinds with a shape marked (their rows in their tables), the others as they are. */
  private entitiesMember(entities: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(Object.entries(entities).map(([k, v]) => [k, this.shapes.has(k) && Array.isArray(v) ? TABLED : v]));
  }

  /** Writes the entities of a kind at the places given (seq: their place in the list). */
  private writePlaces(kind: string, list: readonly object[], told: Iterable<number>, step: PrepareStep | null): void {
    let places = [...told];
    if (places.length === 0 && this.made.has(kind)) return;
    // A kind its table did not keep until now (a new database, one written without the kind's
    // shape: its list in the `entities` member) moves in whole: what the table held is not its list.
    if (!this.made.has(kind) && !this.tabled().includes(kind)) places = [...list.keys()];
    this.putRows(kind, places.flatMap((seq) => (list[seq] === undefined ? [] : [[seq, list[seq]!] as const])), step);
  }

  /** Writes entities of a kind at their places (seq), its table made when it has none. */
  private putRows(kind: string, rows: Iterable<readonly [number, object]>, step: PrepareStep | null): void {
    const shape = this.shapeOf(kind);
    if (!this.made.has(kind)) for (const sql of kindSchema(shape)) this.db.exec(sql);
    this.made.add(kind);
    const cols = indexColumns(shape);
    const put = putEntity(this.db, shape, cols);
    for (const [seq, e] of rows) {
      step?.rewriting(kind, seq);
      put.run(...entityRow(shape, cols, seq, e));
    }
    this.tables.delete(kind);
  }

  /** How a kind is kept in its table; undefined for a kind kept in the `entities` member. */
  kindShape(kind: string): KindShape | undefined {
    return this.shapes.get(kind);
  }

  /** The kinds it keeps in tables when it writes them (those it has a shape for). */
  shapedKinds(): string[] {
    return [...this.shapes.keys()];
  }

  private shapeOf(kind: string): KindShape {
    return this.shapes.get(kind) ?? { kind, idFields: [], indexes: {} };
  }
}
