import type { Low } from 'lowdb';
import type { Cassette, Interaction } from './format.js';

/**
 * What changed in a cassette document since its store last wrote it: what a database write stores,
 * and all it stores (store-sqlite.ts write). A kind's list made shorter loses the rows past its end
 * at the write; an entity that moved to another place (one before it removed) is a change of that place.
 */
export interface Changed {
  /** The interactions added or replaced (the object now held), or removed (null), by key. */
  readonly interactions: Iterable<readonly [key: string, now: Interaction | null]>;
  /** The places in each kind's list whose entity was added, replaced or moved there. */
  readonly entities: ReadonlyMap<string, Iterable<number>>;
}

/** Told each place of a kind's entity list that was added or replaced (CassetteChanges.entity). */
export type Touched = (kind: string, at: number) => void;

/**
 * The changes the writers of a cassette document tell its store, so that a database write stores
 * those rows alone: a recorder (the key it stored, the places harvest touched: what a recording
 * costs, not what the cassette does), `cassettes prune` and `cassettes diff --update` (what they
 * take out or replace). A change not told here is not written to a database: every writer of a
 * document a database store opened tells each (see changesOf).
 */
export class CassetteChanges {
  private interactions = new Map<string, Interaction | null>();
  private entities = new Map<string, Set<number>>();

  /** An interaction stored under its key (added or replaced). */
  stored(i: Interaction): void {
    this.interactions.set(i.key, i);
  }

  /** The interaction of a key taken out of the document. */
  removed(key: string): void {
    this.interactions.set(key, null);
  }

  /** The entity at `at` in its kind's list was added or replaced, or moved there. */
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

  /** What changed since the last call, then nothing. */
  take(): Changed {
    const out = { interactions: this.interactions, entities: this.entities };
    this.interactions = new Map();
    this.entities = new Map();
    return out;
  }
}

/**
 * A document's every part as a change (a database made from a cassette read piece by piece:
 * `cassettes convert`): each interaction as `interactions` yields it, never held together, and
 * every place of each kind's list.
 */
export function everything(interactions: Iterable<Interaction>, entities: Cassette['entities']): Changed {
  const all = Object.entries(entities).filter(([, list]) => Array.isArray(list));
  return {
    interactions: (function* () {
      for (const i of interactions) yield [i.key, i] as const;
    })(),
    entities: new Map(all.map(([kind, list]) => [kind, (list as readonly unknown[]).keys()])),
  };
}

/**
 * A kind's list without the entities `keep` refuses, the places whose entity moved told to
 * `changes` (the list made shorter: its rows past the end go at the write).
 */
export function keptEntities<T>(kind: string, list: readonly T[], keep: (e: T) => boolean, changes: CassetteChanges | undefined): T[] {
  const out = list.filter(keep);
  const moved = out.findIndex((e, at) => e !== list[at]);
  if (moved >= 0) for (let at = moved; at < out.length; at++) changes?.entity(kind, at);
  return out;
}

/** The changes a store follows for the documents it opened (those of databases). */
const following = new WeakMap<Low<Cassette>, CassetteChanges>();

/** Registers the changes of a document a store opened. */
export function followChanges(db: Low<Cassette>, changes: CassetteChanges): void {
  following.set(db, changes);
}

/** The changes to tell for a document, when its store follows them (else undefined: nothing to tell, the store writes it whole). */
export function changesOf(db: Low<Cassette>): CassetteChanges | undefined {
  return following.get(db);
}
