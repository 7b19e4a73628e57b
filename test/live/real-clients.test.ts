import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { snapshot } from '../../src/record/snapshot.js';
import { startServer } from '../../src/server.js';
import { walkOutput } from '../support/client-walk.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * Real client libraries walk the lists (with their own continuation), extlinks and a parsed
 * summary against the live wiki, through `wikitape record`, and against `wikitape replay` of that
 * recording: each client must get the same results from all three.
 */
const CLIENTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'clients');

const clients = [
  { name: 'mwn (npm)', cmd: process.execPath, args: [join(CLIENTS, 'mwn-walk.mjs')] },
  { name: 'mwclient (Debian python3-mwclient)', cmd: '/usr/bin/python3', args: [join(CLIENTS, 'mwclient-walk.py')] },
  { name: 'nodemw (npm)', cmd: process.execPath, args: [join(CLIENTS, 'nodemw-walk.mjs')] },
  { name: 'wikijs (npm)', cmd: process.execPath, args: [join(CLIENTS, 'wikijs-walk.mjs')] },
];

/** Each client against each live version. */
const runs = LIVE_VERSIONS.flatMap((version) => clients.map((client) => ({ ...client, version })));

async function walk(client: (typeof clients)[number], apiUrl: string, limit = '5', titles?: string): Promise<Record<string, unknown>> {
  return walkOutput(client, { API_URL: apiUrl, LIMIT: limit, ...(titles !== undefined ? { TITLES: titles } : {}) });
}

describe.each(runs)('$name on MediaWiki $version', (client) => {
  it('gets the same results from the live wiki, from wikitape record and from wikitape replay', async () => {
    const live = await liveWiki(client.version);
    const direct = await walk(client, live.apiUrl);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-client-'));
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir });
    const recorded = await walk(client, recorder.url);
    await recorder.close();
    const replay = await startServer({ cassettes: dir, onMiss: 'error' });
    const replayed = await walk(client, replay.url);
    await replay.close();
    // Each script reports the log events it walked (a list, or {count, items}).
    const events = direct['logevents'] as unknown[] | { count: number };
    expect(Array.isArray(events) ? events.length : events.count).toBeGreaterThan(50);
    expect(recorded).toEqual(direct);
    expect(replayed).toEqual(direct);
  });
});

/**
 * Walks nobody recorded: after `wikitape snapshot` and the client's own walk at limit 5, replay
 * (refusing anything it cannot answer exactly) must give the client at other limits what the
 * live wiki gives it: every page of every list, and of the links, computed from the recordings.
 */
describe.each(runs.filter((c) => /^(mwn|mwclient)/.test(c.name)))('$name on MediaWiki $version at limits nobody recorded', (client) => {
  it('gets from replay what the live wiki gives, every answer a recording or computed from one', async () => {
    const live = await liveWiki(client.version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-client-limits-'));
    await snapshot({ upstream: live.apiUrl, cassettes: dir });
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir });
    await walk(client, recorder.url);
    await recorder.close();
    const sources = new Map<string, number>();
    const replay = await startServer({ cassettes: dir, onMiss: 'error', clock: 'real', onRequest: (e) => void sources.set(e.source, (sources.get(e.source) ?? 0) + 1) });
    for (const limit of ['3', '7']) expect(await walk(client, replay.url, limit)).toEqual(await walk(client, live.apiUrl, limit));
    await replay.close();
    console.log(`${client.name} on MediaWiki ${client.version} at limits 3 and 7: ${[...sources].map(([s, n]) => `${n} ${s}`).join(', ')}`);
    expect(sources.get('synthesized')).toBeGreaterThan(0);
    expect(sources.has('miss')).toBe(false);
  }, 300_000);
});

/**
 * Walks nobody recorded, from the client's own walk alone (no snapshot): what each library adds to
 * every page of a walk (mwclient's `meta=userinfo`, wikijs's `redirects`, mwn's `maxlag`) must not
 * keep its recorded walk from answering the same walks at another limit.
 */
// (the links of pages with fewer links than either limit: one answer each way, so that another limit
// needs no link's id, which a walk of links at limit 5 shows only every fifth of)
const FEW_LINKS = 'Alpha|Beta|Несуществующая';
// (the libraries that add something to every page of a walk, and mwn, the most used)
describe.each(runs.filter((c) => /^(mwn|mwclient|wikijs)/.test(c.name)))('$name on MediaWiki $version at another limit, from its own walk alone', (client) => {
  it('gets from replay what the live wiki gives, the lists computed from its recorded walks', async () => {
    const live = await liveWiki(client.version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-client-own-'));
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir });
    await walk(client, recorder.url, '5', FEW_LINKS);
    await recorder.close();
    const sources = new Map<string, number>();
    const replay = await startServer({ cassettes: dir, onMiss: 'error', onRequest: (e) => void sources.set(e.source, (sources.get(e.source) ?? 0) + 1) });
    try {
      expect(await walk(client, replay.url, '7', FEW_LINKS)).toEqual(await walk(client, live.apiUrl, '7', FEW_LINKS));
    } finally {
      await replay.close();
    }
    console.log(`${client.name} on MediaWiki ${client.version} at limit 7 from its own walk at 5: ${[...sources].map(([s, n]) => `${n} ${s}`).join(', ')}`);
    expect(sources.get('synthesized')).toBeGreaterThan(0);
    expect(sources.has('miss')).toBe(false);
  }, 300_000);
});
