import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { Cassette } from '../../src/cassette/format.js';
import { FileCassetteStore } from '../../src/cassette/store.js';
import { Recorder, RecordingError } from '../../src/record/recorder.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { MINI_WIKI, TEST_CLOCK } from '../support/app.js';
import { cliTest, runCli, startCli } from '../support/cli.js';
import { FailingStore } from '../support/failing-store.js';

/**
 * Failures a user must see: a recording that could not be stored (on the log, from flush() and
 * close(), in the CLI's exit code), a missing cassettes folder, a cassette file that is not one.
 */
let upstream: RunningServer;
beforeAll(async () => {
  upstream = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: await mkdtemp(join(tmpdir(), 'wikitape-empty-')) });
});
afterAll(async () => upstream?.close());

const QUESTION = '?action=query&list=logevents&lelimit=2&format=json&formatversion=2';

async function recordThrough(recorder: Recorder): Promise<{ status: number; body: string; url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => void recorder.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const r = await fetch(`http://127.0.0.1:${port}${recorder.path}${QUESTION}`);
  return { status: r.status, body: await r.text(), url: `http://127.0.0.1:${port}${recorder.path}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('a recording that cannot be stored', () => {
  it.each([
    { code: 'ENOSPC', text: 'no space left on device' },
    { code: 'EROFS', text: 'read-only file system' },
  ])('library, $text: the client gets the live answer; the log line, flush() and the error name the file and why; once writable, flush() stores it', async (fault) => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-full-'));
    let full = true;
    const store = new FailingStore(new FileCassetteStore(dir), () => full, fault);
    const lines: string[] = [];
    const recorder = new Recorder({ upstream: upstream.url, store, cassette: 'suite', onError: (l) => lines.push(l) });
    const served = await recordThrough(recorder);
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body)).toHaveProperty('query.logevents');
    const file = join(dir, 'suite.json');
    const failure = await recorder.flush().then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(RecordingError);
    expect((failure as RecordingError).message).toBe(`wikitape: could not store 1 recording(s) in ${file}: ${fault.code}: ${fault.text}, write`);
    expect(lines).toContain(`wikitape: could not store a recording in ${file}: ${fault.code}: ${fault.text}, write`);
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
    // Nothing was called saved that is not on disk: with room again, the same recording is written.
    full = false;
    await recorder.flush();
    const saved = JSON.parse(await readFile(file, 'utf8')) as Cassette;
    expect(saved.interactions.map((i) => i.key)).toEqual(['action=query&ledir=older&lelimit=2&leprop=comment%7Cdetails%7Cids%7Ctimestamp%7Ctitle%7Ctype%7Cuser&list=logevents']);
    await served.close();
    recorder.close();
  });

  it('library, unwritable file: startServer close() rejects naming the file, after answering live', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-unwritable-'));
    // The temporary file of the atomic write is a folder: no write can succeed, whoever runs the test.
    await mkdir(join(dir, '.suite.json.tmp'));
    const lines: string[] = [];
    const rec = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'suite', onError: (l) => lines.push(l) });
    const r = await fetch(`${rec.url}${QUESTION}`);
    expect(r.status).toBe(200);
    await expect(rec.flush()).rejects.toThrow(`could not store 1 recording(s) in ${join(dir, 'suite.json')}: EISDIR`);
    await fetch(`${rec.url}${QUESTION.replace('lelimit=2', 'lelimit=3')}`);
    await expect(rec.close()).rejects.toThrow(/could not store 2 recording\(s\) in .*suite\.json: EISDIR/);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.every((l) => l.includes(join(dir, 'suite.json')) && l.includes('EISDIR'))).toBe(true);
  });

  it('library, a cassette file that is not JSON: each recording is reported naming the file; the file is left as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-notjson-'));
    await writeFile(join(dir, 'suite.json'), 'my notes, not a cassette');
    const lines: string[] = [];
    const rec = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'suite', onError: (l) => lines.push(l) });
    expect((await fetch(`${rec.url}${QUESTION}`)).status).toBe(200);
    await expect(rec.close()).rejects.toThrow(/could not store 1 recording\(s\) in .*suite\.json: cassette file .*suite\.json cannot be read: it is not JSON/);
    expect(lines).toEqual([expect.stringMatching(/^wikitape: could not store the recording of action=query&ledir=older&lelimit=2&.*list=logevents in .*suite\.json: cassette file .*suite\.json cannot be read: it is not JSON/)]);
    expect(await readFile(join(dir, 'suite.json'), 'utf8')).toBe('my notes, not a cassette');
  });

  it('library, an answer in JSON that is not an object (a bare null, a list): the client gets it as the wiki sent it; the recording is said lost, naming its question, and not stored', async () => {
    const { createServer } = await import('node:http');
    const wiki = createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(q.get('lelimit') === '2' ? 'null' : '[1]');
    });
    await new Promise<void>((resolve) => wiki.listen(0, '127.0.0.1', resolve));
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-not-object-'));
    const lines: string[] = [];
    const url = `http://127.0.0.1:${(wiki.address() as { port: number }).port}/w/api.php`;
    const recorder = new Recorder({ upstream: url, store: new FileCassetteStore(dir), cassette: 'suite', onError: (l) => lines.push(l) });
    const served = await recordThrough(recorder);
    expect([served.status, served.body]).toEqual([200, 'null']);
    const listed = await fetch(`${served.url}${QUESTION.replace('lelimit=2', 'lelimit=3')}`);
    expect([listed.status, await listed.text()]).toEqual([200, '[1]']);
    await expect(recorder.flush()).rejects.toThrow(/could not store 2 recording\(s\)/);
    expect(lines.sort()).toEqual([
      expect.stringMatching(/^wikitape: could not store the recording of action=query&ledir=older&lelimit=2&.*list=logevents in .*suite\.json: the wiki answered with JSON that is not an object \(null\)$/),
      expect.stringMatching(/^wikitape: could not store the recording of action=query&ledir=older&lelimit=3&.*list=logevents in .*suite\.json: the wiki answered with JSON that is not an object \(a list\)$/),
    ]);
    await expect(readFile(join(dir, 'suite.json'), 'utf8')).rejects.toThrow(/ENOENT/);
    await served.close();
    recorder.close();
    wiki.close();
  });

  it('CLI: the failure is printed when it happens and the exit code is 1', cliTest(1), async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-cli-unwritable-'));
    await mkdir(join(dir, '.default.json.tmp'));
    const cli = await startCli(['record', '--upstream', upstream.url, '--cassettes', dir]);
    expect((await fetch(`${cli.url}${QUESTION}`)).status).toBe(200);
    await cli.printed('could not store');
    expect(cli.stderr()).toContain(`wikitape: could not store a recording in ${join(dir, 'default.json')}: EISDIR`);
    expect(await cli.stop()).toBe(1);
    expect(cli.stderr()).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('two recorders on one cassette', () => {
  it('refuses the second, in this process and from the CLI, naming the first; the cassette is free again once the first stops', cliTest(1), async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-two-recorders-'));
    const first = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'suite' });
    await expect(startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'suite' })).rejects.toThrow(
      new RegExp(`cassette ${join(dir, 'suite.json')} is being recorded by another recorder \\(process ${process.pid}, this one\\)`),
    );
    const cli = await runCli(['record', '--upstream', upstream.url, '--cassettes', dir, '--cassette', 'suite', '--port', '0']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(new RegExp(`is being recorded by another recorder \\(process ${process.pid}\\); two recorders on one cassette would lose recordings`));
    // another cassette in the same folder is fine meanwhile
    const other = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'other' });
    await other.close();
    expect((await fetch(`${first.url}${QUESTION}`)).status).toBe(200);
    await first.close();
    const again = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'suite' });
    await again.close();
    expect(JSON.parse(await readFile(join(dir, 'suite.json'), 'utf8'))).toHaveProperty('interactions.length', 1);
  });

  it('takes over the lock a recorder that died left behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-stale-lock-'));
    // a process id no process has (Linux pids stay below 2^22)
    await writeFile(join(dir, 'suite.json.lock'), '2147483646\n');
    const rec = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'suite' });
    expect((await fetch(`${rec.url}${QUESTION}`)).status).toBe(200);
    await rec.close();
    expect(JSON.parse(await readFile(join(dir, 'suite.json'), 'utf8'))).toHaveProperty('interactions.length', 1);
  });
});

