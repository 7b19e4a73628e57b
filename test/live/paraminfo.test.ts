import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';
import { compare, normalize, report } from '../support/differential.js';
import { NO_CASSETTES } from '../support/app.js';

/**
 * action=paraminfo of the built-in wiki against the real MediaWiki 1.39 and 1.43 (the data it
 * answers from was generated from them: scripts/generate/paraminfo.mjs): the answers must be byte
 * for byte the wiki's (debuginfo aside) and carry no X-Wikitape-Unknown, for the questions clients
 * ask (mwn's badtoken recovery, pywikibot's start, mwclient-style lists), every helpformat, ru and
 * en, formatversion 1 and 2, the deprecated forms and what the wiki warns about.
 */
const run = promisify(execFile);
const B = 'action=paraminfo&format=json';
const SERVED = 'main|query|paraminfo|query+logevents|query+blocks|query+protectedtitles|query+extlinks|query+siteinfo|query+userinfo|query+tokens|query+allpages|parse|spamblacklist|login|clientlogin|logout|edit|move|delete|undelete|protect|block|unblock|upload|rollback|json|jsonfm|none';
const enc = (s: string) => encodeURIComponent(s);

const QUESTIONS = [
  // mwn 3's getTokenType (badtoken recovery): POST in the wiki, the same data as a GET
  `${B}&formatversion=2&maxlag=5&modules=edit`,
  `${B}&formatversion=2&modules=rollback`,
  `${B}&formatversion=2&modules=${enc('query+tokens')}`,
  // pywikibot's start, and its next batches
  `${B}&formatversion=2&modules=${enc('main|paraminfo|query')}`,
  `${B}&modules=${enc('main|paraminfo|query')}`,
  `${B}&modules=${enc('query+info|query+revisions|query+categories|query+allpages')}&formatversion=2`,
  // every module wikitape serves, in every helpformat, both languages, both formatversions
  ...['none', 'raw', 'wikitext', 'html'].flatMap((h) =>
    ['ru', 'en'].flatMap((l) => [`${B}&formatversion=2&helpformat=${h}&uselang=${l}&modules=${enc(SERVED)}`, `${B}&helpformat=${h}&uselang=${l}&modules=${enc(SERVED)}`]),
  ),
  `${B}&formatversion=2&helpformat=wikitext&modules=edit&pagesetmodule=1`,
  `${B}&helpformat=html&modules=parse&uselang=en`,
  `${B}&formatversion=2&helpformat=raw&modules=clientlogin`,
  // every module of the wiki (helpformat=none), wildcards
  `${B}&formatversion=2&modules=${enc('main+**')}`,
  `${B}&modules=*`,
  `${B}&formatversion=2&modules=${enc('query+*')}`,
  `${B}&formatversion=2&modules=${enc('query tokens')}|${enc('query+tokens')}`,
  // deprecated forms, with their warnings
  `${B}&formatversion=2&querymodules=tokens|allpages|bogus`,
  `${B}&querymodules=tokens&modules=${enc('query+tokens')}|edit&formatmodules=json&mainmodule=`,
  `${B}&formatversion=2&pagesetmodule=1&uselang=en`,
  `${B}&formatversion=2&mainmodule=1&helpformat=wikitext&uselang=en&errorformat=plaintext`,
  // what the wiki warns about or refuses
  `${B}&formatversion=2&modules=foo|${enc('query+foo')}|${enc('edit+*')}|${enc('main+foo+bar')}|${enc('query+tokens+*')}|${enc('foo+*')}`,
  `${B}&formatversion=2&modules=Edit&errorformat=raw`,
  `${B}&formatversion=2&modules=foo|${enc('edit+*')}&errorformat=html&uselang=en`,
  `${B}&modules=foo|${enc('query+bar')}&errorformat=wikitext`,
  `${B}&querymodules=bogus&errorformat=raw&pagesetmodule=0`,
  `${B}&formatversion=2&modules=edit||move`,
  `${B}&formatversion=2&helpformat=bogus`,
  `${B}&formatversion=2`,
  `${B}`,
  `${B}&modules=${enc(Array.from({ length: 51 }, (_, i) => `m${i}`).join('|'))}`,
  `action=paraminfo&modules=tokens&format=json&callback=cb`,
];

/** Values one version takes and the other does not (paraminfo lists them; test/unit/modules/paraminfo-registry.test.ts holds the modules to it). */
const VERSIONED = {
  siteinfo: 'action=query&format=json&formatversion=2&meta=siteinfo&siprop=autocreatetempuser|autopromote|clientlibraries',
  userinfo: 'action=query&format=json&meta=userinfo&uiprop=cancreateaccount|groups',
  letype: 'action=query&format=json&list=logevents&letype=renameuser',
  leaction: 'action=query&format=json&formatversion=2&list=logevents&leaction=renameuser/renameuser',
};

describe.each(LIVE_VERSIONS)('action=paraminfo answers as MediaWiki %s', (version) => {
  let live: LiveWiki;
  let ours: RunningServer;
  beforeAll(async () => {
    live = await liveWiki(version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-paraminfo-'));
    const fixture = join(dir, 'live.json');
    await run('node', ['scripts/crawl-fixture.mjs', live.apiUrl, fixture, join(live.dir, 'spam-blacklist.txt')]);
    ours = await startServer({ fixtures: [fixture], cassettes: NO_CASSETTES });
  });
  afterAll(async () => ours?.close());

  it("gives mwn's badtoken question (a POST, as mwn 3 sends it) the live wiki's answer", async () => {
    // mwn's getTokenType: { action: 'paraminfo', modules: <action> } with its default parameters, form-encoded
    for (const action of ['edit', 'move', 'rollback', 'spamblacklist']) {
      const body = `action=paraminfo&modules=${action}&format=json&formatversion=2&maxlag=5`;
      const post = (url: string) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body }).then(async (r) => ({ text: normalize(await r.text()), unknown: r.headers.get('x-wikitape-unknown') }));
      const [a, b] = [await post(live.apiUrl), await post(ours.url)];
      expect(b.text, action).toBe(a.text);
      expect(b.unknown).toBeNull();
    }
  });

  it('takes what its paraminfo lists for the version and warns about the rest, as the wiki does; a part not built in is flagged', async () => {
    const c = await compare(live.apiUrl, ours.url, Object.values(VERSIONED));
    report(`version's values vs live ${version}`, c);
    // 1.39 warns about the four (or refuses the log's); 1.43 answers siteinfo's and userinfo's parts, which no fixture holds
    const notBuilt = version === '1.39' ? {} : { [VERSIONED.siteinfo]: 'siteinfo.autocreatetempuser, siteinfo.autopromote, siteinfo.clientlibraries', [VERSIONED.userinfo]: 'userinfo.cancreateaccount' };
    expect(Object.fromEntries(c.flags)).toEqual(notBuilt);
    expect(c.differences.map((d) => d.question).sort()).toEqual(Object.keys(notBuilt).sort());
  });

  it(`gives the live wiki's answer to ${QUESTIONS.length} questions, nothing flagged`, async () => {
    const c = await compare(live.apiUrl, ours.url, QUESTIONS);
    report(`paraminfo vs live ${version}`, c);
    expect(c.differences).toEqual([]);
    expect([...c.flags]).toEqual([]);
  });
});
