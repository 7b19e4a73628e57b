import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * Crash safety: a recorder process is killed with SIGKILL at a random moment during a burst of
 * recordings. Afterwards the cassette must load, hold no partial file, and keep every question
 * whose recording had finished before the write that was cut off: the recorder (with a preloaded
 * probe) reports the keys of each cassette write once it has finished, and the file must hold all
 * the keys of the last write reported before the kill. CRASH_TRIALS sets the count.
 */
const TRIALS = Number(process.env['CRASH_TRIALS'] ?? 10);
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const REPORT_WRITES = join(import.meta.dirname, '..', 'support', 'report-writes.mjs');

let upstream: RunningServer;
beforeAll(async () => {
  // The upstream is a wikitape replay of the test wiki: a real api.php for the recorder to call.
  upstream = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: NO_CASSETTES });
});
afterAll(async () => upstream?.close());

interface Trial {
  /** Interactions in the cassette after the kill. */
  keys: number;
  answered: number;
  /** Cassette writes the recorder reported finished before it was killed. */
  writes: number;
  /** Keys of those writes, each of which the cassette had to hold. */
  required: number;
}

/**
 * A GET on its own connection (node:http, no agent), settled by the answer or by the connection's
 * end. Not fetch: Node 20's (undici 6.24) leaves some requests of a burst pending for ever when the
 * server dies while their connections are being opened (seen 1 run in 3 of 6 such kills; not on
 * Node 22 or 24); this test kills the server mid-burst on purpose.
 */
function get(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function trial(seed: number): Promise<Trial> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-crash-'));
  const child = spawn(process.execPath, ['--import', REPORT_WRITES, CLI, 'record', '--upstream', upstream.url, '--cassettes', dir, '--cassette', 'burst', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'ignore'] });
  // stdout: the address line, then one `WRITTEN [keys]` line per finished cassette write.
  const written = new Set<string>();
  let writes = 0;
  let firstWrite: () => void = () => undefined;
  const wrote = new Promise<void>((resolve) => (firstWrite = resolve));
  let rest = '';
  let announce: (url: string) => void;
  const url = new Promise<string>((resolve) => (announce = resolve));
  child.stdout.on('data', (d: Buffer) => {
    rest += d.toString();
    for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (line.startsWith('WRITTEN ')) {
        writes++;
        firstWrite();
        for (const k of JSON.parse(line.slice(8)) as string[]) written.add(k);
      } else if (/http\S+/.test(line)) announce(/http\S+/.exec(line)![0]);
    }
  });
  // 'close' comes once the process has exited and its stdout is read to the end.
  const closed = new Promise((r) => child.once('close', r));
  let answered = 0;
  const base = await url;
  const burst = Array.from({ length: 40 }, (_, i) =>
    get(`${base}?action=query&list=logevents&lelimit=${(i % 13) + 1}&ledir=${i % 2 ? 'newer' : 'older'}&format=json&formatversion=2`)
      .then(() => answered++)
      .catch(() => undefined),
  );
  // Even trials: killed 20-170 ms after the burst began. Odd trials: 0-90 ms after the first
  // write finished (or when the burst is over), so that most kills fall among the later writes.
  if (seed % 2 === 1) await Promise.race([wrote, Promise.all(burst)]);
  await new Promise((r) => setTimeout(r, seed % 2 === 1 ? (seed * 37) % 91 : 20 + ((seed * 37) % 150)));
  child.kill('SIGKILL');
  await closed;
  await Promise.all(burst);
  // A line cut off by the kill (in `rest`) is not counted: only finished reports bind the check.
  const files = await readdir(dir);
  // No partial file may stay behind as a cassette (steno's temp files start with a dot; the dead
  // recorder's lock stays too, and the next recorder takes it over).
  expect(files.filter((f) => !f.startsWith('.') && !f.endsWith('.json.lock'))).toEqual(files.includes('burst.json') ? ['burst.json'] : []);
  if (!files.includes('burst.json')) {
    // No cassette file: no write can have finished.
    expect(writes).toBe(0);
    return { keys: 0, answered, writes, required: 0 };
  }
  const c = JSON.parse(await readFile(join(dir, 'burst.json'), 'utf8')) as { interactions: { key: string }[] };
  expect(Array.isArray(c.interactions)).toBe(true);
  const kept = new Set(c.interactions.map((i) => i.key));
  expect(kept.size).toBe(c.interactions.length);
  // Everything a finished write held is still there (a later write may have added more).
  expect([...written].filter((k) => !kept.has(k))).toEqual([]);
  return { keys: c.interactions.length, answered, writes, required: written.size };
}

describe('kill -9 during a burst of recordings', () => {
  // Each trial starts a recorder process (0.6 s idle; ten times that with every core busy).
  it(`leaves a cassette that loads, every time (${TRIALS} trials)`, { timeout: 30_000 + TRIALS * 10_000 }, async () => {
    let withData = 0;
    let keys = 0;
    let proved = 0;
    let writes = 0;
    let required = 0;
    for (let i = 0; i < TRIALS; i++) {
      const r = await trial(i);
      if (r.keys > 0) withData++;
      if (r.writes > 0) proved++;
      keys += r.keys;
      writes += r.writes;
      required += r.required;
    }
    console.log(
      `crash trials: ${TRIALS}, cassettes with recordings: ${withData}, interactions kept: ${keys}, ` +
        `killed after a finished write: ${proved} (${writes} writes reported, ${required} keys required, 0 missing), unreadable or partial files: 0`,
    );
    // Some trials must have been killed after writes finished, or the test proves nothing.
    expect(withData).toBeGreaterThan(0);
    expect(proved).toBeGreaterThan(0);
  });
});