describe('cassettes edited into something else', () => {
  /** A cassette in wikitape's own layout (written by the store) with one question recorded, then changed by `edit`. */
  async function edited(edit: (c: Cassette) => void): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-edited-'));
    const rec = await startServer({ mode: 'record', upstream: upstream.url, cassettes: dir, cassette: 'suite' });
    await fetch(`${rec.url}${QUESTION}`);
    await fetch(`${rec.url}?action=query&list=blocks&format=json&formatversion=2`);
    await rec.close();
    const db = await new FileCassetteStore(dir).open('suite', upstream.url);
    edit(db.data);
    await db.write();
    return dir;
  }

  it.each([
    ['an interaction that is null', (c: Cassette) => void ((c.interactions as unknown[])[0] = null), /interaction 0: it is not a JSON object/],
    ['a body that is a string', (c: Cassette) => void ((c.interactions[0] as unknown as Record<string, unknown>)['body'] = 'x'), /"body" is not a JSON object/],
    ['a status of 999', (c: Cassette) => void (c.interactions[0]!.status = 999), /"status" is not an HTTP status from 200 to 599/],
    ['entities without lists', (c: Cassette) => void ((c as unknown as Record<string, unknown>)['entities'] = {}), /"entities.pages" is not a list/],
    ['a list of log events that is an object', (c: Cassette) => void ((c as unknown as { entities: Record<string, unknown> }).entities['logevents'] = {}), /"entities.logevents" is not a list/],
    ['a log event that is null', (c: Cassette) => void ((c.entities.logevents as unknown[])[0] = null), /"entities.logevents\[0\]" is not an object/],
    ['a profile language that is no language code', (c: Cassette) => void ((c.meta.profile as Record<string, unknown>)['language'] = 'Deutsch!'), /"meta.profile.language" is "Deutsch!": not a language code/],
  ])('%s: verify names the file and the fault (exit 1); replay says it in MediaWiki\'s error shape, never as a stack trace', cliTest(1), async (_what, edit, why) => {
    const dir = await edited(edit);
    const v = await runCli(['cassettes', 'verify', '--cassettes', dir]);
    expect(v.code).toBe(1);
    expect(v.stdout + v.stderr).toMatch(why);
    expect(v.stdout + v.stderr).not.toMatch(/TypeError|\n\s+at /);
    // replay: refused at start (exit 2) or, for an interaction read when first asked, answered with the error
    const r = await request(createApp({ cassettes: dir, clock: TEST_CLOCK })).get(`/wiki/api.php${QUESTION}`);
    const blocks = await request(createApp({ cassettes: dir, clock: TEST_CLOCK })).get('/wiki/api.php?action=query&list=blocks&format=json&formatversion=2');
    for (const res of [r, blocks]) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.text).not.toMatch(/<html|\n\s+at |node_modules/);
    }
    if (r.status === 500) {
      expect(r.headers['mediawiki-api-error']).toBe('wikitape-setup');
      expect((r.body as { error: { info: string } }).error.info).toMatch(why);
    }
  });
});

