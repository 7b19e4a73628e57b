import cluster, { type Worker } from 'node:cluster';
import { chmod, rm } from 'node:fs/promises';
import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { parseFault } from './faults/spec.js';
import type { LoadedSources, WikitapeOptions } from './options.js';
import { channelPair, ipcChannel, socketChannel } from './replay/state-channels.js';
import { StateHolder, StateLink, type StateChannel } from './replay/state-link.js';
import { newSessionKey } from './replay/signed-session.js';
import { startServer } from './server.js';

/**
 * Replay from several processes (docs/decisions/0019-many-processes.md): `--workers N` forks N
 * processes (node:cluster) that serve one port, the primary holding what they share (the session
 * key, the write log, the logouts); `--state-socket PATH` makes a server hold that for other
 * servers too (a fleet behind a load balancer), which `--join PATH` connects to.
 */

/** How a replay server shares its sessions and write log with other processes. */
export interface Sharing {
  /** Processes serving the port (node:cluster); 1 serves from this process. */
  workers: number;
  /** Hold the shared state and let other servers join it at this Unix socket. */
  stateSocket?: string;
  /** Join the shared state another server holds at this Unix socket. */
  join?: string;
}

/** What the CLI prints at start, of a server or of the first worker. */
export interface Started {
  url: string;
  port: number;
  suites?: string[];
  sources?: LoadedSources;
  profile?: { version: string; language: string };
  close(): Promise<void>;
}

/** A combination several processes cannot serve as one. */
class WorkersError extends Error {
  readonly code = 'wikitape-workers';
}

/** The most worker processes `--workers` starts. */
const MAX_WORKERS = 64;

/**
 * Refuses what would answer differently from several processes: a server fault that counts
 * requests (`first=`) or draws from a sequence (`rate=`) counts in each process, and a usage
 * file written by several processes at once would lose some of them.
 */
export function checkSharing(options: WikitapeOptions, sharing: Sharing): void {
  if (!Number.isInteger(sharing.workers) || sharing.workers < 1 || sharing.workers > MAX_WORKERS) {
    throw new WorkersError(`--workers takes a whole number from 1 to ${MAX_WORKERS}, not ${sharing.workers}`);
  }
  if (sharing.join !== undefined && sharing.stateSocket !== undefined) throw new WorkersError('--join and --state-socket exclude each other: a server either holds the shared state or joins it');
  const many = sharing.workers > 1 || sharing.join !== undefined || sharing.stateSocket !== undefined;
  if (!many) return;
  const counted = (options.faults ?? []).map((f) => parseFault(f)).find((f) => f.first !== null || f.rate !== null);
  if (counted) throw new WorkersError(`--fault ${counted.text} counts the requests of one process; with several processes give it per request (the X-Wikitape-Fault header) or serve it from one process`);
}

/** This process is a worker `--workers` forked. */
export function isWorker(): boolean {
  return cluster.isWorker;
}

/** Starts replay as the sharing options say: in this process, or as the primary of N workers. */
export async function startSharing(options: WikitapeOptions, sharing: Sharing): Promise<Started> {
  checkSharing(options, sharing);
  if (sharing.join !== undefined && sharing.workers === 1) return startLinked(options, await joinSocket(sharing.join));
  const holder = sharing.join === undefined ? new StateHolder(newSessionKey()) : null;
  const socket = holder && sharing.stateSocket !== undefined ? await holdSocket(holder, sharing.stateSocket) : null;
  if (sharing.workers === 1) {
    // The holder's own server reaches it as the others do, through a link (in memory).
    const [mine, its] = channelPair();
    holder!.attach(its);
    const started = await startLinked(options, mine);
    return { ...started, close: async () => (await started.close(), await closeSocket(socket, sharing.stateSocket)) };
  }
  return startPrimary(sharing.workers, holder, async () => closeSocket(socket, sharing.stateSocket));
}

/** A server whose sessions and write log are shared over `channel`. */
async function startLinked(options: WikitapeOptions, channel: StateChannel): Promise<Started> {
  const link = new StateLink(channel);
  const key = await link.key;
  const server = await startServer({ ...options, sharing: { key, state: (scope) => link.state(scope) } });
  return { ...server, close: async () => (await server.close(), link.close()) };
}

/** The holder's socket server, and the connections of the servers that joined. */
interface HeldSocket {
  server: NetServer;
  joined: Set<Socket>;
}

