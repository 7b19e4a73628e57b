import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { silentlyWrongByArea } from '../support/differential.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * Requests that combine modules and continuation, as bots send them, against both live wikis:
 * several lists in one request followed through their combined `continue` (each list continues on
 * its own, a finished one drops out), a generator with a prop, titles with props and a list, the
 * legacy `rawcontinue`, `continue` sent empty, wrong or taken from another combination, in both
 * format versions, `utf8` and `ascii`. A bot's walk of such requests is recorded through
 * `wikitape record`; each question is asked of the live wiki and of replay of that walk (misses
 * refused) and is equal, flagged (`wikitape-miss`, `X-Wikitape-Unknown`) or silently wrong; none
 * may be silently wrong. The counts are printed per area.
 */
type Params = Record<string, string>;

const query = (p: Params): Params => ({ action: 'query', format: 'json', ...p });
const LISTS: Params = { list: 'logevents|blocks|protectedtitles|allpages', lelimit: '20', bklimit: '5', ptlimit: '5', aplimit: '10' };
const GENERATOR: Params = { generator: 'allpages', gaplimit: '10', prop: 'extlinks', ellimit: '20' };
const TITLES: Params = { titles: 'Москва|Alpha|Zeta|Nope', prop: 'extlinks|info', list: 'blocks', redirects: '1' };
const TWO: Params = { list: 'logevents|blocks', lelimit: '50', bklimit: '4' };
const PROP_AND_LIST: Params = { titles: 'Москва|Санкт-Петербург', prop: 'extlinks', ellimit: '3', list: 'allpages', aplimit: '4' };
const LINKS: Params = { titles: 'Список ссылок', prop: 'extlinks', ellimit: '4' };

/** What the bot walks through `wikitape record`: formatversion=2 as mwn sends it, and the legacy forms. */
const WALKS: Params[] = [
  { ...LISTS, formatversion: '2' }, { ...GENERATOR, formatversion: '2' }, { ...TITLES, formatversion: '2' }, { ...PROP_AND_LIST, formatversion: '2' },
  { ...LINKS, formatversion: '2' }, { ...LISTS, rawcontinue: '1' }, { ...TITLES, rawcontinue: '1' }, { ...TWO, rawcontinue: '1', formatversion: '2' },
  { list: 'allpages', aplimit: 'max', formatversion: '2' }, { list: 'logevents', lelimit: 'max', formatversion: '2' },
  { list: 'blocks', bklimit: 'max', formatversion: '2' }, { list: 'protectedtitles', ptlimit: 'max', formatversion: '2' },
];

/** Each page's question of a walk, following the wiki's continuation (`continue` or `query-continue`). */
async function chain(base: string, p: Params): Promise<string[]> {
  const out: string[] = [];
  let next: Params = {};
  for (let i = 0; i < 30; i++) {
    const question = new URLSearchParams({ ...p, ...next }).toString();
    out.push(question);
    const body = (await (await fetch(`${base}?${question}`)).json()) as { continue?: Params; 'query-continue'?: Record<string, Params> };
    if (body.continue) next = body.continue;
    else if (body['query-continue']) next = Object.assign({}, ...Object.values(body['query-continue'])) as Params;
    else break;
  }
  return out;
}

async function chains(base: string, bases: Params[], forms: Params[]): Promise<string[]> {
  const out: string[] = [];
  for (const b of bases) for (const f of forms) out.push(...(await chain(base, query({ ...b, ...f }))));
  return out;
}

