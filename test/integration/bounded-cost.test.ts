import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A stream of distinct huge requests (the kinds of bench/soak-huge.mjs, fewer of them) against a
 * replay server whose V8 heap is limited to 256 MB: it answers every one (no 5xx, no crash) and
 * still answers afterwards. Before requests were bounded (the hit-key memo by size, templates not
 * kept for huge URLs, PHP's input limits, the result size limit), such a stream grew the heap
 * until the process died.
 */
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
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

describe('bounded cost', () => {
  it('a server with a 256 MB heap answers a stream of distinct huge requests, and keeps answering', async () => {
    const child = spawn(process.execPath, ['--max-old-space-size=256', CLI, 'replay', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          const m = /: (http\S+)\n/.exec(d.toString());
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`replay exited with ${code}: ${stderr}`)));
      });
      const statuses: number[] = [];
      for (let i = 0; i < 3 * kinds.length; i++) {
        const c = kinds[i % kinds.length]!();
        const r = 'get' in c ? await fetch(`${url}?${c.get}`) : await fetch(url, { method: 'POST', body: c.post, headers: { 'content-type': c.type } });
        await r.arrayBuffer();
        statuses.push(r.status);
      }
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      const after = (await (await fetch(`${url}?action=query&meta=siteinfo&format=json`)).json()) as { query: { general: { sitename: string } } };
      expect(after.query.general.sitename).toBe('Тестовая вики');
      expect(stderr).toBe('');
    } finally {
      child.kill();
    }
  }, 240_000); // 6 s on an idle machine, 76 s seen on a busy one
});
