import { createServer, type Server } from 'node:http';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { MINI_WIKI, TEST_CLOCK } from '../support/app.js';
import { CLI_RUN_MS, cliTest, runCli, startCli } from '../support/cli.js';

/** What a new user runs into: each error names the thing at fault and what to do. */

let upstream: Server;
let url: string;
beforeAll(async () => {
  upstream = createServer((req, res) => {
    res.setHeader('content-type', 'application/json; charset=utf-8');
    const q = new URL(req.url!, 'http://x').searchParams;
    if (q.get('action') === 'login' || req.method === 'POST') res.end(JSON.stringify({ login: { result: 'Failed', reason: 'Incorrect username or password entered. Please try again.' } }));
    else res.end(JSON.stringify({ batchcomplete: true, query: { blocks: [] } }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}/w/api.php`;
});
afterAll(() => upstream.close());

describe('record', () => {
  it('says which file it records into, and tells a stored question from one passed on', cliTest(1), async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-friction-'));
    const cli = await startCli(['record', '--upstream', url, '--cassettes', dir, '--cassette', 'suite']);
    await fetch(`${cli.url}?action=query&list=blocks&format=json&formatversion=2`);
    await fetch(cli.url, { method: 'POST', body: new URLSearchParams({ action: 'login', lgname: 'Bot', lgpassword: 'secret-pw', lgtoken: 'abc+\\', format: 'json' }) });
    await fetch(cli.url, { method: 'POST', body: new URLSearchParams({ action: 'query', list: 'blocks', bklimit: '2', format: 'json' }) });
    // stop() waits until the process has exited and its output is read to the end
    expect(await cli.stop()).toBe(0);
    const out = cli.stdout();
    expect(out).toContain(`recording into ${join(dir, 'suite.json')} (--mode new)`);
    const lines = out.split('\n');
    expect(lines.find((l) => l.startsWith('POST') && l.includes('action=login'))).toMatch(/ action=login&lgname=Bot&lgpassword=\*\*\*&lgtoken=\*\*\* \(not recorded: action=login is not a read action\)$/);
    // A stored POST question shows its key (and no note).
    expect(lines.find((l) => l.startsWith('POST') && l.includes('bklimit=2'))).toMatch(/ action=query&bkdir=older&bklimit=2&.*list=blocks$/);
    expect(out).not.toContain('secret-pw');
    // http-proxy's util._extend (DEP0060 from Node 22 on) is not the user's to fix: no warning line.
    expect(cli.stderr()).not.toContain('DeprecationWarning');
  });

  it('says the database it records into with --store sqlite, made new', cliTest(1), async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-friction-'));
    const cli = await startCli(['record', '--upstream', url, '--cassettes', dir, '--cassette', 'suite', '--store', 'sqlite']);
    await fetch(`${cli.url}?action=query&list=blocks&format=json&formatversion=2`);
    expect(await cli.stop()).toBe(0);
    expect(cli.stdout()).toContain(`recording into ${join(dir, 'suite.sqlite')} (--mode new)`);
    expect(await readdir(dir)).toEqual(['suite.sqlite']);
  });

  it('refuses an upstream that is not the api.php URL, naming the URL meant', cliTest(1), async () => {
    const r = await runCli(['record', '--upstream', 'http://wiki.test/wiki/', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean http://wiki.test/wiki/api.php?');
  });
});

describe('replay in a project of ones own', () => {
  it('reads the fixtures it is given alone, not also ./cassettes (here the bundled 1.43 recording)', async () => {
    const res = await request(createApp({ fixtures: [MINI_WIKI], clock: TEST_CLOCK })).get('/wiki/api.php?action=query&list=logevents&format=json');
    expect(res.headers['x-wikitape-source']).toBe('builtin');
    expect(JSON.parse(res.text).debuginfo.mwVersion).toBe('1.39.17');
  });

  it('serves the spec\'s wiki from a folder without cassettes (it said "no cassettes folder ./cassettes" before)', cliTest(1), async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'wikitape-project-'));
    // A clock is not something to serve: the spec's wiki still, on that clock.
    const cli = await startCli(['replay', '--clock', 'real'], { cwd });
    const r = (await (await fetch(`${cli.url}?action=query&meta=siteinfo&format=json`)).json()) as { query: { general: { sitename: string; generator: string } } };
    expect(r.query.general.sitename).toBe('Тестовая вики');
    expect(r.query.general.generator).toBe('MediaWiki 1.44.0');
    expect(cli.stdout()).toMatch(/serving the wiki the spec describes: MediaWiki 1\.44\.0 \(ru\), \S+spec-wiki\.json, on the real clock\n/);
    expect(cli.stdout()).not.toContain('not read:');
    expect(await cli.stop()).toBe(0);
  });
});

describe('a port in use', () => {
  it('suggests another port or --port 0', cliTest(1), async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = await runCli(['replay', '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use by another program: give another one with --port, or --port 0 for a free one`);
    } finally {
      busy.close();
    }
  });
});

describe('cassettes', () => {
  it('list NAME shows the index and key that show takes; prune --dry-run names what would go', cliTest(3), async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-friction-list-'));
    const i = (key: string) => ({ key, request: Object.fromEntries(new URLSearchParams(key)), status: 200, headers: {}, body: { batchcomplete: true }, recordedAt: '2024-01-01T00:00:00Z' });
    const keys = ['action=query&meta=siteinfo', 'action=query&meta=userinfo'];
    await writeFile(join(dir, 'c.json'), JSON.stringify({ meta: { format: 1, upstream: url, recordedAt: '2024-01-01T00:00:00Z', profile: {} }, interactions: keys.map(i), entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] } }));
    const list = await runCli(['cassettes', 'list', 'c', '--cassettes', dir]);
    expect(list.stdout).toBe(`0\t${keys[0]}\n1\t${keys[1]}\n`);
    const show = await runCli(['cassettes', 'show', 'c', '1', '--cassettes', dir]);
    expect(JSON.parse(show.stdout).key).toBe(keys[1]);
    const usage = join(await mkdtemp(join(tmpdir(), 'wikitape-friction-usage-')), 'usage.json');
    await writeFile(usage, JSON.stringify([keys[0]]));
    const prune = await runCli(['cassettes', 'prune', '--usage', usage, '--dry-run', '--cassettes', dir]);
    expect(prune.stdout).toBe(`c: would remove 1, kept 1\n  - ${keys[1]}\n`);
  });
});

describe('installing a clone that is not built', () => {
  it('says how to build it instead of failing with "tsc: not found"', cliTest(1), async () => {
    // A clone as npm sees it when another project installs it by path: no node_modules, no dist.
    const clone = await mkdtemp(join(tmpdir(), 'wikitape-clone-'));
    await cp(join(import.meta.dirname, '..', '..', 'scripts'), join(clone, 'scripts'), { recursive: true });
    const r = await promisify(execFile)(process.execPath, [join(clone, 'scripts', 'prepare.mjs')], { encoding: 'utf8', timeout: CLI_RUN_MS }).then(
      () => ({ status: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => ({ status: e.code, stderr: e.stderr }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`wikitape: ${clone} is not built yet, and its build tools are not installed.`);
    expect(r.stderr).toContain(`Build the clone first:   (cd ${clone} && npm ci)`);
  });
});
