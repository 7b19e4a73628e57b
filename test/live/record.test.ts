import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cassette } from '../../src/cassette/format.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';

/** Record mode against a real MediaWiki (1.39 and 1.43): what the client gets, what the cassette keeps. */
/** The body text without debuginfo, compared as text so key order counts. */
const withoutDebugText = (text: string) => text.replace(/,"debuginfo":\{[\s\S]*\}\}$/, '}');

const withoutDebug = (text: string) => {
  const j = JSON.parse(text) as Record<string, unknown>;
  delete j['debuginfo'];
  return j;
};

/** A client walking a list with continuation, through `base`. */
async function walk(base: string, params: Record<string, string>): Promise<Record<string, unknown>[]> {
  const pages: Record<string, unknown>[] = [];
  let cont: Record<string, string> = {};
  for (let i = 0; i < 50; i++) {
    const r = await fetch(`${base}?${new URLSearchParams({ format: 'json', ...params, ...cont })}`);
    const body = withoutDebug(await r.text());
    pages.push(body);
    if (!body['continue']) break;
    cont = body['continue'] as Record<string, string>;
  }
  return pages;
}

describe.each(LIVE_VERSIONS)('wikitape record against a live MediaWiki %s', (version) => {
  let live: LiveWiki;
  let recorder: RunningServer;
  let dir: string;
  let listedBefore: Record<'blocks' | 'protectedtitles', number>;
  beforeAll(async () => {
    live = await liveWiki(version);
    dir = await mkdtemp(join(tmpdir(), 'wikitape-record-'));
    recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'walk' });
    // Blocks and create-protections expire (seconds to weeks after the wiki was filled): counted before the walks and again after them.
    listedBefore = { blocks: await liveCount('blocks', 'bk'), protectedtitles: await liveCount('protectedtitles', 'pt') };
  });
  afterAll(async () => recorder?.close());

  async function cassette(name: string): Promise<Cassette> {
    await recorder.flush();
    return JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as Cassette;
  }
  /** How many entries a list has on the live wiki (each wiki was filled by the same script, at its own time). */
  async function liveCount(list: string, prefix: string): Promise<number> {
    return (await walk(live.apiUrl, { action: 'query', list, [`${prefix}limit`]: 'max' })).reduce((n, p) => n + ((p['query'] as Record<string, unknown[]>)[list]!.length), 0);
  }

  const walks: Record<string, string>[] = [
    { action: 'query', list: 'logevents', lelimit: '20' },
    { action: 'query', list: 'blocks', bklimit: '4', formatversion: '2' },
    { action: 'query', list: 'protectedtitles', ptlimit: '5', ptprop: 'timestamp|user|comment|expiry|level' },
    { action: 'query', prop: 'extlinks', titles: 'Москва|Список ссылок|Alpha|Несуществующая', ellimit: '10' },
  ];
  const singles: Record<string, string>[] = [
    { action: 'parse', summary: '/* Раздел */ [[Москва]]ы и [[Нет]]', prop: '' },
    { action: 'spamblacklist', url: 'http://casino-spam.example/x|https://ok.test/' },
  ];

  it('gives the client exactly what the live wiki answers, and marks it as upstream', async () => {
    for (const params of walks) {
      const through = await walk(recorder.url, params);
      const direct = await walk(live.apiUrl, params);
      expect(through).toEqual(direct);
      expect(through.length).toBeGreaterThan(1);
    }
    for (const params of singles) {
      const r = await fetch(`${recorder.url}?${new URLSearchParams({ format: 'json', ...params })}`);
      expect(r.headers.get('x-wikitape-source')).toBe('upstream');
      const direct = await fetch(`${live.apiUrl}?${new URLSearchParams({ format: 'json', ...params })}`);
      expect(withoutDebug(await r.text())).toEqual(withoutDebug(await direct.text()));
    }
  });

  it('replays what it recorded byte for byte, keeping the order of siteinfo\'s namespace ids', async () => {
    const questions = ['action=query&meta=siteinfo&siprop=namespaces|namespacealiases&format=json', 'action=query&meta=siteinfo&siprop=namespaces&format=json&formatversion=2'];
    for (const q of questions) await fetch(`${recorder.url}?${q}`);
    await recorder.flush();
    const replay = await startServer({ cassettes: dir, onMiss: 'error' });
    for (const q of questions) {
      const ours = await fetch(`${replay.url}?${q}`);
      expect(ours.headers.get('x-wikitape-source')).toBe('cassette');
      expect(withoutDebug(await ours.text())).toEqual(withoutDebug(await (await fetch(`${live.apiUrl}?${q}`)).text()));
      expect(JSON.stringify(withoutDebugText(await (await fetch(`${replay.url}?${q}`)).text()))).toBe(JSON.stringify(withoutDebugText(await (await fetch(`${live.apiUrl}?${q}`)).text())));
    }
    await replay.close();
  });

  it('keeps one interaction per canonical request, without debuginfo, in formatversion=2', async () => {
    const c = await cassette('walk');
    const keys = c.interactions.map((i) => i.key);
    expect(new Set(keys).size).toBe(keys.length);
    const logeventPages = c.interactions.filter((i) => i.request['list'] === 'logevents');
    expect(logeventPages.length).toBe(Math.ceil((await liveCount('logevents', 'le')) / 20));
    for (const i of c.interactions) {
      expect(i.body).not.toHaveProperty('debuginfo');
      expect(i.request).not.toHaveProperty('format');
    }
    const parse = c.interactions.find((i) => i.request['action'] === 'parse')!;
    expect(typeof (parse.body['parse'] as Record<string, unknown>)['parsedsummary']).toBe('string');
    // Asking again stores nothing new.
    await walk(recorder.url, walks[0]!);
    expect((await cassette('walk')).interactions.length).toBe(c.interactions.length);
  });

  it('passes on the answers MediaWiki gives with 200 but not as JSON (HEAD, a CORS preflight, the help page, an export) and records none', async () => {
    const before = (await cassette('walk')).interactions.length;
    const head = await fetch(`${recorder.url}?action=query&meta=siteinfo&format=json&formatversion=2&siprop=namespaces`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const preflight = await fetch(`${recorder.url}?action=query&meta=siteinfo&origin=*&format=json`, { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(200);
    const help = await fetch(`${recorder.url}?format=json`);
    expect(help.status).toBe(200);
    expect(help.headers.get('content-type')).toMatch(/^text\/html/);
    const liveHelp = await (await fetch(`${live.apiUrl}?format=json`)).text();
    expect((await help.text()).length).toBeGreaterThan(liveHelp.length / 2);
    const xml = await fetch(`${recorder.url}?action=query&export&exportnowrap&titles=${encodeURIComponent('Москва')}&format=json`);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toMatch(/^text\/xml/);
    expect((await cassette('walk')).interactions.length).toBe(before);
  });

  it('harvests every entity it saw and learns the profile of the wiki', async () => {
    const c = await cassette('walk');
    expect(c.entities['logevents']).toHaveLength(await liveCount('logevents', 'le'));
    expect(c.entities['logevents']!.length).toBeGreaterThan(80);
    // As many blocks and create-protections as the wiki listed (some expire while the suite runs), and at least those that last a year.
    for (const [list, prefix, lasting] of [['protectedtitles', 'pt', 10], ['blocks', 'bk', 7]] as const) {
      const n = c.entities[list]!.length;
      expect(n, list).toBeLessThanOrEqual(listedBefore[list]);
      expect(n, list).toBeGreaterThanOrEqual(Math.max(lasting, await liveCount(list, prefix)));
    }
    const list = c.entities.pages.find((p) => p.title === 'Список ссылок')!;
    expect(list.extlinks).toHaveLength(37);
    expect(c.entities.missing).toEqual([{ ns: 0, title: 'Несуществующая' }]);
    expect(c.meta.profile['version']).toMatch(new RegExp(`^${version.replace('.', '\\.')}\\.\\d+$`));
    expect(c.meta.profile).toMatchObject({ language: 'ru', siteName: 'Тестовая вики', scriptPath: '/wiki', debugInfo: true });
    // Where the wiki is installed and what its DB layer calls its server, as debuginfo shows them.
    expect(c.meta.profile).toMatchObject(
      version === '1.39' ? { installPath: '/usr/share/mediawiki', dbServer: 'unknown' } : { installPath: '/tmp/wikitape-mw143/mediawiki', dbServer: 'localhost' },
    );
    expect(c.meta.upstream).toBe(live.apiUrl);
  });

  it('never writes a session id, a token or a password to a cassette, even when logged in', async () => {
    const { user, password } = await live.credentials();
    const jar = new Map<string, string>();
    const call = async (params: Record<string, string>, post = false) => {
      const body = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
      const headers = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
      const r = post ? await fetch(recorder.url, { method: 'POST', body, headers }) : await fetch(`${recorder.url}?${body}`, { headers });
      for (const c of r.headers.getSetCookie()) {
        const [kv] = c.split(';');
        const [k, v] = kv!.split('=');
        if (v && v !== 'deleted') jar.set(k!, v);
      }
      return (await r.json()) as Record<string, any>;
    };
    const loginToken = (await call({ action: 'query', meta: 'tokens', type: 'login' })).query.tokens.logintoken as string;
    const login = await call({ action: 'login', lgname: user, lgpassword: password, lgtoken: loginToken }, true);
    expect(login['login'].result).toBe('Success');
    const csrf = (await call({ action: 'query', meta: 'tokens' })).query.tokens.csrftoken as string;
    const me = await call({ action: 'query', meta: 'userinfo', list: 'blocks', bklimit: '1' });
    expect(me['query'].userinfo.name).toBe('Admin');
    const session = [...jar.values()];
    expect(session.length).toBeGreaterThan(0);
    const secrets = [password, loginToken, csrf, ...session].filter((s) => s.length >= 8);
    await recorder.flush();
    for (const f of await readdir(dir)) {
      const text = await readFile(join(dir, f), 'utf8');
      for (const s of secrets) expect(text.includes(s), `${f} contains a secret`).toBe(false);
      expect(text).not.toMatch(/lgpassword|"token"|csrftoken|logintoken/);
    }
  });
});
