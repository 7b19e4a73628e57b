import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerJson, askSiteInfo, askWhoIs } from '../../src/record/own-questions.js';
import { DiffSessions } from '../../src/record/diff-login.js';
import { Upstream, UpstreamError } from '../../src/record/upstream.js';

/**
 * The questions wikitape asks a wiki itself (record/own-questions.ts), against a stand-in that
 * answers each one as told: the answer's text is the `answers` entry for its `meta` (or `action`).
 */
const answers = new Map<string, { type: string; text: string }>();
const server = createServer(async (req, res) => {
  const q = new URL(req.url ?? '/', 'http://x').searchParams;
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString())) q.set(k, v);
  }
  const a = answers.get(q.get('meta') ?? q.get('action') ?? '') ?? { type: 'application/json', text: '{}' };
  res.writeHead(200, { 'content-type': a.type, 'set-cookie': 'wikidb_session=s1; path=/' }).end(a.text);
});
let upstream: Upstream;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream = new Upstream(`http://127.0.0.1:${(server.address() as AddressInfo).port}/w/api.php`);
});
afterAll(() => void server.close());

/** A page the wiki's error handler might print: it must never be quoted back (it may hold anything). */
const HTML = { type: 'text/html', text: '<html>maintenance: session wikidb_session=abc123</html>' };

describe("the recorder's and the diff's own questions", () => {
  it('who a session is: an answer that is not JSON is said as such (its status, which question), never quoting the text', async () => {
    answers.set('userinfo', HTML);
    const e = await askWhoIs(upstream, { cookie: 'wikidb_session=abc123' }).then(() => null, (x: unknown) => x);
    expect(e).toBeInstanceOf(UpstreamError);
    expect((e as UpstreamError).kind).toBe('not-json');
    expect((e as Error).message).toBe(`wikitape: ${upstream.url.href} answered HTTP 200 with something that is not JSON (its meta=userinfo answer)`);
  });

  it('who a session is: an anonymous session is id 0; an answer naming no user is refused', async () => {
    answers.set('userinfo', { type: 'application/json', text: '{"batchcomplete":true,"query":{"userinfo":{"id":0,"name":"127.0.0.1","anon":true}}}' });
    expect(await askWhoIs(upstream, {})).toEqual({ id: 0, name: '127.0.0.1' });
    answers.set('userinfo', { type: 'application/json', text: '{"batchcomplete":true}' });
    await expect(askWhoIs(upstream, {})).rejects.toThrow(/answered HTTP 200 without a user \(its meta=userinfo answer\)$/);
  });

  it('siteinfo: JSON that is not an object (a bare null, a list) is refused, naming it', async () => {
    answers.set('siteinfo', { type: 'application/json', text: 'null' });
    await expect(askSiteInfo(upstream)).rejects.toThrow(/answered HTTP 200 with JSON that is not an object \(its meta=siteinfo answer\)$/);
    answers.set('siteinfo', { type: 'application/json', text: '{"query":{"general":{"generator":"MediaWiki 1.43.9","lang":"en"}}}' });
    expect(await askSiteInfo(upstream)).toEqual({ version: '1.43.9', language: 'en' });
  });

  it('answerJson keeps integer-like keys in the order the wiki wrote them', async () => {
    answers.set('siteinfo', { type: 'application/json', text: '{"query":{"namespaces":{"-1":{},"0":{}}}}' });
    const r = await upstream.get({ action: 'query', meta: 'siteinfo' });
    const ns = (answerJson(upstream, r)['query'] as { namespaces: object }).namespaces;
    expect(JSON.stringify(ns)).toBe('{"-1":{},"\\u00010":{}}');
  });

  it('cassettes diff logging in: a userinfo answer that is not JSON leaves the identity unchecked, saying so', async () => {
    answers.set('tokens', { type: 'application/json', text: '{"query":{"tokens":{"logintoken":"t+\\\\"}}}' });
    answers.set('login', { type: 'application/json', text: '{"login":{"result":"Success","lgusername":"Admin"}}' });
    answers.set('userinfo', HTML);
    const s = await new DiffSessions(upstream, [{ user: 'Admin@bot', password: 'pw-secret' }], 'set X').session('Admin@bot');
    expect(s).toEqual({ unchecked: 'recorded logged in as Admin@bot; could not log in as Admin@bot: answered HTTP 200 with something that is not JSON (its meta=userinfo answer)' });
    expect(JSON.stringify(s)).not.toContain('pw-secret');
  });
});