async function holdSocket(holder: StateHolder, path: string): Promise<HeldSocket> {
  const joined = new Set<Socket>();
  const server = createNetServer((s) => {
    joined.add(s);
    s.once('close', () => joined.delete(s));
    holder.attach(socketChannel(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'EADDRINUSE' ? new WorkersError(`--state-socket ${path} is in use (another server holds it, or a stale socket file is left: remove it)`) : e));
    server.listen(path, () => resolve());
  });
  // Whoever connects is sent the session key: only this account may (not its group, whatever the umask).
  await chmod(path, 0o600);
  return { server, joined };
}

/** Closes the holder's socket; servers still joined lose their link (they answer with StateLinkError). */
async function closeSocket(held: HeldSocket | null, path: string | undefined): Promise<void> {
  if (!held) return;
  const closed = new Promise<void>((resolve) => held.server.close(() => resolve()));
  for (const s of held.joined) s.destroy();
  await closed;
  if (path !== undefined) await rm(path, { force: true });
}

async function joinSocket(path: string): Promise<StateChannel> {
  const socket = connect(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', (e) => reject(new WorkersError(`--join ${path}: no server holds the shared state there (${(e as NodeJS.ErrnoException).code ?? e.message}); start one with --state-socket ${path}`)));
  });
  return socketChannel(socket);
}

/** The messages a worker sends its primary besides the state link's. */
type WorkerNews = { wikitape: 'listening'; url: string; port: number; suites?: string[]; sources?: LoadedSources; profile?: { version: string; language: string } } | { wikitape: 'failed'; message: string; code?: string };

/** The worker's side: serves with the primary's key and state (or a --join socket's), says where, and stops when told. */
export async function serveAsWorker(options: WikitapeOptions, sharing: Sharing): Promise<void> {
  // The primary stops the workers one after another (each writes its usage file in turn); a terminal's ^C is the primary's to handle.
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => undefined);
  let started: Started;
  try {
    started = await startLinked(options, sharing.join !== undefined ? await joinSocket(sharing.join) : ipcChannel(process));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    process.send?.({ wikitape: 'failed', message: (e as Error).message, ...(code ? { code } : {}) } satisfies WorkerNews);
    return process.exit(1);
  }
  const stop = () => void started.close().finally(() => process.exit(0));
  process.on('message', (m) => (m as { wikitape?: string } | null)?.wikitape === 'stop' && stop());
  // The primary gone (killed), the worker goes too.
  process.on('disconnect', stop);
  const { url, port, suites, sources, profile } = started;
  const news: WorkerNews = { wikitape: 'listening', url, port, ...(suites ? { suites } : {}), ...(sources ? { sources } : {}), ...(profile ? { profile: { version: profile.version, language: profile.language } } : {}) };
  process.send?.(news);
}

/** The primary: forks the workers, holds their shared state, and stops them one by one. */
async function startPrimary(n: number, holder: StateHolder | null, closeHeld: () => Promise<void>): Promise<Started> {
  let stopping = false;
  const fork = (): Worker => {
    const w = cluster.fork();
    if (holder) holder.attach(ipcChannel(w));
    return w;
  };
  const workers = Array.from({ length: n }, fork);
  const first = await Promise.all(workers.map((w) => listening(w))).catch(async (e: unknown) => {
    for (const w of workers) w.process.kill();
    throw e;
  });
  // A worker that dies while serving is replaced (its clients see a reset connection, as with any crash).
  cluster.on('exit', (w, code, signal) => {
    if (stopping) return;
    process.stderr.write(`wikitape: worker ${w.process.pid ?? '?'} exited (${signal ?? code}); starting another\n`);
    const i = workers.indexOf(w);
    if (i >= 0) workers[i] = fork();
  });
  return {
    ...first[0]!,
    close: async () => {
      stopping = true;
      for (const w of workers) await stopWorker(w);
      await closeHeld();
    },
  };
}

/** Resolves with a worker's start news; rejects when it failed or exited first. */
function listening(w: Worker): Promise<Omit<Started, 'close'>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number) => reject(new WorkersError(`a worker exited at start (code ${code})`));
    w.once('exit', onExit);
    w.on('message', (m: WorkerNews) => {
      // The worker's own error, with its code (EADDRINUSE: the CLI says which port to change).
      if (m?.wikitape === 'failed') reject(Object.assign(new Error(m.message), m.code ? { code: m.code } : {}));
      if (m?.wikitape !== 'listening') return;
      w.off('exit', onExit);
      const { wikitape: _, ...started } = m;
      resolve(started);
    });
  });
}

function stopWorker(w: Worker): Promise<void> {
  if (w.isDead()) return Promise.resolve();
  return new Promise((resolve) => {
    w.once('exit', () => resolve());
    w.send({ wikitape: 'stop' });
  });
}
