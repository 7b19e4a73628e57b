import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliTest, runCli, startCli } from '../support/cli.js';
import { TEST_CLOCK } from '../support/app.js';
import { alternatingBot } from '../support/alternating-bot.js';
import { adminAccounts } from '../support/accounts.js';

/**
 * `wikitape replay --workers 2`: two processes on one port (node:cluster hands each new
 * connection to the next worker), sharing the session key and the write log through the primary
 * (docs/decisions/0019-many-processes.md). The bot opens a connection per request, so its
 * requests alternate between the workers.
 */

const ACCOUNTS = adminAccounts({ bot: { name: 'wikitape', rights: ['read', 'edit', 'createpage', 'writeapi'] }, groups: ['*', 'user'], rights: ['read', 'edit', 'createpage', 'writeapi'] });

let dir: string;
let fixture: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-workers-cli-'));
  fixture = join(dir, 'accounts.json');
  await writeFile(fixture, JSON.stringify(ACCOUNTS));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('wikitape replay --workers', () => {
  it('serves a bot that logs in, reads and edits from two processes as from one, with one write log', cliTest(2), async () => {
    const login = { name: 'Admin@wikitape', password: 'bot-password' };
    const runs = [];
    for (const workers of ['1', '2']) {
      const cli = await startCli(['replay', '--workers', workers, '--fixtures', fixture, '--clock', TEST_CLOCK, '--quiet']);
      try {
        const run = await alternatingBot([cli.url], login);
        // Asked over fresh connections, whichever worker answers: the one log.
        const logs = [];
        for (let i = 0; i < 4; i++) logs.push(await (await fetch(new URL('/_wikitape/writes', cli.url), { headers: { connection: 'close' } })).json());
        expect(logs).toEqual(Array(4).fill(run.writes[0]));
        runs.push(run);
        // One start line, whatever the number of workers.
        expect(cli.stdout().match(/wikitape replay: /g)).toHaveLength(1);
      } finally {
        expect(await cli.stop()).toBe(0);
      }
    }
    expect(runs[1]!.seen).toEqual(runs[0]!.seen);
    expect(runs[1]!.writes).toEqual(runs[0]!.writes);
    expect((runs[1]!.writes[0] as { writes: { user: string }[] }).writes.map((w) => w.user)).toEqual(['Admin@wikitape', 'Admin@wikitape']);
  });

  it('refuses a server fault that counts requests, and a number of workers out of range', cliTest(2), async () => {
    const counted = await runCli(['replay', '--workers', '2', '--fixtures', fixture, '--fault', '503:first=2', '--port', '0']);
    expect(counted.code).not.toBe(0);
    expect(counted.stderr).toContain('--fault 503:first=2 counts the requests of one process');
    const zero = await runCli(['replay', '--workers', '0', '--fixtures', fixture, '--port', '0']);
    expect(zero.code).not.toBe(0);
    expect(zero.stderr).toContain('--workers takes a whole number from 1 to 64, not 0');
  });

  it('says a port in use as one process does', cliTest(1), async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const r = await runCli(['replay', '--workers', '2', '--fixtures', fixture, '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use by another program`);
    } finally {
      taken.close();
    }
  });
});
