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
 * Stale cassettes: walks recorded from the live wiki (each list from its first page to its last,
 * following continuation), then the wiki changed under them (a new block, new log events):
 * `cassettes diff` says which walks changed and how, exits 1; `--update` records them again whole,
 * the next diff finds everything equal, and replay's walks are the live wiki's, page by page, at
 * the recorded limit and at another. A walk recorded logged in is reported unchecked (exit 3)
 * without credentials, and checked with them.
 */
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

const diff = (dir: string, upstream: string, env: Record<string, string | undefined>, ...more: string[]) =>
  promisify(execFile)(process.execPath, [CLI, 'cassettes', 'diff', '--cassettes', dir, '--upstream', upstream, ...more], { encoding: 'utf8', timeout: 300_000, env: { ...process.env, WIKITAPE_DIFF_USER: '', WIKITAPE_DIFF_PASSWORD: '', ...env } }).then(
    (r) => ({ status: 0, stdout: r.stdout }),
    (e: { code: number; stdout: string; stderr: string }) => ({ status: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

/** The walks recorded, each with the limit parameter and another limit replay is asked at. */
const WALKS: { q: Record<string, string>; limit: string; other: string }[] = [
  { q: { action: 'query', list: 'blocks', bklimit: '5', bkprop: 'id|user|by|timestamp|expiry|reason' }, limit: 'bklimit', other: '4' },
  { q: { action: 'query', list: 'logevents', lelimit: '5' }, limit: 'lelimit', other: '7' },
  { q: { action: 'query', list: 'logevents', letype: 'block', lelimit: '3' }, limit: 'lelimit', other: '2' },
  { q: { action: 'query', list: 'protectedtitles', ptlimit: '3' }, limit: 'ptlimit', other: '4' },
  { q: { action: 'query', meta: 'siteinfo' }, limit: '', other: '' },
];

type Body = Record<string, unknown>;

/** A client's walk of `q`: each page's answer (what differs on every asking aside), following `continue` to the end. */
async function walk(url: string, q: Record<string, string>, cookie?: string): Promise<{ bodies: Body[]; sources: (string | null)[] }> {
  const bodies: Body[] = [];
  const sources: (string | null)[] = [];
  let cont: Record<string, string> = { continue: '' };
  for (let n = 0; n < 200; n++) {
    const r = await fetch(`${url}?${new URLSearchParams({ ...q, ...cont, format: 'json', formatversion: '2' })}`, cookie ? { headers: { cookie } } : {});
    const body = (await r.json()) as Body;
    for (const k of ['debuginfo', 'curtimestamp', 'servedby', 'requestid']) delete body[k];
    bodies.push(body);
    sources.push(r.headers.get('x-wikitape-source'));
    if (!body['continue']) return { bodies, sources };
    cont = body['continue'] as Record<string, string>;
  }
  throw new Error(`the walk of ${JSON.stringify(q)} did not end`);
}

const allEqual = (n: number, pages: string) => `${n} walks (${pages} recorded pages): ${n} equal, 0 changed, 0 gone, 0 unchecked\n`;

describe.each(LIVE_VERSIONS)('MediaWiki %s', (v) => {
  it('diff finds the wiki unchanged, then a new block and new log events; --update records the walks again whole, and replay walks as the wiki does', async () => {
    const live = await liveWiki(v);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-live-diff-'));
    const rec = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'suite' });
    for (const w of WALKS) await walk(rec.url, w.q);
    await rec.close();

    const same = await diff(dir, live.apiUrl, {});
    expect(same.stdout).toMatch(new RegExp(`^${allEqual(WALKS.length, '\\d+').replace(/[()]/g, '\\$&')}$`));
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
      const changed = await diff(dir, live.apiUrl, {});
      expect(changed.status).toBe(1);
      const id = block!.body['block'].id as number;
      expect(changed.stdout).toMatch(new RegExp(`^changed\\tsuite\\taction=query&bkdir=older&bklimit=5&bkprop=by%7Cexpiry%7Cid%7Creason%7Ctimestamp%7Cuser&list=blocks\\n(?:    .*\\n)*    \\+ query\\.blocks\\[id=${id}\\]: \\{"id":${id},"user":"${ip.replace(/\./g, '\\.')}"`, 'm'));
      expect(changed.stdout).toMatch(/^changed\tsuite\taction=query&ledir=older&lelimit=5&leprop=[^\n]*&list=logevents\n {4}a walk of \d+ pages recorded, \d+ now\n(?: {4}.*\n)* {4}\+ query\.logevents\[logid=\d+\]: \{/m);
      expect(changed.stdout).toMatch(/^changed\tsuite\taction=query&ledir=older&lelimit=3&leprop=[^\n]*&letype=block&list=logevents\n/m);
      expect(changed.stdout).toMatch(new RegExp(`walks \\(\\d+ recorded pages\\): ${WALKS.length - 3} equal, 3 changed, 0 gone, 0 unchecked\\n$`));

      const updated = await diff(dir, live.apiUrl, {}, '--update');
      expect(updated.stdout).toContain('3 recorded again');
      expect(updated.status).toBe(0);
      const again = await diff(dir, live.apiUrl, {});
      expect(again.stdout).toMatch(new RegExp(`^${allEqual(WALKS.length, '\\d+').replace(/[()]/g, '\\$&')}$`));
      expect(again.status).toBe(0);

      // Replay's walks are the wiki's: every page, at the recorded limit and at another.
      const replay = await startServer({ cassettes: dir, onMiss: 'error' });
      try {
        // (siteinfo aside: its general.time is the clock's)
        for (const w of WALKS.filter((x) => x.limit)) {
          for (const q of [w.q, { ...w.q, [w.limit]: w.other }]) {
            const want = await walk(live.apiUrl, q);
            const got = await walk(replay.url, q);
            expect(got.bodies, JSON.stringify(q)).toEqual(want.bodies);
            for (const s of got.sources) expect(['cassette', 'synthesized']).toContain(s);
          }
        }
        const blocks = await walk(replay.url, WALKS[0]!.q);
        expect(blocks.bodies.flatMap((b) => (b['query'] as { blocks: { user: string }[] }).blocks.map((x) => x.user))).toContain(ip);
      } finally {
        await replay.close();
      }
    } finally {
      await admin.call({ action: 'unblock', user: ip, reason: 'wikitape diff done', token: csrf });
    }
  }, 600_000);

  it('a walk recorded logged in: unchecked (exit 3) without credentials, checked as that identity with them', async () => {
    const live = await liveWiki(v);
    const { user, password } = await live.adminCredentials();
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-live-diff-login-'));
    const rec = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'bot' });
    const bot = new Client(rec.url);
    expect((await bot.call({ action: 'login', lgname: user, lgpassword: password, lgtoken: await bot.token('login') })).body['login'].result).toBe('Success');
    await walk(rec.url, WALKS[0]!.q, bot.cookie);
    await rec.close();

    const unchecked = await diff(dir, live.apiUrl, {});
    expect(unchecked.status).toBe(3);
    expect(unchecked.stdout).toContain(`recorded logged in as ${user}, and no credentials for ${user} were given`);
    const checked = await diff(dir, live.apiUrl, { WIKITAPE_DIFF_USER: user, WIKITAPE_DIFF_PASSWORD: password });
    expect(checked.stdout).toMatch(/^\d+ walks \(\d+ recorded pages\): \d+ equal, 0 changed, 0 gone, 0 unchecked\n$/);
    expect(checked.status).toBe(0);
    for (const r of [unchecked, checked]) expect(`${r.stdout}${'stderr' in r ? r.stderr : ''}`).not.toContain(password);
  }, 300_000);
});
