import type { Socket } from 'node:net';
import type { LinkMessage, StateChannel } from './state-link.js';

/** A LinkMessage: anything else arriving on a process's IPC (cluster's own messages) is not ours. */
function isLinkMessage(m: unknown): m is LinkMessage {
  return typeof m === 'object' && m !== null && typeof (m as { wikitape?: unknown }).wikitape === 'string';
}

/** What a cluster worker (seen from the primary) and a worker's own `process` have in common. */
interface Ipc {
  send?(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
}

/** The IPC channel of a cluster worker: `cluster.fork()`'s Worker in the primary, `process` in the worker. */
export function ipcChannel(ipc: Ipc): StateChannel {
  return {
    send: (m) => void ipc.send?.(m),
    onMessage: (l) => void ipc.on('message', (m) => isLinkMessage(m) && l(m)),
    onClose: (l) => void ipc.on('disconnect', l),
  };
}

/** A socket carrying one JSON message per line (the `--state-socket` of a fleet). */
export function socketChannel(socket: Socket): StateChannel {
  const listeners: ((m: LinkMessage) => void)[] = [];
  // Parts of the line not yet ended: a big write log arrives in many chunks, each looked at once.
  let parts: string[] = [];
  const take = (line: string): boolean => {
    let m: unknown;
    try {
      m = JSON.parse(line);
    } catch {
      // Not a peer of ours: the link ends rather than guess.
      socket.destroy();
      return false;
    }
    if (isLinkMessage(m)) for (const l of listeners) l(m);
    return true;
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', from)) {
      parts.push(chunk.slice(from, nl));
      const line = parts.join('');
      parts = [];
      from = nl + 1;
      if (!take(line)) return;
    }
    if (from < chunk.length) parts.push(chunk.slice(from));
  });
  // A peer gone away is a closed link, not an unhandled error.
  socket.on('error', () => socket.destroy());
  return {
    send: (m) => void (socket.writable && socket.write(`${JSON.stringify(m)}\n`)),
    onMessage: (l) => void listeners.push(l),
    onClose: (l) => void socket.on('close', l),
    end: () => void socket.end(),
  };
}

/** Two ends of a channel within one process (the holder's own server, and tests): delivered in order, after the current task. */
export function channelPair(): [StateChannel, StateChannel] {
  const make = (): { listeners: ((m: LinkMessage) => void)[]; closers: (() => void)[] } => ({ listeners: [], closers: [] });
  const ends = [make(), make()];
  const channel = (own: number): StateChannel => ({
    send: (m) => queueMicrotask(() => ends[1 - own]!.listeners.forEach((l) => l(structuredClone(m)))),
    onMessage: (l) => void ends[own]!.listeners.push(l),
    onClose: (l) => void ends[own]!.closers.push(l),
  });
  return [channel(0), channel(1)];
}
