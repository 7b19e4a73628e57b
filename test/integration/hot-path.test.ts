import { fileURLToPath } from 'node:url';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { Cassette } from '../../src/cassette/format.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createWikitape, type WikitapeState } from '../../src/app.js';
import type { ReplayEngine } from '../../src/engine.js';
import { fillHoles, templateChunks, templateLength } from '../../src/replay/hit-template.js';
import { stringifyKeepingKeyOrder } from '../../src/util/ordered-json.js';

// Cassette hits on a running server are printed from a per-request template (replay/hit-template.ts);
// these tests hold them to what the full printer gives, with fresh values in every answer.

const key = (r: Record<string, string>) => canonicalKey(new Map(Object.entries(r)), KEY_RULES);
const headers = { 'cache-control': 'private, must-revalidate, max-age=0', vary: 'Accept-Encoding, Treat-as-Untrusted, Cookie' };
const block = { id: 1, user: 'Вандал', by: 'Admin', byid: 1, restrictions: [], timestamp: '2024-01-01T00:00:00Z', expiry: '2099-02-01T00:00:00Z', reason: 'спам', automatic: false, anononly: false, nocreate: false, autoblock: false, noemail: false, hidden: false, allowusertalk: false, partial: false };
const logReq = { action: 'query', list: 'logevents' };
const cassette: Cassette = {
  meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-05T00:00:00Z', profile: { version: '1.39.17', language: 'ru', scriptPath: '/w', server: 'http://wiki.test', debugInfo: true } },
  interactions: [
    { key: key(logReq), request: logReq, status: 200, headers, body: { batchcomplete: true, query: { logevents: [{ logid: 1, ns: 0, title: 'Москва', type: 'create', action: 'create', params: { '0': 'a' } }] } }, recordedAt: '2024-01-05T00:00:00Z' },
    { key: key({ action: 'query', list: 'blocks' }), request: { action: 'query', list: 'blocks' }, status: 200, headers: { 'cache-control': 'private, must-revalidate, max-age=0' }, body: { batchcomplete: true, query: { blocks: [block] } }, recordedAt: '2024-01-05T00:00:00Z' },
  ],
  entities: { logevents: [], blocks: [block], protectedtitles: [], pages: [], missing: [] },
};
/**
 * The wall clock these tests start at. The server runs `clock: 'real'` (Date.now) in this process,
 * with Date faked: the tests move the clock on themselves, so a busy machine that takes seconds
 * between two requests sees the same answers as an idle one, and no test sleeps.
 */
const START = Date.parse('2030-06-01T12:00:00Z');
/** A block that expires while the tests run, 3 s after START. */
const soon = { ...block, id: 2, user: 'Скоро', timestamp: '2024-01-02T00:00:00Z', expiry: '2030-06-01T12:00:03Z' };
/** The clock as MediaWiki writes it into SQL (TS_MW). */
const tsMw = (ms: number) => new Date(ms).toISOString().replace(/[-:T]|\.\d+Z$/g, '');

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(START);
  dir = await mkdtemp(join(tmpdir(), 'wikitape-hot-'));
  cassette.entities['blocks']!.push(soon);
  await writeFile(join(dir, 'wiki.json'), `${stringifyKeepingKeyOrder(cassette, 2)}\n`);
  // Flagged answers served (`onMiss: 'builtin'`): these tests are about printing, not about misses.
  server = await startServer({ cassettes: dir, clock: 'real', onMiss: 'builtin' });
});
afterAll(async () => {
  await server?.close();
  vi.useRealTimers();
});

/** A GET with exactly these headers (fetch would add its own). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

const get = (query: string, init: RequestInit = {}) => fetch(`${server.url}?${query}`, init);
/** An answer read as plain JSON. */
const json = async (query: string): Promise<any> => (await get(query)).json();

