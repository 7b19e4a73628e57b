import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyHarvest, identityKey, type Cassette, type Interaction } from '../../src/cassette/format.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { Client } from '../support/cookie-client.js';

/**
 * meta=userinfo of an anonymous caller after a crawl that recorded only some props (mwclient's
 * `blockinfo|hasmsg|groups|rights`): the props MediaWiki's code decides for every user with no
 * account are exact without a recording (as both live wikis answer: `editcount` 0, no
 * `registrationdate`, `implicitgroups` `*`, no `groupmemberships`); the wiki's configuration
 * (rate limits) stays unknown.
 */

function interaction(params: Record<string, string>, body: object): Interaction {
  const request = { action: 'query', ...params };
  const key = identityKey(canonicalKey(new Map(Object.entries(request)), KEY_RULES), undefined);
  return { key, request, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body: { batchcomplete: true, ...body }, recordedAt: '2024-03-01T00:00:00Z' };
}

const RIGHTS = ['createaccount', 'read'];
let server: RunningServer;
beforeAll(async () => {
  const recorded = interaction({ meta: 'userinfo', uiprop: 'blockinfo|hasmsg|groups|rights', formatversion: '2' }, { query: { userinfo: { id: 0, name: '127.0.0.1', anon: true, messages: false, groups: ['*'], rights: RIGHTS } } });
  // The recorder's client sent `Accept-Language: *`: what a recording shows is its header, not the next caller's.
  const central = interaction({ meta: 'userinfo', uiprop: 'acceptlang|centralids', formatversion: '2' }, { query: { userinfo: { id: 0, name: '127.0.0.1', anon: true, acceptlang: [{ q: 1, code: '*' }], centralids: { local: 0 }, attachedlocal: { local: false } } } });
  // (two recordings whose props another question asks together)
  const mail = interaction({ meta: 'userinfo', uiprop: 'email|unreadcount', formatversion: '2' }, { query: { userinfo: { id: 0, name: '127.0.0.1', anon: true, email: '', unreadcount: 0 } } });
  const name = interaction({ meta: 'userinfo', uiprop: 'realname', formatversion: '2' }, { query: { userinfo: { id: 0, name: '127.0.0.1', anon: true, realname: '' } } });
  const cassette: Cassette = {
    meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-03-01T00:00:00Z', profile: { version: '1.43.9', language: 'en', scriptPath: '/w', server: 'http://wiki.test', debugInfo: false } },
    interactions: [recorded, central, mail, name],
    entities: emptyHarvest(),
  };
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-userinfo-rules-'));
  await writeFile(join(dir, 'rec.json'), JSON.stringify(cassette));
  server = await startServer({ cassettes: dir });
});
afterAll(() => server.close());

describe('userinfo of an anonymous caller on a replayed wiki', () => {
  it("answers the props MediaWiki's code decides exactly, beside the recorded ones", async () => {
    const c = new Client(server.url);
    const r = await c.call({ action: 'query', meta: 'userinfo', uiprop: 'groups|rights|editcount|blockinfo|hasmsg|implicitgroups|groupmemberships|registrationdate', formatversion: '2' }, 'GET');
    expect(r.headers.get('x-wikitape-unknown')).toBeNull();
    expect(r.body['query'].userinfo).toEqual({ id: 0, name: '127.0.0.1', anon: true, messages: false, groups: ['*'], groupmemberships: [], implicitgroups: ['*'], rights: RIGHTS, editcount: 0 });
  });

  // As both live wikis answer (WebRequest::getAcceptLang): the caller's header, lower-cased, by q.
  it("shows the caller's own Accept-Language, not the recorder's", async () => {
    const ask = async (fv: string, lang?: string) => {
      const r = await fetch(`${server.url}?action=query&meta=userinfo&uiprop=acceptlang|centralids&format=json&formatversion=${fv}`, { headers: lang === undefined ? {} : { 'accept-language': lang } });
      expect(r.headers.get('x-wikitape-unknown')).toBeNull();
      return ((await r.json()) as { query: { userinfo: Record<string, unknown> } }).query.userinfo;
    };
    expect(await ask('2', 'de-DE, fr;q=0, en;q=0.5,de;q=0.9, ru')).toEqual({ id: 0, name: '127.0.0.1', anon: true, acceptlang: [{ q: 1, code: 'de-de' }, { q: 1, code: 'ru' }, { q: 0.9, code: 'de' }, { q: 0.5, code: 'en' }], centralids: { local: 0 }, attachedlocal: { local: false } });
    expect(await ask('2', '')).toMatchObject({ acceptlang: [] });
    // formatversion=1: the code is each entry's content (`*`); attachedlocal is an assoc array, `{}` when all false.
    const v1 = await ask('1', '*');
    expect(JSON.stringify(v1)).toBe('{"id":0,"name":"127.0.0.1","anon":"","acceptlang":[{"q":1,"*":"*"}],"centralids":{"local":0},"attachedlocal":{}}');
  });

  it('puts the recorded props together in the order ApiQueryUserInfo writes them (realname before email; 1.39 and 1.43; an anonymous caller has no registrationdate)', async () => {
    const c = new Client(server.url);
    const r = await c.call({ action: 'query', meta: 'userinfo', uiprop: 'unreadcount|email|realname|registrationdate|acceptlang', formatversion: '2' }, 'GET');
    expect(Object.keys(r.body['query']?.userinfo ?? {})).toEqual(['id', 'name', 'anon', 'realname', 'email', 'acceptlang', 'unreadcount']);
  });

  it("refuses the wiki's rate limits, which no recording shows", async () => {
    const c = new Client(server.url);
    const r = await c.call({ action: 'query', meta: 'userinfo', uiprop: 'ratelimits|editcount', formatversion: '2' }, 'GET');
    expect(r.body['error']?.code).toBe('wikitape-miss');
    expect(r.body['error']?.info).toContain('userinfo.ratelimits');
    expect(r.body['error']?.info).not.toContain('userinfo.editcount');
  });
});
