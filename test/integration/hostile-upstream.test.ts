import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileCassetteStore } from '../../src/cassette/store.js';
import { Recorder } from '../../src/record/recorder.js';
import { MAX_ANSWER_BYTES, Upstream, UpstreamError } from '../../src/record/upstream.js';

/**
 * wikitape's own questions to a wiki (the recorder's, `snapshot`'s, `cassettes diff`'s) against a
 * hostile one: a huge answer, a huge Retry-After, a redirect to another host, a wiki that never
 * finishes. Each fails at once naming the cause; nothing is asked of the other host; `cassettes
 * diff` exits non-zero within a minute, its memory far under 512 MB.
 */

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const MB = 1 << 20;

/** Another host, which must never be asked. */
let elsewhereHits = 0;
const elsewhere = createServer((_req, res) => {
  elsewhereHits++;
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"batchcomplete":true,"query":{"general":{"sitename":"Elsewhere","generator":"MediaWiki 9.9"}}}');
});

/** How many bytes each streamed answer had handed to its socket when its connection closed. */
const sent = new Map<string, number>();

/** Streams `head` then spaces, 1 MB at a time (waiting for the socket), until `total` or the client hangs up. */
function stream(res: ServerResponse, name: string, total: number, head = '{"batchcomplete":true,"x":"'): void {
  const fill = Buffer.alloc(MB, 0x61);
  let n = 0;
  res.on('close', () => sent.set(name, n));
  const pump = (): void => {
    while (n < total && !res.destroyed) {
      const chunk = n === 0 ? Buffer.from(head) : fill;
      n += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

const OK = '{"batchcomplete":true,"query":{"general":{"sitename":"Upstream","generator":"MediaWiki 1.39.17"}}}';

/** The hostile wiki: what it does is named by the first path segment (`/huge/api.php` …). */
function hostile(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const how = url.pathname.split('/')[1];
  const q = url.searchParams;
  switch (how) {
    case 'huge': // 1.2 GB, no Content-Length
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return stream(res, 'huge', 1200 * MB);
    case 'declared': // says 1.2 GB up front
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(1200 * MB) });
      return stream(res, 'declared', 1200 * MB);
    case 'bomb': // 256 KB of gzip that expands to 256 MB
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' });
      return void res.end(BOMB);
    case 'lagged':
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '2000000', 'mediawiki-api-error': 'maxlag' });
      return void res.end('{"error":{"code":"maxlag","info":"Waiting for a database server: 7 seconds lagged."}}');
    case 'redirect':
      res.writeHead(302, { location: `${elsewhereUrl}/wiki/api.php?${q}` });
      return void res.end();
    case 'siteinfo-redirect': // answers everything but siteinfo, which it sends elsewhere
      if (q.get('meta') === 'siteinfo') {
        res.writeHead(302, { location: `${elsewhereUrl}/wiki/api.php?${q}` });
        return void res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return void res.end('{"batchcomplete":true,"query":{"logevents":[]}}');
    case 'stalls': // headers, then nothing more
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return void res.write('{"batchcomplete":');
    default:
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(OK);
  }
}

let BOMB: Buffer;
let server: Server;
let base = '';
let elsewhereUrl = '';
let cassettes = '';

