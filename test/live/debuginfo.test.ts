import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';
import { NO_CASSETTES } from '../support/app.js';

/**
 * debuginfo of every module against the real MediaWiki 1.39 and 1.43: the built-in wiki over a
 * crawl of the live one answers the same questions, and the debug log, the queries, the request,
 * the key order and the versions must be the live wiki's, apart from what changes from one request
 * to the next (session ids, cookie expiry, timings, now in the blocks query, the Host port). The
 * includes differ by the files a cache rebuild loads now and then; at most a few may differ.
 */
const run = promisify(execFile);

const QUESTIONS = [
  'action=query&list=logevents',
  'action=query&list=logevents&uselang=en',
  'action=query&list=logevents&leprop=parsedcomment&uselang=en',
  'action=query&list=logevents&leprop=ids|user&lelimit=3',
  'action=query&list=logevents&ledir=newer&lelimit=2&letype=block',
  'action=query&list=blocks',
  'action=query&list=blocks&bklimit=2&uselang=en',
  'action=query&list=protectedtitles',
  'action=query&list=protectedtitles&ptlimit=3&ptdir=newer',
  'action=query&list=allpages',
  'action=query&list=allpages&apnamespace=2',
  'action=query&list=allpages&aplimit=3&apdir=descending&apcontinue=Gamma',
  'action=query&list=allpages&apfrom=b&apto=Зета&apprefix=&apfilterredir=nonredirects&uselang=en',
  'action=query&list=allpages&apminsize=10&apprtype=edit|move&apprlevel=sysop&apfilterlanglinks=withoutlanglinks',
  'action=query&list=allpages&apfilterlanglinks=withlanglinks&apprexpiry=definite&apprefix=Н_%25',
  'action=query&prop=extlinks&titles=Заглавная страница',
  'action=query&prop=extlinks&titles=Заглавная страница|Несуществующая&ellimit=3',
  'action=query&prop=extlinks&titles=Несуществующая',
  // Two pages with links: 1.39 orders by page first (selecting el_from twice), 1.43 by el_id alone.
  'action=query&prop=extlinks&titles=Заглавная страница|Москва&ellimit=3',
  'action=parse&summary=Hello',
  'action=parse&summary=[[Foo]] and [[Bar|bar]]',
  'action=parse&summary=[[Foo]]&uselang=en',
  'action=spamblacklist&url=http://a.example|http://b.example',
  'action=query&meta=siteinfo',
  'action=query&meta=userinfo',
  'action=query&meta=userinfo&uiprop=rights|groups',
  'action=paraminfo&modules=edit',
  'action=paraminfo&modules=edit|move|query+tokens',
  'action=paraminfo&modules=main|paraminfo|query',
  'action=paraminfo&modules=query+tokens&helpformat=wikitext&uselang=en',
  'action=paraminfo&modules=parse|login&helpformat=html',
  'action=paraminfo&modules=rollback&helpformat=raw&pagesetmodule=1',
  'action=paraminfo&querymodules=tokens|bogus&modules=foo|edit',
  'action=paraminfo&modules=block|query+siteinfo&helpformat=wikitext',
  'action=paraminfo',
];

/**
 * Windows of 4 over the oldest log events (the fill's, which later tests do not change), asked
 * oldest first, with parsed comments: links red and blue, autocomments with text beside them and
 * with a colon in the section, links on User pages, the row past the limit, protections' details.
 * Every other window asks ids only beside the comments (`bare`): the built-in wiki must then know
 * from its crawl which user each row names. The others also ask titles, types and details; a
 * window is bare where a row the anonymous crawl cannot see is among the rows fetched (the wiki
 * looks its title up, which nothing outside it can know).
 */
