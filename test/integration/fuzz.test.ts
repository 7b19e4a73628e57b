import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Cassette } from '../../src/cassette/format.js';
import { FileCassetteStore } from '../../src/cassette/store.js';
import { Recorder } from '../../src/record/recorder.js';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, startServer, type RunningServer } from '../../src/server.js';
import { MINI_WIKI, TEST_CLOCK } from '../support/app.js';
import { FailingStore } from '../support/failing-store.js';

/**
 * Malformed requests of every kind against replay (cassettes and the built-in wiki): every answer
 * is a MediaWiki answer (JSON with `error` or data), never a 5xx, and the server keeps answering.
 * FUZZ_COUNT sets the number of requests (CI: a reduced count; `npm run fuzz`: the full one).
 */
const COUNT = Number(process.env['FUZZ_COUNT'] ?? 2000);
/**
 * Time per request a test may take: about 30 times what it takes on an idle machine (a replayed
 * request 1.3 ms, one through record mode 2.5 ms, a planted-secrets round 4 ms, a recording on a
 * failing disk 10 ms), which a busy machine reaches (npm test beside other work on two cores).
 */
const PER_REQUEST_MS = { replay: 40, record: 80, secrets: 120, disk: 300 } as const;

/** A small deterministic generator, so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const PARAMS = ['action', 'list', 'prop', 'meta', 'titles', 'pageids', 'lelimit', 'lestart', 'leend', 'ledir', 'letype', 'leaction', 'leuser', 'letitle', 'lenamespace', 'lecontinue', 'leprop', 'bkip', 'bkusers', 'bkids', 'bkshow', 'bkcontinue', 'bklimit', 'ptnamespace', 'ptlevel', 'ptcontinue', 'ellimit', 'elcontinue', 'elquery', 'elprotocol', 'summary', 'url', 'format', 'formatversion', 'callback', 'utf8', 'ascii', 'errorformat', 'uselang', 'errorlang', 'continue', 'maxlag', 'requestid', 'origin', 'assert'];
const VALUES = ['query', 'parse', 'spamblacklist', 'logevents', 'blocks', 'protectedtitles', 'extlinks', 'logevents|blocks', 'max', '0', '-1', '5000', '99999999999999999999', 'abc', '', '|', '||', '-||', '\u001f', '\u001fa\u001fb', 'a[b', '#', '%', '%ZZ', '%C3%28', '%00', 'newer', 'older', 'up', '1.0.0.0/8', '::1', '2024-13-45T99:99:99Z', '20240101000000|x', 'now', 'json', 'jsonfm', 'none', 'xml', '2', '3', 'cb(', 'ru', 'de', 'plaintext', 'raw', 'bogus', '/* x */ [[y]]', '[[' , '<script>', 'Москва', '💥'];

function randomQuery(next: () => number): string {
  const pick = <T>(a: readonly T[]) => a[Math.floor(next() * a.length)]!;
  const parts: string[] = [];
  const n = 1 + Math.floor(next() * 8);
  for (let i = 0; i < n; i++) {
    const name = next() < 0.9 ? pick(PARAMS) : pick(VALUES);
    let value = pick(VALUES);
    if (next() < 0.05) value = 'x'.repeat(Math.floor(next() * 20000));
    if (next() < 0.05) value = Array.from({ length: next() < 0.5 ? 600 : 10_000 }, (_, k) => `T${k}`).join('|');
    const enc = (s: string) => (s.startsWith('%') ? s : encodeURIComponent(s));
    parts.push(next() < 0.05 ? enc(name) : `${enc(name)}=${enc(value)}`);
  }
  // Thousands of parameters now and then.
  if (next() < 0.01) for (let i = 0; i < 3000; i++) parts.push(`p${i}=${i}`);
  if (next() < 0.7) parts.push('format=json');
  return parts.join('&');
}

function send(url: URL, method: string, path: string, body?: string, contentType?: string, extra: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: { ...(contentType ? { 'content-type': contentType } : {}), ...extra } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

let server: RunningServer;
let recorder: RunningServer;
beforeAll(async () => {
  server = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: 'cassettes' });
  // Record mode in front of that replay, as its upstream: the same hostile input through the proxy.
  recorder = await startServer({ mode: 'record', upstream: server.url, cassettes: await mkdtemp(join(tmpdir(), 'wikitape-fuzz-')) });
});
afterAll(async () => {
  await recorder?.close();
  await server?.close();
});

async function fuzz(target: string, count: number): Promise<string[]> {
  const url = new URL(target);
  const next = rng(7);
  const failures: string[] = [];
  for (let i = 0; i < count; i++) {
    const query = randomQuery(next);
    const roll = next();
    // A value of 1 MB goes in a POST body (a URL that long is refused before the API, as by any web server).
    if (next() < 0.002) {
      const big = await send(url, 'POST', url.pathname, `action=parse&format=json&summary=${'x'.repeat(1 << 20)}`, 'application/x-www-form-urlencoded');
      if (big.status >= 500) failures.push(`${big.status} 1 MB summary`);
    }
    const r =
      roll < 0.7
        ? await send(url, 'GET', `${url.pathname}?${query}`)
        : roll < 0.85
          ? await send(url, 'POST', url.pathname, query, 'application/x-www-form-urlencoded')
          : roll < 0.95
            ? await send(url, 'POST', url.pathname, `--B\r\nContent-Disposition: form-data; name="action"\r\n\r\n${query}\r\n--B`, 'multipart/form-data; boundary=B')
            : await send(url, ['PUT', 'DELETE', 'PATCH', 'OPTIONS'][i % 4]!, `${url.pathname}/../api.php?${query}`);
    // Only where `format=json` really is a parameter (GET or urlencoded POST) must the answer be JSON.
    // (the last `format` counts, as in PHP; JSONP is not JSON; PHP reads the first 1,000 variables
    // of a query string and 1,001 of an urlencoded body, max_input_vars).
    const seen = query.split('&').filter((p) => p !== '').slice(0, roll < 0.7 ? 1000 : 1001).join('&');
    const sent = new URLSearchParams(seen.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    const json = roll < 0.85 && sent.getAll('format').pop() === 'json' && !sent.has('callback');
    if (r.status >= 500) failures.push(`${r.status} ${query.slice(0, 200)}`);
    else if (json && r.status === 200) {
      try {
        JSON.parse(r.text);
      } catch {
        failures.push(`not JSON: ${query.slice(0, 200)}`);
      }
    }
    if (/at .*\.(ts|js):\d+/.test(r.text)) failures.push(`stack trace: ${query.slice(0, 200)}`);
  }
  // Still answering.
  if ((await send(url, 'GET', `${url.pathname}?action=query&list=logevents&format=json`)).status !== 200) failures.push('stopped answering');
  return failures;
}

describe('malformed requests', () => {
  it(`get MediaWiki answers from replay, never a 5xx (${COUNT} requests)`, { timeout: 60_000 + COUNT * PER_REQUEST_MS.replay }, async () => {
    expect(await fuzz(server.url, COUNT)).toEqual([]);
  });

  // Record mode rewrites its cassette after each new recording: its share is capped at 25,000.
  const recordCount = Math.min(COUNT, 25_000);
  it(`get MediaWiki answers through record mode, never a 5xx (${recordCount} requests)`, { timeout: 60_000 + recordCount * PER_REQUEST_MS.record }, async () => {
    expect(await fuzz(recorder.url, recordCount)).toEqual([]);
  });
});

/** Parameters whose values are secrets, spelled as clients and attackers spell them. */
const SECRET_PARAMS = ['lgpassword', 'password', 'retype', 'token', 'lgtoken', 'logintoken', 'csrftoken', 'wltoken', 'OATHToken', 'oauth_signature', 'oauth_token', 'lgpassword[]', 'lg%70assword', 'botpassword', 'newpassword'];
/** A planted secret: unique, and found by one pattern in any output. */
const planted = (n: number) => `Zq9sekrit${n}x`;
const PLANTED = /Zq9sekrit\d+x/;

describe('secrets planted in fuzzed requests', () => {
  const count = Math.max(200, Math.floor(COUNT / 4));
  it(`reach no output: log entries, error texts, answers, the HTML page, cassettes (${count} requests)`, { timeout: 60_000 + count * PER_REQUEST_MS.secrets }, async () => {
    const logs: string[] = [];
    const onRequest = (e: object) => logs.push(JSON.stringify(e));
    // debuginfo off: its request block is the one place that echoes the request (to its sender, as MediaWiki's does).
    const replay = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: 'cassettes', profile: { debugInfo: false }, onMiss: 'error', onRequest });
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-fuzz-secrets-'));
    const rec = await startServer({ mode: 'record', upstream: replay.url, cassettes: dir, onRequest });
    const next = rng(11);
    const found: string[] = [];
    let n = 0;
    try {
      for (let i = 0; i < count; i++) {
        const target = new URL(i % 2 === 0 ? replay.url : rec.url);
        const query = randomQuery(next);
        const secrets = Array.from({ length: 1 + Math.floor(next() * 3) }, () => [SECRET_PARAMS[Math.floor(next() * SECRET_PARAMS.length)]!, planted(n++)] as const);
        const pairs = secrets.map(([k, v]) => `${k}=${v}`).join('&');
        const headers = { cookie: `wikidb_session=${planted(n++)}; wikidbUserID=${planted(n++)}`, authorization: `Bearer ${planted(n++)}` };
        const roll = next();
        const r =
          roll < 0.5
            ? await send(target, 'GET', `${target.pathname}?${query}&${pairs}`, undefined, undefined, headers)
            : roll < 0.8
              ? await send(target, 'POST', target.pathname, `${query}&${pairs}`, 'application/x-www-form-urlencoded', headers)
              : await send(target, 'POST', target.pathname, `--B\r\nContent-Disposition: form-data; name="format"\r\n\r\njsonfm\r\n${secrets.map(([k, v]) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')}--B--\r\n`, 'multipart/form-data; boundary=B', headers);
        if (PLANTED.test(r.text)) found.push(`answer to ${query.slice(0, 80)}&${pairs}: …${r.text.slice(Math.max(0, r.text.search(PLANTED) - 60), r.text.search(PLANTED) + 20)}…`);
      }
      await rec.flush();
    } finally {
      await rec.close();
      await replay.close();
    }
    for (const line of logs) if (PLANTED.test(line)) found.push(`log: ${line.slice(0, 200)}`);
    for (const f of await readdir(dir)) if (PLANTED.test(await readFile(join(dir, f), 'utf8'))) found.push(`cassette ${f}`);
    console.log(`secrets planted: ${n} in ${count} requests; found in an output: ${found.length} of ${n}`);
    expect(logs.length).toBeGreaterThanOrEqual(count);
    expect(found).toEqual([]);
  });
});

