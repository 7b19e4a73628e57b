import type { Low } from 'lowdb';
import type { Cassette } from '../cassette/format.js';
import type { CassetteStore } from '../cassette/store.js';

/**
 * A cassette store whose cassettes are written in bounded batches, for `wikitape snapshot`.
 *
 * A cassette file is written whole (lowdb: a temporary file, then a rename), and a recorder writes
 * after each recorded answer (coalescing those that arrive during a write). A snapshot asks one
 * question after another, so it wrote the whole cassette once per answer: the time grew with the
 * square of the wiki (30k log events 94 s, 100k unfinished after 600 s). Here a write waits until
 * `spacing` times the previous write's duration has passed since it ended: at most a
 * 1 / (1 + spacing) share of the time goes to writing, whatever the cassette's size, and the
 * answers that arrive meanwhile go into the next write together. An interrupted snapshot loses at
 * most the answers of one pause (written cassettes stay whole: each write is atomic), and asks
 * them again when it resumes. `hurry()` ends the pause, for the last write (flush). A database
 * cassette's write stores what changed since the last (cassette/changes.ts), so there the spacing
 * only gathers answers into fewer transactions: the time writing is the same either way.
 */
export class SpacedWrites {
  private lastEnd = 0;
  private lastMs = 0;
  private wake: (() => void) | null = null;
  private hurried = false;

  constructor(private readonly spacing: number) {}

  /** `store`, its cassettes' writes spaced. */
  wrap(store: CassetteStore): CassetteStore {
    const open = store.open.bind(store);
    return Object.assign(Object.create(store) as CassetteStore, {
      open: async (name: string, upstream: string): Promise<Low<Cassette>> => {
        const db = await open(name, upstream);
        const write = db.write.bind(db);
        db.write = async () => {
          await this.pause();
          const t = performance.now();
          try {
            await write();
          } finally {
            this.lastEnd = performance.now();
            this.lastMs = this.lastEnd - t;
          }
        };
        return db;
      },
    });
  }

  /** Ends the pause under way and any later one: every write from now on is at once. */
  hurry(): void {
    this.hurried = true;
    this.wake?.();
  }

  private pause(): Promise<void> {
    const wait = this.lastEnd + this.spacing * this.lastMs - performance.now();
    if (this.hurried || wait <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.woken(resolve), wait);
      this.wake = () => {
        clearTimeout(timer);
        this.woken(resolve);
      };
    });
  }

  private woken(resolve: () => void): void {
    this.wake = null;
    resolve();
  }
}
