import type { Low } from 'lowdb';
import type { Cassette } from '../../src/cassette/format.js';
import type { CassetteStore, FileCassetteStore } from '../../src/cassette/store.js';

/**
 * A cassette store whose writes fail while `fails()` says so (a full disk, a folder mounted
 * read-only, a disk that fills up and frees again), with the error code and text of such a failure.
 */
export class FailingStore implements CassetteStore {
  /** How many writes failed. */
  failures = 0;
  constructor(
    private readonly inner: FileCassetteStore,
    private readonly fails: () => boolean,
    private readonly fault = { code: 'ENOSPC', text: 'no space left on device' },
  ) {}
  list(): Promise<string[]> {
    return this.inner.list();
  }
  locate(name: string): string {
    return this.inner.locate(name);
  }
  async open(name: string, upstreamUrl: string): Promise<Low<Cassette>> {
    const db = await this.inner.open(name, upstreamUrl);
    const write = db.write.bind(db);
    db.write = async () => {
      if (this.fails()) {
        this.failures++;
        throw Object.assign(new Error(`${this.fault.code}: ${this.fault.text}, write`), { code: this.fault.code });
      }
      return write();
    };
    return db;
  }
}
