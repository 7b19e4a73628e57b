import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette } from '../../src/cassette/format.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { NO_CASSETTES } from '../support/app.js';

/**
 * A block lists until its expiry and not at it: list=blocks asks for `ipb_expiry > now` (1.39;
 * `bl_expiry > now` in 1.43), as the live wikis' debuginfo shows. At the very second of the expiry
 * the block is gone, from a recorded answer (replayed as computed once the clock reaches an expiry
 * it lists) as from the built-in module.
 */
const EXPIRY = '2024-02-01T00:00:00Z';
const block = {
  id: 7, user: 'Вандал', by: 'Admin', byid: 1, restrictions: [], timestamp: '2024-01-01T00:00:00Z', expiry: EXPIRY, reason: '',
  automatic: false, anononly: false, nocreate: false, autoblock: false, noemail: false, hidden: false, allowusertalk: false, partial: false,
};
const lasting = { ...block, id: 8, user: 'Другой', expiry: 'infinity' };
const req = { action: 'query', list: 'blocks' };
const cassette: Cassette = {
  meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-05T00:00:00Z', profile: { version: '1.39.17', language: 'ru', scriptPath: '/w', server: 'http://wiki.test', debugInfo: false } },
  interactions: [{ key: canonicalKey(new Map(Object.entries(req)), KEY_RULES), request: req, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body: { batchcomplete: true, query: { blocks: [lasting, block] } }, recordedAt: '2024-01-05T00:00:00Z' }],
  entities: { logevents: [], blocks: [lasting, block], protectedtitles: [], pages: [], missing: [] },
};

let cassettes: string;
let fixture: string;
beforeAll(async () => {
  cassettes = await mkdtemp(join(tmpdir(), 'wikitape-expiry-'));
  await writeFile(join(cassettes, 'wiki.json'), JSON.stringify(cassette));
  fixture = join(await mkdtemp(join(tmpdir(), 'wikitape-expiry-fixture-')), 'blocks.json');
  await writeFile(fixture, JSON.stringify({ profile: cassette.meta.profile, blocks: [lasting, block] }));
});

/** Who list=blocks shows under a clock, and where the answer came from. */
async function blocked(clock: string, source: 'recording' | 'fixture'): Promise<{ users: string[]; from: string }> {
  const app = source === 'recording' ? createApp({ cassettes, clock }) : createApp({ fixtures: [fixture], cassettes: NO_CASSETTES, clock });
  const res = await request(app).get('/w/api.php').query({ ...req, format: 'json', formatversion: '2' });
  return { users: (JSON.parse(res.text) as { query: { blocks: { user: string }[] } }).query.blocks.map((b) => b.user), from: String(res.headers['x-wikitape-source']) };
}

describe('a block at its expiry', () => {
  it('a recorded answer lists it one second before, and not at the second of its expiry', async () => {
    expect(await blocked('2024-01-31T23:59:59Z', 'recording')).toEqual({ users: ['Другой', 'Вандал'], from: 'cassette' });
    expect((await blocked(EXPIRY, 'recording')).users).toEqual(['Другой']);
  });

  it('the built-in wiki lists it one second before, and not at the second of its expiry', async () => {
    expect(await blocked('2024-01-31T23:59:59Z', 'fixture')).toEqual({ users: ['Другой', 'Вандал'], from: 'builtin' });
    expect(await blocked(EXPIRY, 'fixture')).toEqual({ users: ['Другой'], from: 'builtin' });
  });
});
