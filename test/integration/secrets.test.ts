import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/options.js';
import { startServer } from '../../src/server.js';
import { MINI_WIKI, TEST_CLOCK } from '../support/app.js';
import { cliTest, runCli, startCli } from '../support/cli.js';

/**
 * Secrets sent to replay (passwords, tokens, cookies, Authorization) reach none of wikitape's
 * outputs: the request log in both formats, onRequest, error texts, the HTML page outside
 * debuginfo, `cassettes show`. (test/live/secrets.test.ts does the same through real logins.)
 */
const SECRETS = { lgpassword: 'Pw-lgpassword-71', lgtoken: 'a3f5c2e1b4d6f7a8+\\', password: 'Pw-password-72', retype: 'Pw-retype-73', logintoken: 'b1c2d3e4f5a6b7c8+\\', token: 'c9d8e7f6a5b4c3d2+\\', oauth_signature: 'Sig-74' };
const COOKIE = 'wikidb_session=Sess-75; wikidbUserID=1; wikidbToken=Tok-76';
const AUTH = 'Bearer Bearer-77';
const ALL = [...Object.values(SECRETS), 'Sess-75', 'Tok-76', 'Bearer-77'];

/** The requests: a login, a clientlogin, tokens, a query carrying a token, as GET and POST, as JSON and the HTML page. */
function requests(url: string): Promise<string>[] {
  const headers = { cookie: COOKIE, authorization: AUTH };
  const form = (p: Record<string, string>) => new URLSearchParams(p).toString();
  const get = (p: Record<string, string>) => fetch(`${url}?${form(p)}`, { headers }).then((r) => r.text());
  const post = (p: Record<string, string>) => fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: form(p) }).then((r) => r.text());
  return [
    post({ action: 'login', lgname: 'Admin', lgpassword: SECRETS.lgpassword, lgtoken: SECRETS.lgtoken, format: 'json' }),
    post({ action: 'clientlogin', username: 'Admin', password: SECRETS.password, retype: SECRETS.retype, logintoken: SECRETS.logintoken, loginreturnurl: 'http://x/', format: 'json' }),
    get({ action: 'query', meta: 'tokens', type: '*', format: 'json' }),
    get({ action: 'query', list: 'allusers', aulimit: '3', token: SECRETS.token, oauth_signature: SECRETS.oauth_signature, format: 'json' }),
    get({ action: 'query', list: 'allusers', token: SECRETS.token, format: 'jsonfm' }),
    get({ action: 'login', lgname: 'Admin', lgpassword: SECRETS.lgpassword, format: 'jsonfm' }),
  ];
}

/** Each secret found in a text (debuginfo, which echoes the request to its sender, left out). */
function leaks(text: string): string[] {
  let t = text;
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    delete j['debuginfo'];
    t = JSON.stringify(j);
  } catch {
    // not JSON: the HTML page (debuginfo is off in these servers) or a log line
  }
  return ALL.filter((s) => t.includes(s) || t.includes(encodeURIComponent(s)));
}

describe('secrets sent to replay', () => {
  it('reach neither onRequest nor the answers outside debuginfo (miss errors, the HTML page)', async () => {
    const entries: RequestLogEntry[] = [];
    const server = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, cassettes: 'cassettes', onMiss: 'error', profile: { debugInfo: false }, onRequest: (e) => entries.push(e) });
    const answers = await Promise.all(requests(server.url));
    await server.close();
    expect(entries).toHaveLength(answers.length);
    // The log shows the question, its secrets as the marker.
    expect(entries.map((e) => e.key)).toContain('action=login&lgname=Admin&lgpassword=***&lgtoken=***');
    expect(answers[3]).toMatch(/"code":"wikitape-miss".*token=\*\*\*/);
    expect(answers[5]).toContain('lgpassword=%2A%2A%2A');
    const found = [...answers, ...entries.map((e) => JSON.stringify(e))].flatMap(leaks);
    console.log(`library: ${ALL.length} secrets in ${answers.length} requests; found in an output: ${found.length} of ${ALL.length * (answers.length + entries.length)} looked for`);
    expect(found).toEqual([]);
  });

  it.each(['text', 'json'])('reach no line of the CLI log (--log-format %s)', cliTest(1), async (format) => {
    const cli = await startCli(['replay', '--cassettes', 'cassettes', '--on-miss', 'error', '--log-format', format]);
    await Promise.all(requests(cli.url));
    expect(await cli.stop()).toBe(0);
    const lines = cli.stdout().trim().split('\n').slice(1);
    // one line per request (a miss's closest recordings follow it, indented)
    expect(lines.filter((l) => !l.startsWith('  closest: '))).toHaveLength(6);
    expect(lines.join('\n')).toContain('lgpassword=***');
    expect(lines.flatMap(leaks)).toEqual([]);
    // nothing on stderr but the start line saying what was loaded
    expect(cli.stderr().split('\n').filter((l) => l !== '' && !l.startsWith('wikitape: loaded '))).toEqual([]);
  });

  it('reach no line of `cassettes show`, even from a cassette edited by hand to hold them', cliTest(1), async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-show-'));
    const key = `action=query&list=logevents&token=${encodeURIComponent(SECRETS.token)}`;
    const cassette = {
      meta: { upstream: 'http://x/w/api.php', recordedAt: '2024-01-01T00:00:00.000Z', profile: {} },
      interactions: [{ key, request: { action: 'query', list: 'logevents', token: SECRETS.token }, status: 200, headers: {}, body: { query: { tokens: { csrftoken: SECRETS.lgtoken } } }, recordedAt: '2024-01-01T00:00:00.000Z' }],
      entities: { logevents: [], blocks: [], protectedtitles: [], pages: [] },
    };
    await writeFile(join(dir, 'hand.json'), JSON.stringify(cassette));
    const r = await runCli(['cassettes', 'show', 'hand', '0', '--cassettes', dir]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ key: 'action=query&list=logevents&token=***', request: { token: '***' }, body: { query: { tokens: { csrftoken: '***' } } } });
    expect(leaks(r.stdout)).toEqual([]);
  });
});
