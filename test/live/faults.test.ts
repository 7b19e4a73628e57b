import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { NO_CASSETTES } from '../support/app.js';
import { Client } from '../support/cookie-client.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';

/**
 * A bot's bad days, wikitape's against the real ones. The live wiki is made to fail by a second
 * server on its files, started with WIKITAPE_LIVE_FAULT (scripts/live-wiki.sh writes the settings:
 * $wgReadOnly, $wgRateLimits, an ApiMaxLagInfo hook); the usual server never sees them. Then:
 * wikitape's fault answers equal the live wiki's (status, headers, body, in several formats and
 * languages), and mwn and mwclient retry wikitape's maxlag exactly as they retry the live wiki's,
 * and recover from wikitape's maxlag, 503 and 429 as their code says they do.
 */

const run = promisify(execFile);
const CLIENTS = join(import.meta.dirname, '..', 'clients');
const BUNDLED_WIKI = join(import.meta.dirname, '..', '..', 'fixtures', 'default-wiki.json');

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** A second php -S on the live wiki's files, failing as asked. */
async function faultyWiki(live: LiveWiki, fault: string, env: Record<string, string> = {}): Promise<string> {
  const port = await freePort();
  const child: ChildProcess = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', join(live.dir, 'docroot')], {
    cwd: join(live.dir, 'docroot'),
    env: { ...process.env, MW_CONFIG_FILE: join(live.dir, 'LocalSettings.php'), WIKITAPE_LIVE_FAULT: fault, WIKITAPE_LIVE_SERVER: `http://127.0.0.1:${port}`, ...env },
    stdio: 'ignore',
  });
  cleanups.push(() => void child.kill());
  const url = `http://127.0.0.1:${port}/wiki/api.php`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}?action=query&format=json`)).ok) return url;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the failing wiki (${fault}) did not start on port ${port}`);
}

async function wikitape(version: string, faults: string[]): Promise<RunningServer> {
  const s = await startServer({ cassettes: NO_CASSETTES, fixtures: [BUNDLED_WIKI], profile: { version }, faults });
  cleanups.push(() => s.close());
  return s;
}

/** What a client sees of an answer, with the wiki's own address made neutral. */
async function seen(r: Response) {
  const text = (await r.text()).replace(/http:\/\/127\.0\.0\.1:\d+\/wiki\/api\.php/g, 'API');
  const h = (n: string) => r.headers.get(n);
  return { status: r.status, type: h('content-type'), error: h('mediawiki-api-error'), retryAfter: h('retry-after'), lag: h('x-database-lag'), body: JSON.parse(text) as unknown };
}

const ask = (url: string, params: Record<string, string>, method: 'GET' | 'POST' = 'GET', cookie = '') => {
  const q = new URLSearchParams({ format: 'json', ...params });
  return method === 'GET' ? fetch(`${url}?${q}`, { headers: { cookie } }) : fetch(url, { method: 'POST', body: q, headers: { cookie } });
};

const FORMS: Record<string, string>[] = [{}, { formatversion: '2', errorformat: 'plaintext', uselang: 'ru' }, { formatversion: '2', errorformat: 'raw' }, { errorformat: 'wikitext', uselang: 'en' }];

