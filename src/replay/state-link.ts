import { writtenMark, type SharedSessionState, type WriteEntry, type WriteLogView, type WrittenMark } from '../api/session.js';
import { HeldState, RevokedSessions } from './shared-state.js';

/**
 * The state several processes serving one set of cassettes share (docs/decisions/0019-many-processes.md):
 * one process holds it (StateHolder: the primary of `--workers N`, or the server started with
 * `--state-socket`), the others reach it over a channel (StateLink: cluster IPC, a Unix socket).
 * What is shared: the session key, each engine's write log, and the sessions logged out. A write,
 * an emptied write log or a logout is acknowledged only once every process has it (a write's
 * mark: every process refuses reads after it, request/after-writes.ts), and an answer waits for
 * that: whichever process the client asks next knows it.
 */

/** The messages of the link. `id` pairs a request with its `done`. */
export type LinkMessage =
  | { wikitape: 'hello' }
  | { wikitape: 'welcome'; key: string; revoked: [scope: string, nonce: string][]; written: [scope: string, mark: WrittenMark][] }
  | { wikitape: 'wrote'; id: number; scope: string; mark: WrittenMark | null }
  | { wikitape: 'write'; id: number; scope: string; entry: WriteEntry }
  | { wikitape: 'revoke'; id: number; scope: string; nonce: string }
  | { wikitape: 'read'; id: number; scope: string }
  | { wikitape: 'clear'; id: number; scope: string }
  | { wikitape: 'done'; id: number; log?: WriteLogView };

/** A two-way channel of LinkMessages (cluster IPC, a socket, or in memory: state-channels.ts). */
export interface StateChannel {
  send(message: LinkMessage): void;
  onMessage(listener: (message: LinkMessage) => void): void;
  onClose(listener: () => void): void;
  /** Ends the channel (a socket's connection); nothing for a process's own IPC. */
  end?(): void;
}

/** Engines (suites) whose shared state the holder keeps, least recently used first out: the sets a client can name are endless. */
const MAX_SHARED_SCOPES = 64;

/** The process that holds the shared state, answering the others' links. */
export class StateHolder {
  private readonly scopes = new Map<string, HeldState>();
  private readonly channels = new Set<StateChannel>();
  /** Logouts and writes sent to every other process, waiting for their acknowledgements. */
  private readonly waiting = new Map<number, { left: Set<StateChannel>; done: () => void }>();
  private next = 1;

  constructor(private readonly key: Buffer) {}

  /** Serves one process's link. */
  attach(channel: StateChannel): void {
    this.channels.add(channel);
    channel.onMessage((m) => this.receive(channel, m));
    channel.onClose(() => {
      this.channels.delete(channel);
      for (const [id, w] of this.waiting) if (w.left.delete(channel) && w.left.size === 0) this.finish(id);
    });
  }

  private scope(name: string): HeldState {
    let s = this.scopes.get(name);
    if (s) this.scopes.delete(name);
    this.scopes.set(name, (s ??= new HeldState()));
    if (this.scopes.size > MAX_SHARED_SCOPES) this.scopes.delete(this.scopes.keys().next().value!);
    return s;
  }

  private receive(from: StateChannel, m: LinkMessage): void {
    switch (m.wikitape) {
      case 'hello':
        return from.send({
          wikitape: 'welcome',
          key: this.key.toString('base64'),
          revoked: [...this.scopes].flatMap(([scope, s]) => s.revokedSessions.list().map((n): [string, string] => [scope, n])),
          written: [...this.scopes].flatMap(([scope, s]) => {
            const last = s.log.last();
            return last ? [[scope, writtenMark(last)] as [string, WrittenMark]] : [];
          }),
        });
      case 'write':
        this.scope(m.scope).log.add(m.entry);
        return this.tellOthers(from, m.id, (id) => ({ wikitape: 'wrote', id, scope: m.scope, mark: writtenMark(m.entry) }));
      case 'read':
        return from.send({ wikitape: 'done', id: m.id, log: this.scopes.get(m.scope)?.view() ?? { writes: [], dropped: 0 } });
      case 'clear':
        this.scopes.get(m.scope)?.log.clear();
        return this.tellOthers(from, m.id, (id) => ({ wikitape: 'wrote', id, scope: m.scope, mark: null }));
      case 'revoke':
        this.scope(m.scope).revokedSessions.add(m.nonce);
        return this.tellOthers(from, m.id, (id) => ({ wikitape: 'revoke', id, scope: m.scope, nonce: m.nonce }));
      case 'done':
        return this.acknowledged(from, m.id);
      default:
    }
  }

  /** A logout or a write (kept by the caller): sent to every other process, and acknowledged to `from` once they all have it. */
  private tellOthers(from: StateChannel, asked: number, message: (id: number) => LinkMessage): void {
    const others = new Set([...this.channels].filter((c) => c !== from));
    const id = this.next++;
    this.waiting.set(id, { left: others, done: () => from.send({ wikitape: 'done', id: asked }) });
    if (others.size === 0) return this.finish(id);
    for (const c of others) c.send(message(id));
  }

