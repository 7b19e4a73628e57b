import type { Low } from 'lowdb';
import { sortedKeys, type Cassette, type Interaction } from '../cassette/format.js';
import { changesOf } from '../cassette/changes.js';
import type { DatabaseRecording } from '../cassette/sql-recording.js';
import { closeCassette, type CassetteStore } from '../cassette/store.js';
import type { WikiProfile } from '../wiki/profile.js';
import { isSorted, learnProfile, lowerBound } from './cassette-keeping.js';
import { harvest, harvestInto } from './harvest.js';

/** One recording, ready to be applied (its answer's debuginfo apart: it teaches the profile, then goes). */
export interface Recording {
  interaction: Interaction;
  debuginfo: unknown;
  /** Whether the answer shows the lists as readers see them (its entities are then harvested). */
  readerView: boolean;
  /** What the wiki's siteinfo says of it (names, languages). */
  site: Partial<WikiProfile>;
}

/**
 * The cassette a recorder holds (record/cassette-writer.ts), as it applies recordings and writes
 * them: a document read whole (a JSON file, or a database made new), or a database cassette that
 * is there, appended to by key and id (cassette/sql-recording.ts).
 */
export interface HeldCassette {
  /** The recording of a key, applied or stored. */
  recording(key: string): Interaction | undefined;
  /** What the cassette says of the wiki. */
  profile(): Partial<WikiProfile>;
  /** Applies a recording; false when its key is held and `reRecord` is not asked. */
  apply(r: Recording, reRecord: boolean): boolean;
  /** Writes what was applied until now (when it fails, the next write writes it again). */
  write(): Promise<void>;
  /** Lets go of what it opened (a database's connection). */
  close(): void;
}

/**
 * Opens a cassette to record into: a database cassette through its appending store (`appendTo`),
 * one made new first written empty (its `meta` and lists), so that a recorder never holds in
 * memory what it recorded into a database (a snapshot of a big wiki); any other as its store's
 * document.
 */
export async function holdCassette(store: CassetteStore, name: string, upstream: string): Promise<HeldCassette> {
  const appending = store.appendTo?.(name) ?? null;
  if (appending) return new AppendedDatabase(appending);
  const doc = await store.open(name, upstream);
  if (!store.appendTo || changesOf(doc) === undefined || doc.data.interactions.length > 0) return new HeldDocument(doc);
  try {
    await doc.write();
  } catch {
    // (not written, a full disk say: held as the document, whose writes try again, and say why)
    return new HeldDocument(doc);
  }
  closeCassette(doc);
  const made = store.appendTo(name);
  return made ? new AppendedDatabase(made) : new HeldDocument(await store.open(name, upstream));
}

/** What every recording changes: the wiki's profile it teaches, the time of the last recording. */
function learn(c: Pick<Cassette, 'meta'>, { debuginfo, site }: Recording): void {
  learnProfile(c, debuginfo, site);
  c.meta = sortedKeys({ ...c.meta, recordedAt: new Date().toISOString() });
}

/** A cassette document, read whole; recordings applied in memory (binary searches in the key-sorted interactions). */
class HeldDocument implements HeldCassette {
  private checkedOrder = false;
  /** The places of a database store's interactions by key (see placeOf). */
  private places: Map<string, number> | null = null;

  constructor(private readonly db: Low<Cassette>) {}

  recording(key: string): Interaction | undefined {
    const { at, existing } = this.placeOf(key);
    return existing ? this.db.data.interactions[at] : undefined;
  }

  profile(): Partial<WikiProfile> {
    return this.db.data.meta.profile;
  }

  apply(r: Recording, reRecord: boolean): boolean {
    const c = this.db.data;
    const { interaction } = r;
    const { at, existing } = this.placeOf(interaction.key);
    if (existing && !reRecord) return false;
    if (existing) c.interactions[at] = interaction;
    else {
      c.interactions.splice(at, 0, interaction);
      this.places?.set(interaction.key, at);
    }
    const changes = changesOf(this.db);
    changes?.stored(interaction);
    // A user with rights to see what readers may not (hidden log entry parts, suppressed blocks)
    // teaches replay nothing: their answers answer that user alone.
    if (r.readerView) harvest(c.entities, interaction.body, interaction.request, changes && ((kind, place) => changes.entity(kind, place)));
    learn(c, r);
    return true;
  }

  write(): Promise<void> {
    // lowdb serialises the document when write() is called, so it holds every change applied until now.
    return this.db.write();
  }

  close(): void {
    closeCassette(this.db);
  }

  /**
   * Where the interaction of a key is in the document (`existing`), or where it goes. A file's
   * document is kept sorted by key (binary search; a JSON store writes it in that order). A database
   * store's (whose writes are told what changed: cassette/changes.ts) is kept in the order
   * recorded, its places by key in a map: it stores rows by key, and inserting into the middle of
   * a snapshot's 100k answers moved half of them per recording (25 s of a 1M snapshot).
   */
  private placeOf(key: string): { at: number; existing: boolean } {
    const list = this.db.data.interactions;
    if (changesOf(this.db)) {
      this.places ??= new Map(list.map((i, n) => [i.key, n]));
      const at = this.places.get(key);
      return at === undefined ? { at: list.length, existing: false } : { at, existing: true };
    }
    // Written files are sorted by key; one edited by hand is sorted once, as every write did before.
    if (!this.checkedOrder && !isSorted(list)) list.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    this.checkedOrder = true;
    const at = lowerBound(list, key);
    return { at, existing: list[at]?.key === key };
  }
}

/** A database cassette that is there: each recording looked up and stored by key and id, the cassette never read whole. */
class AppendedDatabase implements HeldCassette {
  constructor(private readonly appended: DatabaseRecording) {}

  recording(key: string): Interaction | undefined {
    return this.appended.recording(key);
  }

  profile(): Partial<WikiProfile> {
    return this.appended.meta.profile;
  }

  apply(r: Recording, reRecord: boolean): boolean {
    const { interaction } = r;
    if (!reRecord && this.appended.holds(interaction.key)) return false;
    this.appended.store(interaction);
    // (as HeldDocument: a user who sees more than readers teaches replay nothing)
    if (r.readerView) harvestInto(this.appended, interaction.body, interaction.request);
    learn(this.appended, r);
    return true;
  }

  write(): Promise<void> {
    try {
      this.appended.write();
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  close(): void {
    this.appended.database.close();
  }
}
