import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { StateHolder, StateLink, StateLinkError } from '../../../src/replay/state-link.js';
import { channelPair, socketChannel } from '../../../src/replay/state-channels.js';
import { newSessionKey } from '../../../src/replay/signed-session.js';
import type { WriteEntry } from '../../../src/api/session.js';

const entry = (title: string, text = 'x'): WriteEntry => ({ action: 'edit', user: 'Admin', params: { title, text }, timestamp: '2024-03-10T00:00:00Z', result: { result: 'Success' } });

function linked(holder: StateHolder): StateLink {
  const [mine, its] = channelPair();
  holder.attach(its);
  return new StateLink(mine);
}

describe('the state processes share', () => {
  it('gives every link the holder\'s key', async () => {
    const key = newSessionKey();
    const holder = new StateHolder(key);
    expect((await linked(holder).key).equals(key)).toBe(true);
  });

  it('keeps one write log per scope, read and cleared through any link once a write is settled', async () => {
    const holder = new StateHolder(newSessionKey());
    const [a, b] = [linked(holder), linked(holder)];
    a.state('').addWrite(entry('One'));
    b.state('').addWrite(entry('Two'));
    b.state('suite').addWrite(entry('Three'));
    await Promise.all([a.state('').settled(), b.state('').settled()]);
    for (const l of [a, b]) expect((await l.state('').readWrites()).writes.map((w) => w.params['title'])).toEqual(['One', 'Two']);
    expect((await a.state('suite').readWrites()).writes.map((w) => w.params['title'])).toEqual(['Three']);
    await b.state('').clearWrites();
    expect(await a.state('').readWrites()).toEqual({ writes: [], dropped: 0 });
    expect(a.state('').heldWrites()).toBeNull();
  });

  it('ends a session in every process before the logout is settled, and tells a process that joins later', async () => {
    const holder = new StateHolder(newSessionKey());
    const [a, b] = [linked(holder), linked(holder)];
    await Promise.all([a.key, b.key]);
    a.state('').revoke('n1');
    expect(a.state('').revoked('n1')).toBe(true);
    await a.state('').settled();
    expect(b.state('').revoked('n1')).toBe(true);
    expect(b.state('suite').revoked('n1')).toBe(false);
    const late = linked(holder);
    await late.key;
    expect(late.state('').revoked('n1')).toBe(true);
  });

  it('tells every process of a write before it is settled (reads after it are refused there too), of an emptied log, and a process that joins later', async () => {
    const holder = new StateHolder(newSessionKey());
    const [a, b] = [linked(holder), linked(holder)];
    await Promise.all([a.key, b.key]);
    expect(b.state('').lastWrite()).toBeNull();
    a.state('').addWrite(entry('One'));
    expect(a.state('').lastWrite()).toEqual({ action: 'edit', target: 'One' });
    await a.state('').settled();
    expect(b.state('').lastWrite()).toEqual({ action: 'edit', target: 'One' });
    expect(b.state('suite').lastWrite()).toBeNull();
    const late = linked(holder);
    await late.key;
    expect(late.state('').lastWrite()).toEqual({ action: 'edit', target: 'One' });
    await b.state('').clearWrites();
    for (const l of [a, b, late]) expect(l.state('').lastWrite()).toBeNull();
  });

  it('carries a big write log over a socket, one JSON message per line', async () => {
    const holder = new StateHolder(newSessionKey());
    const server = createServer((s) => holder.attach(socketChannel(s)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const socket: Socket = connect((server.address() as { port: number }).port, '127.0.0.1');
    const link = new StateLink(socketChannel(socket));
    try {
      await link.key;
      for (let i = 0; i < 8; i++) link.state('').addWrite(entry(`Big ${i}`, 'ж\n'.repeat(30_000)));
      await link.state('').settled();
      const log = await link.state('').readWrites();
      expect(log.writes).toHaveLength(8);
      expect(log.writes[7]!.params['text']).toBe('ж\n'.repeat(30_000));
    } finally {
      link.close();
      server.close();
    }
  });

  it('says so when the holder is gone: what waits for it fails instead of hanging', async () => {
    const holder = new StateHolder(newSessionKey());
    const server = createServer((s) => holder.attach(socketChannel(s)));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const joined: Socket[] = [];
    server.on('connection', (s) => joined.push(s));
    const link = new StateLink(socketChannel(connect((server.address() as { port: number }).port, '127.0.0.1')));
    await link.key;
    server.close();
    for (const s of joined) s.destroy();
    await expect(link.state('').readWrites()).rejects.toBeInstanceOf(StateLinkError);
  });
});
