import { describe, expect, it } from 'vitest';
import type { DebugEntry, DebugInput } from '../../../src/api/debug.js';
import type { JsonObject } from '../../../src/api/result.js';
import { logevents, type LogEvent } from '../../../src/modules/logevents.js';
import { addEntities, emptyModel, type WikiModel } from '../../../src/wiki/model.js';
import { makeProfile } from '../../../src/wiki/profile.js';
import { lang } from '../../support/lang.js';

/*
 * list=logevents' debuginfo for parsed comments, against what MediaWiki 1.39.17 and 1.43.9 wrote
 * for the live wikis' fill (scripts/livewiki): the comments of every row fetched (the row past the
 * limit too) are formatted in one batch. Expected entries are the real debug logs' lines after the
 * module's SELECT, as captured from those wikis.
 */
const v139 = makeProfile({ version: '1.39.17', runtimeVersion: '8.2.36', dbServer: 'unknown' });
const v143 = makeProfile({ version: '1.43.9', runtimeVersion: '8.2.36', dbServer: 'localhost' });

const row = (logid: number, ns: number, title: string, parsedcomment: string): LogEvent =>
  ({ logid, ns, title, pageid: 0, logpage: 0, params: {}, type: 'create', action: 'create', user: 'Admin', userid: 1, timestamp: '2026-11-27T11:34:35Z', comment: '', parsedcomment, tags: [] }) as LogEvent;

const PROJECT = row(16, 4, 'Тестовая вики:О проекте', 'Создание <span dir="auto"><span class="autocomment"><a href="/wiki/index.php/%D0%A2%D0%B5%D1%81%D1%82%D0%BE%D0%B2%D0%B0%D1%8F_%D0%B2%D0%B8%D0%BA%D0%B8:%D0%9E_%D0%BF%D1%80%D0%BE%D0%B5%D0%BA%D1%82%D0%B5#Project:О_проекте" title="Тестовая вики:О проекте">→‎Project:О проекте</a>: </span> <a href="/wiki/index.php/%D0%A2%D0%B5%D1%81%D1%82%D0%BE%D0%B2%D0%B0%D1%8F_%D0%B2%D0%B8%D0%BA%D0%B8:%D0%9E_%D0%BF%D1%80%D0%BE%D0%B5%D0%BA%D1%82%D0%B5" title="Тестовая вики:О проекте">Project:О проекте</a></span>');
const HELP = row(17, 12, 'Справка:Справка', 'Создание <span dir="auto"><span class="autocomment"><a href="/wiki/index.php/%D0%A1%D0%BF%D1%80%D0%B0%D0%B2%D0%BA%D0%B0:%D0%A1%D0%BF%D1%80%D0%B0%D0%B2%D0%BA%D0%B0#Help:Справка" title="Справка:Справка">→‎Help:Справка</a>: </span> <a href="/wiki/index.php/%D0%A1%D0%BF%D1%80%D0%B0%D0%B2%D0%BA%D0%B0:%D0%A1%D0%BF%D1%80%D0%B0%D0%B2%D0%BA%D0%B0" title="Справка:Справка">Help:Справка</a></span>');
const CATEGORY = row(18, 14, 'Категория:Города', 'Создание <span dir="auto"><span class="autocomment"><a href="/wiki/index.php/%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D0%B8%D1%8F:%D0%93%D0%BE%D1%80%D0%BE%D0%B4%D0%B0#Category:Города" title="Категория:Города">→‎Category:Города</a>: </span> <a href="/wiki/index.php/%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D0%B8%D1%8F:%D0%93%D0%BE%D1%80%D0%BE%D0%B4%D0%B0" title="Категория:Города">Category:Города</a></span>');
const BLOCKS = [row(52, 2, 'Участник:Spammer 1', 'Спам-ссылки'), row(53, 2, 'Участник:Spammer 2', '')];
const RED = row(54, 2, 'Участник:Тролль 1', 'Нарушение <a href="/wiki/index.php?title=%D0%9F%D1%80%D0%B0%D0%B2%D0%B8%D0%BB%D0%B0&amp;action=edit&amp;redlink=1" class="new" title="Правила (страница не существует)">правил</a>');

/** The module's entries after its SELECT, for a recorded answer of `shown` whose continuation names `past`. */
function traceOf(profile: DebugInput['profile'], shown: LogEvent[], past: LogEvent, params: Record<string, string>, fetched = false): { entries: DebugEntry[]; includes: string } {
  const model: WikiModel = emptyModel();
  addEntities(model, logevents.entity.kind, [...shown, past]);
  const answer: JsonObject = {
    continue: { lecontinue: `20261127113436|${past.logid}`, continue: '-||' },
    query: { logevents: shown.map((e) => ({ logid: e.logid, pageid: 0, logpage: 0, parsedcomment: e.parsedcomment ?? '' })) },
  };
  const all: Record<string, string> = { action: 'query', list: 'logevents', leprop: 'parsedcomment|ids', ledir: 'newer', lelimit: String(shown.length), ...params };
  const facts = logevents.debug!({ profile, params: all, method: 'GET', nowMw: '20261127120000', userLang: lang(all['uselang'] ?? 'ru', profile.version), answer, pages: [], model, ...(fetched ? { fetched: [...shown, past] } : {}) });
  return { entries: facts.entries.slice(1), includes: facts.includes };
}

