import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';

/**
 * A stream of distinct huge requests (the kinds of bench/soak-huge.mjs, fewer of them) against a
 * replay server whose V8 heap is limited to 256 MB: it answers every one (no 5xx, no crash) and
 * still answers afterwards. Before requests were bounded (the hit-key memo by size, templates not
 * kept for huge URLs, PHP's input limits, the result size limit), such a stream grew the heap
 * until the process died.
 */
const rand = () => Math.random().toString(36).slice(2);
const qs = (o: Record<string, string>) => new URLSearchParams(o).toString();
type Req = { get: string } | { post: string; type: string };
const kinds: (() => Req)[] = [
  () => ({ get: qs({ action: 'query', list: 'logevents', letitle: rand().repeat(60_000).slice(0, 800_000), format: 'json' }) }),
  () => ({ get: `action=query&list=blocks&format=json&${Array.from({ length: 25_000 }, (_, i) => `${rand()}${i}=1`).join('&')}` }),
  () => ({ post: `action=query&list=blocks&format=json&${Array.from({ length: 600_000 }, (_, i) => `p${i}=${i % 7}`).join('&')}`, type: 'application/x-www-form-urlencoded' }),
  () => ({ post: `action=query&format=json&x=${rand().repeat(800_000)}`, type: 'application/x-www-form-urlencoded' }),
  () => ({ post: qs({ action: 'parse', summary: Array.from({ length: 120_000 }, (_, i) => `[[${rand()}${i}]]`).join(''), prop: '', format: 'json' }), type: 'application/x-www-form-urlencoded' }),
  () => ({ post: qs({ action: 'spamblacklist', url: Array.from({ length: 150_000 }, (_, i) => `http://${rand()}.example/${i}`).join('|'), format: 'json' }), type: 'application/x-www-form-urlencoded' }),
];

/**
 * One request on its own connection (node:http, no agent): the status, the answer read to its end.
 * Not fetch's pooled connections: building the next huge request holds this process for seconds on
 * a busy machine, past the server's 5 s keep-alive timeout, and fetch then sent it on a connection
 * the server had just closed ("other side closed").
 */
function send(url: string, c: Req): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = 'get' in c ? `${url}?${c.get}` : url;
    const options = 'get' in c ? { agent: false } : { agent: false, method: 'POST', headers: { 'content-type': c.type, 'content-length': Buffer.byteLength(c.post) } };
    const req = httpRequest(target, options, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end('get' in c ? undefined : c.post);
  });
}

describe('bounded cost', () => {
  it('a server with a 256 MB heap answers a stream of distinct huge requests, and keeps answering', { timeout: 240_000 }, async () => {
    // 6 s on an idle machine, 76 s seen on a busy one
    const cli = await startCli(['replay', '--quiet'], { nodeArgs: ['--max-old-space-size=256'] });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3 * kinds.length; i++) statuses.push(await send(cli.url, kinds[i % kinds.length]!()));
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      const after = (await (await fetch(`${cli.url}?action=query&meta=siteinfo&format=json`)).json()) as { query: { general: { sitename: string } } };
      expect(after.query.general.sitename).toBe('Тестовая вики');
      // nothing on stderr but the start line saying what was loaded
      expect(cli.stderr().split('\n').filter((l) => l !== '' && !l.startsWith('wikitape: loaded '))).toEqual([]);
    } finally {
      await cli.stop();
    }
  });
});
