import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { MINI_WIKI, TEST_CLOCK } from '../support/app.js';

/**
 * Crash safety: a recorder process is killed with SIGKILL at a random moment during a burst of
 * recordings. Afterwards the cassette must load, hold no partial file, and keep every question
 * whose recording had finished before the write that was cut off. CRASH_TRIALS sets the count.
 */
const TRIALS = Number(process.env['CRASH_TRIALS'] ?? 10);
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

let upstream: RunningServer;
beforeAll(async () => {
  // The upstream is a wikitape replay of the test wiki: a real api.php for the recorder to call.
  upstream = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: join(tmpdir(), 'wikitape-no-cassettes') });
});
afterAll(async () => upstream?.close());

async function trial(seed: number): Promise<{ keys: number; answered: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-crash-'));
  const child = spawn(process.execPath, [CLI, 'record', '--upstream', upstream.url, '--cassettes', dir, '--cassette', 'burst', '--port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(/http\S+/.exec(d.toString())![0])));
  let answered = 0;
  const burst = Array.from({ length: 40 }, (_, i) =>
    fetch(`${url}?action=query&list=logevents&lelimit=${(i % 13) + 1}&ledir=${i % 2 ? 'newer' : 'older'}&format=json&formatversion=2`)
      .then(() => answered++)
      .catch(() => undefined),
  );
  await new Promise((r) => setTimeout(r, 20 + ((seed * 37) % 150)));
  const exited = new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r)));
  child.kill('SIGKILL');
  await exited;
  await Promise.all(burst);
  const files = await readdir(dir);
  // No partial file may stay behind as a cassette (steno's temp files start with a dot).
  expect(files.filter((f) => !f.startsWith('.'))).toEqual(files.includes('burst.json') ? ['burst.json'] : []);
  if (!files.includes('burst.json')) return { keys: 0, answered };
  const c = JSON.parse(await readFile(join(dir, 'burst.json'), 'utf8')) as { interactions: { key: string }[] };
  expect(Array.isArray(c.interactions)).toBe(true);
  expect(new Set(c.interactions.map((i) => i.key)).size).toBe(c.interactions.length);
  return { keys: c.interactions.length, answered };
}

describe('kill -9 during a burst of recordings', () => {
  it(`leaves a cassette that loads, every time (${TRIALS} trials)`, { timeout: 20_000 + TRIALS * 3000 }, async () => {
    let withData = 0;
    let keys = 0;
    for (let i = 0; i < TRIALS; i++) {
      const r = await trial(i);
      if (r.keys > 0) withData++;
      keys += r.keys;
    }
    console.log(`crash trials: ${TRIALS}, cassettes with recordings: ${withData}, interactions kept: ${keys}, unreadable or partial files: 0`);
    // Some trials must have been killed after writes began, or the test proves nothing.
    expect(withData).toBeGreaterThan(0);
  });
});