/** A trace's entries as the debug log shows them: a query by its function and SQL, another reference as `reuse`. */
const lines = (entries: DebugEntry[]) => entries.map((e) => (typeof e === 'string' ? e : 'query' in e ? `${e.query.function} | ${e.query.sql}` : 'reuse' in e ? 'reuse' : JSON.stringify(e)));

const messages = (lang: string, first: boolean) => [
  ...(first ? ['[MessageCache] MessageCache using store SqlBagOStuff'] : []),
  `[SQLBagOStuff] SqlBagOStuff debug: SqlBagOStuff::fetchBlobs: retrieved wikidb:messages:${lang}; expiry time is 99991231235959`,
  'reuse',
  expect.stringMatching(new RegExp(`^MessageCache::loadFromDB\\(${lang}\\)-big \\| `)),
  expect.stringMatching(new RegExp(`^MessageCache::loadFromDB\\(${lang}\\)-small \\| `)),
  `[MessageCache] MessageCache::loadUnguarded: Loading ${lang}... local cache is empty, global cache is expired/volatile, loading from DB`,
];
const interwiki = (prefix: string) => [
  'reuse',
  `MediaWiki\\Interwiki\\ClassicInterwikiLookup::load | SELECT  iw_prefix,iw_url,iw_api,iw_wikiid,iw_local,iw_trans  FROM "interwiki"    WHERE iw_prefix = '${prefix}'  LIMIT 1  `,
  `[objectcache] fetchOrRegenerate(wikidb:interwiki:${prefix}): miss, new value computed`,
];
const PAGE_FIELDS = 'SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_latest,page_touched,page_len,page_content_model  FROM "page"    WHERE';

describe("list=logevents' debuginfo of parsed comments", () => {
  it('autocomments with a colon: one interwiki lookup per prefix, messages at the first with text beside it, one LinkBatch over every namespace (1.39)', () => {
    const { entries, includes } = traceOf(v139, [PROJECT, HELP], CATEGORY, {});
    expect(lines(entries)).toEqual([
      ...interwiki('#project'),
      ...messages('ru', true),
      ...messages('en', false),
      ...interwiki('#help'),
      ...interwiki('#category'),
      'reuse',
      `LinkBatch::doQuery (for MediaWiki\\CommentFormatter\\CommentParser::addPageLink) | ${PAGE_FIELDS} (page_namespace = 4 AND page_title = 'О_проекте') OR (page_namespace = 12 AND page_title = 'Справка') OR (page_namespace = 14 AND page_title = 'Города')  `,
    ]);
    expect(includes).toBe('logeventslinks');
  });

  it('1.43 puts the LinkBatch condition in parentheses of its own', () => {
    const last = lines(traceOf(v143, [PROJECT, HELP], CATEGORY, {}).entries).at(-1);
    expect(last).toBe(`MediaWiki\\Cache\\LinkBatch::doQuery (for MediaWiki\\CommentFormatter\\CommentParser::addPageLink) | ${PAGE_FIELDS} ((page_namespace = 4 AND page_title = 'О_проекте') OR (page_namespace = 12 AND page_title = 'Справка') OR (page_namespace = 14 AND page_title = 'Города'))  `);
  });

  it("a red link in the row past the limit: its User page's gender, the LinkBatch, then red-link-title's messages (1.39)", () => {
    for (const fetched of [false, true]) {
      const { entries } = traceOf(v139, BLOCKS, RED, {}, fetched);
      expect(lines(entries)).toEqual([
        'reuse',
        `GenderCache::doQuery/MediaWikiTitleCodec::getNamespaceName | SELECT  user_name,up_value  FROM "user" LEFT JOIN "user_properties" ON ((user_id = up_user) AND up_property = 'gender')   WHERE user_name = 'Тролль 1'  `,
        'reuse',
        `LinkBatch::doQuery (for MediaWiki\\CommentFormatter\\CommentParser::addPageLink) | ${PAGE_FIELDS} (page_namespace = 0 AND page_title = 'Правила')  `,
        ...messages('ru', true),
      ]);
    }
  });

  it('1.43 with uselang=en reads English core data for the first section link', () => {
    const got = lines(traceOf(v143, [PROJECT], HELP, { uselang: 'en' }).entries);
    expect(got.slice(0, 4)).toEqual([...interwiki('#project'), '[localisation] LocalisationCache::loadCoreData: got localisation for en from source']);
    expect(got.filter((l) => l.includes('loadCoreData'))).toHaveLength(1);
  });

  it('comments without links or autocomments add nothing', () => {
    const { entries, includes } = traceOf(v139, [BLOCKS[0]!], BLOCKS[1]!, {});
    expect(entries).toEqual([]);
    expect(includes).toBe('logevents');
  });
});
