import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';

/** A small upstream that misbehaves on request: the fault is named by the `fault` parameter. */
function faultyWiki(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const fault = new URL(req.url ?? '/', 'http://x').searchParams.get('fault');
    const ok = JSON.stringify({ batchcomplete: true, query: { logevents: [{ logid: 1, ns: 0, title: 'A', pageid: 1, logpage: 1, params: {}, type: 'create', action: 'create', user: 'U', timestamp: '2024-01-01T00:00:00Z', comment: '' }] } });
    switch (fault) {
      case '500':
        res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal error</h1>');
        return;
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
        return;
      case 'cut':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write(ok.slice(0, 20));
        setTimeout(() => res.destroy(), 20);
        return;
      case 'slow':
        setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(ok), 2000);
        return;
      case 'gzip':
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' }).end(gzipSync(ok));
        return;
      default:
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(ok);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/w/api.php`, server })));
}

let upstream: { url: string; server: Server };
let recorder: RunningServer;
let dir: string;

beforeAll(async () => {
  upstream = await faultyWiki();
  dir = await mkdtemp(join(tmpdir(), 'wikitape-faults-'));
  recorder = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'faults', upstreamTimeoutMs: 500 });
});
afterAll(async () => {
  await recorder?.close();
  upstream?.server.close();
});

const ask = (fault: string) => fetch(`${recorder.url}?action=query&list=logevents&format=json&formatversion=2&fault=${fault}`);

async function recordedKeys(): Promise<string[]> {
  await recorder.flush();
  try {
    return (JSON.parse(await readFile(join(dir, 'faults.json'), 'utf8')) as { interactions: { key: string }[] }).interactions.map((i) => i.key);
  } catch {
    return [];
  }
}

describe('record mode when the upstream fails', () => {
  it.each(['500', 'html', 'cut', 'slow'])('answers fault "%s" with a MediaWiki-shaped 502 and records nothing', async (fault) => {
    const r = await ask(fault);
    expect(r.status).toBe(502);
    expect(r.headers.get('mediawiki-api-error')).toBe('wikitape-upstream');
    const body = (await r.json()) as { error: { code: string; info: string } };
    expect(body.error.code).toBe('wikitape-upstream');
    expect(body.error.info).toMatch(/nothing was recorded/);
    expect((await recordedKeys()).some((k) => k.includes(`fault=${fault}`))).toBe(false);
  });

  it('answers a refused connection with a 502 and keeps serving', async () => {
    const dead = await startServer({ mode: 'record', upstream: 'http://127.0.0.1:9/w/api.php', cassettes: dir, cassette: 'dead' });
    const r = await fetch(`${dead.url}?action=query&list=logevents&format=json`);
    expect(r.status).toBe(502);
    expect(((await r.json()) as { error: { info: string } }).error.info).toMatch(/ECONNREFUSED/);
    expect((await fetch(`${dead.url}?action=query&list=blocks&format=json`)).status).toBe(502);
    await dead.close();
  });

  it('reads a gzip answer, passes it on as sent, and records it', async () => {
    const r = await fetch(`${recorder.url}?action=query&list=logevents&format=json&formatversion=2&fault=gzip`, { headers: { 'accept-encoding': 'gzip' } });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { query: { logevents: unknown[] } }).query.logevents).toHaveLength(1);
    expect(await recordedKeys()).toContain('action=query&fault=gzip&ledir=older&lelimit=10&leprop=comment%7Cdetails%7Cids%7Ctimestamp%7Ctitle%7Ctype%7Cuser&list=logevents');
  });

  it('still records after the faults', async () => {
    expect((await ask('none')).status).toBe(200);
    expect((await recordedKeys()).some((k) => k.includes('fault=none'))).toBe(true);
  });

  it('passes writes and token requests through without recording them', async () => {
    await fetch(recorder.url, { method: 'POST', body: new URLSearchParams({ action: 'edit', title: 'X', text: 'y', token: 'secret-token-123', format: 'json' }) });
    await fetch(`${recorder.url}?action=query&meta=tokens&format=json`);
    const text = await readFile(join(dir, 'faults.json'), 'utf8');
    expect(text).not.toContain('secret-token-123');
    expect(text).not.toContain('meta=tokens');
    expect(text).not.toContain('action=edit');
  });

  it('stores each question once when many clients ask at the same time', async () => {
    const questions = Array.from({ length: 64 }, (_, i) => `action=query&list=logevents&format=json&formatversion=2&fault=none&lelimit=${(i % 8) + 1}`);
    const answers = await Promise.all(questions.map((q) => fetch(`${recorder.url}?${q}`)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const keys = (await recordedKeys()).filter((k) => k.includes('fault=none') && /lelimit=[1-8]&/.test(k));
    expect(keys).toHaveLength(8);
    expect(new Set(keys).size).toBe(8);
  });

  it('only ever talks to the configured upstream, whatever URL or Host a request names', async () => {
    const { request } = await import('node:http');
    const target = new URL(recorder.url);
    const status = await new Promise<number>((resolve, reject) => {
      // Absolute-form request line and a foreign Host: a proxy that obeyed them would fail (nothing listens there).
      const req = request({ host: target.hostname, port: target.port, method: 'GET', path: `http://127.0.0.2:9${target.pathname}?action=query&list=logevents&format=json&fault=none`, headers: { host: '127.0.0.2:9' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });

  it('refuses cassette names that would leave the cassettes folder', async () => {
    await expect(startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: '../escape' })).rejects.toThrow(/not allowed/);
  });
});
