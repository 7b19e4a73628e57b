import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/options.js';
import { startServer } from '../../src/server.js';
import { runCli, startCli } from '../support/cli.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * Logins against a real MediaWiki through wikitape — bot password and main password, action=login
 * and clientlogin, every token type, cookies and an Authorization header — in record mode and then
 * replay, with the library's onRequest and the CLI's text and JSON logs. Every secret value seen
 * (passwords, tokens, session cookies, the Authorization value) is then looked for in every output
 * wikitape wrote: log lines, stderr, cassette files, `cassettes show`, replay's answers outside
 * debuginfo (which echoes the request to its sender, as MediaWiki's does).
 */
const MAIN_PASSWORD = 'Adm1n-Passw0rd!'; // scripts/live-wiki.sh installs Admin with it
const AUTHORIZATION = 'Bearer Zq9-authorization-secret';


/** A client session: cookies kept as a browser keeps them, each secret value it saw collected. */
class Session {
  private readonly jar = new Map<string, string>();
  constructor(
    private readonly url: string,
    private readonly secrets: Set<string>,
  ) {}
  async call(params: Record<string, string>, post = false): Promise<{ text: string; json: Record<string, any> | null }> {
    const body = new URLSearchParams({ format: 'json', ...params });
    const cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers: Record<string, string> = { authorization: AUTHORIZATION, ...(cookie ? { cookie } : {}) };
    const r = post
      ? await fetch(this.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body })
      : await fetch(`${this.url}?${body}`, { headers });
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const value = decodeURIComponent(pair!.slice(eq + 1));
      this.jar.set(pair!.slice(0, eq), value);
      if (value.length >= 8 && value !== 'deleted') this.secrets.add(value);
    }
    const text = await r.text();
    let json: Record<string, any> | null = null;
    try {
      json = JSON.parse(text) as Record<string, any>;
    } catch {
      // the HTML page
    }
    for (const t of Object.values((json?.['query']?.['tokens'] ?? {}) as Record<string, string>)) if (t.length > 2) this.secrets.add(t);
    const wl = json?.['query']?.['userinfo']?.['options']?.['watchlisttoken'];
    if (typeof wl === 'string' && wl.length > 2) this.secrets.add(wl);
    return { text, json };
  }
}

/** What a bot does that logs in; returns the answers (for replay, where they are wikitape's output). */
async function loginFlows(url: string, secrets: Set<string>, bot: { user: string; password: string }): Promise<string[]> {
  const answers: string[] = [];
  const keep = (a: { text: string }) => answers.push(a.text);
  // Bot password, action=login; then every token type, a read with a token, the HTML page.
  let s = new Session(url, secrets);
  let lt = (await s.call({ action: 'query', meta: 'tokens', type: 'login' })).json?.['query']?.['tokens']?.['logintoken'] ?? 'none';
  keep(await s.call({ action: 'login', lgname: bot.user, lgpassword: bot.password, lgtoken: lt }, true));
  keep(await s.call({ action: 'query', meta: 'tokens', type: '*' }));
  const csrf = [...secrets].find((x) => x.endsWith('+\\')) ?? 'none';
  keep(await s.call({ action: 'query', meta: 'userinfo', uiprop: 'options' }));
  keep(await s.call({ action: 'query', list: 'logevents', lelimit: '2', token: csrf }));
  keep(await s.call({ action: 'query', list: 'logevents', lelimit: '2', token: csrf, format: 'jsonfm' }));
  // Main password, action=login (deprecated for the main account, still answered).
  s = new Session(url, secrets);
  lt = (await s.call({ action: 'query', meta: 'tokens', type: 'login' })).json?.['query']?.['tokens']?.['logintoken'] ?? 'none';
  keep(await s.call({ action: 'login', lgname: 'Admin', lgpassword: MAIN_PASSWORD, lgtoken: lt }, true));
  // Main password, clientlogin; and one wrong password.
  s = new Session(url, secrets);
  lt = (await s.call({ action: 'query', meta: 'tokens', type: 'login' })).json?.['query']?.['tokens']?.['logintoken'] ?? 'none';
  keep(await s.call({ action: 'clientlogin', username: 'Admin', password: MAIN_PASSWORD, logintoken: lt, loginreturnurl: 'http://127.0.0.1/' }, true));
  keep(await s.call({ action: 'clientlogin', username: 'Admin', password: 'Zq9-wrong-password', logintoken: lt, loginreturnurl: 'http://127.0.0.1/' }, true));
  keep(await s.call({ action: 'query', meta: 'tokens', type: 'csrf|watch|patrol|rollback|userrights|createaccount|deleteglobalaccount|setglobalaccountstatus' }));
  return answers;
}

