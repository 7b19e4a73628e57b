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
  const cassette: Cassette = {
    meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-03-01T00:00:00Z', profile: { version: '1.43.9', language: 'en', scriptPath: '/w', server: 'http://wiki.test', debugInfo: false } },
    interactions: [recorded],
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

  it("refuses the wiki's rate limits, which no recording shows", async () => {
    const c = new Client(server.url);
    const r = await c.call({ action: 'query', meta: 'userinfo', uiprop: 'ratelimits|editcount', formatversion: '2' }, 'GET');
    expect(r.body['error']?.code).toBe('wikitape-miss');
    expect(r.body['error']?.info).toContain('userinfo.ratelimits');
    expect(r.body['error']?.info).not.toContain('userinfo.editcount');
  });
});
