import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { NO_CASSETTES } from '../support/app.js';
import { startCli, type CliServer } from '../support/cli.js';
import { answerDifferences } from '../support/differential.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * PHP's list-or-object rule in formatversion=1, for every kind of array wikitape prints beside
 * `query.pages`: ApiResult prints an array as a JSON list or an object by its keys and its
 * ArrayType (BCarray, BCassoc, BCkvp; keys 0..n-1 make a list), and formatversion=2 data does not
 * always say which. Each question is enumerated below by the array it holds (siteinfo's parts,
 * userinfo, tokens, each log type's params, blocks' restrictions, extlinks, paraminfo, parse's
 * lists, errors and warnings in each error format, normalized/redirects, continue), with the
 * edge cases: empty arrays, single-key arrays, booleans; and a title's content model (prop=info,
 * and what action=parse reads of it), where the built-in answers from the crawl's `contentmodel`.
 *
 * Three ways round, each judged equal, flagged (a `wikitape-miss`, or X-Wikitape-Unknown) or
 * silently wrong, against the live wiki asked the same in the same form:
 * - recorded in formatversion=1 (the client's default: the recorder stores formatversion=2) and
 *   replayed in formatversion=1 and 2;
 * - recorded in formatversion=2 and replayed in formatversion=1;
 * - the built-in wiki over a crawl of the live wiki, in formatversion=1 and 2.
 * The test fails on any silently wrong answer. Read-only: nothing is written to the wikis.
 */

const run = promisify(execFile);
const e = encodeURIComponent;

/** The questions, by the arrays they hold. */
const AREAS: Readonly<Record<string, readonly string[]>> = {
  siteinfo: [
    'action=query&meta=siteinfo&siprop=namespaces|namespacealiases',
    'action=query&meta=siteinfo&siprop=specialpagealiases|magicwords',
    'action=query&meta=siteinfo&siprop=interwikimap',
    'action=query&meta=siteinfo&siprop=interwikimap&sifilteriw=local',
    'action=query&meta=siteinfo&siprop=usergroups&sinumberingroup=1',
    'action=query&meta=siteinfo&siprop=rightsinfo|restrictions|protocols',
    'action=query&meta=siteinfo&siprop=languages|skins|extensiontags|functionhooks|showhooks|variables',
    'action=query&meta=siteinfo&siprop=defaultoptions|fileextensions|libraries|extensions',
    'action=query&meta=siteinfo&siprop=general|statistics|dbrepllag|languagevariants|uploaddialog',
    'action=query&meta=siteinfo&siprop=languages&siinlanguagecode=de',
  ],
  userinfo: [
    'action=query&meta=userinfo&uiprop=blockinfo|hasmsg|groups|groupmemberships|implicitgroups|rights|changeablegroups|editcount|ratelimits|realname|registrationdate|centralids|cancreateaccount',
    'action=query&meta=userinfo&uiprop=options',
    'action=query&meta=userinfo&uiprop=ratelimits',
    'action=query&meta=userinfo&uiprop=changeablegroups',
    'action=query&meta=userinfo',
  ],
  tokens: [
    'action=query&meta=tokens',
    'action=query&meta=tokens&type=csrf|watch|patrol|rollback|userrights|login|createaccount|deleteglobalaccount|setglobalaccountstatus',
  ],
  logevents: [
    ...['block', 'protect', 'move', 'upload', 'delete', 'newusers', 'create', 'rights', 'patrol', 'tag'].map((t) => `action=query&list=logevents&letype=${t}&lelimit=50&leprop=ids|title|type|user|userid|timestamp|comment|details|tags`),
    'action=query&list=logevents&leaction=block/unblock&leprop=details|type',
    'action=query&list=logevents&lelimit=3&leprop=details',
    'action=query&list=logevents&lelimit=2&leprop=',
  ],
  blocks: [
    'action=query&list=blocks&bkprop=id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions&bklimit=50',
    'action=query&list=blocks&bkprop=flags|restrictions&bklimit=5',
    'action=query&list=blocks&bkprop=range&bkshow=range',
  ],
  extlinks: [
    `action=query&prop=extlinks&titles=${e('Москва|Alpha|Лондон|Нет такой страницы')}`,
    `action=query&prop=extlinks&titles=${e('Москва|Лондон')}&ellimit=1`,
  ],
  paraminfo: [
    'action=paraminfo&modules=query+info|parse&helpformat=none',
    'action=paraminfo&modules=query+logevents|query+blocks|tokens&helpformat=none',
    'action=paraminfo&formatmodules=json|jsonfm&helpformat=none',
    'action=paraminfo&modules=main&helpformat=none',
  ],
  parse: [
    `action=parse&text=${e('== A ==\nx\n=== B ===\n[[Москва]] [[Категория:Города]] [[en:Moscow]] {{PAGENAME}} http://example.org/ [[Файл:Образец 1.png]] __NOTOC__')}&title=X&prop=langlinks|categories|links|templates|images|externallinks|sections|properties|iwlinks|displaytitle|indicators|modules|jsconfigvars|parsewarnings|limitreportdata|headitems`,
    `action=parse&text=x&title=X&prop=langlinks|categories|links|templates|images|externallinks|sections|properties|iwlinks|indicators|modules|jsconfigvars|parsewarnings|headitems`,
    `action=parse&page=${e('Москва')}&prop=sections|properties|links|langlinks`,
    `action=parse&summary=${e('[[Москва]] x')}&prop=`,
    `action=parse&text=${e('{{DISPLAYTITLE:Y}}')}&title=X&prop=properties|parsewarnings&disablelimitreport=1`,
    `action=parse&text=${e('<indicator name="b">x</indicator><indicator name="a">[[Москва]]</indicator>')}&title=X&prop=indicators|links`,
  ],
  // A title's content model (ContentHandler's defaults: no page on the wikis is other than wikitext).
  contentmodel: [
    `action=query&prop=info&titles=${e('MediaWiki:Common.css|User:A/common.js|X.json|MediaWiki:X.json|User:A.js|Москва')}`,
    `action=parse&summary=x&title=${e('MediaWiki:Common.css')}&contentformat=text/css&prop=`,
    `action=parse&summary=x&title=${e('MediaWiki:Common.css')}&contentformat=text/x-wiki&prop=`,
    `action=parse&summary=x&title=${e('User:A/common.js')}&contentformat=text/javascript&prop=`,
    `action=parse&summary=x&title=${e('MediaWiki:X.json')}&contentformat=text/x-wiki&prop=`,
    `action=parse&summary=x&title=${e('X.json')}&contentformat=application/json&prop=`,
    `action=parse&summary=x&title=${e('MediaWiki:Common.css')}&prop=text&disablelimitreport=1`,
    `action=parse&summary=x&title=${e('Москва')}&contentformat=text/x-wiki&prop=`,
  ],
  messages: [
    'action=query&list=nosuchlist',
    'action=query&list=allpages&aplimit=1&apnosuch=1&unknownx=2',
    'action=query&list=allpages&aplimit=1&apnosuch=1&errorformat=plaintext',
    'action=query&list=allpages&aplimit=1&apnosuch=1&errorformat=wikitext',
    'action=query&list=allpages&aplimit=1&apnosuch=1&errorformat=html',
    'action=query&list=allpages&aplimit=1&apnosuch=1&errorformat=raw',
    'action=query&list=allpages&aplimit=1&apnosuch=1&errorformat=none',
    'action=parse',
    'action=parse&errorformat=plaintext',
    'action=parse&errorformat=raw',
    'action=query&list=blocks&bkusers=Bad%23name&bkip=1.2.3.4',
    'action=query&list=blocks&bkusers=Bad%23name&bkip=1.2.3.4&errorformat=raw',
    'action=nosuchaction',
  ],
  pageset: [
    `action=query&titles=${e('москва|Зета|Special:Version|Talk:|Нет такой страницы')}&redirects=1`,
    `action=query&titles=${e('москва')}&pageids=1`,
    'action=query&titles=Alpha&indexpageids=1',
    'action=query&pageids=1|99999&indexpageids=1',
    `action=query&titles=${e('Зета')}&redirects=1&converttitles=1`,
  ],
  continue: [
    'action=query&list=allpages&aplimit=1',
    'action=query&list=allpages&aplimit=1&rawcontinue=1',
    'action=query&list=logevents&lelimit=1&leprop=ids',
    'action=query&list=logevents&lelimit=1&leprop=ids&rawcontinue=1',
    `action=query&prop=revisions&titles=${e('Москва|Alpha')}&rvprop=ids&rvlimit=1&rvdir=newer&rvstart=2000-01-01T00:00:00Z`,
  ],
};

const QUESTIONS = Object.entries(AREAS).flatMap(([area, qs]) => qs.map((q) => ({ area, q })));

type Verdict = 'equal' | 'flagged' | 'silent';

async function ask(base: string, query: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(`${base}?${query}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/**
 * What differs between any two requests: tokens (login and createaccount ones carry the time),
 * servedby, and parse's limit report figures: the CPU and real time, the timing profile, and the
 * time of the parse (differential.ts's normalize drops it from limitreporthtml's `Cached time`).
 */
function steady(text: string): string {
  return text
    .replace(/"(\w*token)": ?"[0-9a-f]{32,}\+\\\\"/g, '"$1":"T+\\\\"')
    .replace(/"servedby": ?"[^"]*"/g, '"servedby":"S"')
    .replace(/("name": ?"limitreport-(?:cputime|walltime)", ?"0": ?)"[\d.]+"/g, '$1"T"')
    .replace(/("name": ?"cachereport-timestamp", ?"0": ?)"\d+"/g, '$1"T"')
    .replace(/("name": ?"limitreport-timingprofile"(?:, ?"\d+": ?"(?:[^"\\]|\\.)*")*)/g, '"name":"limitreport-timingprofile"')
    .replace(/("limitreport-(?:cputime|walltime)": ?)"[\d.]+"/g, '$1"T"')
    .replace(/("limitreport-timingprofile": ?)\[[^\]]*\]/g, '$1[]');
}

/** Judges one answer of ours against the live wiki's to the same question. */
async function judge(liveUrl: string, oursUrl: string, query: string): Promise<{ verdict: Verdict; detail: string }> {
  const live = await ask(liveUrl, query);
  const ours = await ask(oursUrl, query);
  const details = answerDifferences({ text: steady(live.text), headers: live.headers }, { text: steady(ours.text), headers: ours.headers });
  if (live.status !== ours.status) details.push(`status: live ${live.status} / ours ${ours.status}`);
  const flagged = ours.headers.get('x-wikitape-source') === 'miss' || ours.headers.get('x-wikitape-unknown') !== null;
  return { verdict: details.length === 0 ? 'equal' : flagged ? 'flagged' : 'silent', detail: details.join('\n  ') };
}

const FV1 = 'format=json';
const FV2 = 'format=json&formatversion=2';

/** Judges every question in `forms` against one of ours; prints counts per way and area, returns the silently wrong ones. */
async function judgeAll(label: string, liveUrl: string, oursUrl: string, forms: readonly string[]): Promise<string[]> {
  const silent: string[] = [];
  for (const [area, qs] of Object.entries(AREAS)) {
    const counts = { equal: 0, flagged: 0, silent: 0 };
    for (const q of qs) {
      for (const form of forms) {
        const j = await judge(liveUrl, oursUrl, `${q}&${form}`);
        counts[j.verdict]++;
        if (j.verdict === 'silent') silent.push(`${label} ${decodeURIComponent(q)}&${form}\n  ${j.detail}`);
      }
    }
    console.log(`${label}, ${area}: ${counts.equal} equal, ${counts.flagged} flagged, ${counts.silent} silently wrong (of ${qs.length * forms.length})`);
  }
  if (silent.length > 0) console.log(`SILENTLY WRONG:\n${silent.join('\n')}`);
  return silent;
}

describe.each(LIVE_VERSIONS)('formatversion=1 arrays against MediaWiki %s', (version) => {
  it('replayed from a recording in either formatversion, and built in, nothing is silently wrong', { timeout: 1_200_000 }, async () => {
    const live = await liveWiki(version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-fv1-arrays-'));
    const servers: (CliServer | RunningServer)[] = [];
    try {
      // Two record runs: each question asked as a formatversion=1 client asks it, and as a formatversion=2 one.
      const recorded: Record<string, string> = {};
      for (const [name, form] of [['fv1', FV1], ['fv2', FV2]] as const) {
        const recorder = await startCli(['record', '--upstream', live.apiUrl, '--cassettes', join(dir, name), '--cassette', name, '--quiet']);
        for (const { q } of QUESTIONS) await ask(recorder.url, `${q}&${form}`);
        expect(await recorder.stop(), recorder.stderr()).toBe(0);
        recorded[name] = join(dir, name);
      }
      const fromFv1 = await startCli(['replay', '--cassettes', recorded['fv1']!, '--quiet']);
      servers.push(fromFv1);
      const fromFv2 = await startCli(['replay', '--cassettes', recorded['fv2']!, '--quiet']);
      servers.push(fromFv2);
      const fixture = join(dir, 'live.json');
      await run('node', ['scripts/crawl-fixture.mjs', live.apiUrl, fixture, join(live.dir, 'spam-blacklist.txt')], { maxBuffer: 64 << 20 });
      // The crawl carries every page's content model (prop=info's), as the built-in's action=parse reads it.
      const crawled = JSON.parse(await readFile(fixture, 'utf8')) as { pages: { title: string; contentmodel?: unknown }[] };
      expect(crawled.pages.length).toBeGreaterThan(0);
      expect(crawled.pages.filter((p) => typeof p.contentmodel !== 'string').map((p) => p.title)).toEqual([]);
      const builtin = await startServer({ fixtures: [fixture], cassettes: NO_CASSETTES, onMiss: 'builtin' });
      servers.push(builtin);

      const silent = [
        ...(await judgeAll(`${version} recorded fv1, replayed`, live.apiUrl, fromFv1.url, [FV1, FV2])),
        ...(await judgeAll(`${version} recorded fv2, replayed`, live.apiUrl, fromFv2.url, [FV1])),
        ...(await judgeAll(`${version} built in`, live.apiUrl, builtin.url, [FV1, FV2])),
      ];
      expect(silent).toEqual([]);
    } finally {
      for (const s of servers) await ('stop' in s ? s.stop() : s.close());
      await rm(dir, { recursive: true, force: true });
    }
  });
});
