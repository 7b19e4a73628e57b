import { createServer, request as httpRequest } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { Client } from '../support/cookie-client.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * Logged-in sessions against a real MediaWiki (1.39 and 1.43): a bot logs in through the
 * recorder, reads as itself; replay logs it in offline and answers it what the wiki answered,
 * and never answers an anonymous request from its recordings. `record --mode new` asks the wiki
 * only what the cassette lacks, counted at the wiki.
 */

const without = (b: Record<string, unknown>) => {
  const { debuginfo: _d, ...rest } = b;
  return rest;
};

async function login(c: Client, user: string, password: string): Promise<Record<string, unknown>> {
  const token = await c.token('login');
  return (await c.call({ action: 'login', lgname: user, lgpassword: password, lgtoken: token })).body['login'] as Record<string, unknown>;
}

describe.each(LIVE_VERSIONS)('MediaWiki %s', (version) => {
  it('a logged-in recording answers only the same user, offline; never an anonymous request', async () => {
    const live = await liveWiki(version);
    const { user, password } = await live.credentials();
    const rights = { action: 'query', meta: 'userinfo', uiprop: 'groups|rights' };
    const blocks = { action: 'query', list: 'blocks', bklimit: '3' };
    // The wiki itself, logged in and not.
    const direct = new Client(live.apiUrl);
    expect(await login(direct, user, password)).toMatchObject({ result: 'Success' });
    const liveMine = without((await direct.call(rights, 'GET')).body);
    const liveBlocks = without((await direct.call(blocks, 'GET')).body);
    const liveAnon = without((await new Client(live.apiUrl).call(rights, 'GET')).body);
    expect(liveMine).not.toEqual(liveAnon);

    const dir = await mkdtemp(join(tmpdir(), 'wikitape-live-sessions-'));
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'bot' });
    const bot = new Client(recorder.url);
    expect(await login(bot, user, password)).toMatchObject({ result: 'Success' });
    expect(without((await bot.call(rights, 'GET')).body)).toEqual(liveMine);
    expect(without((await bot.call(blocks, 'GET')).body)).toEqual(liveBlocks);
    await recorder.close();
    const file = await readFile(join(dir, 'bot.json'), 'utf8');
    expect(file).toContain(`"user": "${user}"`);
    expect(file).not.toContain(password);
    for (const v of bot.jar.values()) expect(file).not.toContain(v);

    const replay = await startServer({ cassettes: dir, onMiss: 'error' });
    try {
      // Anonymous, the very question the bot recorded: never the bot's answer.
      const anon = await new Client(replay.url).call(rights, 'GET');
      expect(anon.body['query']?.userinfo?.name).not.toBe(liveMine['query'] && (liveMine['query'] as { userinfo: { name: string } }).userinfo.name);
      expect(anon.headers.get('x-wikitape-source')).toBe('miss');
      // With the cookies the bot had on the wiki (replay never logged them in): still anonymous.
      const stolen = new Client(replay.url);
      stolen.jar = new Map(bot.jar);
      expect((await stolen.call(rights, 'GET')).headers.get('x-wikitape-source')).toBe('miss');
      // The bot logs in offline and gets what the wiki answered it.
      const offline = new Client(replay.url);
      const ok = await login(offline, user, 'a password replay cannot check');
      expect(ok).toEqual({ result: 'Success', lguserid: 1, lgusername: user.split('@')[0] });
      expect(without((await offline.call(rights, 'GET')).body)).toEqual(liveMine);
      expect(without((await offline.call(blocks, 'GET')).body)).toEqual(liveBlocks);
    } finally {
      await replay.close();
    }
  });

  it('record --mode new asks the wiki only the questions the cassette does not hold', async () => {
    const live = await liveWiki(version);
    const target = new URL(live.apiUrl);
    // A counting proxy in front of the wiki: what reaches it is what record mode asked.
    const asked: string[] = [];
    const counter = createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      if (q.get('list') === 'logevents') asked.push(q.get('lelimit') ?? '');
      const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      req.pipe(up);
    });
    await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
    const via = `http://127.0.0.1:${(counter.address() as { port: number }).port}${target.pathname}`;
    try {
      const dir = await mkdtemp(join(tmpdir(), 'wikitape-live-mode-new-'));
      const ask = async (url: string, limit: string) => (await fetch(`${url}?action=query&list=logevents&lelimit=${limit}&format=json&formatversion=2`)).headers.get('x-wikitape-source');
      const first = await startServer({ mode: 'record', upstream: via, cassettes: dir });
      expect([await ask(first.url, '2'), await ask(first.url, '4')]).toEqual(['upstream', 'upstream']);
      await first.close();
      expect(asked).toEqual(['2', '4']);
      const second = await startServer({ mode: 'record', upstream: via, cassettes: dir });
      expect([await ask(second.url, '2'), await ask(second.url, '3'), await ask(second.url, '4')]).toEqual(['cassette', 'upstream', 'cassette']);
      await second.close();
      expect(asked).toEqual(['2', '4', '3']);
      // --mode all asks everything again.
      const third = await startServer({ mode: 'record', upstream: via, cassettes: dir, recordMode: 'all' });
      await ask(third.url, '2');
      await third.close();
      expect(asked).toEqual(['2', '4', '3', '2']);
    } finally {
      counter.close();
    }
  });
});