  private acknowledged(from: StateChannel, id: number): void {
    const w = this.waiting.get(id);
    if (w?.left.delete(from) && w.left.size === 0) this.finish(id);
  }

  private finish(id: number): void {
    const w = this.waiting.get(id);
    this.waiting.delete(id);
    w?.done();
  }
}

/** The link's channel closed: the holder is gone, and with it the write log and the logouts. */
export class StateLinkError extends Error {
  readonly code = 'wikitape-statelink';
}

const DONE = Promise.resolve();

/** A process's link to the holder: the session key, and a SharedSessionState per engine. */
export class StateLink {
  private next = 1;
  private readonly asked = new Map<number, { resolve: (m: LinkMessage) => void; reject: (e: Error) => void }>();
  private readonly revoked = new Map<string, RevokedSessions>();
  /** Each scope's newest write, as the holder said it (and as this process made it). */
  private readonly written = new Map<string, WrittenMark>();
  private readonly unsettled = new Set<Promise<unknown>>();
  private closed = false;
  /** The session key, once the holder said it. */
  readonly key: Promise<Buffer>;

  constructor(private readonly channel: StateChannel) {
    let welcome!: (key: Buffer) => void;
    let gone!: (e: Error) => void;
    this.key = new Promise<Buffer>((resolve, reject) => ((welcome = resolve), (gone = reject)));
    this.key.catch(() => undefined);
    channel.onMessage((m) => {
      if (m.wikitape === 'welcome') {
        for (const [scope, nonce] of m.revoked) this.revokedIn(scope).add(nonce);
        for (const [scope, mark] of m.written) this.written.set(scope, mark);
        welcome(Buffer.from(m.key, 'base64'));
      } else if (m.wikitape === 'revoke') {
        this.revokedIn(m.scope).add(m.nonce);
        channel.send({ wikitape: 'done', id: m.id });
      } else if (m.wikitape === 'wrote') {
        this.wrote(m.scope, m.mark);
        channel.send({ wikitape: 'done', id: m.id });
      } else if (m.wikitape === 'done') this.answered(m);
    });
    channel.onClose(() => {
      this.closed = true;
      const e = new StateLinkError('the process holding the shared write log and sessions is gone (docs/decisions/0019-many-processes.md)');
      gone(e);
      for (const a of this.asked.values()) a.reject(e);
      this.asked.clear();
    });
    channel.send({ wikitape: 'hello' });
  }

  private revokedIn(scope: string): RevokedSessions {
    let r = this.revoked.get(scope);
    if (!r) this.revoked.set(scope, (r = new RevokedSessions()));
    return r;
  }

  private wrote(scope: string, mark: WrittenMark | null): void {
    if (mark) this.written.set(scope, mark);
    else this.written.delete(scope);
  }

  private answered(m: Extract<LinkMessage, { wikitape: 'done' }>): void {
    const a = this.asked.get(m.id);
    this.asked.delete(m.id);
    a?.resolve(m);
  }

  /** Sends a request and resolves with the holder's `done`. */
  private ask(make: (id: number) => LinkMessage): Promise<LinkMessage> {
    if (this.closed) return Promise.reject(new StateLinkError('the process holding the shared write log and sessions is gone'));
    const id = this.next++;
    const p = new Promise<LinkMessage>((resolve, reject) => this.asked.set(id, { resolve, reject }));
    this.channel.send(make(id));
    return p;
  }

  /** Something the holder must have before the answer goes out. */
  private owe(p: Promise<unknown>): void {
    const kept = p.finally(() => this.unsettled.delete(kept));
    kept.catch(() => undefined);
    this.unsettled.add(kept);
  }

  /** Ends the link (its server closes). */
  close(): void {
    this.channel.end?.();
  }

  /** The shared state of one engine (its scope). */
  state(scope: string): SharedSessionState {
    return {
      addWrite: (entry) => {
        this.wrote(scope, writtenMark(entry));
        this.owe(this.ask((id) => ({ wikitape: 'write', id, scope, entry })));
      },
      lastWrite: () => this.written.get(scope) ?? null,
      revoke: (nonce) => {
        this.revokedIn(scope).add(nonce);
        this.owe(this.ask((id) => ({ wikitape: 'revoke', id, scope, nonce })));
      },
      revoked: (nonce) => this.revoked.get(scope)?.has(nonce) ?? false,
      settled: () => (this.unsettled.size === 0 ? DONE : Promise.all([...this.unsettled]).then(() => undefined)),
      readWrites: async () => {
        const m = await this.ask((id) => ({ wikitape: 'read', id, scope }));
        return (m.wikitape === 'done' && m.log) || { writes: [], dropped: 0 };
      },
      clearWrites: async () => {
        this.wrote(scope, null);
        await this.ask((id) => ({ wikitape: 'clear', id, scope }));
      },
      heldWrites: () => null,
    };
  }
}
