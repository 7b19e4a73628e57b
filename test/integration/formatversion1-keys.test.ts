import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette, Interaction } from '../../src/cassette/format.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { formatVersion1Unknown } from '../../src/output/formatversion.js';

/**
 * A PHP list whose keys formatversion=1 prints and formatversion=2 does not: siteinfo's user groups'
 * add and remove lists are array_intersect()ed with the groups the wiki defines (BCarray): with
 * `$wgAddGroups['sysop'] = ['flood', 'bot']` and no group `flood`, MediaWiki prints `"add":{"1":"bot"}`
 * in formatversion=1 and `"add":["bot"]` in 2. A recording (stored in formatversion=2) cannot tell
 * which: its formatversion=1 is flagged, never printed as a list.
 */
const AT = '2026-11-27T06:45:43Z';
const HEADERS = { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' };
const recorded = (req: Record<string, string>, body: Interaction['body']): Interaction => ({ key: canonicalKey(new Map(Object.entries(req)), KEY_RULES), request: req, status: 200, headers: HEADERS, body, recordedAt: AT });

const WITH_ADD = { action: 'query', meta: 'siteinfo', siprop: 'usergroups' };
const PLAIN = { action: 'query', meta: 'siteinfo', siprop: 'usergroups', sinumberingroup: '1' };
const groups = (sysop: Record<string, unknown>) => ({ batchcomplete: true, query: { usergroups: [{ name: '*', rights: ['read'] }, { name: 'sysop', rights: ['block'], ...sysop }] } });

const cassette: Cassette = {
  meta: { format: 1, upstream: 'http://127.0.0.1:8089/wiki/api.php', recordedAt: AT, profile: { version: '1.43.9', language: 'ru', scriptPath: '/wiki', server: 'http://127.0.0.1:8089', debugInfo: false } },
  interactions: [recorded(WITH_ADD, groups({ add: ['bot'], remove: [] })), recorded(PLAIN, groups({ number: 1 }))],
  entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-fv1-keys-'));
  await writeFile(join(dir, 'recorded.json'), JSON.stringify(cassette, null, 2));
});

async function ask(params: Record<string, string>) {
  const res = await request(createApp({ cassettes: dir, onMiss: 'builtin' })).get('/wiki/api.php').query(params);
  return { text: res.text, unknown: res.headers['x-wikitape-unknown'] as string | undefined };
}

describe('formatversion=1 of a list whose keys the recording does not show', () => {
  it("flags siteinfo's user groups in formatversion=1 when a group's add or remove list holds groups, and not in formatversion=2", async () => {
    expect((await ask({ ...WITH_ADD, format: 'json' })).unknown).toBe('formatversion.usergroups');
    expect((await ask({ ...WITH_ADD, format: 'json', formatversion: '2' })).unknown).toBeUndefined();
    // Without such lists nothing is unknown: every other list of a group is 0…n-1.
    const plain = await ask({ ...PLAIN, format: 'json' });
    expect(plain.unknown).toBeUndefined();
    expect(JSON.parse(plain.text)).toEqual({ batchcomplete: '', query: { usergroups: [{ name: '*', rights: ['read'] }, { name: 'sysop', rights: ['block'], number: 1 }] } });
  });

  it('reads only non-empty intersected lists', () => {
    expect(formatVersion1Unknown(groups({ add: [], 'remove-self': [] }))).toEqual([]);
    expect(formatVersion1Unknown(groups({ 'add-self': ['sysop'] }))).toEqual(['formatversion.usergroups']);
    expect(formatVersion1Unknown({ query: { namespaces: {} } })).toEqual([]);
  });
});
