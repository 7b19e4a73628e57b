import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { StateHolder, StateLink } from '../../src/replay/state-link.js';
import { channelPair } from '../../src/replay/state-channels.js';
import { newSessionKey } from '../../src/replay/signed-session.js';
import { startSharing } from '../../src/workers.js';
import type { WikitapeOptions } from '../../src/options.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';
import { alternatingBot } from '../support/alternating-bot.js';
import { adminAccounts } from '../support/accounts.js';

/**
 * Two processes serving one set of cassettes (docs/decisions/0019-many-processes.md), here two
 * servers in this process sharing the key and the write log through one holder, as the workers
 * of `--workers 2` share them through their primary (the CLI itself: workers-cli.test.ts).
 */

const ACCOUNTS = adminAccounts({ bot: { name: 'wikitape', rights: ['read', 'edit', 'createpage', 'writeapi'] }, rights: ['read', 'edit', 'createpage', 'writeapi', 'apihighlimits'] });

let dir: string;
let options: WikitapeOptions;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-workers-'));
  await writeFile(join(dir, 'accounts.json'), JSON.stringify(ACCOUNTS));
  options = { cassettes: NO_CASSETTES, fixtures: [join(dir, 'accounts.json')], clock: TEST_CLOCK, profile: { version: '1.43.9', debugInfo: false } };
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** `n` servers sharing one holder's key, write log and logouts. */
async function sharedServers(n: number): Promise<RunningServer[]> {
  const holder = new StateHolder(newSessionKey());
  const out: RunningServer[] = [];
  for (let i = 0; i < n; i++) {
    const [mine, its] = channelPair();
    holder.attach(its);
    const link = new StateLink(mine);
    out.push(await startServer({ ...options, sharing: { key: await link.key, state: (scope) => link.state(scope) } }));
  }
  return out;
}

async function closeAll(servers: { close(): Promise<void> }[]): Promise<void> {
  await Promise.all(servers.map((s) => s.close()));
}

/** A client's cookie jar, for a few steps by hand. */
async function loginCookie(url: string, name: string, password: string): Promise<string> {
  const t = await fetch(`${url}?action=query&meta=tokens&type=login&format=json`);
  const first = t.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const token = ((await t.json()) as any).query.tokens.logintoken as string;
  const r = await fetch(url, { method: 'POST', headers: { cookie: first, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ action: 'login', lgname: name, lgpassword: password, lgtoken: token, format: 'json' }) });
  expect(((await r.json()) as any).login.result).toBe('Success');
  return r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

const get = async (url: string, query: string, cookie?: string) => {
  const r = await fetch(`${url}?${query}&format=json&formatversion=2`, cookie ? { headers: { cookie } } : {});
  return { status: r.status, cookies: r.headers.getSetCookie(), error: r.headers.get('mediawiki-api-error'), body: (await r.json()) as any };
};

const post = async (url: string, params: Record<string, string>, cookie: string) => {
  const r = await fetch(url, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...params, format: 'json', formatversion: '2' }) });
  return { cookies: r.headers.getSetCookie(), error: r.headers.get('mediawiki-api-error'), body: (await r.json()) as any };
};

