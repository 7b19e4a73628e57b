import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { liveWiki, type LiveWiki } from '../support/live-wiki.js';

/**
 * The built-in wiki against a real MediaWiki 1.39: the live wiki is crawled into a fixture, then
 * both answer the same questions; bodies must be byte-identical apart from debuginfo, and the
 * headers clients read must match.
 */
const run = promisify(execFile);
const B = 'action=query&format=json';
const QUESTIONS = [
  `${B}&list=logevents`, `${B}&list=logevents&formatversion=2`, `${B}&list=logevents&lelimit=5`, `${B}&list=logevents&ledir=newer&lelimit=3`,
  `${B}&list=logevents&letype=block`, `${B}&list=logevents&letype=block&formatversion=2`, `${B}&list=logevents&letype=upload`,
  `${B}&list=logevents&leaction=move/move`, `${B}&list=logevents&leuser=Admin&lelimit=3`, `${B}&list=logevents&letitle=Москва`,
  `${B}&list=logevents&lenamespace=6&lelimit=2`, `${B}&list=logevents&leprop=ids|title|type|user|userid|timestamp|comment|details|tags&lelimit=4`,
  `${B}&list=logevents&lelimit=max&letype=protect`, `${B}&list=logevents&lelimit=0&letype=move`, `${B}&list=logevents&lelimit=5000&letype=move`,
  `${B}&list=logevents&lelimit=abc`, `${B}&list=logevents&lestart=&letype=move`, `${B}&list=logevents&letype=bogus`,
  `${B}&list=logevents&leprop=ids|bogus&letype=move`, `${B}&list=logevents&lecontinue=20240101000000|abc`, `${B}&list=logevents&letitle=a[b`,
  `${B}&list=logevents&letitle=X&lenamespace=0`, `${B}&list=logevents&leaction=bogus`, `${B}&list=logevents&letype=newusers&lelimit=3`,
  `${B}&list=logevents&letype=delete`, `${B}&list=logevents&letype=create&lelimit=2&formatversion=2`, `${B}&list=logevents&foo=1&letype=move`,
  `${B}&list=bogus`, 'action=bogus&format=json', `${B}&list=logevents&ledir=up&errorformat=plaintext`,
  `${B}&list=logevents&ledir=up&errorformat=plaintext&formatversion=2`, `${B}&list=logevents&ledir=up&errorformat=wikitext&uselang=en`,
  `${B}&list=logevents&ledir=up&errorformat=html`, `${B}&list=logevents&ledir=up&errorformat=raw`, `${B}&list=logevents&ledir=up&errorformat=none`,
  `${B}&list=blocks&bklimit=5`, `${B}&list=blocks&bkprop=id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions`,
  `${B}&list=blocks&bkprop=id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions&formatversion=2`,
  `${B}&list=blocks&bkip=192.0.2.15`, `${B}&list=blocks&bkip=198.51.100.0/24`, `${B}&list=blocks&bkip=198.51.100.7`, `${B}&list=blocks&bkip=1.0.0.0/8`,
  `${B}&list=blocks&bkip=bogus`, `${B}&list=blocks&bkusers=Вандал_1|Spammer 1`, `${B}&list=blocks&bkshow=ip`, `${B}&list=blocks&bkshow=range`,
  `${B}&list=blocks&bkshow=!account|temp`, `${B}&list=blocks&bkshow=account|!account`, `${B}&list=blocks&bkids=1|2|3`, `${B}&list=blocks&bkids=x`,
  `${B}&list=blocks&bkdir=newer&bklimit=4`, `${B}&list=blocks&bkusers=Вандал 1&bkip=1.2.3.4`,
  `${B}&list=protectedtitles&ptlimit=5`, `${B}&list=protectedtitles&ptprop=timestamp|user|userid|comment|parsedcomment|expiry|level`,
  `${B}&list=protectedtitles&ptlevel=sysop`, `${B}&list=protectedtitles&ptnamespace=0|10`, `${B}&list=protectedtitles&ptdir=newer&ptlimit=3`,
  `${B}&list=protectedtitles&ptnamespace=0|99`, `${B}&list=protectedtitles&ptcontinue=bad`, `${B}&list=logevents|blocks&lelimit=3&bklimit=3`,
  `${B}&list=blocks|logevents&lelimit=3&bklimit=3`,
  `${B}&prop=extlinks&titles=Москва|Список ссылок|Alpha|Несуществующая`, `${B}&prop=extlinks&titles=Москва|Список ссылок|Alpha|Несуществующая&formatversion=2`,
  `${B}&prop=extlinks&titles=Список ссылок&ellimit=5`, `${B}&prop=extlinks&titles=Alpha|Beta`, `${B}&prop=extlinks&titles=Alpha&elprotocol=https`,
  `${B}&prop=extlinks&titles=Список ссылок&elquery=example.org`, `${B}&prop=extlinks&titles=Список ссылок&elquery=*.example.org&ellimit=3`,
  `${B}&prop=extlinks&titles=москва|Project:О_проекте|Википедия:x|a[b`, `${B}&prop=extlinks&titles=Alpha&pageids=1`, `${B}&prop=extlinks&pageids=2|999`,
  `${B}&prop=extlinks&titles=`, `${B}&prop=extlinks&titles=Alpha&elexpandurl=1`, `${B}&prop=extlinks&titles=Москва|Alpha&formatversion=2&ellimit=2`,
  'action=parse&format=json&summary=[[Foo]] bar', 'action=parse&format=json&summary=[[Москва]]ы и&prop=',
  'action=parse&format=json&summary=/* Раздел 1 */ текст&prop=', 'action=parse&format=json&summary=текст /* Раздел */&prop=',
  'action=parse&format=json&summary=[[Alpha|альфа]] and [[Несуществующая]]&prop=&formatversion=2', 'action=parse&format=json&summary=<b>x</b> %26amp; a%26mdash;b&prop=',
  'action=parse&format=json&summary=&prop=', 'action=parse&format=json&summary=x&prop=displaytitle|parsewarnings&formatversion=2',
  'action=spamblacklist&format=json&url=https://ok.test/', 'action=spamblacklist&format=json', 'action=spamblacklist&format=json&url=',
  'action=spamblacklist&format=json&url=http://casino-spam.example/x|https://ok.test/',
  'action=spamblacklist&format=json&url=http://free-money.test/|http://casino-spam.example/b|http://casino-spam.example/a',
  `${B}&list=protectedtitles&utf8=1`, `${B}&list=protectedtitles&formatversion=2&ascii=1`, `${B}&list=protectedtitles&callback=cb`,
  `${B}&list=protectedtitles&origin=*`, `${B}&list=protectedtitles&uselang=en&maxage=60&smaxage=60`, `${B}&list=protectedtitles&requestid=x&curtimestamp=1`,
];
const HEADERS = ['content-type', 'cache-control', 'vary', 'mediawiki-api-error', 'access-control-allow-origin', 'mediawiki-login-suppressed'];