/** debuginfo with what changes per request taken out: time, memory, session id, cookie expiry (now − 1 day). */
function steady(d: Record<string, unknown>): Record<string, unknown> {
  const { time: _t, memory: _m, memoryPeak: _p, debugLog, ...rest } = d;
  const fixed = (l: string) => l.replace(/"[a-z0-9]{32}"/g, '"SESSION"').replace(/^(\[cookie\] already deleted setcookie: "[^"]*", "", )"\d+"/, '$1"EXPIRY"');
  return { ...rest, debugLog: (debugLog as string[]).map(fixed) };
}

describe('cassette hits on the server', () => {
  it('gives every request fresh debuginfo: time, session id and memory change, the rest is the same', async () => {
    const a = await json('action=query&list=logevents&format=json');
    const b = await json('action=query&list=logevents&format=json');
    expect(a.debuginfo.time).not.toBe(b.debuginfo.time);
    expect(typeof a.debuginfo.time).toBe('number');
    expect(a.debuginfo.memory).toMatch(/^\d+(,\d+)? МБ$/);
    const session = (d: { debugLog: string[] }) => d.debugLog.join('\n').match(/SessionBackend "([a-z0-9]{32})"/)![1];
    expect(session(a.debuginfo)).not.toBe(session(b.debuginfo));
    expect(steady(a.debuginfo)).toEqual(steady(b.debuginfo));
    const { debuginfo: _a, ...dataA } = a;
    expect(dataA).toEqual({ batchcomplete: '', query: { logevents: [{ logid: 1, ns: 0, title: 'Москва', type: 'create', action: 'create', params: { '0': 'a' } }] } });
    expect(a.debuginfo.request.params).toEqual({ action: 'query', list: 'logevents', format: 'json' });
  });

  it('prints what the full printer prints, in every format, whatever the headers', async () => {
    const engine = await replayEngine(createWikitape({ cassettes: dir, clock: 'real' }).state);
    for (const q of ['format=json', 'format=json&formatversion=2', 'format=json&utf8=1', 'format=json&callback=cb', 'format=jsonfm', '']) {
      for (const extra of [{}, { 'user-agent': 'mwn/3', 'accept-language': 'ru' }] as Array<Record<string, string>>) {
        const headers: Record<string, string> = { host: 'wiki.test', connection: 'keep-alive', ...extra };
        const path = `/w/api.php?action=query&list=logevents&${q}`;
        const hot = await rawGet(path, headers);
        const full = engine.handle({ method: 'GET', url: path, headers, body: Buffer.alloc(0), startedAt: process.hrtime.bigint() });
        expect(hot.headers['x-wikitape-source']).toBe('cassette');
        expect(hot.status).toBe(full.status);
        for (const [k, v] of full.headers) {
          // the real clock's Date of two printings may straddle a second
          if (k === 'Date') expect(Math.abs(Date.parse(String(hot.headers['date'])) - Date.parse(v))).toBeLessThanOrEqual(1000);
          else expect(hot.headers[k.toLowerCase()]).toBe(v);
        }
        const mask = (t: string) =>
          t
            .replace(/(&quot;|")time(&quot;|"): ?[0-9.e+-]+/g, 'TIME')
            .replace(/(&quot;|")memory(Peak)?(&quot;|"): ?(&quot;|")[^"&]*(&quot;|")/g, 'MEMORY')
            .replace(/[a-z0-9]{32}/g, 'SESSION')
            .replace(/"wgRequestId":"[0-9a-f]{24}"/g, 'REQUESTID')
            // the cookie-expiry time in the session log is "now minus a year": the two printings may straddle a second
            .replace(/(setcookie: [^\n]*?)\b\d{10}\b/g, '$1EXPIRY');
        const fullText = Buffer.concat(Array.isArray(full.body) ? full.body : [Buffer.from(full.body)]).toString();
        expect(hot.body.length).toBeGreaterThan(100);
        expect(mask(hot.body)).toBe(mask(fullText));
      }
    }
  });

  it('gives the HTML page a new request id each time', async () => {
    const id = async () => /"wgRequestId":"([0-9a-f]{24})"/.exec(await (await get('action=query&list=logevents')).text())?.[1];
    const [a, b] = [await id(), await id()];
    expect(a).toMatch(/^[0-9a-f]{24}$/);
    expect(a).not.toBe(b);
  });

  it('writes the running clock into the blocks query of debuginfo', async () => {
    const sqlNow = async () => {
      const d = (await json('action=query&list=blocks&format=json')).debuginfo;
      return /ipb_expiry > '(\d{14})'/.exec((d.queries as Array<{ sql: string }>).map((q) => q.sql).join('\n'))?.[1];
    };
    expect(await sqlNow()).toBe(tsMw(Date.now()));
    vi.setSystemTime(Date.now() + 1000);
    expect(await sqlNow()).toBe(tsMw(Date.now()));
  });

  it('answers unrecorded questions the same way: fresh values, and the clock followed from one second to the next', async () => {
    const q = 'action=query&list=blocks&bklimit=5&bkprop=id|user|expiry&format=json&formatversion=2';
    const first = await get(q);
    // computed from the recorded walk of the blocks list
    expect(first.headers.get('x-wikitape-source')).toBe('synthesized');
    const a = (await first.json()) as { query: { blocks: Array<{ user: string }> }; debuginfo: { time: number } };
    const b = (await (await get(q)).json()) as typeof a;
    expect(a.query.blocks.map((x) => x.user)).toEqual(['Скоро', 'Вандал']);
    expect(b.query).toEqual(a.query);
    expect(b.debuginfo.time).not.toBe(a.debuginfo.time);
    // the second after the block's expiry
    vi.setSystemTime(Date.parse(soon.expiry) + 1000);
    const c = (await (await get(q)).json()) as typeof a;
    expect(c.query.blocks.map((x) => x.user)).toEqual(['Вандал']);
  });

  // 600 MB of query strings looked up: seconds of CPU on a busy machine.
  it('remembers hit keys within a bounded size, whatever the size of the query strings', { timeout: 60_000 }, async () => {
    const engine = await replayEngine(createWikitape({ cassettes: dir, clock: 'real' }).state);
    const hit = 'action=query&list=logevents&format=json';
    expect(engine.isHit(hit)).toBe(true);
    // 1,200 distinct query strings of 500 KB each (600 MB in all)
    const pad = 'x'.repeat(500 * 1024);
    for (let i = 0; i < 1200; i++) {
      expect(engine.isHit(`${hit}&requestid=${i}${pad}`)).toBe(true);
      expect(engine.hitKeyMemoChars).toBeLessThanOrEqual(8 << 20);
    }
    expect(engine.isHit(hit)).toBe(true);
  });

  it('keeps within its memory budget, and answers right whatever it had to drop', async () => {
    const engine = await replayEngine(createWikitape({ cassettes: dir, clock: 'real' }).state);
    engine.templates.budget = 40_000; // a few templates
    const headers = { host: 'wiki.test' };
    const raw = ['Host', 'wiki.test'];
    const urls = Array.from({ length: 12 }, (_, i) => `/w/api.php?action=query&list=blocks&format=json&formatversion=2&bklimit=${i + 1}&bkprop=id|user`);
    const data = (text: string) => {
      const { debuginfo: _, ...rest } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    for (let round = 0; round < 3; round++) {
      for (const url of urls) {
        const t = engine.template(url, headers, raw)!;
        const values = fillHoles(t, process.hrtime.bigint(), Date.now())!;
        const chunks = wire(templateChunks(t, values));
        const full = engine.handle({ method: 'GET', url, headers, body: Buffer.alloc(0), startedAt: process.hrtime.bigint() });
        const fullText = Buffer.concat(Array.isArray(full.body) ? full.body : [Buffer.from(full.body)]).toString();
        expect(data(chunks.toString())).toEqual(data(fullText));
        expect(chunks.length).toBe(templateLength(t, values));
      }
    }
    expect(engine.templates.bytes).toBeLessThanOrEqual(40_000);
  });

  it('once its budget is full, makes room for a computed answer asked again, not for those asked once', async () => {
    const engine = await replayEngine(createWikitape({ cassettes: dir, clock: 'real' }).state);
    const headers = { host: 'wiki.test' };
    const raw = ['Host', 'wiki.test'];
    const get = (url: string) => engine.template(url, headers, raw)!;
    const url = (q: string) => `/w/api.php?action=query&list=blocks&format=json&${q}`;
    // Three computed answers asked at first, kept (the budget holds them and little more).
    const first = ['bklimit=1', 'bklimit=1&bkdir=newer', 'bklimit=1&bkprop=id'].map((q) => get(url(q)));
    expect(first.map((t) => t.source)).toEqual(['synthesized', 'synthesized', 'synthesized']);
    const size = engine.templates.bytes;
    engine.templates.budget = size + 1000;
    // A request id per request: every computed question new. None of them takes a kept one's place.
    for (let i = 0; i < 200; i++) get(url(`bklimit=1&bkprop=id|user&requestid=${i}`));
    const still = ['bklimit=1', 'bklimit=1&bkdir=newer', 'bklimit=1&bkprop=id'].map((q) => get(url(q)));
    for (const [i, t] of still.entries()) expect(t).toBe(first[i]);
    // Asked a second time, a computed question does.
    const again = url('bklimit=1&bkprop=id|user&requestid=7');
    const made = get(again);
    expect(get(again)).toBe(made);
    // A recorded answer's template is kept the first time: the suite asks its recorded questions again.
    const hit = '/w/api.php?action=query&list=logevents&format=json';
    const h = get(hit);
    expect(h.source).toBe('cassette');
    expect(get(hit)).toBe(h);
  });

  it("writes the bundled wiki's debuginfo answer in two chunks, as a bare server writes headers and body", async () => {
    const bundled = fileURLToPath(new URL('../../cassettes', import.meta.url));
    const engine = await replayEngine(createWikitape({ cassettes: bundled, clock: 'real' }).state);
    const url = '/wiki/api.php?action=query&list=logevents&format=json';
    const t = engine.template(url, { host: 'wiki.test' }, ['Host', 'wiki.test'])!;
    expect(t.slots.length).toBeGreaterThan(1);
    const values = fillHoles(t, process.hrtime.bigint(), Date.now())!;
    const chunks = templateChunks(t, values);
    // Part by part it was about 30 writes, most of a few bytes (issue 25: 0.61–0.69 of a bare
    // server); then four buffers. Now: the data and debuginfo up to its include list as text (sent
    // with the headers in one piece), then the shared include list with the `}}` that ends the answer.
    expect(chunks.map((c) => typeof c)).toEqual(['string', 'object']);
    expect(wire(chunks).length).toBe(templateLength(t, values));
    const full = engine.handle({ method: 'GET', url, headers: { host: 'wiki.test' }, body: Buffer.alloc(0), startedAt: process.hrtime.bigint() });
    const text = (b: string | Buffer | Buffer[]) => Buffer.concat(Array.isArray(b) ? b : [Buffer.from(b)]).toString();
    const { debuginfo: d1, ...a } = JSON.parse(wire(chunks).toString()) as Record<string, unknown>;
    const { debuginfo: d2, ...b } = JSON.parse(text(full.body)) as Record<string, unknown>;
    expect(a).toEqual(b);
    expect(Object.keys(d1 as object)).toEqual(Object.keys(d2 as object));
  });

  it('writes a long answer without debuginfo byte for byte as the full printer, UTF-8 included', async () => {
    // debuginfo off (production wikis): no holes; a recorded answer past the long-part size is
    // written as it is, the short text after it joined to it.
    const big = { ...cassette, meta: { ...cassette.meta, profile: { ...cassette.meta.profile, debugInfo: false } } };
    const events = Array.from({ length: 400 }, (_, i) => ({ logid: i + 1, ns: 0, title: `Москва ${i}`, type: 'create', action: 'create', params: {} }));
    big.interactions = [{ ...cassette.interactions[0]!, body: { batchcomplete: true, query: { logevents: events } } }];
    const bigDir = await mkdtemp(join(tmpdir(), 'wikitape-hot-big-'));
    await writeFile(join(bigDir, 'wiki.json'), `${stringifyKeepingKeyOrder(big, 2)}\n`);
    const engine = await replayEngine(createWikitape({ cassettes: bigDir, clock: 'real' }).state);
    const bigServer = await startServer({ cassettes: bigDir, clock: 'real' });
    onTestFinished(() => bigServer.close());
    for (const q of ['format=json&utf8=1', 'format=json&formatversion=2', 'format=json']) {
      const url = `/w/api.php?action=query&list=logevents&${q}`;
      const t = engine.template(url, { host: 'wiki.test' }, ['Host', 'wiki.test'])!;
      expect(t.slots).toEqual([]);
      const chunks = templateChunks(t, []);
      const full = engine.handle({ method: 'GET', url, headers: { host: 'wiki.test' }, body: Buffer.alloc(0), startedAt: process.hrtime.bigint() });
      const fullBytes = Buffer.concat(Array.isArray(full.body) ? full.body : [Buffer.from(full.body)]);
      expect(fullBytes.length).toBeGreaterThan(16 * 1024);
      expect(wire(chunks).equals(fullBytes)).toBe(true);
      expect(templateLength(t, [])).toBe(fullBytes.length);
      // and on the wire, twice (the first answer makes the template, the second is printed from it)
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${bigServer.url}?action=query&list=logevents&${q}`);
        expect(Buffer.from(await res.arrayBuffer()).equals(fullBytes)).toBe(true);
      }
    }
  });

  it('gives curtimestamp the second of each request', async () => {
    const q = 'action=query&list=logevents&format=json&curtimestamp=1';
    const a = (await json(q)).curtimestamp as string;
    expect(Date.parse(a)).toBe(Math.floor(Date.now() / 1000) * 1000);
    vi.setSystemTime(Date.now() + 1000);
    const b = (await json(q)).curtimestamp as string;
    expect(Date.parse(b) - Date.parse(a)).toBe(1000);
  });

  it('keeps values that look like its own marks as they are, however they are spelled', async () => {
    const r = await json('action=query&list=logevents&format=json&requestid=wikitapemarktime');
    expect(r.requestid).toBe('wikitapemarktime');
    expect(typeof r.debuginfo.time).toBe('number');
    // percent-encoded, twice (the second answer comes from the template the first one made)
    for (let i = 0; i < 2; i++) {
      const e = await json('action=query&list=logevents&format=json&requestid=wikitape%6Darkrequestid');
      expect(e.requestid).toBe('wikitapemarkrequestid');
      const p = await json('action=parse&summary=wikitape%6Darktime%20wikitapemarkmemory&prop=&format=json');
      expect(p.parse.parsedsummary['*']).toBe('wikitapemarktime wikitapemarkmemory');
    }
  });
});

/** What a template's chunks put on the wire (its text chunks are latin1: one byte a character). */
const wire = (chunks: Array<string | Buffer>) => Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'latin1') : c)));

/** The engine of a replay app. */
async function replayEngine(state: WikitapeState): Promise<ReplayEngine> {
  if (state.mode !== 'replay') throw new Error('not a replay app');
  return state.ready;
}