describe('two processes serving one set of cassettes', () => {
  it('answer a bot that logs in, reads, gets a CSRF token and edits, alternating between them, as one server does, with one write log', async () => {
    const [one] = await sharedServers(1);
    const two = await sharedServers(2);
    const alone = await startServer(options);
    try {
      for (const login of [{ name: 'Admin@wikitape', password: 'bot-password' }, { name: 'Admin', password: 'main-password' }]) {
        const single = await alternatingBot([alone.url], login);
        const shared = await alternatingBot([one!.url], login);
        const alternating = await alternatingBot(two.map((s) => s.url), login);
        // The same answers, step by step, cookie names and attributes included.
        expect(alternating.seen).toEqual(single.seen);
        expect(shared.seen).toEqual(single.seen);
        // One write log, the same from either process: both edits, by the logged-in identity.
        const log = alternating.writes[0] as { writes: { action: string; user: string; params: { title: string } }[]; dropped: number };
        expect(alternating.writes[1]).toEqual(log);
        expect(log.dropped).toBe(0);
        expect(log.writes.map((w) => [w.action, w.user, w.params.title])).toEqual([
          ['edit', login.name, 'Sandbox'],
          ['edit', login.name, 'Sandbox/2'],
        ]);
        expect(single.writes[0]).toEqual(log);
        for (const s of [alone, one!, two[0]!]) s.clearWrites();
        await fetch(new URL('/_wikitape/writes', two[1]!.url), { method: 'DELETE' });
      }
      // Cleared through one process, cleared for all.
      expect(await (await fetch(new URL('/_wikitape/writes', two[0]!.url))).json()).toEqual({ writes: [], dropped: 0 });
    } finally {
      await closeAll([one!, ...two, alone]);
    }
  });

  it('answer the bot as one server does when one holds the state at a Unix socket and the other joins it (a fleet)', async () => {
    const alone = await startServer(options);
    const sock = join(dir, 'state.sock');
    const holder = await startSharing(options, { workers: 1, stateSocket: sock });
    const joined = await startSharing(options, { workers: 1, join: sock });
    try {
      // The socket hands out the session key: nobody but its owner may connect.
      expect((await stat(sock)).mode & 0o077).toBe(0);
      const login = { name: 'Admin@wikitape', password: 'bot-password' };
      const single = await alternatingBot([alone.url], login);
      const fleet = await alternatingBot([holder.url, joined.url], login);
      expect(fleet.seen).toEqual(single.seen);
      expect(fleet.writes).toEqual([single.writes[0], single.writes[0]]);
      // A second holder at the same socket is refused, saying why.
      await expect(startSharing(options, { workers: 1, stateSocket: sock })).rejects.toThrow(`--state-socket ${sock} is in use`);
    } finally {
      await closeAll([joined, holder, alone]);
    }
    // Closed, the holder's socket is gone: nobody can join it.
    await expect(startSharing(options, { workers: 1, join: sock })).rejects.toThrow(`--join ${sock}: no server holds the shared state there`);
  });

  it('refuse a read after a write made through the other process, until the write log is emptied through either', async () => {
    const [a, b] = await sharedServers(2);
    try {
      const cookie = await loginCookie(a!.url, 'Admin@wikitape', 'bot-password');
      expect((await get(b!.url, 'action=query&meta=userinfo', cookie)).body.query.userinfo.name).toBe('Admin');
      const csrf = (await get(b!.url, 'action=query&meta=tokens', cookie)).body.query.tokens.csrftoken as string;
      const log = 'action=query&list=logevents&lelimit=1';
      expect((await get(a!.url, log, cookie)).body.query.logevents).toEqual([]);
      expect((await post(a!.url, { action: 'edit', title: 'Sandbox', text: 'x', token: csrf }, cookie)).body.edit.result).toBe('Success');
      // An edit can add to the wiki's log (a page's creation), which replay cannot know; who the session is stays.
      for (const s of [a!, b!]) expect((await get(s.url, log, cookie)).body.error.code).toBe('wikitape-miss');
      for (const s of [a!, b!]) expect((await get(s.url, 'action=query&meta=userinfo', cookie)).body.query.userinfo.name).toBe('Admin');
      expect((await fetch(new URL('/_wikitape/writes', b!.url), { method: 'DELETE' })).status).toBe(200);
      for (const s of [a!, b!]) expect((await get(s.url, log, cookie)).body.query.logevents).toEqual([]);
    } finally {
      await closeAll([a!, b!]);
    }
  });

  it('end a session logged out through one process in the other too', async () => {
    const [a, b] = await sharedServers(2);
    try {
      const cookie = await loginCookie(a!.url, 'Admin@wikitape', 'bot-password');
      expect((await get(b!.url, 'action=query&meta=userinfo', cookie)).body.query.userinfo.name).toBe('Admin');
      const csrf = (await get(b!.url, 'action=query&meta=tokens', cookie)).body.query.tokens.csrftoken as string;
      expect((await post(a!.url, { action: 'logout', token: csrf }, cookie)).body).toEqual({});
      // The old cookie, sent again: anonymous in both, as MediaWiki forgets a logged-out session.
      for (const s of [a!, b!]) expect((await get(s.url, 'action=query&meta=userinfo', cookie)).body.query.userinfo).toEqual({ id: 0, name: '127.0.0.1', anon: true });
    } finally {
      await closeAll([a!, b!]);
    }
  });

  it('treat a tampered or foreign session cookie as MediaWiki treats an unknown session: anonymous, a new session, assertuserfailed, badtoken', async () => {
    const [a, b] = await sharedServers(2);
    const stranger = await startServer(options);
    try {
      const cookie = await loginCookie(a!.url, 'Admin@wikitape', 'bot-password');
      const csrf = (await get(b!.url, 'action=query&meta=tokens', cookie)).body.query.tokens.csrftoken as string;
      const [name, value] = cookie.split('=') as [string, string];
      const flipped = (i: number) => `${value.slice(0, i)}${value[i] === 'A' ? 'B' : 'A'}${value.slice(i + 1)}`;
      // A character of the identity, of the nonce, of the signature changed; a session another key signed.
      const foreign = await loginCookie(stranger.url, 'Admin@wikitape', 'bot-password');
      const forged = [...[value.length - 30, 5, value.length - 1].map((i) => `${name}=${flipped(i)}`), foreign];
      for (const bad of forged) {
        const me = await get(b!.url, 'action=query&meta=userinfo', bad);
        expect(me.body.query.userinfo).toEqual({ id: 0, name: '127.0.0.1', anon: true });
        // The answers of MediaWiki 1.39 and 1.43 to a session id not in their store (checked with curl).
        const asserted = await get(b!.url, 'action=query&meta=userinfo&assert=user', bad);
        expect(asserted.error).toBe('assertuserfailed');
        const edit = await post(a!.url, { action: 'edit', title: 'Sandbox', text: 'x', token: csrf }, bad);
        expect(edit.error).toBe('badtoken');
        expect(edit.cookies.join('\n')).not.toContain(bad.slice(bad.indexOf('=') + 1));
      }
      const written = (await (await fetch(new URL('/_wikitape/writes', a!.url))).json()) as { writes: unknown[] };
      expect(written.writes).toEqual([]);
    } finally {
      await closeAll([a!, b!, stranger]);
    }
  });
});