/** The questions of each area, their continuation as the live wiki gives it. */
async function questions(base: string): Promise<Record<string, string[]>> {
  const fv: Params[] = [{ formatversion: '2' }, {}];
  const areas: Record<string, string[]> = {};
  areas['recorded walks in other forms'] = await chains(base, [LISTS, GENERATOR, TITLES, PROP_AND_LIST], [{}, { utf8: '1' }, { ascii: '1' }, { formatversion: '2', indexpageids: '1' }]);
  // The page set's titles in other spellings: past it (`continue=-||…`) the wiki writes no `normalized`.
  areas['titles in other spellings'] = await chains(base, [{ ...TITLES, titles: 'москва|alpha|zeta|nope' }, { ...TITLES, titles: 'Москва_|alpha|Nope|Zeta' }, { ...PROP_AND_LIST, titles: 'москва|Санкт-Петербург_' }], [...fv, { utf8: '1' }]);
  areas['legacy rawcontinue'] = await chains(base, [LISTS, TITLES, TWO], [{ rawcontinue: '1' }, { rawcontinue: '1', formatversion: '2' }]);
  areas['list combinations'] = await chains(base, [
    { list: 'logevents|blocks', lelimit: '7', bklimit: '3' }, { list: 'blocks|protectedtitles', bklimit: '2', ptlimit: '3' }, { list: 'allpages|logevents', aplimit: '8', lelimit: '30' },
    { list: 'allpages|protectedtitles|blocks|logevents', lelimit: '33', bklimit: '6', ptlimit: '2', aplimit: '12' },
    { list: 'logevents|blocks', lelimit: '10', bklimit: '4', letype: 'block', bkdir: 'newer' }, { list: 'logevents|allpages', lelimit: '10', aplimit: '5', apnamespace: '0', ledir: 'newer' },
    { ...LISTS, leprop: 'ids|title|type|user|timestamp|comment|details', bkprop: 'id|user|reason', ptprop: 'level|expiry' },
    { list: 'protectedtitles|allpages', ptlimit: '2', aplimit: '7', ptnamespace: '0', apfilterredir: 'nonredirects', apdir: 'descending' },
  ], fv);
  areas['titles with lists'] = await chains(base, [
    { titles: 'Москва', prop: 'extlinks', list: 'logevents|blocks', lelimit: '5', bklimit: '5' }, { pageids: '2|8|28', prop: 'extlinks', list: 'allpages', aplimit: '5' },
    { titles: 'Москва', prop: 'extlinks', ellimit: '2', list: 'logevents', lelimit: '3', letitle: 'Москва' }, { titles: 'Участник:Admin|Служебная:Все страницы|en:Foo', prop: 'extlinks', list: 'blocks', bklimit: '3' },
  ], fv);
  const wrong: string[] = [];
  const conts: Params[] = [
    { continue: '' }, { continue: 'x' }, { continue: '||' }, { continue: '-||' }, { continue: '-||logevents' }, { continue: '||logevents|blocks' }, { continue: '|||' },
    { continue: '-||blocks|allpages', lecontinue: '20260101000000|5' }, { continue: '-||logevents|blocks|protectedtitles|allpages' }, { continue: '-||', apcontinue: 'москва' },
    { continue: '-||logevents|blocks|protectedtitles|allpages|foo' }, { continue: '-||', rawcontinue: '1' },
  ];
  for (const c of conts) for (const f of fv) wrong.push(new URLSearchParams(query({ ...LISTS, ...c, ...f })).toString());
  for (const c of [{ continue: '-||extlinks' }, { continue: '||extlinks' }, { continue: '-||blocks' }]) wrong.push(new URLSearchParams(query({ ...TITLES, ...c, formatversion: '2' })).toString());
  // A generator part naming parameters: while a prop continues, the wiki sends their values back.
  const echoed: Params[] = [{ continue: 'titles||' }, { continue: 'titles|format|nope||' }, { continue: 'gapcontinue||', gapcontinue: 'Москва' }];
  for (const c of echoed) wrong.push(...(await chains(base, [{ ...LINKS, ...c }], fv)));
  // A walk's continuation sent with other lists or limits.
  const others: Params[] = [{ list: 'allpages|protectedtitles|blocks|logevents' }, { lelimit: '5', bklimit: '1', ptlimit: '1', aplimit: '3' }, { list: 'blocks|allpages' }];
  for (const w of [LISTS, TWO]) {
    for (const page of (await chain(base, query({ ...w, formatversion: '2' }))).slice(1)) {
      const cont = Object.fromEntries([...new URLSearchParams(page)].filter(([k]) => k.endsWith('continue')));
      for (const other of others) {
        wrong.push(new URLSearchParams(query({ ...w, ...other, ...cont, formatversion: '2' })).toString());
      }
    }
  }
  areas['continue empty, wrong or from another combination'] = wrong;
  return areas;
}

async function recordWalk(apiUrl: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-combos-'));
  const recorder = await startServer({ mode: 'record', upstream: apiUrl, cassettes: dir, cassette: 'walk' });
  try {
    for (const w of WALKS) await chain(recorder.url, query(w));
  } finally {
    await recorder.close();
  }
  return dir;
}

describe.each(LIVE_VERSIONS)('combined modules and continuation against MediaWiki %s', (version) => {
  it('replayed after a recorded walk: each answer equal or flagged, none silently wrong', { timeout: 300_000 }, async () => {
    const live = await liveWiki(version);
    const replay = await startServer({ cassettes: await recordWalk(live.apiUrl) });
    try {
      expect(await silentlyWrongByArea(`MediaWiki ${version}`, live.apiUrl, replay.url, await questions(live.apiUrl))).toEqual([]);
    } finally {
      await replay.close();
    }
  });
});