async function logWindows(api: string): Promise<{ question: string; bare: boolean }[]> {
  const r = await fetch(`${api}?action=query&list=logevents&leprop=ids|timestamp|title&ledir=newer&lelimit=100&format=json&formatversion=2`, { headers: HEADERS });
  const rows = ((await r.json()) as { query: { logevents: { logid: number; timestamp: string; title?: string }[] } }).query.logevents;
  const out: { question: string; bare: boolean }[] = [];
  for (let i = 0; i + 5 <= rows.length; i += 3) {
    const row = rows[i]!;
    const at = `${row.timestamp.replace(/\D/g, '')}|${row.logid}`;
    const bare = i % 2 === 1 || rows.slice(i, i + 5).some((e) => e.title === undefined);
    out.push({ question: `action=query&list=logevents&leprop=parsedcomment|ids${bare ? '' : '|title|type|details'}&ledir=newer&lelimit=4&lecontinue=${at}${i % 4 === 0 ? '&uselang=en' : ''}`, bare });
  }
  // and the oldest blocks' second page (1.43 writes the continuation with buildComparison)
  const b = await fetch(`${api}?action=query&list=blocks&bklimit=2&bkdir=newer&format=json&formatversion=2`, { headers: HEADERS });
  const cont = ((await b.json()) as { continue?: { bkcontinue?: string } }).continue?.bkcontinue;
  if (cont) out.push({ question: `action=query&list=blocks&bklimit=2&bkdir=newer&bkcontinue=${cont}`, bare: false });
  return out;
}

const HEADERS = { 'User-Agent': 'wikitape-live-debuginfo/1.0', Accept: 'application/json' };

function normalizeLine(l: string): string {
  return l
    .replace(/"[0-9a-v]{32}"/g, '"SID"')
    .replace(/(setcookie: "[^"]*", "[^"]*", )"\d+"/g, '$1"EXPIRY"')
    .replace(/\[\d+(\.\d+)?m?s\]/g, '[T]')
    .replace(/_expiry > '\d{14}'/g, "_expiry > 'NOW'")
    .replace(/HOST(: |":")127\.0\.0\.1:\d+/g, 'HOST$1127.0.0.1:PORT');
}

interface Compared {
  question: string;
  differences: string[];
  includes: { ours: number; live: number; onlyOurs: number; onlyLive: number };
}

/**
 * Lines a live wiki writes now and then that are not the request's own: a localisation cache
 * rebuild (other processes on the same files), a lock another request holds.
 */
const NOISE = /LocalisationCache::isExpired|failed to acquire lock|could not acquire main lock/;