beforeAll(async () => {
  // Compressed a megabyte at a time: the test never holds what it expands to.
  const gz = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gz.on('data', (c: Buffer) => parts.push(c));
  const space = Buffer.alloc(MB, 0x20);
  for (let i = 0; i < 256; i++) if (!gz.write(space)) await once(gz, 'drain');
  gz.end();
  await once(gz, 'end');
  BOMB = Buffer.concat(parts);
  server = createServer(hostile);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
  // A cassette of one recorded question, for `cassettes diff`.
  cassettes = await mkdtemp(join(tmpdir(), 'wikitape-hostile-'));
  const i = { key: 'action=query&meta=siteinfo&siprop=general', request: { action: 'query', meta: 'siteinfo', siprop: 'general' }, status: 200, headers: {}, body: JSON.parse(OK), recordedAt: '2024-03-01T00:00:00.000Z' };
  await writeFile(join(cassettes, 'one.json'), JSON.stringify({ meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-03-01T00:00:00.000Z', profile: {} }, interactions: [i], entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] } }));
});
afterAll(() => {
  server?.close();
  elsewhere.close();
});

const SITEINFO = { action: 'query', meta: 'siteinfo', siprop: 'general', format: 'json' };

describe('the bounded client (record/upstream.ts)', () => {
  it('refuses an answer past its size as soon as it passes it, whether streamed, declared or compressed', async () => {
    const u = new Upstream(`${base}/huge/api.php`, { maxBytes: 8 * MB });
    await expect(u.get(SITEINFO)).rejects.toMatchObject({ kind: 'too-large', message: expect.stringMatching(/huge\/api\.php its answer was larger than 8 MB; not read further$/) });
    await new Promise((r) => setTimeout(r, 200));
    expect(sent.get('huge')).toBeLessThan(8 * MB + 32 * MB);
    await expect(new Upstream(`${base}/declared/api.php`, { maxBytes: 8 * MB }).get(SITEINFO)).rejects.toMatchObject({ kind: 'too-large', why: expect.stringContaining('(Content-Length 1258291200)') });
    await expect(new Upstream(`${base}/bomb/api.php`).get(SITEINFO)).rejects.toMatchObject({ kind: 'too-large', why: expect.stringContaining(`larger than ${MAX_ANSWER_BYTES >> 20} MB`) });
  });

  it('follows no redirect, to another host or not, and asks nothing there', async () => {
    const before = elsewhereHits;
    const e = await new Upstream(`${base}/redirect/api.php`).get(SITEINFO).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UpstreamError);
    expect((e as UpstreamError).why).toBe(`its answer was a redirect (HTTP 302), which is not followed: only ${base} is asked (it pointed to ${elsewhereUrl})`);
    expect(elsewhereHits).toBe(before);
  });

  it('takes a Retry-After up to 120 s; past it, says so instead of waiting', async () => {
    const u = new Upstream(`${base}/lagged/api.php`);
    const answer = await u.get(SITEINFO);
    expect(() => u.retryAfter(answer)).toThrow(/asked to wait 2000000 s before asking again \(Retry-After\), more than the 120 s wikitape waits/);
    expect(u.retryAfter({ ...answer, headers: new Headers({ 'retry-after': '7' }) })).toBe(7);
    expect(u.retryAfter({ ...answer, headers: new Headers() })).toBe(5);
  });

  it('gives up on an answer that does not finish in time', async () => {
    const u = new Upstream(`${base}/stalls/api.php`, { timeoutMs: 300 });
    await expect(u.get(SITEINFO)).rejects.toMatchObject({ kind: 'timeout', why: 'did not give its answer within 0.3 s' });
  });
});

describe('the recorder\'s own questions', () => {
  it('never follow the siteinfo question to another host: the cassette\'s profile holds nothing from there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-hostile-rec-'));
    const before = elsewhereHits;
    const rec = new Recorder({ upstream: `${base}/siteinfo-redirect/api.php`, store: new FileCassetteStore(dir), cassette: 'c' });
    try {
      await rec.ready();
      expect((await rec.ask({ action: 'query', list: 'logevents' })).status).toBe(200);
      await rec.flush();
    } finally {
      rec.close();
    }
    expect(elsewhereHits).toBe(before);
    const c = await readFile(join(dir, 'c.json'), 'utf8');
    expect(c).not.toContain('Elsewhere');
    expect((JSON.parse(c) as { meta: { profile: Record<string, unknown> } }).meta.profile['version']).toBeUndefined();
  });
});

/** Runs a CLI command, sampling the process's peak memory (VmHWM) as it runs; killed after a minute. */
function cli(args: string[]): Promise<{ code: number | null; stderr: string; ms: number; peakMb: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let peakMb = 0;
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const sample = setInterval(() => {
    readFile(`/proc/${child.pid}/status`, 'utf8').then(
      (s) => (peakMb = Math.max(peakMb, Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0) / 1024)),
      () => undefined,
    );
  }, 20);
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearInterval(sample);
      clearTimeout(killer);
      resolve({ code, stderr, ms: Date.now() - started, peakMb });
    }),
  );
}

describe('cassettes diff against a hostile wiki', () => {
  it.each([
    ['a 1.2 GB answer', 'huge', /its answer was larger than 64 MB; not read further/],
    ['a 1.2 GB Content-Length', 'declared', /\(Content-Length 1258291200\)/],
    ['a gzip answer that expands to 256 MB', 'bomb', /its answer was larger than 64 MB/],
    ['Retry-After: 2000000', 'lagged', /asked to wait 2000000 s before asking again \(Retry-After\)/],
    ['a redirect to another host', 'redirect', /its answer was a redirect \(HTTP 302\), which is not followed/],
  ])('%s: exits non-zero within a minute naming the cause, under 512 MB', { timeout: 90_000 }, async (_what, how, cause) => {
    const before = elsewhereHits;
    const r = await cli(['cassettes', 'diff', '--cassettes', cassettes, '--upstream', `${base}/${how}/api.php`]);
    console.log(`${_what}: exit ${r.code} after ${r.ms} ms, peak ${Math.round(r.peakMb)} MB`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(cause);
    expect(r.stderr).toContain(`${base}/${how}/api.php`);
    expect(r.ms).toBeLessThan(60_000);
    expect(r.peakMb).toBeLessThan(512);
    expect(elsewhereHits).toBe(before);
  });
});

describe('snapshot against a hostile wiki', () => {
  it.each([
    ['a 1.2 GB answer', 'huge', /its answer was larger than 64 MB; not read further/],
    ['a redirect to another host', 'redirect', /its answer was a redirect \(HTTP 302\), which is not followed/],
  ])('%s: exits non-zero within a minute naming the cause, under 512 MB', { timeout: 90_000 }, async (what, how, cause) => {
    const before = elsewhereHits;
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-hostile-snap-'));
    const r = await cli(['snapshot', '--cassettes', dir, '--upstream', `${base}/${how}/api.php`]);
    console.log(`snapshot, ${what}: exit ${r.code} after ${r.ms} ms, peak ${Math.round(r.peakMb)} MB`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(cause);
    expect(r.ms).toBeLessThan(60_000);
    expect(r.peakMb).toBeLessThan(512);
    expect(elsewhereHits).toBe(before);
  });
});
