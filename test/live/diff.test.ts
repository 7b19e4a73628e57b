import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { Client } from '../support/cookie-client.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * Stale cassettes: a cassette recorded from the live wiki, then the wiki changed under it (a new
 * block, new log events): `cassettes diff` says which questions changed and how, exits 1;
 * `--update` records them again, and the next diff finds everything equal.
 */
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

const diff = (dir: string, upstream: string, ...more: string[]) =>
  promisify(execFile)(process.execPath, [CLI, 'cassettes', 'diff', '--cassettes', dir, '--upstream', upstream, ...more], { encoding: 'utf8', timeout: 120_000 }).then(
    (r) => ({ status: 0, stdout: r.stdout }),
    (e: { code: number; stdout: string; stderr: string }) => ({ status: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

const QUESTIONS: Record<string, string>[] = [
  { action: 'query', list: 'blocks', bklimit: '5', bkprop: 'id|user|by|timestamp|expiry|reason' },
  { action: 'query', list: 'logevents', lelimit: '5' },
  { action: 'query', list: 'logevents', letype: 'block', lelimit: '3' },
  { action: 'query', list: 'protectedtitles', ptlimit: '3' },
  { action: 'query', meta: 'siteinfo' },
];

describe.each(LIVE_VERSIONS)('MediaWiki %s', (v) => {
  it('diff finds the wiki unchanged, then a new block and new log events; --update records them again', async () => {
    const live = await liveWiki(v);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-live-diff-'));
    const rec = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'suite' });
    for (const q of QUESTIONS) await fetch(`${rec.url}?${new URLSearchParams({ ...q, format: 'json' })}`);
    await rec.close();

    const same = await diff(dir, live.apiUrl);
    expect(same.stdout).toBe(`${QUESTIONS.length} questions: ${QUESTIONS.length} equal, 0 changed, 0 gone, 0 skipped\n`);
    expect(same.status).toBe(0);

    const admin = new Client(live.apiUrl);
    const { user, password } = await live.adminCredentials();
    expect((await admin.call({ action: 'login', lgname: user, lgpassword: password, lgtoken: await admin.token('login') })).body['login'].result).toBe('Success');
    const csrf = await admin.token('csrf');
    // An address of a documentation range the wiki's fill does not block; one another run left
    // blocked is passed over.
    let ip = '';
    let block: Awaited<ReturnType<Client['call']>> | undefined;
    for (let tries = 0; tries < 10 && !block?.body['block']; tries++) {
      ip = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
      block = await admin.call({ action: 'block', user: ip, expiry: '1 day', reason: 'wikitape diff', token: csrf });
    }
    expect(block!.body['block']?.user ?? block!.body['error']).toBe(ip);
    try {
      const changed = await diff(dir, live.apiUrl);
      expect(changed.status).toBe(1);
      const blocksLine = new RegExp(`^changed\\tsuite\\taction=query&bkdir=older&bklimit=5&bkprop=by%7Cexpiry%7Cid%7Creason%7Ctimestamp%7Cuser&list=blocks\\n(?:    .*\\n)*    \\+ query\\.blocks\\[id=${block!.body['block'].id}\\]: \\{"id":${block!.body['block'].id},"user":"${ip.replace(/\./g, '\\.')}"`, 'm');
      expect(changed.stdout).toMatch(blocksLine);
      expect(changed.stdout).toMatch(/^changed\tsuite\taction=query&ledir=older&lelimit=5&leprop=[^\n]*&list=logevents\n(?: {4}.*\n)* {4}\+ query\.logevents\[logid=\d+\]: \{/m);
      expect(changed.stdout).toMatch(/^changed\tsuite\taction=query&ledir=older&lelimit=3&leprop=[^\n]*&letype=block&list=logevents\n/m);
      expect(changed.stdout).toMatch(new RegExp(`questions: ${QUESTIONS.length - 3} equal, 3 changed, 0 gone, 0 skipped\\n$`));

      const updated = await diff(dir, live.apiUrl, '--update');
      expect(updated.stdout).toContain('3 recorded again');
      expect(updated.status).toBe(0);
      expect(await diff(dir, live.apiUrl)).toEqual({ status: 0, stdout: `${QUESTIONS.length} questions: ${QUESTIONS.length} equal, 0 changed, 0 gone, 0 skipped\n` });
      // replay of the updated cassette shows the new block
      const replay = await startServer({ cassettes: dir, onMiss: 'error' });
      const blocks = (await (await fetch(`${replay.url}?${new URLSearchParams({ ...QUESTIONS[0]!, format: 'json', formatversion: '2' })}`)).json()) as { query: { blocks: { user: string }[] } };
      await replay.close();
      expect(blocks.query.blocks.map((b) => b.user)).toContain(ip);
    } finally {
      await admin.call({ action: 'unblock', user: ip, reason: 'wikitape diff done', token: csrf });
    }
  }, 240_000);
});