async function debuginfoOf(api: string, question: string): Promise<Record<string, unknown>> {
  // the live wiki is asked again (a few times) while its answer has such lines
  for (let i = 0; i < 8; i++) {
    const r = await fetch(`${api}?${question}&format=json&formatversion=2`, { headers: HEADERS });
    const j = (await r.json()) as Record<string, unknown>;
    const d = j['debuginfo'];
    if (!d || typeof d !== 'object') throw new Error(`${api}?${question}: no debuginfo in ${JSON.stringify(j).slice(0, 200)}`);
    if (!((d as { debugLog: string[] }).debugLog ?? []).some((l) => NOISE.test(l))) return d as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${api}?${question}: every answer of 8 had a localisation-cache rebuild's or a lock's lines (another process is rebuilding the wiki's caches); nothing to compare`);
}

async function compareOne(liveApi: string, oursApi: string, question: string, installRoot: (path: string) => string): Promise<Compared> {
  const [live, ours] = await Promise.all([debuginfoOf(liveApi, question), debuginfoOf(oursApi, question)]);
  const differences: string[] = [];
  if (JSON.stringify(Object.keys(ours)) !== JSON.stringify(Object.keys(live))) differences.push(`keys: ${Object.keys(ours).join(',')} ≠ ${Object.keys(live).join(',')}`);
  for (const k of ['mwVersion', 'phpEngine', 'phpVersion', 'log']) {
    if (JSON.stringify(ours[k]) !== JSON.stringify(live[k])) differences.push(`${k}: ${JSON.stringify(ours[k])} ≠ ${JSON.stringify(live[k])}`);
  }
  const ol = (ours['debugLog'] as string[]).map(normalizeLine);
  const ll = (live['debugLog'] as string[]).map(normalizeLine);
  const n = Math.max(ol.length, ll.length);
  for (let i = 0; i < n; i++) {
    if (ol[i] !== ll[i]) {
      // the start of the line, and where the two first differ
      const a = ol[i] ?? '';
      const b = ll[i] ?? '';
      let k = 0;
      while (k < a.length && a[k] === b[k]) k++;
      const at = Math.max(110, k - 60);
      differences.push(`debugLog[${i}]:\n      ours: ${a.slice(0, 110)}${at > 110 ? '…' : ''}${a.slice(at, at + 200)}\n      live: ${b.slice(0, 110)}${at > 110 ? '…' : ''}${b.slice(at, at + 200)}`);
      break;
    }
  }
  const q = (x: unknown) => (x as { sql: string; function: string }[]).map((e) => `${e.function} | ${normalizeLine(e.sql)}`);
  const oq = q(ours['queries']);
  const lq = q(live['queries']);
  for (let i = 0; i < Math.max(oq.length, lq.length); i++) {
    if (oq[i] !== lq[i]) {
      differences.push(`queries[${i}]:\n      ours: ${oq[i]?.slice(0, 240)}\n      live: ${lq[i]?.slice(0, 240)}`);
      break;
    }
  }
  const req = (x: unknown) => normalizeLine(JSON.stringify(x));
  if (req(ours['request']) !== req(live['request'])) differences.push(`request: ${req(ours['request'])} ≠ ${req(live['request'])}`);
  const names = (x: unknown) => new Set((x as { name: string }[]).map((e) => installRoot(e.name)));
  const oi = names(ours['includes']);
  const li = names(live['includes']);
  const onlyOurs = [...oi].filter((f) => !li.has(f)).length;
  const onlyLive = [...li].filter((f) => !oi.has(f)).length;
  return { question, differences, includes: { ours: oi.size, live: li.size, onlyOurs, onlyLive } };
}

/** Paths relative to the install root, so that two installs' lists compare. */
const relative = (p: string) => p.replace(/^.*?\/(includes|languages|vendor|extensions|skins)\//, '$1/').replace(/^.*\/(api|index)\.php$/, '$1.php');

/**
 * What a recorded answer cannot show: the row one past the limit, which the wiki fetched (and
 * looked up in GenderCache) but did not print. Replay of the recording writes the lookup of the
 * rows it has.
 */
const RECORDED_CANNOT_KNOW: Record<string, string> = {
  'action=query&list=logevents&ledir=newer&lelimit=2&letype=block': 'GenderCache::doQuery',
};

/** A cache rebuild on the live wiki loads up to ~16 files more or fewer than the same request another time. */
function expectIncludes(results: Compared[]): void {
  for (const r of results) expect.soft(r.includes.onlyOurs + r.includes.onlyLive, `${r.question}: includes ${JSON.stringify(r.includes)}`).toBeLessThanOrEqual(24);
}

describe.each(LIVE_VERSIONS)('debuginfo of every module, as MediaWiki %s writes it', (version) => {
  let live: LiveWiki;
  let ours: RunningServer;
  let replay: RunningServer;
  let windows: { question: string; bare: boolean }[] = [];
  beforeAll(async () => {
    live = await liveWiki(version);
    windows = await logWindows(live.apiUrl);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-debuginfo-'));
    const fixture = join(dir, 'live.json');
    await run('node', ['scripts/crawl-fixture.mjs', live.apiUrl, fixture, join(live.dir, 'spam-blacklist.txt')]);
    ours = await startServer({ fixtures: [fixture], cassettes: NO_CASSETTES });
    // The live wiki's first request after a start loads more (caches); warm it up.
    for (const question of QUESTIONS) await debuginfoOf(live.apiUrl, question);
    // The same questions recorded, then replayed from the cassette (the modules ran on the wiki).
    const cassettes = join(dir, 'cassettes');
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes, cassette: 'debuginfo' });
    // (a bare window's rows, recorded without their titles and types, would stand in the model
    // for what the crawl knows of them: only the others are recorded)
    for (const question of [...QUESTIONS, ...windows.filter((w) => !w.bare).map((w) => w.question)]) await debuginfoOf(recorder.url, question);
    await recorder.close();
    replay = await startServer({ cassettes, fixtures: [fixture], onMiss: 'error' });
  });
  afterAll(async () => {
    await ours?.close();
    await replay?.close();
  });

  it(`replayed from a recording, matches the live wiki's debug log and queries for ${QUESTIONS.length} questions`, async () => {
    const results: Compared[] = [];
    for (const question of QUESTIONS) results.push(await compareOne(live.apiUrl, replay.url, question, relative));
    const failed = results.filter((r) => r.differences.length > 0 && !r.differences.every((d) => RECORDED_CANNOT_KNOW[r.question] && d.includes(RECORDED_CANNOT_KNOW[r.question]!)));
    console.log(
      `debuginfo of recorded answers vs live ${version}: ${results.filter((r) => r.differences.length === 0).length} of ${results.length} equal, ` +
        `${results.length - failed.length - results.filter((r) => r.differences.length === 0).length} differ only where a recording cannot know\n` +
        results.map((r) => `  ${r.differences.length === 0 ? 'equal  ' : 'DIFFERS'} ${r.question}  includes ${r.includes.ours}/${r.includes.live} (only ours ${r.includes.onlyOurs}, only live ${r.includes.onlyLive})${r.differences.map((d) => `\n    ${d}`).join('')}`).join('\n'),
    );
    expect(failed.map((r) => `${r.question}: ${r.differences.join('; ')}`)).toEqual([]);
    expectIncludes(results);
  });

  it(`built in, matches the live wiki's debug log and queries for ${QUESTIONS.length} questions`, async () => {
    const results: Compared[] = [];
    for (const question of QUESTIONS) results.push(await compareOne(live.apiUrl, ours.url, question, relative));
    const failed = results.filter((r) => r.differences.length > 0);
    console.log(
      `debuginfo vs live ${version}: ${results.length - failed.length} of ${results.length} equal (debug log, queries, request, keys)\n` +
        results.map((r) => `  ${r.differences.length === 0 ? 'equal  ' : 'DIFFERS'} ${r.question}  includes ${r.includes.ours}/${r.includes.live} (only ours ${r.includes.onlyOurs}, only live ${r.includes.onlyLive})${r.differences.map((d) => `\n    ${d}`).join('')}`).join('\n'),
    );
    expect(failed.map((r) => `${r.question}: ${r.differences.join('; ')}`)).toEqual([]);
    expectIncludes(results);
  });

  it('parsed comments of the oldest log events in windows of 4 and a page of blocks, built in and replayed from their recordings, match the live debug log and queries', async () => {
    expect(windows.length).toBeGreaterThan(25);
    const results: Compared[] = [];
    for (const { question, bare } of windows) {
      for (const [name, server] of bare ? ([['built in', ours]] as const) : ([['built in', ours], ['replayed', replay]] as const)) results.push({ ...(await compareOne(live.apiUrl, server.url, question, relative)), question: `${name}: ${question}` });
    }
    const failed = results.filter((r) => r.differences.length > 0);
    console.log(`debuginfo of ${windows.length} log windows vs live ${version} (built in, replayed): ${results.length - failed.length} of ${results.length} equal${failed.map((r) => `\n  DIFFERS ${r.question}${r.differences.map((d) => `\n    ${d}`).join('')}`).join('')}`);
    expect(failed.map((r) => `${r.question}: ${r.differences.join('; ')}`)).toEqual([]);
    expectIncludes(results);
  });
});