/** A counting proxy: how many requests reached the wiki behind it. */
async function counting(target: string): Promise<{ url: string; count: () => number; server: Server }> {
  const t = new URL(target);
  let n = 0;
  const server = createServer((req, res) => {
    n++;
    const up = httpRequest({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${t.pathname}`, count: () => n, server };
}

const CLIENT = {
  mwn: (url: string, retries: number) => run(process.execPath, [join(CLIENTS, 'mwn-retry.mjs')], { env: { ...process.env, API_URL: url, MAX_RETRIES: String(retries) }, timeout: 60_000 }),
  mwclient: (url: string, retries: number) => run('/usr/bin/python3', [join(CLIENTS, 'mwclient-retry.py')], { env: { ...process.env, API_URL: url, MAX_RETRIES: String(retries) }, timeout: 60_000 }),
};

async function retried(client: keyof typeof CLIENT, target: string, retries: number): Promise<{ outcome: unknown; attempts: number }> {
  const proxy = await counting(target);
  const { stdout } = await CLIENT[client](proxy.url, retries);
  return { outcome: JSON.parse(stdout.trim().split('\n').pop()!), attempts: proxy.count() };
}

describe.each(LIVE_VERSIONS)('MediaWiki %s', (v) => {
  let live: LiveWiki;
  let version = '';
  it('is running', async () => {
    live = await liveWiki(v);
    const si = (await (await ask(live.apiUrl, { action: 'query', meta: 'siteinfo' })).json()) as { query: { general: { generator: string } } };
    version = si.query.general.generator.replace('MediaWiki ', '');
    expect(version.startsWith(v)).toBe(true);
  }, 600_000);

  it('maxlag: wikitape answers as the lagged wiki does (lag 7 on host db1)', async () => {
    const wiki = await faultyWiki(live, 'maxlag', { WIKITAPE_LIVE_LAG: '7', WIKITAPE_LIVE_LAG_HOST: 'db1' });
    const tape = await wikitape(version, ['maxlag:lag=7,host=db1']);
    for (const form of FORMS) {
      for (const maxlag of ['5', '0', '6']) {
        const q = { action: 'query', list: 'logevents', lelimit: '1', maxlag, ...form };
        expect(await seen(await ask(tape.url, q)), JSON.stringify(q)).toEqual(await seen(await ask(wiki, q)));
      }
    }
    // enough lag allowed: both answer the question
    const ok = { action: 'query', list: 'logevents', lelimit: '1', maxlag: '10' };
    const [a, b] = [await seen(await ask(tape.url, ok)), await seen(await ask(wiki, ok))];
    expect([a.status, a.error, b.status, b.error]).toEqual([200, null, 200, null]);
  });

  it('readonly: wikitape answers writes and logins as the read-only wiki does, and reads as usual', async () => {
    const reason = 'Обслуживание базы <b>до 12:00</b>';
    const wiki = await faultyWiki(live, 'readonly', { WIKITAPE_LIVE_REASON: reason });
    const tape = await wikitape(version, [`readonly:reason=${reason}`]);
    for (const form of FORMS) {
      for (const q of [
        { action: 'edit', title: 'Песочница', text: 'x', token: '+\\', ...form },
        { action: 'login', lgname: 'Nobody', lgpassword: 'not-a-password', lgtoken: '+\\', ...form },
      ]) {
        expect(await seen(await ask(tape.url, q, 'POST')), JSON.stringify(q)).toEqual(await seen(await ask(wiki, q, 'POST')));
      }
    }
    const read = { action: 'query', list: 'logevents', lelimit: '1' };
    expect([(await seen(await ask(tape.url, read))).error, (await seen(await ask(wiki, read))).error]).toEqual([null, null]);
  });

  it('ratelimited: wikitape answers an edit as the rate-limited wiki does', async () => {
    const wiki = await faultyWiki(live, 'ratelimited');
    const tape = await wikitape(version, ['ratelimited']);
    const c = new Client(wiki);
    const { user, password } = await live.editorCredentials();
    expect((await c.call({ action: 'login', lgname: user, lgpassword: password, lgtoken: await c.token('login') })).body['login'].result).toBe('Success');
    const csrf = await c.token('csrf');
    // one edit an hour: the first may pass (the limiter's count outlives a run)
    const edit = (form: Record<string, string>) => ({ action: 'edit', title: 'Wikitape rate limit', text: `x ${Date.now()}`, summary: 'rate limit', token: csrf, ...form });
    await c.call(edit({ formatversion: '1' }));
    for (const form of FORMS) {
      const [mine, theirs] = [await seen(await ask(tape.url, { ...edit(form), token: '+\\' }, 'POST')), await seen(await ask(wiki, edit(form), 'POST', c.cookie))];
      expect(mine, JSON.stringify(form)).toEqual(theirs);
    }
  });

  it('mwn and mwclient retry wikitape\'s maxlag as they retry the lagged wiki\'s, and recover when it passes', async () => {
    const wiki = await faultyWiki(live, 'maxlag', { WIKITAPE_LIVE_LAG: '9', WIKITAPE_LIVE_LAG_HOST: 'db1' });
    for (const client of ['mwn', 'mwclient'] as const) {
      const always = await wikitape(version, ['maxlag:lag=9,host=db1']);
      const real = await retried(client, wiki, 1);
      expect(await retried(client, always.url, 1), client).toEqual(real);
      // (mwn: gives up with the maxlag error; mwclient: MaximumRetriesExceeded, after waiting Retry-After)
      expect(real.attempts).toBe(2);
      const once = await wikitape(version, ['maxlag:lag=9,first=1']);
      expect(await retried(client, once.url, 1), client).toEqual({ outcome: { ok: true, events: 1 }, attempts: 2 });
    }
  }, 120_000);

  it('mwn and mwclient retry a front cache\'s 503; mwn retries a 429, mwclient gives up on it', async () => {
    for (const client of ['mwn', 'mwclient'] as const) {
      const down = await wikitape(version, ['503:first=2']);
      expect(await retried(client, down.url, 3), client).toEqual({ outcome: { ok: true, events: 1 }, attempts: 3 });
    }
    expect(await retried('mwn', (await wikitape(version, ['429:first=1'])).url, 3)).toEqual({ outcome: { ok: true, events: 1 }, attempts: 2 });
    expect(await retried('mwclient', (await wikitape(version, ['429:first=1'])).url, 3)).toEqual({ outcome: { ok: false, error: 429 }, attempts: 1 });
  }, 120_000);
});
