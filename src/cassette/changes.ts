import type { Low } from 'lowdb';
import type { Cassette, Interaction } from './format.js';

/** What changed in a cassette document since its store last wrote it: what a database write stores. */
export interface Changed {
  /** The interactions added or replaced (the object now held), or removed (null), by key. */
  readonly interactions: ReadonlyMap<string, Interaction | null>;
  /** The places in each kind's list whose entity was added or replaced. */
  readonly entities: ReadonlyMap<string, ReadonlySet<number>>;
}

/**
 * The changes a writer of a cassette document tells its store (a recorder: it knows the key it
 * stored and the entities harvest touched), so that a database write stores those rows alone
 * instead of comparing every interaction and entity of the document (store-sqlite.ts write): what a
 * recording costs, not what the cassette does. A document nobody follows (`follow` never called:
 * `cassettes diff --update`, pruning) is compared whole, as before.
 */
export class CassetteChanges {
  private followed = false;
  private interactions = new Map<string, Interaction | null>();
  private entities = new Map<string, Set<number>>();

  /** The writer tells every change from now on. */
  follow(): void {
    this.followed = true;
  }

  /** An interaction stored under its key (added or replaced). */
  stored(i: Interaction): void {
    this.interactions.set(i.key, i);
  }

  /** The entity at `at` in its kind's list was added or replaced. */
  entity(kind: string, at: number): void {
    let places = this.entities.get(kind);
    if (!places) this.entities.set(kind, (places = new Set()));
    places.add(at);
  }

  /** Changes taken by a write that failed, told again (those told since are newer and win). */
  restore(changed: Changed): void {
    for (const [key, i] of changed.interactions) if (!this.interactions.has(key)) this.interactions.set(key, i);
    for (const [kind, places] of changed.entities) for (const at of places) this.entity(kind, at);
  }

  /** What changed since the last call, then nothing; null when the writer does not follow (compare the document whole). */
  take(): Changed | null {
    if (!this.followed) return null;
    const out = { interactions: this.interactions, entities: this.entities };
    this.interactions = new Map();
    this.entities = new Map();
    return out;
  }
}

/** The changes a store follows for the documents it opened (those of databases). */
const following = new WeakMap<Low<Cassette>, CassetteChanges>();

/** Registers the changes of a document a store opened. */
export function followChanges(db: Low<Cassette>, changes: CassetteChanges): void {
  following.set(db, changes);
}

/** The changes to tell for a document, when its store follows them (else undefined: nothing to tell). */
export function changesOf(db: Low<Cassette>): CassetteChanges | undefined {
  return following.get(db);
}