/** The answer's text outside debuginfo. */
function outsideDebuginfo(text: string): string {
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    delete j['debuginfo'];
    return JSON.stringify(j);
  } catch {
    // jsonfm: the page without debuginfo's block in its <pre> and the debug toolbar's copy in a script
    return text.replace(/(?:"|&quot;)debuginfo(?:"|&quot;): \{[\s\S]*?\n {4}\}/, '').replace(/mw\.config\.set\(\{"debugInfo":[\s\S]*?\}\);\}\);<\/script>/, '');
  }
}

describe.each(LIVE_VERSIONS)('secrets through record and replay of real logins (MediaWiki %s)', (version) => {
  it('are in no output wikitape writes (0 of N)', { timeout: 240_000 }, async () => {
    const live = await liveWiki(version);
    const bot = await live.credentials();
    const secrets = new Set<string>([bot.password, MAIN_PASSWORD, 'Zq9-wrong-password', AUTHORIZATION.slice('Bearer '.length)]);
    const outputs: { where: string; text: string }[] = [];
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-secrets-'));

    // Record: the library with onRequest, then the CLI with each log format, into one folder.
    const logged: RequestLogEntry[] = [];
    const errors: string[] = [];
    const rec = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'library', onRequest: (e) => logged.push(e), onError: (l) => errors.push(l) });
    await loginFlows(rec.url, secrets, bot);
    await rec.close();
    for (const format of ['text', 'json']) {
      const cli = await startCli(['record', '--upstream', live.apiUrl, '--cassettes', dir, '--cassette', `cli-${format}`, '--log-format', format]);
      await loginFlows(cli.url, secrets, bot);
      expect(await cli.stop()).toBe(0);
      outputs.push({ where: `record --log-format ${format} stdout`, text: cli.stdout() }, { where: `record --log-format ${format} stderr`, text: cli.stderr() });
      expect(cli.stdout().split('\n').filter((l) => / upstream /.test(l) || /"upstream"/.test(l)).length).toBe(12);
    }
    expect(errors).toEqual([]);

    // Replay of what was recorded: the library with onRequest, the CLI with each log format.
    // Replay hands out tokens and session cookies of its own (offline sessions): those belong in
    // its answers, as a wiki's do, and in no log; the wiki's must appear nowhere.
    const offline = new Set<string>();
    const answers: { where: string; text: string }[] = [];
    const replay = await startServer({ cassettes: dir, onRequest: (e) => logged.push(e) });
    for (const a of await loginFlows(replay.url, offline, bot)) answers.push({ where: 'replay answer (outside debuginfo)', text: outsideDebuginfo(a) });
    await replay.close();
    for (const format of ['text', 'json']) {
      const cli = await startCli(['replay', '--cassettes', dir, '--log-format', format]);
      for (const a of await loginFlows(cli.url, offline, bot)) answers.push({ where: `replay --log-format ${format} answer`, text: outsideDebuginfo(a) });
      expect(await cli.stop()).toBe(0);
      outputs.push({ where: `replay --log-format ${format} stdout`, text: cli.stdout() }, { where: `replay --log-format ${format} stderr`, text: cli.stderr() });
    }
    outputs.push(...logged.map((e) => ({ where: 'onRequest', text: JSON.stringify(e) })));

    // The cassettes, and `cassettes show` of every interaction in them.
    for (const f of await readdir(dir)) {
      const text = await readFile(join(dir, f), 'utf8');
      outputs.push({ where: `cassette ${f}`, text });
      const n = (JSON.parse(text) as { interactions: unknown[] }).interactions.length;
      for (let i = 0; i < n; i++) {
        const r = await runCli(['cassettes', 'show', f.replace(/\.json$/, ''), String(i), '--cassettes', dir]);
        outputs.push({ where: `cassettes show ${f} ${i}`, text: r.stdout + r.stderr });
      }
    }

    // The flows saw real secrets: passwords, tokens of every type, session cookies.
    expect(secrets.size).toBeGreaterThanOrEqual(20);
    for (const s of secrets) offline.delete(s);
    const look = (list: { where: string; text: string }[], values: Set<string>) =>
      list.flatMap((o) => [...values].filter((s) => o.text.includes(s) || o.text.includes(encodeURIComponent(s))).map((s) => `${o.where}: ${s.slice(0, 4)}… in …${o.text.slice(Math.max(0, o.text.indexOf(s) - 80), o.text.indexOf(s)).replace(s, '')}`));
    expect(offline.size).toBeGreaterThanOrEqual(8); // replay's own tokens and session ids
    const found = [...look([...outputs, ...answers], secrets), ...look(outputs, offline)];
    console.log(`MediaWiki ${version}: secrets: ${secrets.size} values (2 passwords, a wrong one, the Authorization value, tokens, session cookies) looked for in ${outputs.length + answers.length} outputs, and replay's own ${offline.size} tokens and session ids in the ${outputs.length} that are not its answers; found ${found.length}`);
    expect(found).toEqual([]);
    // The log lines show what was asked, secrets as the marker.
    expect(logged.map((e) => e.key)).toContain(`action=login&lgname=${encodeURIComponent(bot.user)}&lgpassword=***&lgtoken=***`);
  });
});
