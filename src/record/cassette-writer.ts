import type { Interaction } from '../cassette/format.js';
import { checkName, type CassetteStore } from '../cassette/store.js';
import { redactQuery } from '../util/secrets.js';
import type { WikiProfile } from '../wiki/profile.js';
import { holdCassette, type HeldCassette, type Recording } from './held-cassette.js';

/** A recording that could not be stored: which file, and why. */
export class RecordingError extends Error {
  readonly code = 'WIKITAPE_RECORDING';
  constructor(
    readonly file: string,
    readonly why: string,
    readonly lost: number,
  ) {
    super(`wikitape: could not store ${lost} recording(s) in ${file}: ${why}`);
    this.name = 'RecordingError';
  }
}

/** An error's own words, without a stack: `EACCES: permission denied, open '…'`. */
function reason(e: unknown): string {
  return e instanceof Error ? e.message.replace(/^wikitape: /, '') : String(e);
}

export type { Recording } from './held-cassette.js';

export interface CassetteWriterOptions {
  /** Store again what is already recorded. Default false. */
  reRecord?: boolean;
  /** Called with each line saying a recording could not be stored. Default: stderr. */
  onError?: (message: string) => void;
  /** Called with each interaction once it is in the cassette (in memory). */
  onStored?: (interaction: Interaction) => void;
}

/**
 * The cassette a recorder holds: its lock (one recorder per cassette), the recordings applied
 * (held-cassette.ts: to a document in memory, or appended to a database cassette by key and id)
 * and written coalesced (while one write is under way, what is applied meanwhile is written
 * together by the next; lowdb writes atomically: a temp file, then a rename), and the accounting
 * of what could not be stored.
 */
export class CassetteWriter {
  /** The cassette file, as messages name it. */
  readonly file: string;
  private readonly db: Promise<HeldCassette>;
  /** The cassette's lock (resolves to its release), or the reason another recorder holds it. */
  private readonly locked: Promise<() => void>;
  /** Recordings still waiting for their parts before they are applied. */
  private readonly pending = new Set<Promise<void>>();
  /** Changes applied to the cassette in memory, and how many of them a finished write covers. */
  private applied = 0;
  private saved = 0;
  /** The cassette write under way (one at a time), or null. */
  private writer: Promise<void> | null = null;
  /** Recordings lost before they reached the cassette (not yet reported by flush), and the last reason. */
  private dropped = 0;
  private lastWhy: string | null = null;
  /** The cassette once opened, and whether close() was called (see close). */
  private opened: HeldCassette | null = null;
  private closed = false;

  constructor(
    store: CassetteStore,
    cassette: string,
    upstream: string,
    private readonly options: CassetteWriterOptions = {},
  ) {
    const name = checkName(cassette);
    this.file = store.locate?.(name) ?? `cassette ${name}`;
    // One recorder per cassette: the store's lock first (a second recorder is refused, see ready()).
    this.locked = store.lock ? store.lock(name) : Promise.resolve(() => undefined);
    this.locked.catch(() => undefined);
    // A database store is told what each recording changed (cassette/changes.ts), or appended to: it writes that alone.
    this.db = this.locked.then(() => holdCassette(store, name, upstream));
    // A cassette that cannot be opened fails each recording (and is reported there), never the process.
    this.db.then(
      (db) => {
        this.opened = db;
        // (opened after close(): let go of at once)
        if (this.closed) db.close();
      },
      () => undefined,
    );
  }

  /** Resolves once the cassette is held; rejects (a CassetteError naming the other recorder) when another holds it. */
  async ready(): Promise<void> {
    await this.locked;
  }

  /**
   * The cassette as it is now, read only: its exact recordings by stored key (recordings applied
   * since the start included) and what it says of the wiki; null when it cannot be opened.
   */
  async view(): Promise<{ recording(key: string): Interaction | undefined; profile: Partial<WikiProfile> } | null> {
    const db = await this.db.catch(() => null);
    if (!db) return null;
    return { recording: (key) => db.recording(key), profile: db.profile() };
  }

  /**
   * Applies a recording once `parts` resolves to it (null: nothing to store); a rejection is a
   * recording lost, said at once (naming `key()`, secrets as the marker) and reported by flush().
   */
  add(parts: Promise<Recording | null>, key: () => string): void {
    const task = Promise.all([this.db, parts]).then(
      ([db, r]) => void (r && this.apply(db, r)),
      (e: unknown) => {
        this.dropped++;
        this.fail(reason(e), 1, key());
      },
    );
    this.pending.add(task);
    void task.then(() => this.pending.delete(task));
  }

  /**
   * Resolves once every recording added so far has been applied and written to the cassette;
   * rejects (a RecordingError: which file, why, how many recordings) when one could not be.
   * A write that failed is tried again here, so what flush() calls saved is on disk.
   */
  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
    const target = this.applied;
    const dropped = this.dropped;
    const droppedWhy = this.lastWhy;
    this.dropped = 0;
    this.lastWhy = null;
    while (this.saved < target) {
      if (!this.writer) this.write(await this.db);
      await this.writer;
      if (this.saved < target && this.lastWhy !== null) break;
    }
    if (dropped > 0 || this.saved < target) {
      throw new RecordingError(this.file, this.lastWhy ?? droppedWhy ?? 'the write failed', dropped + (this.applied - this.saved));
    }
  }

  /**
   * Lets the cassette go (call flush() first to have everything written): the store lets go of
   * what it opened (a database's connection, whose close moves SQLite's write-ahead log into the
   * file: closeCassette), at once when no write is under way (flush() leaves none: a process that
   * exits next has closed it), then the lock.
   */
  close(): void {
    this.closed = true;
    const letGo = () => {
      this.opened?.close();
      void this.locked.then(
        (release) => release(),
        () => undefined,
      );
    };
    if (this.writer) void this.writer.then(letGo);
    else letGo();
  }

  /** Nothing here awaits: finding and inserting cannot interleave with another recording. */
  private apply(db: HeldCassette, r: Recording): void {
    if (!db.apply(r, this.options.reRecord ?? false)) return;
    this.options.onStored?.(r.interaction);
    this.applied++;
    this.write(db);
  }

  /** Starts a cassette write unless one is under way; that one writes again when it is done. */
  private write(db: HeldCassette): void {
    if (this.writer) return;
    this.writer = (async () => {
      do {
        // Recordings whose answers came in the same turn of the event loop go into this write too.
        await new Promise((resolve) => setImmediate(resolve));
        const upTo = this.applied;
        try {
          // (the write holds every change applied up to `upTo`)
          await db.write();
        } catch (e) {
          // The document stays in memory and the next write (or flush) tries it all again; nothing
          // is called saved that is not on disk.
          this.fail(reason(e), upTo - this.saved);
          break;
        }
        this.saved = upTo;
      } while (this.saved < this.applied);
      this.writer = null;
    })();
  }

  /** Notes a recording that could not be stored, and says so at once. */
  private fail(why: string, lost: number, key?: string): void {
    this.lastWhy = why;
    const what = key !== undefined ? `the recording of ${redactQuery(key)}` : lost === 1 ? 'a recording' : `${lost} recordings`;
    const line = `wikitape: could not store ${what} in ${this.file}: ${why}`;
    if (this.options.onError) this.options.onError(line);
    else process.stderr.write(`${line}\n`);
  }
}