describe('a setup that cannot work', () => {
  it('replay --cassettes naming a missing folder: exit 2, the folder named', cliTest(1), async () => {
    const r = await runCli(['replay', '--cassettes', '/nonexistent/cassettes', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^wikitape: no cassettes folder \/nonexistent\/cassettes /);
  });

  it('record --cassettes naming a new folder is fine: it is made', cliTest(1), async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'wikitape-new-')), 'sub', 'cassettes');
    const cli = await startCli(['record', '--upstream', upstream.url, '--cassettes', dir, '--quiet']);
    expect((await fetch(`${cli.url}${QUESTION}`)).status).toBe(200);
    expect(await cli.stop()).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'default.json'), 'utf8'))).toHaveProperty('interactions.length', 1);
  });

  it('a cassette that is not JSON or not a cassette: replay exits 2 naming the file and what is wrong; verify says the same', cliTest(6), async () => {
    for (const [text, why] of [
      ['{"meta": ', /cannot be read: it is not JSON \(/],
      ['{"interactions": {}}', /is not a cassette: "interactions" is not a list/],
      ['[]', /is not a cassette: it is not a JSON object/],
    ] as const) {
      const dir = await mkdtemp(join(tmpdir(), 'wikitape-bad-'));
      await writeFile(join(dir, 'bad.json'), text);
      const r = await runCli(['replay', '--cassettes', dir, '--port', '0']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`cassette file ${join(dir, 'bad.json')} `);
      expect(r.stderr).toMatch(why);
      const v = await runCli(['cassettes', 'verify', '--cassettes', dir]);
      expect(v.code).toBe(1);
      expect(v.stderr).toContain(`bad: cassette file ${join(dir, 'bad.json')} `);
      expect(v.stderr).toMatch(why);
    }
  });

  it('library: startServer rejects, and an app that could not load answers each request with the reason in MediaWiki\'s shape, no stack', async () => {
    await expect(startServer({ cassettes: '/nonexistent/cassettes' })).rejects.toThrow('no cassettes folder /nonexistent/cassettes');
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-bad-app-'));
    await writeFile(join(dir, 'bad.json'), 'nope');
    const res = await request(createApp({ cassettes: dir })).get('/wiki/api.php?action=query&format=json');
    expect(res.status).toBe(500);
    expect(res.headers['mediawiki-api-error']).toBe('wikitape-setup');
    expect(JSON.parse(res.text)).toEqual({ error: { code: 'wikitape-setup', info: expect.stringContaining(`cassette file ${join(dir, 'bad.json')} cannot be read: it is not JSON`) } });
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });
});
