import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { startSharing, type Started } from '../../src/workers.js';
import { Client } from '../support/cookie-client.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * Two replay servers behind a real load balancer (nginx from Debian's packages, round-robin,
 * started here on a free port with its own configuration, no service): the first holds the
 * shared session key and write log at a Unix socket (`--state-socket`), the second joins it
 * (`--join`), as a fleet does (docs/decisions/0019-many-processes.md). mwn, recorded logging in
 * and editing on the live wiki, logs in through one server and edits through the other, and gets
 * what the live wiki answered; the one write log holds its edit, whichever server is asked.
 */
const NGINX = '/usr/sbin/nginx';
const MWN_EDIT = join(dirname(fileURLToPath(import.meta.url)), '..', 'clients', 'mwn-edit.mjs');
const EDIT_TITLE = 'Wikitape client sandbox';
const EDIT_TEXT = 'Edited by the wikitape client checks.';
const run = promisify(execFile);

async function mwnEdit(apiUrl: string, login: { user: string; password: string }): Promise<Record<string, unknown>> {
  const env = { ...process.env, API_URL: apiUrl, LOGIN_USER: login.user, LOGIN_PASSWORD: login.password, EDIT_TITLE, EDIT_TEXT };
  const { stdout } = await run(process.execPath, [MWN_EDIT], { env, timeout: 60_000 });
  // mwn prints the API's warnings on stdout first; the script's answer is the last line.
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

/** A port nobody listens on now (nginx takes no port 0; the moment between is the only race). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** nginx in the foreground, one process, as whoever runs the tests: round-robin over `upstreams`. */
async function startNginx(dir: string, upstreams: number[]): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const temp = (what: string) => `${what}_temp_path ${join(dir, what)};`;
  const conf = [
    'daemon off;',
    'master_process off;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 64; }',
    'http {',
    '  access_log off;',
    `  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join(' ')}`,
    `  upstream wikitape { ${upstreams.map((p) => `server 127.0.0.1:${p} max_fails=0;`).join(' ')} }`,
    `  server { listen 127.0.0.1:${port}; location / { proxy_pass http://wikitape; proxy_set_header Host $http_host; } }`,
    '}',
  ].join('\n');
  await writeFile(join(dir, 'nginx.conf'), conf);
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/wiki/api.php`;
  // Ready once it answers (through to a server); gone early, it says why.
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr.trim()}`);
    if (await fetch(url).then(() => true, () => false)) break;
    if (i > 100) throw new Error(`nginx did not answer on ${port}: ${stderr.trim()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, stop: async () => (child.kill('SIGTERM'), await exited) };
}

describe.each(LIVE_VERSIONS)('two replay servers behind nginx, MediaWiki %s', (version) => {
  it('serve mwn logging in through one server and editing through the other, with one write log', { timeout: 180_000 }, async () => {
    const live = await liveWiki(version);
    const login = await live.editorCredentials();
    // The page exists with the text mwn writes: its edit changes nothing on the live wiki.
    const c = new Client(live.apiUrl);
    await c.call({ action: 'login', lgname: login.user, lgpassword: login.password, lgtoken: await c.token('login') });
    await c.call({ action: 'edit', title: EDIT_TITLE, text: EDIT_TEXT, summary: 'wikitape client checks', token: await c.token('csrf') });
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-balancer-'));
    const servers: Started[] = [];
    try {
      const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'mwn', recordMode: 'new' });
      let recorded: Record<string, unknown>;
      try {
        recorded = await mwnEdit(recorder.url, login);
      } finally {
        await recorder.close();
      }
      const onLive = await mwnEdit(live.apiUrl, login);
      expect(onLive['edit']).toMatchObject({ result: 'Success', title: EDIT_TITLE });
      // Through the recorder mwn logs in and edits as on the wiki (the recorder's own questions
      // in mwn's session never overlap mwn's requests there: record/session-gate.ts).
      expect(recorded).toEqual(onLive);

      const answered: string[][] = [[], []];
      const options = (i: number) => ({ cassettes: dir, onMiss: 'error' as const, onRequest: (e: { key: string }) => void answered[i]!.push(e.key) });
      const sock = join(dir, 'state.sock');
      servers.push(await startSharing(options(0), { workers: 1, stateSocket: sock }));
      servers.push(await startSharing(options(1), { workers: 1, join: sock }));
      const nginx = await startNginx(dir, servers.map((s) => s.port));
      try {
        answered.forEach((a) => (a.length = 0));
        const replayed = await mwnEdit(nginx.url, login);
        // Logged in as the live wiki said, and the edit answered in its shape (offline, what it
        // cannot know, nochange and the page's id, is made up and flagged: not compared).
        expect(replayed['user']).toBe(onLive['user']);
        expect(replayed['edit']).toMatchObject({ result: 'Success', title: EDIT_TITLE, contentmodel: 'wikitext' });
        // The login answered by one server, the edit by the other (round-robin: each request to the next).
        const by = (action: string) => answered.findIndex((keys) => keys.some((k) => new RegExp(`(^|&)action=${action}(&|$)`).test(k)));
        expect(by('login')).toBeGreaterThanOrEqual(0);
        expect(by('edit')).toBeGreaterThanOrEqual(0);
        expect(by('edit')).not.toBe(by('login'));
        expect(answered.every((keys) => keys.length > 0)).toBe(true);
        // One write log, asked through the balancer (each time of the next server).
        const logs = [];
        for (let i = 0; i < 2; i++) logs.push(await (await fetch(new URL('/_wikitape/writes', nginx.url))).json());
        expect(logs[1]).toEqual(logs[0]);
        const writes = (logs[0] as { writes: { action: string; user: string; params: Record<string, string> }[] }).writes;
        expect(writes.map((w) => [w.action, w.user, w.params['title']])).toEqual([['edit', login.user, EDIT_TITLE]]);
      } finally {
        await nginx.stop();
      }
    } finally {
      for (const s of servers.reverse()) await s.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
