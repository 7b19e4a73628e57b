import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffCassettes } from '../../src/record/diff.js';
import { startServer } from '../../src/server.js';
import { cliTest, runCli } from '../support/cli.js';

/**
 * `cassettes diff` against a real API server: wikitape's own replay of the bundled cassette (the
 * live wiki's turn is test/live/diff.test.ts). A copy of the cassette edited as if the wiki had
 * changed since: reported per question as equal / changed (a readable diff) / gone.
 */
const ROOT = join(import.meta.dirname, '..', '..');

async function editedCopy(edit: (c: { interactions: { key: string; body: any; status: number; request: Record<string, string> }[] }) => void): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-diff-'));
  await copyFile(join(ROOT, 'cassettes', 'bundled-wiki.json'), join(dir, 'wiki.json'));
  const c = JSON.parse(await readFile(join(dir, 'wiki.json'), 'utf8'));
  edit(c);
  await writeFile(join(dir, 'wiki.json'), JSON.stringify(c, null, 2));
  return dir;
}

const BLOCKS = 'action=query&bkdir=older&bklimit=10&bkprop=by%7Cexpiry%7Cflags%7Cid%7Creason%7Ctimestamp%7Cuser&list=blocks';
const LOG = 'action=query&ledir=older&lelimit=10&leprop=comment%7Cdetails%7Cids%7Ctimestamp%7Ctitle%7Ctype%7Cuser&list=logevents';

describe('cassettes diff', () => {
  // Every question of the bundled cassette asked again of a server in this process: a minute allows for a busy machine.
  it('reports equal, changed (entities matched by id, one line each) and gone; waits out maxlag', { timeout: 60_000 }, async () => {
    const upstream = await startServer({ cassettes: join(ROOT, 'cassettes'), faults: ['maxlag:first=2,lag=9'] });
    try {
      const dir = await editedCopy((c) => {
        const blocks = c.interactions.find((i) => i.key === BLOCKS)!;
        blocks.body.query.blocks[1].reason = 'an older reason';
        blocks.body.query.blocks.splice(0, 1); // the wiki has one more block now
        const log = c.interactions.find((i) => i.key === LOG)!;
        log.body.query.logevents[2].comment = 'edited';
        // one link of the walk's third page is another now: the walk of 96 pages changed
        const ext = c.interactions.filter((i) => i.key.includes('prop=extlinks'))[2]!;
        ext.body.query.pages.find((p: { extlinks?: unknown[] }) => p.extlinks)!.extlinks[0].url = 'https://old.example/';
        // a question the wiki refuses now
        c.interactions.push({ ...log, key: `${LOG}&letype=nosuchtype`, request: { ...log.request, letype: 'nosuchtype' } });
        const parse = c.interactions.find((i) => i.key.startsWith('action=parse'))!;
        parse.body = { error: { code: 'nosuchsection', info: 'x' } };
      });
      const waits: number[] = [];
      const entries = await diffCassettes({ upstream: upstream.url, cassettes: dir, sleep: async (s) => void waits.push(s) });
      expect(waits).toEqual([5, 5]); // two lagged answers, each waited for as Retry-After said
      const by = (k: string) => entries.find((e) => e.key === k)!;
      const blocks = by(BLOCKS);
      expect(blocks.status).toBe('changed');
      expect(blocks.details.some((d) => /^\+ query\.blocks\[id=\d+\]: \{"id":/.test(d))).toBe(true);
      expect(blocks.details.some((d) => /^query\.blocks\[id=\d+\]\.reason: "an older reason" → ".*"$/.test(d))).toBe(true);
      expect(by(LOG).details).toEqual([expect.stringMatching(/^query\.logevents\[logid=\d+\]\.comment: "edited" → ".*"$/)]);
      const counts = { equal: 0, changed: 0, gone: 0, unchecked: 0 };
      for (const e of entries) counts[e.status]++;
      // The walk of external links (one per page) is one entry: the page that changed named by its entries.
      const links = entries.filter((e) => e.key.includes('prop=extlinks') && e.status !== 'equal');
      expect(links.map((e) => [e.status, e.pages, e.livePages])).toEqual([['changed', 95, 95]]);
      expect(links[0]!.details).toEqual(['a walk of 95 pages recorded, 95 now', expect.stringMatching(/^- query\.pages\[pageid=\d+\]\.extlinks\[url=https:\/\/old\.example\/\]: /), expect.stringMatching(/^\+ query\.pages\[pageid=\d+\]\.extlinks\[url=/)]);
      expect(counts.changed).toBe(4);
      expect(entries.filter((e) => e.status === 'gone').map((e) => e.details)).toEqual([['now HTTP 200, error badvalue (recorded: HTTP 200)']]);
      expect(counts.equal).toBe(entries.length - 5);
    } finally {
      await upstream.close();
    }
  });

  it('the CLI: exit 1 while anything changed, --update records it again, then exit 0; a vanished entity leaves the cassette', cliTest(4), async () => {
    const upstream = await startServer({ cassettes: join(ROOT, 'cassettes') });
    const lifted = { id: 999, user: '192.0.2.99', by: 'Admin', timestamp: '2020-01-01T00:00:00Z', expiry: 'infinity', reason: 'lifted since' };
    try {
      const dir = await editedCopy((c) => {
        c.interactions.find((i) => i.key === LOG)!.body.query.logevents[0].comment = 'edited';
        // a block the wiki had when this was recorded, lifted since
        const blocks = c.interactions.find((i) => i.key === BLOCKS)!.body.query.blocks as unknown[];
        blocks.push(lifted);
        (c as unknown as { entities: { blocks: unknown[] } }).entities.blocks.push({ ...lifted, known: ['by', 'expiry', 'id', 'reason', 'timestamp', 'user'] });
      });
      const replayed = async () => {
        const r = await startServer({ cassettes: dir });
        const b = (await (await fetch(`${r.url}?action=query&list=blocks&bklimit=50&bkprop=id|user&format=json&formatversion=2`)).json()) as { query: { blocks: { id: number }[] } };
        await r.close();
        return b.query.blocks.map((x) => x.id);
      };
      expect(await replayed()).toContain(999);
      // (run beside this process, whose server is the upstream)
      const diff = async (...more: string[]) => {
        const r = await runCli(['cassettes', 'diff', '--cassettes', dir, '--upstream', upstream.url, ...more]);
        return { status: r.code, stdout: r.stdout };
      };
      const first = await diff();
      expect(first.status).toBe(1);
      expect(first.stdout).toContain('    - query.blocks[id=999]: {"id":999,"user":"192.0.2.99"');
      expect(first.stdout).toMatch(new RegExp(`^changed\\twiki\\t${LOG.replace(/[|?.*+()[\]]/g, '\\$&')}\\n    query\\.logevents\\[logid=\\d+\\]\\.comment: "edited" → `, 'm'));
      expect(first.stdout).toMatch(/^\d+ walks \(\d+ recorded pages\): \d+ equal, 2 changed, 0 gone, 0 unchecked\n$/m);
      const update = await diff('--update');
      expect(update.stdout).toContain('changed (recorded again)\twiki');
      expect(update.status).toBe(0);
      const after = await diff();
      expect([after.status, after.stdout]).toEqual([0, expect.stringMatching(/^\d+ walks \(\d+ recorded pages\): \d+ equal, 0 changed, 0 gone, 0 unchecked\n$/)]);
      expect((await runCli(['cassettes', 'verify', '--cassettes', dir])).code).toBe(0);
      // the lifted block is gone from what replay knows, not only from the recording
      expect(await replayed()).not.toContain(999);
    } finally {
      await upstream.close();
    }
  });
});
