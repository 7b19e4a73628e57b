import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { standInParams } from '../support/stand-in-params.js';

/**
 * The recorder asks the wiki questions of its own in a client's session (who it is, its rights, an
 * answer again as formatversion=2). MediaWiki saves a session's data whole at the end of each
 * request, so such a question overlapping the client's `meta=tokens` lost the csrf token's secret
 * and the client's edit met `badtoken` on a live 1.43. This stand-in wiki counts, per session
 * cookie, how many requests are at it at once, answering each after a pause (the rights question
 * after a longer one) so that overlaps have room to happen.
 */
const overlap = new Map<string, number>();
const now = new Map<string, number>();

const paramsOf = (req: IncomingMessage) => standInParams(req);

function answerOf(q: URLSearchParams): { body: object; cookie?: string; pauseMs: number } {
  const user = { id: 1, name: 'Admin', groups: ['*', 'user'], rights: ['read', 'edit', 'writeapi'] };
  if (q.get('action') === 'login') return { body: { login: { result: 'Success', lguserid: 1, lgusername: 'Admin' } }, cookie: 'wikidb_BPsession=bp1; path=/; HttpOnly', pauseMs: 20 };
  if (q.get('action') === 'edit') return { body: { edit: { result: 'Success', pageid: 1, title: 'Sandbox', contentmodel: 'wikitext', nochange: true } }, pauseMs: 20 };
  const meta = q.get('meta') ?? '';
  if (meta === 'tokens' && q.get('type') === 'login') return { body: { batchcomplete: true, query: { tokens: { logintoken: 'lt+\\' } } }, cookie: 'wikidb_session=anon1; path=/; HttpOnly', pauseMs: 20 };
  if (meta === 'tokens') return { body: { batchcomplete: true, query: { tokens: { csrftoken: 'ct+\\' } } }, pauseMs: 60 };
  if (meta.includes('siteinfo')) return { body: { batchcomplete: true, query: { general: { generator: 'MediaWiki 1.43.9', lang: 'en', sitename: 'Test' }, userinfo: user } }, pauseMs: 20 };
  // meta=userinfo: the rights question the recorder asks after a login takes longest.
  return { body: { batchcomplete: true, query: { userinfo: user } }, pauseMs: q.get('uiprop')?.includes('rights') ? 150 : 60 };
}

const wiki = createServer(async (req, res) => {
  const sessions = (req.headers.cookie ?? '').split(/;\s*/).filter((c) => /_(BP)?session=/.test(c));
  for (const s of sessions) {
    now.set(s, (now.get(s) ?? 0) + 1);
    overlap.set(s, Math.max(overlap.get(s) ?? 0, now.get(s)!));
  }
  const a = answerOf(await paramsOf(req));
  await new Promise((r) => setTimeout(r, a.pauseMs));
  for (const s of sessions) now.set(s, now.get(s)! - 1);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...(a.cookie ? { 'set-cookie': a.cookie } : {}) }).end(JSON.stringify(a.body));
});

let recorder: RunningServer;
let closed = false;
let dir: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => wiki.listen(0, '127.0.0.1', resolve));
  dir = await mkdtemp(join(tmpdir(), 'wikitape-session-gate-'));
  recorder = await startServer({ mode: 'record', upstream: `http://127.0.0.1:${(wiki.address() as AddressInfo).port}/w/api.php`, cassettes: dir });
});
afterAll(async () => {
  if (!closed) await recorder.close();
  wiki.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the recorder's own questions in a client's session", () => {
  it("never reach the wiki while one of that client's requests is there: a bot's login, token and edit, one after another", async () => {
    const jar = new Map<string, string>();
    const call = async (params: Record<string, string>, method: 'GET' | 'POST' = 'GET') => {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const form = new URLSearchParams(params);
      const r = method === 'GET' ? await fetch(`${recorder.url}?${form}`, { headers: { cookie } }) : await fetch(recorder.url, { method, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
      for (const c of r.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair!.indexOf('=');
        jar.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
      return (await r.json()) as Record<string, Record<string, unknown>>;
    };
    // As mwn does it (formatversion=2); the userinfo question as formatversion=1, which the recorder asks again.
    await call({ action: 'query', meta: 'tokens', type: 'login', format: 'json', formatversion: '2' });
    expect((await call({ action: 'login', lgname: 'Admin@bot', lgpassword: 'pw', lgtoken: 'lt+\\', format: 'json', formatversion: '2' }, 'POST'))['login']!['result']).toBe('Success');
    await call({ action: 'query', meta: 'tokens', type: 'csrf', format: 'json', formatversion: '2' });
    await call({ action: 'query', meta: 'userinfo', format: 'json' });
    await call({ action: 'query', meta: 'userinfo', format: 'json', formatversion: '2' });
    const edit = await call({ action: 'edit', title: 'Sandbox', text: 'x', token: 'ct+\\', format: 'json', formatversion: '2' }, 'POST');
    expect(edit['edit']!['result']).toBe('Success');
    // Closing waits for the recorder's last questions (and writes).
    await recorder.close();
    closed = true;
    expect(Object.fromEntries(overlap)).toEqual({ 'wikidb_session=anon1': 1, 'wikidb_BPsession=bp1': 1 });
  });
});