let live: LiveWiki;
let ours: RunningServer;

beforeAll(async () => {
  live = await liveWiki();
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-diff-'));
  const fixture = join(dir, 'live.json');
  await run('node', ['scripts/crawl-fixture.mjs', live.apiUrl, fixture, join(live.dir, 'spam-blacklist.txt')]);
  // The built-in modules alone: no cassettes.
  ours = await startServer({ fixtures: [fixture], cassettes: join(dir, 'no-cassettes') });
});
afterAll(async () => ours?.close());

function normalize(text: string): string {
  const m = /^(\/\*\*\/\w+\()?([\s\S]*?)(\))?$/.exec(text)!;
  try {
    const j = JSON.parse(m[2]!) as Record<string, unknown>;
    delete j['debuginfo'];
    delete j['curtimestamp'];
    return (m[1] ?? '') + JSON.stringify(j) + (m[3] ?? '');
  } catch {
    return text;
  }
}

describe('the built-in wiki answers like MediaWiki 1.39', () => {
  it(`gives the live wiki's answer to ${QUESTIONS.length} questions`, async () => {
    const differences: string[] = [];
    for (const q of QUESTIONS) {
      const [a, b] = await Promise.all([fetch(`${live.apiUrl}?${q}`), fetch(`${ours.url}?${q}`)]);
      const [ta, tb] = [normalize(await a.text()), normalize(await b.text())];
      if (ta !== tb) {
        let i = 0;
        while (ta[i] === tb[i]) i++;
        differences.push(`${q}\n  live: …${ta.slice(Math.max(0, i - 60), i + 120)}\n  ours: …${tb.slice(Math.max(0, i - 60), i + 120)}`);
      }
      for (const h of HEADERS) {
        if (a.headers.get(h) !== b.headers.get(h)) differences.push(`${q}\n  header ${h}: live ${a.headers.get(h)} / ours ${b.headers.get(h)}`);
      }
    }
    console.log(`built-in vs live: ${QUESTIONS.length - new Set(differences.map((d) => d.split('\n')[0])).size}/${QUESTIONS.length} equal`);
    for (const d of differences) console.log(d);
    expect(differences).toEqual([]);
  });
});