describe('a recorder whose disk writes fail at random', () => {
  const count = Math.max(200, Math.floor(COUNT / 10));
  it(`reports every failure and loses nothing it called saved (${count} fuzzed requests)`, { timeout: 60_000 + count * PER_REQUEST_MS.disk }, async () => {
    const upstream = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: 'cassettes' });
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-fuzz-disk-'));
    const next = rng(23);
    let failing = true;
    const store = new FailingStore(new FileCassetteStore(dir), () => failing && next() < 0.3);
    const lines: string[] = [];
    const recorder = new Recorder({ upstream: upstream.url, store, onError: (l) => lines.push(l) });
    // wikitape's own HTTP server (record mode's), so a long fuzzed URL reaches the recorder as it would.
    const server = createApiServer((req, res) => void recorder.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}${recorder.path}`);
    const file = join(dir, 'default.json');
    const keysOnDisk = async () => {
      const text = await readFile(file, 'utf8').catch(() => null);
      return new Set(text === null ? [] : (JSON.parse(text) as Cassette).interactions.map((i) => i.key));
    };
    /** Every key on disk when a flush() resolved: each must still be there at the end. */
    const promised = new Set<string>();
    let rejected = 0;
    let statusFailures = 0;
    try {
      for (let i = 0; i < count; i++) {
        // A question the recorder stores (a list at some limit), with fuzzed parameters beside it now and then.
        const list = ['logevents', 'blocks', 'protectedtitles'][Math.floor(next() * 3)]!;
        const base = `action=query&format=json&list=${list}&${list.slice(0, 1)}${list === 'logevents' ? 'e' : list === 'blocks' ? 'k' : 't'}limit=${1 + Math.floor(next() * 40)}`;
        const r = await send(url, 'GET', `${url.pathname}?${base}${next() < 0.3 ? `&${randomQuery(next)}` : ''}`);
        if (r.status >= 500 && r.status !== 502) statusFailures++;
        if (i % 25 === 24) {
          try {
            await recorder.flush();
            for (const k of await keysOnDisk()) promised.add(k);
          } catch (e) {
            rejected++;
            expect((e as Error).message).toContain(`in ${file}: ENOSPC`);
          }
        }
      }
      failing = false;
      await recorder.flush();
      const final = await keysOnDisk();
      const lost = [...promised].filter((k) => !final.has(k));
      console.log(`disk writes failed ${store.failures} times; flush() rejected ${rejected} times; ${lines.length} failure lines; ${final.size} recordings on disk at the end, ${lost.length} of the ${promised.size} called saved missing`);
      expect(statusFailures).toBe(0);
      expect(store.failures).toBeGreaterThan(0);
      expect(lines.length).toBe(store.failures);
      expect(lines.every((l) => l.includes(file) && l.includes('ENOSPC'))).toBe(true);
      expect(lost).toEqual([]);
      expect(final.size).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      recorder.close();
      await upstream.close();
    }
  });
});
