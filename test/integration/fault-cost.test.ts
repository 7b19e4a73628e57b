import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Any client can send `X-Wikitape-Fault`: a glob in its `match=PARAM=GLOB` of any shape costs the
 * server little (it once became a regular expression with `.*` per star: 10 stars against a
 * 3,000-character parameter ran for minutes of CPU, and no other client was answered). The server
 * runs as a separate process here, so a server that hangs fails the test instead of hanging it.
 */

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

describe('a hostile fault header', () => {
  it('is matched at once: the request and another client\'s are answered', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [CLI, 'replay', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /: (http\S+)\n/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`wikitape replay exited with ${code}`)));
      });
      const titles = 'a'.repeat(3000);
      const globs = [`${'*aa'.repeat(10)}*b`, `${'*a'.repeat(19)}ab*`, `*${'a'.repeat(38)}b*`];
      const hostile = globs.map((g) =>
        fetch(`${url}?action=query&prop=extlinks&format=json&maxlag=5&titles=${titles}`, { headers: { 'X-Wikitape-Fault': `maxlag:match=titles=${g}` }, signal: AbortSignal.timeout(20_000) }),
      );
      const other = fetch(`${url}?action=query&list=logevents&lelimit=1&format=json`, { signal: AbortSignal.timeout(20_000) });
      for (const r of await Promise.all(hostile)) {
        // No glob matched the value: the request is answered, not lagged.
        expect(r.status).toBe(200);
        expect(r.headers.get('x-wikitape-fault')).toBeNull();
        await r.arrayBuffer();
      }
      expect((await other).status).toBe(200);
      // And a glob that matches still fires.
      const lagged = await fetch(`${url}?action=query&prop=extlinks&format=json&maxlag=5&titles=${titles}b`, { headers: { 'X-Wikitape-Fault': `maxlag:match=titles=${globs[0]}` }, signal: AbortSignal.timeout(20_000) });
      expect(lagged.headers.get('mediawiki-api-error')).toBe('maxlag');
    } finally {
      // SIGKILL: a server stuck in a regular expression does not stop on SIGTERM.
      child.kill('SIGKILL');
    }
  });
});

describe('fault values out of range', () => {
  it('are refused with wikitape-badfault (HTTP 400), in MediaWiki\'s error shape', async () => {
    const { startServer } = await import('../../src/server.js');
    const s = await startServer();
    try {
      for (const header of ['latency:ms=5-1', 'maxlag:lag=1e308', '503:retry-after=1e308']) {
        const r = await fetch(`${s.url}?action=query&list=blocks&format=json&maxlag=5`, { headers: { 'X-Wikitape-Fault': header } });
        expect(r.status, header).toBe(400);
        expect(r.headers.get('mediawiki-api-error')).toBe('wikitape-badfault');
        expect(((await r.json()) as { error: { info: string } }).error.info).toContain(`(in "${header}")`);
      }
    } finally {
      await s.close();
    }
  });
});
