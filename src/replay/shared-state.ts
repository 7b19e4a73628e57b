import { writtenMark, type SharedSessionState, type WriteEntry, type WriteLogView, type WrittenMark } from '../api/session.js';
import { WriteLog } from './write-log.js';

/** Sessions logged out that are remembered (oldest forgotten first): a suite that logs in and out over and over stays bounded. */
const MAX_REVOKED = 100_000;

/** A bounded set of ended sessions' nonces, oldest forgotten first. */
export class RevokedSessions {
  private readonly nonces = new Set<string>();

  add(nonce: string): void {
    this.nonces.add(nonce);
    if (this.nonces.size > MAX_REVOKED) this.nonces.delete(this.nonces.values().next().value!);
  }

  has(nonce: string): boolean {
    return this.nonces.has(nonce);
  }

  list(): string[] {
    return [...this.nonces];
  }
}

/** The shared state of one engine held by this process: its write log and ended sessions. */
export class HeldState {
  readonly log = new WriteLog();
  readonly revokedSessions = new RevokedSessions();

  view(): WriteLogView {
    return { writes: this.log.writes(), dropped: this.log.dropped };
  }
}

const DONE = Promise.resolve();

/** One server on its own: the state lives in this process, and everything is settled at once. */
export class LocalState implements SharedSessionState {
  private readonly held = new HeldState();

  addWrite(entry: WriteEntry): void {
    this.held.log.add(entry);
  }

  revoke(nonce: string): void {
    this.held.revokedSessions.add(nonce);
  }

  revoked(nonce: string): boolean {
    return this.held.revokedSessions.has(nonce);
  }

  lastWrite(): WrittenMark | null {
    const last = this.held.log.last();
    return last && writtenMark(last);
  }

  settled(): Promise<void> {
    return DONE;
  }

  readWrites(): Promise<WriteLogView> {
    return Promise.resolve(this.held.view());
  }

  clearWrites(): Promise<void> {
    this.held.log.clear();
    return DONE;
  }

  heldWrites(): WriteLogView {
    return this.held.view();
  }
}
