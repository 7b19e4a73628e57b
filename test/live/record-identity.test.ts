import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { identityKey, type Cassette } from '../../src/cassette/format.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { parseUrlEncoded } from '../../src/request/params.js';
import { startServer } from '../../src/server.js';
import { Client } from '../support/cookie-client.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * Record mode against a real MediaWiki (1.39 and 1.43) with a logged-in client that blurs its
 * identity: MediaWiki strips credentials for JSONP (`callback`, as getCheck sees it), `origin=*` and
 * a `Treat-as-Untrusted` header, and answers `callback[]=x` or `origin[]=*` (arrays: no value) as
 * the user. Whatever the client sends, the cassette never holds a logged-in answer under the
 * anonymous key, and a replay request without the session never sees the user's data.
 */

interface Variant {
  name: string;
  /** Added to the question, in the query string (GET) or the body (POST). */
  extra: string;
  headers?: Record<string, string>;
  post?: boolean;
  /** Whether the wiki strips the credentials (answers as nobody). */
  strips: boolean;
  /** JSONP answers (text/javascript) are passed on and not recorded. */
  jsonp?: boolean;
}

const VARIANTS: Variant[] = [
  { name: 'Treat-as-Untrusted: 1', extra: '', headers: { 'treat-as-untrusted': '1' }, strips: true },
  { name: 'Treat-as-Untrusted (empty)', extra: '', headers: { 'treat-as-untrusted': '' }, strips: true },
  { name: 'Treat-as-Untrusted, formatversion=2', extra: '&formatversion=2', headers: { 'treat-as-untrusted': '1' }, strips: true },
  { name: 'callback=x', extra: '&callback=x', strips: true, jsonp: true },
  { name: 'callback= (empty)', extra: '&callback=', strips: true, jsonp: true },
  { name: ' callback=x (a leading space)', extra: '&%20callback=x', strips: true, jsonp: true },
  { name: 'callback[]=x', extra: '&callback[]=x', strips: false },
  { name: 'callback[a]=x, formatversion=2', extra: '&callback[a]=x&formatversion=2', strips: false },
  { name: 'origin=*', extra: '&origin=*', strips: true },
  { name: 'origin=*, formatversion=2', extra: '&origin=*&formatversion=2', strips: true },
  { name: 'origin[]=*', extra: '&origin[]=*', strips: false },
  { name: 'JSONP POST', extra: '&callback=x', post: true, strips: true, jsonp: true },
  { name: 'POST callback[]=x', extra: '&callback[]=x', post: true, strips: false },
  { name: 'POST Treat-as-Untrusted', extra: '', headers: { 'treat-as-untrusted': '1' }, post: true, strips: true },
];

/** Each variant asks its own question (its own log event limit), so each is asked of the wiki and stored. */
const question = (i: number) => `action=query&meta=userinfo&uiprop=groups%7Crights&list=logevents&lelimit=${i + 1}`;

type UserInfo = { id?: number; name?: string; groups?: string[]; rights?: string[] };

/** The userinfo of an answer in any of the shapes asked (JSON, JSONP). */
function userinfo(text: string): UserInfo | undefined {
  const json = text.replace(/^\/\*\*\/[\w.]*\(/, '').replace(/\)$/, '');
  return (JSON.parse(json) as { query?: { userinfo?: UserInfo } }).query?.userinfo;
}

describe.each(LIVE_VERSIONS)('record mode and identity-blurring requests (MediaWiki %s)', (version) => {
  it('files every answer under the identity the wiki answered as, never a logged-in one as anonymous', { timeout: 240_000 }, async () => {
    const live = await liveWiki(version);
    const { user, password } = await live.credentials();
    const name = user.split('@')[0]!;
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-live-identity-'));
    const errors: string[] = [];
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'blur', onError: (l) => errors.push(l) });
    const bot = new Client(recorder.url);
    try {
      const token = await bot.token('login');
      expect((await bot.call({ action: 'login', lgname: user, lgpassword: password, lgtoken: token })).body['login']).toMatchObject({ result: 'Success' });
      for (const [i, v] of VARIANTS.entries()) {
        const q = `${question(i)}&format=json${v.extra}`;
        const headers = { cookie: bot.cookie, ...v.headers, ...(v.post ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) };
        const r = v.post ? await fetch(recorder.url, { method: 'POST', headers, body: q }) : await fetch(`${recorder.url}?${q}`, { headers });
        expect(r.headers.get('x-wikitape-source'), v.name).toBe('upstream');
        // The client gets what the wiki answered it: as nobody where credentials are stripped.
        expect(userinfo(await r.text())?.id, v.name).toBe(v.strips ? 0 : 1);
      }
      await recorder.flush();
    } finally {
      await recorder.close();
    }
    expect(errors).toEqual([]);

    const cassette = JSON.parse(await readFile(join(dir, 'blur.json'), 'utf8')) as Cassette;
    for (const i of cassette.interactions) {
      const info = (i.body['query'] as { userinfo?: UserInfo } | undefined)?.userinfo;
      if (!info) continue;
      if (i.user === undefined) {
        // Anonymous: the wiki's answer to nobody (id 0, the groups of everyone), never the user's.
        expect(info.id, i.key).toBe(0);
        expect(info.name, i.key).not.toBe(name);
        expect(info.groups ?? [], i.key).not.toContain('sysop');
      } else {
        expect(i.user, i.key).toBe(user);
        expect(info.id, i.key).toBe(1);
      }
    }
    // Each variant was recorded, under the identity the wiki answered as.
    const keys = cassette.interactions.map((i) => i.key);
    for (const [i, v] of VARIANTS.entries()) {
      const key = canonicalKey(parseUrlEncoded(question(i)), KEY_RULES);
      expect(keys.filter((k) => k === key || k.startsWith(`${key} @`)), v.name).toEqual(v.jsonp ? [] : [identityKey(key, v.strips ? null : user)]);
    }

    // Replay: a request without the session, or with the cookies the bot had on the wiki, never
    // sees the user's data, for any of the questions.
    const replay = await startServer({ cassettes: dir });
    try {
      const stolen = new Client(replay.url);
      stolen.jar = new Map(bot.jar);
      for (const [i, v] of VARIANTS.entries()) {
        for (const headers of [{}, { cookie: stolen.cookie }] as Record<string, string>[]) {
          const text = await (await fetch(`${replay.url}?${question(i)}&format=json`, { headers })).text();
          const info = userinfo(text);
          expect(info?.id ?? 0, v.name).toBe(0);
          expect(info?.name, v.name).not.toBe(name);
          expect(info?.groups ?? [], v.name).not.toContain('sysop');
        }
      }
    } finally {
      await replay.close();
    }
  });
});
