import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliTest, startCli, type CliServer } from '../support/cli.js';

/*
 * The spec (docs/spec/wiki-query-api.md), checked against the server `npm start` starts: the CLI
 * with the arguments of package.json's "start" script, from the repository (where ./cassettes
 * holds the bundled 1.43 recording), on a free port. One describe per section of the spec; each
 * statement that can be checked is one expectation, with the spec's words as its message.
 *
 * Not checkable, so not checked: "comment … may be truncated with an ellipsis" (a possibility);
 * what the spec says is "not shown" (events, errors, other fields, rate limits, login); that the
 * blocks list "is not hidden" beyond the query's condition and the absence of the hidden flag.
 * The spec's wiki answers as of its data's time, so these checks never depend on the wall clock.
 * (Over 400 lines: it is the spec, section by section.)
 */

// A walk is a dozen requests, each with its debuginfo: room for a machine busy with other work.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
/** A package.json script's CLI arguments (`node dist/cli.js replay` → `replay`). */
function scriptArgs(name: string): string[] {
  const words = SCRIPTS[name]!.split(' ');
  expect(words.slice(0, 2), `npm run ${name} starts the CLI`).toEqual(['node', 'dist/cli.js']);
  return words.slice(2);
}

type Json = Record<string, unknown>;
type Obj = Record<string, unknown>;
interface Got {
  status: number;
  headers: Headers;
  text: string;
  body: Json;
}

let server: CliServer;
beforeAll(async () => {
  server = await startCli(scriptArgs('start'), ROOT);
}, cliTest(1).timeout);
afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

/** GET api.php with these parameters (format=json unless `format` is given as null). */
async function get(params: Record<string, string | null>, headers: Record<string, string> = {}): Promise<Got> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...params, format: params['format'] === undefined ? 'json' : params['format'] })) if (v !== null) q.set(k, v);
  const r = await fetch(`${server.url}?${q}`, { headers });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, body: r.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as Json) : {} };
}

const query = (list: string, more: Record<string, string> = {}) => get({ action: 'query', list, ...more });
const rows = (g: Got, list: string) => (g.body['query'] as Obj)[list] as Obj[];
const debug = (g: Got) => g.body['debuginfo'] as Obj;
const debugLog = (g: Got) => debug(g)['debugLog'] as string[];
const sqlOf = (g: Got, table: string) => (debug(g)['queries'] as { sql: string }[]).map((x) => x.sql).find((s) => s.includes(`FROM "${table}"`)) ?? '';
const withoutDebug = (b: Json) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== 'debuginfo'));
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const mw = (iso: string) => iso.replace(/\D/g, '');

/** Every page of a list, following `continue` to the end. */
async function walk(list: string): Promise<Got[]> {
  const pages: Got[] = [];
  let cont: Record<string, string> = {};
  for (;;) {
    const g = await query(list, cont);
    pages.push(g);
    if (!g.body['continue']) return pages;
    cont = g.body['continue'] as Record<string, string>;
  }
}

/** The six operations of the spec, as its endpoints ask them. */
const OPERATIONS: Record<string, Record<string, string>> = {
  spamblacklist: { action: 'spamblacklist', url: 'http://a.example|https://b.example/x' },
  logevents: { action: 'query', list: 'logevents' },
  blocks: { action: 'query', list: 'blocks' },
  protectedtitles: { action: 'query', list: 'protectedtitles' },
  extlinks: { action: 'query', prop: 'extlinks', titles: 'Москва|Казань' },
  parse: { action: 'parse', summary: 'Ссылка на [[Несуществующая страница]] и [[Москва]]' },
};

describe('What the service does', () => {
  it('answers each observed operation with a GET to one entry point, picked by action (and list or prop)', async () => {
    expect(new URL(server.url).pathname, '"All requests are HTTP GET to {base_url}/wiki/api.php"').toBe('/wiki/api.php');
    for (const [name, params] of Object.entries(OPERATIONS)) {
      const g = await get(params);
      expect(g.status, `${name}: answered`).toBe(200);
      expect(g.body['error'], `${name}: not an error`).toBeUndefined();
      expect(g.headers.get('x-wikitape-unknown'), `${name}: wikitape knows the whole answer`).toBeNull();
      expect(typeof g.body['debuginfo'], `${name}: "Every response can carry a debuginfo object"`).toBe('object');
    }
  });

  it('"format=json returns plain JSON"', async () => {
    const g = await get(OPERATIONS['logevents']!);
    expect(g.headers.get('content-type'), 'a JSON answer').toBe('application/json; charset=utf-8');
    expect(JSON.parse(g.text), 'plain JSON').toEqual(g.body);
  });

  it('"Without format, the response is an HTML page titled as an API result … the same JSON … advises adding format"', async () => {
    const page = await get({ ...OPERATIONS['blocks']!, format: null });
    const json = await get(OPERATIONS['blocks']!);
    expect(page.headers.get('content-type'), 'an HTML page').toBe('text/html; charset=UTF-8');
    expect(page.text, 'titled as an API result').toContain('<title>Результат MediaWiki API — Тестовая вики</title>');
    expect(page.text, 'it advises adding format').toMatch(/Укажите параметр <var>format<\/var>.*<kbd>format=json<\/kbd>/);
    const pre = /<pre class="api-pretty-content">([\s\S]*?)<\/pre>/.exec(page.text)![1]!;
    const shown = JSON.parse(pre.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#039;/g, "'").replace(/&amp;/g, '&')) as Json;
    expect(pre, 'human-readable: indented').toContain('\n    "batchcomplete": ""');
    expect(withoutDebug(shown), 'a rendering of the same JSON').toEqual(withoutDebug(json.body));
  });

  it('"The interface language of the instance is Russian: localized strings such as duration-l10n are in that language"', async () => {
    const blocks = rows(await query('blocks'), 'blocks');
    expect(blocks.find((b) => b['expiry'] === 'infinity')!['duration-l10n'], 'an infinite block').toBe('бессрочно');
    expect(blocks.find((b) => b['id'] === 15)!['duration-l10n'], 'a block of a year').toBe('1 год');
  });
});

describe('Common response envelope', () => {
  it('batchcomplete, continue, query, debuginfo', async () => {
    const pages = await walk('logevents');
    const first = pages[0]!.body;
    const last = pages.at(-1)!.body;
    expect(first['batchcomplete'], '"batchcomplete: Always the empty string when the batch is complete"').toBe('');
    expect(Object.keys(first['continue'] as Obj), '"continue: … the continuation keys for the list, plus continue"').toEqual(['lecontinue', 'continue']);
    expect(last['continue'], '"continue: Present only when more results exist"').toBeUndefined();
    expect(Array.isArray((first['query'] as Obj)['logevents']), '"query: Holds the list or page data"').toBe(true);
    expect(typeof first['debuginfo'], '"debuginfo: object"').toBe('object');
  });
});

describe('Log event (element of query.logevents)', () => {
  let events: Obj[];
  let pages: Got[];
  beforeAll(async () => {
    pages = await walk('logevents');
    events = pages.flatMap((g) => rows(g, 'logevents'));
  }, 60_000);

  it('has every field, of its type, in every entry of the whole list', () => {
    for (const e of events) {
      const at = `logid ${String(e['logid'])}`;
      expect(Number.isInteger(e['logid']), `${at}: "logid integer Req"`).toBe(true);
      expect(Number.isInteger(e['ns']), `${at}: "ns integer Req"`).toBe(true);
      expect(typeof e['title'], `${at}: "title string Req"`).toBe('string');
      expect(Number.isInteger(e['pageid']), `${at}: "pageid integer Req"`).toBe(true);
      expect(Number.isInteger(e['logpage']), `${at}: "logpage integer Req"`).toBe(true);
      if ('revid' in e) expect(Number.isInteger(e['revid']), `${at}: "revid integer Opt"`).toBe(true);
      expect(typeof e['params'] === 'object' && !Array.isArray(e['params']), `${at}: "params object Req"`).toBe(true);
      expect(typeof e['type'], `${at}: "type string Req"`).toBe('string');
      expect(typeof e['action'], `${at}: "action string Req"`).toBe('string');
      expect(typeof e['user'], `${at}: "user string Req"`).toBe('string');
      expect(e['timestamp'], `${at}: "timestamp … form YYYY-MM-DDThh:mm:ssZ"`).toMatch(TIMESTAMP);
      expect(typeof e['comment'], `${at}: "comment string Req"`).toBe('string');
      if (e['ns'] !== 0) expect(e['title'], `${at}: "Full page title, including the namespace prefix"`).toMatch(/^[^:]+:./);
    }
  });

  it('shows what the spec observed', () => {
    const of = (type: string) => events.filter((e) => e['type'] === type);
    expect([0, 6].every((ns) => events.some((e) => e['ns'] === ns)), '"ns … Observed 0 and 6"').toBe(true);
    expect(events.some((e) => e['ns'] === 6 && String(e['title']).startsWith('Файл:')), 'ns 6 titles carry their prefix').toBe(true);
    expect(of('create').some((e) => 'revid' in e) && of('upload').some((e) => 'revid' in e), '"revid … Seen on create and upload entries"').toBe(true);
    for (const e of of('create')) expect(e['params'], '"params … Empty object for create"').toEqual({});
    for (const e of of('upload')) {
      const p = e['params'] as Obj;
      expect(p['img_sha1'], '"For upload it holds img_sha1 (string, hash)"').toMatch(/^[0-9a-z]{31}$/);
      expect(p['img_timestamp'], '"… and img_timestamp (ISO 8601 UTC timestamp)"').toMatch(TIMESTAMP);
    }
    expect(of('create').every((e) => e['action'] === 'create') && of('upload').some((e) => e['action'] === 'upload'), '"type … Observed create, upload"; "action … Observed create, upload"').toBe(true);
    expect(events.some((e) => e['comment'] === ''), '"comment … May be empty"').toBe(true);
  });

  it('"Log types spamblacklist, titleblacklist and suppress are excluded from this list"', () => {
    for (const type of ['spamblacklist', 'titleblacklist', 'suppress']) expect(events.filter((e) => e['type'] === type), `no ${type} entry`).toEqual([]);
    expect(sqlOf(pages[0]!, 'logging'), 'the query leaves them out').toContain("WHERE (log_type NOT IN ('spamblacklist','titleblacklist','suppress'))");
  });
});

describe('Block (element of query.blocks)', () => {
  let blocks: Obj[];
  let now: string;
  let first: Got;
  beforeAll(async () => {
    first = await query('blocks', { curtimestamp: '1' });
    now = first.body['curtimestamp'] as string;
    blocks = (await walk('blocks')).flatMap((g) => rows(g, 'blocks'));
  }, 60_000);

  it('has every field, of its type, in every entry of the whole list', () => {
    expect(blocks.length, 'more than one page of blocks').toBeGreaterThan(10);
    for (const b of blocks) {
      const at = `block ${String(b['id'])}`;
      expect(Number.isInteger(b['id']), `${at}: "id integer Req"`).toBe(true);
      expect(typeof b['user'], `${at}: "user string Req"`).toBe('string');
      expect(typeof b['by'], `${at}: "by string Req"`).toBe('string');
      expect(b['timestamp'], `${at}: "timestamp … ISO 8601 UTC"`).toMatch(TIMESTAMP);
      expect(b['expiry'] === 'infinity' || TIMESTAMP.test(String(b['expiry'])), `${at}: "expiry … infinity means no expiry"`).toBe(true);
      expect(b['duration-l10n'], `${at}: "duration-l10n string Req: Localized text of the duration"`).toMatch(/^(бессрочно|\d+ [а-я]+( и \d+ [а-я]+)*)$/);
      expect(typeof b['reason'], `${at}: "reason string Req"`).toBe('string');
      for (const flag of ['nocreate', 'autoblock', 'noemail']) if (flag in b) expect(b[flag], `${at}: "${flag}: empty string when present"`).toBe('');
    }
    for (const flag of ['nocreate', 'autoblock', 'noemail']) expect(blocks.some((b) => flag in b), `"${flag} Opt": present in some entries`).toBe(true);
    expect(blocks.some((b) => !('nocreate' in b)), '"nocreate Opt": absent from others').toBe(true);
  });

  it('"The list holds only blocks whose expiry lies in the future and that are not hidden"', () => {
    for (const b of blocks) if (b['expiry'] !== 'infinity') expect(String(b['expiry']) > now, `block ${String(b['id'])} expires after now (${now})`).toBe(true);
    expect(sqlOf(first, 'block'), 'the query asks for unexpired blocks').toContain(`(bl_expiry > '${mw(now)}')`);
    expect(blocks.filter((b) => 'hidden' in b), 'none hidden').toEqual([]);
    expect(sqlOf(first, 'block'), 'the query leaves hidden blocks out').toContain('WHERE bl_deleted = 0');
  });
});

describe('Protected title (element of query.protectedtitles)', () => {
  it('ns, title, timestamp, level', async () => {
    const titles = (await walk('protectedtitles')).flatMap((g) => rows(g, 'protectedtitles'));
    for (const t of titles) {
      expect(Number.isInteger(t['ns']), '"ns integer"').toBe(true);
      expect(typeof t['title'], '"title string"').toBe('string');
      if (t['ns'] !== 0) expect(t['title'], '"Full title with the namespace prefix"').toMatch(/^[^:]+:./);
      expect(t['timestamp'], '"timestamp … ISO 8601 UTC"').toMatch(TIMESTAMP);
      expect(['sysop', 'autoconfirmed'], '"level … Observed sysop, autoconfirmed"').toContain(t['level']);
    }
    expect(new Set(titles.map((t) => t['level'])), 'both levels observed').toEqual(new Set(['sysop', 'autoconfirmed']));
  });
});

describe('External links result (query.pages)', () => {
  it('pages keyed by the decimal page id, each with pageid, ns, title and extlinks of single-key "*" objects', async () => {
    const pages = ((await get(OPERATIONS['extlinks']!)).body['query'] as Obj)['pages'] as Record<string, Obj>;
    expect(Object.keys(pages).length, 'both pages').toBe(2);
    for (const [key, p] of Object.entries(pages)) {
      expect(key, '"an object keyed by the decimal page identifier"').toBe(String(p['pageid']));
      expect(Number.isInteger(p['pageid']) && Number.isInteger(p['ns']) && typeof p['title'] === 'string', '"pageid (integer), ns (integer), title (string)"').toBe(true);
      const links = p['extlinks'] as Obj[];
      expect(links.length, 'links').toBeGreaterThan(0);
      for (const l of links) {
        expect(Object.keys(l), '"objects with a single key *"').toEqual(['*']);
        expect(l['*'], '"Its value is a URL string"').toMatch(/^[a-z]+:/);
      }
    }
  });
});

describe('Parse result (parse)', () => {
  let parse: Obj;
  beforeAll(async () => {
    parse = (await get(OPERATIONS['parse']!)).body['parse'] as Obj;
  });

  it('is attributed to the page named API, which does not exist', () => {
    expect(parse['title'], '"Observed as the page named API"').toBe('API');
    expect(parse['pageid'], '"pageid … 0 when the page does not exist"').toBe(0);
  });

  it('text: a wrapper div for left-to-right content, with language and direction, and a limit report comment', () => {
    const html = (parse['text'] as Obj)['*'] as string;
    expect(html, '"a wrapper div with class names for left-to-right content, the language and direction attributes"').toMatch(/^<div class="mw-content-ltr mw-parser-output" lang="ru" dir="ltr">/);
    expect(html, '"an HTML comment with a parser limit report"').toContain('<!-- \nNewPP limit report\n');
  });

  it('parsedsummary: a missing page is a link of class new, to an edit URL with redlink=1, titled "page does not exist" in Russian', () => {
    const html = (parse['parsedsummary'] as Obj)['*'] as string;
    expect(html).toContain('<a href="/wiki/index.php?title=%D0%9D%D0%B5%D1%81%D1%83%D1%89%D0%B5%D1%81%D1%82%D0%B2%D1%83%D1%8E%D1%89%D0%B0%D1%8F_%D1%81%D1%82%D1%80%D0%B0%D0%BD%D0%B8%D1%86%D0%B0&amp;action=edit&amp;redlink=1" class="new" title="Несуществующая страница (страница не существует)">Несуществующая страница</a>');
    expect(html, 'an existing page is a plain link').toContain('title="Москва">Москва</a>');
  });

  it('"Empty arrays when the content has none"; displaytitle wraps the title in mw-page-title-main', () => {
    for (const k of ['langlinks', 'categories', 'links', 'templates', 'images', 'externallinks', 'sections', 'parsewarnings', 'iwlinks', 'properties']) expect(parse[k], k).toEqual([]);
    expect(parse['displaytitle'], '"HTML span with class mw-page-title-main wrapping the title"').toBe('<span class="mw-page-title-main">API</span>');
  });
});

describe('Spam blacklist result (spamblacklist)', () => {
  it('"Object with the field result (string). Observed value: ok"', async () => {
    expect((await get(OPERATIONS['spamblacklist']!)).body['spamblacklist']).toEqual({ result: 'ok' });
  });
});

describe('Debug info (debuginfo)', () => {
  it('has each field of the spec, of its type, the first named brand-neutrally', async () => {
    const g = await query('logevents', { uselang: 'ru' });
    const d = debug(g);
    expect(Object.keys(d)[0], '"the brand part of the first name replaced by a neutral word"').toBe('wikiVersion');
    expect(d['wikiVersion'], '"wikiVersion … Observed 1.44.0"').toBe('1.44.0');
    expect(d['phpEngine'], '"phpEngine: Runtime engine name"').toBe('PHP');
    expect(d['phpVersion'], '"phpVersion: Runtime version"').toMatch(/^\d+\.\d+\.\d+$/);
    expect(typeof d['time'], '"time number … in seconds"').toBe('number');
    expect((d['log'] as Obj[]).length, 'log: a message').toBeGreaterThan(0);
    for (const l of d['log'] as Obj[]) expect([typeof l['msg'], typeof l['type'], typeof l['caller']], '"log: array of {msg, type, caller} … all strings"').toEqual(['string', 'string', 'string']);
    const lines = d['debugLog'] as unknown[];
    expect(lines.every((l) => typeof l === 'string'), '"debugLog: array of string"').toBe(true);
    expect(lines[0], '"The first entry holds the request line and the headers"').toMatch(/^\n\nStart request GET \/wiki\/api\.php\?action=query&list=logevents&uselang=ru&format=json\nIP: 127\.0\.0\.1\nHTTP HEADERS:\nHOST: 127\.0\.0\.1:\d+\n[\s\S]*\(end headers\)$/);
    expect((d['queries'] as Obj[]).length, 'queries: the list query').toBeGreaterThan(0);
    for (const q of d['queries'] as Obj[]) expect([typeof q['sql'], typeof q['function'], typeof q['time']], '"queries: array of {sql, function, time}"').toEqual(['string', 'string', 'number']);
    const r = d['request'] as { method: string; url: string; headers: Record<string, unknown>; params: Record<string, unknown> };
    expect([r.method, r.url], '"request: method, url"').toEqual(['GET', '/wiki/api.php?action=query&list=logevents&uselang=ru&format=json']);
    for (const [k, v] of Object.entries(r.headers)) expect([k, typeof v], '"headers (object of upper-case header names to strings)"').toEqual([k.toUpperCase(), 'string']);
    expect(r.params, '"params (object of parameter names to strings)"').toEqual({ action: 'query', list: 'logevents', uselang: 'ru', format: 'json' });
    for (const k of ['memory', 'memoryPeak']) expect(d[k], `"${k}: Localized memory figures"`).toMatch(/^\d+(,\d+)? (байт|КБ|МБ)$/);
    expect((d['includes'] as Obj[]).length, 'includes: the files').toBeGreaterThan(0);
    for (const i of d['includes'] as Obj[]) {
      expect(typeof i['name'], '"includes: {name, size}"').toBe('string');
      expect(i['size'], '"Loaded source files with localized sizes"').toMatch(/^\d+ (байт|КБ)$/);
    }
  });
});

describe('States and transitions', () => {
  it('"the expiry of a block (infinity or a timestamp) and the protection level of a title"', async () => {
    const expiries = rows(await query('blocks'), 'blocks').map((b) => String(b['expiry']));
    expect(expiries.includes('infinity') && expiries.some((e) => TIMESTAMP.test(e)), 'both kinds of expiry').toBe(true);
  });
});

describe('Endpoints', () => {
  it('1. Spam check: { spamblacklist: { result } } for URLs separated by |', async () => {
    const g = await get(OPERATIONS['spamblacklist']!);
    expect(Object.keys(g.body), 'the response').toEqual(['spamblacklist', 'debuginfo']);
    expect(g.body['spamblacklist'], '"Observed result for two URLs: ok"').toEqual({ result: 'ok' });
  });

  /** A list endpoint's statements: keys, continuation form, order and page size over its walk. */
  async function checkWalk(list: string, cont: string, id: string, before: (a: Obj, b: Obj) => boolean): Promise<void> {
    const pages = await walk(list);
    expect(pages.length, 'more than one page').toBeGreaterThan(1);
    pages.forEach((g, i) => {
      const more = i < pages.length - 1;
      expect(Object.keys(g.body), `page ${i}: "batchcomplete, optional continue, query.${list}"`).toEqual(more ? ['batchcomplete', 'continue', 'query', 'debuginfo'] : ['batchcomplete', 'query', 'debuginfo']);
      expect(rows(g, list).length, `page ${i}: "Page size without a limit parameter: 10"`).toBe(more ? 10 : rows(g, list).length);
      if (!more) return;
      const c = g.body['continue'] as Record<string, string>;
      const next = rows(pages[i + 1]!, list)[0]!;
      expect(Object.keys(c), `page ${i}: continue { ${cont}, continue }`).toEqual([cont, 'continue']);
      expect(c[cont], `page ${i}: "${cont} has the form <YYYYMMDDhhmmss>|<${id}>", the next page's first entry`).toBe(`${mw(String(next['timestamp']))}|${String(next[id])}`);
      expect(c['continue'], '"The companion continue value is -||"').toBe('-||');
    });
    const all = pages.flatMap((g) => rows(g, list));
    for (let i = 1; i < all.length; i++) expect(before(all[i - 1]!, all[i]!), `"Order: newest first": entry ${i}`).toBe(true);
    expect(sqlOf(pages[0]!, list === 'logevents' ? 'logging' : 'block'), '10 entries and "One extra row is read"').toMatch(/ LIMIT 11 {2}$/);
  }
  const newest = (id: string) => (a: Obj, b: Obj) => String(a['timestamp']) > String(b['timestamp']) || (a['timestamp'] === b['timestamp'] && Number(a[id]) > Number(b[id]));

  it('2. Log events: continuation, order newest first (timestamp, then logid), 10 a page', async () => {
    await checkWalk('logevents', 'lecontinue', 'logid', newest('logid'));
  });

  it('3. Blocks: continuation, order newest first (timestamp, then id), 10 a page', async () => {
    await checkWalk('blocks', 'bkcontinue', 'id', newest('id'));
  });

  it('4. Protected titles: order by timestamp, then namespace, then title, all descending; 10 a page', async () => {
    const g = await query('protectedtitles');
    expect(Object.keys(g.body).filter((k) => k !== 'continue'), '"batchcomplete, query.protectedtitles"').toEqual(['batchcomplete', 'query', 'debuginfo']);
    const all = (await walk('protectedtitles')).flatMap((p) => rows(p, 'protectedtitles'));
    expect(rows(g, 'protectedtitles').length, '"Page size without a limit parameter: 10"').toBe(10);
    // The title as the database orders it: without its namespace, spaces as underscores.
    const key = (t: Obj) => (t['ns'] === 0 ? String(t['title']) : String(t['title']).slice(String(t['title']).indexOf(':') + 1)).replace(/ /g, '_');
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      const before = String(a['timestamp']) > String(b['timestamp']) || (a['timestamp'] === b['timestamp'] && (Number(a['ns']) > Number(b['ns']) || (a['ns'] === b['ns'] && key(a) > key(b))));
      expect(before, `"by timestamp descending, then namespace descending, then title descending": entry ${i}`).toBe(true);
    }
  });

  it('5. External links: titles separated by |, query.pages; read in identifier order, 10 without a limit', async () => {
    const one = await get({ action: 'query', prop: 'extlinks', titles: 'Список ссылок' });
    const pages = (one.body['query'] as Obj)['pages'] as Record<string, Obj>;
    expect((Object.values(pages)[0]!['extlinks'] as Obj[]).length, '"10 entries without a limit parameter"').toBe(10);
    expect(sqlOf(one, 'externallinks'), '"read in identifier order", one extra row').toMatch(/ORDER BY el_id LIMIT 11 {2}$/);
    const several = await get(OPERATIONS['extlinks']!);
    expect(Object.values((several.body['query'] as Obj)['pages'] as Obj).map((p) => (p as Obj)['title']).sort(), '"several are separated by |"').toEqual(['Казань', 'Москва']);
    expect(several.body['batchcomplete'], 'batchcomplete').toBe('');
  });

  it('6. Render a summary: no page specified, the result attributed to API with pageid 0', async () => {
    const g = await get({ action: 'parse', summary: '[[Foo]]' });
    expect(Object.keys(g.body), '"Response: parse"').toEqual(['parse', 'debuginfo']);
    expect([(g.body['parse'] as Obj)['title'], (g.body['parse'] as Obj)['pageid']], '"attributed to a page titled API with pageid 0"').toEqual(['API', 0]);
  });

  it('"a uselang parameter influences output and caching"', async () => {
    expect(rows(await query('blocks', { uselang: 'en' }), 'blocks')[0]!['duration-l10n'], 'output: English with uselang=en').toBe('infinite');
    const log = (g: Got) => debugLog(g).filter((l) => l.includes('setCacheMode'));
    expect(log(await query('logevents', { uselang: 'ru' })), 'caching: a language given is not the user\'s, so public stays public').toEqual(['MediaWiki\\Api\\ApiMain::setCacheMode: setting cache mode public']);
  });
});

describe('Authentication', () => {
  it('"1. All operations above are answered for anonymous callers. No credential is required."', async () => {
    for (const [name, params] of Object.entries(OPERATIONS)) expect((await get(params)).body['error'], name).toBeUndefined();
  });

  it('"2. The server always creates a session … deletion instructions for <prefix>_session, <prefix>UserID, <prefix>Token and forceHTTPS"', async () => {
    const lines = debugLog(await query('protectedtitles'));
    expect(lines.some((l) => /^\[session\] SessionBackend "[0-9a-v]{32}" is unsaved, marking dirty in constructor$/.test(l)), 'a session is made').toBe(true);
    expect(lines.filter((l) => l.startsWith('[cookie]')).map((l) => /"([^"]+)"/.exec(l)![1]), 'each cookie deleted, in order').toEqual(['wikidb_session', 'wikidbUserID', 'wikidbToken', 'forceHTTPS']);
    const sent = await get(OPERATIONS['protectedtitles']!, { Cookie: 'wikidb_session=bad; wikidbUserID=5; wikidbToken=x; forceHTTPS=1' });
    expect(sent.headers.getSetCookie(), 'cookies the caller sent are deleted').toEqual(['wikidb_session', 'wikidbUserID', 'wikidbToken', 'forceHTTPS'].map((n) => `${n}=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/; HttpOnly`));
  });

  it('"3. … <prefix>_session=<SESSION_ID> … When the <prefix>UserID cookie is missing, the session is treated as anonymous"', async () => {
    const id = 'abcdefghijklmnopqrstuvwxyz012345';
    const g = await get(OPERATIONS['blocks']!, { Cookie: `wikidb_session=${id}` });
    expect(debugLog(g), 'the stored session is looked up').toContain(`[session] Session "${id}" requested without UserID cookie`);
    expect(withoutDebug(g.body), 'anonymous: the same answer').toEqual(withoutDebug((await get(OPERATIONS['blocks']!)).body));
  });

  it('"4. Response caching follows the mode anon-public-user-private … downgraded … when the language is taken from the user. The blocks list uses mode private."', async () => {
    const modes = (g: Got) => debugLog(g).filter((l) => l.includes('setCacheMode')).map((l) => l.replace('MediaWiki\\Api\\ApiMain::setCacheMode: ', ''));
    const downgraded = ["downgrading cache mode 'public' to 'anon-public-user-private' due to uselang=user", 'setting cache mode anon-public-user-private'];
    for (const name of ['logevents', 'protectedtitles', 'extlinks']) {
      const g = await get(OPERATIONS[name]!);
      expect(modes(g), `${name}: public, downgraded`).toEqual(downgraded);
      expect([g.headers.get('vary'), g.headers.get('cache-control')], `${name}: varies on Cookie, not stored for a caller without a session`).toEqual(['Accept-Encoding, Treat-as-Untrusted, Cookie', 'private, must-revalidate, max-age=0']);
    }
    expect(modes(await get(OPERATIONS['parse']!)), 'parse: anon-public-user-private').toEqual(['setting cache mode anon-public-user-private']);
    const blocks = await get(OPERATIONS['blocks']!);
    expect(modes(blocks), 'blocks: private').toEqual(['setting cache mode private']);
    expect([blocks.headers.get('vary'), blocks.headers.get('cache-control')], 'blocks: private, no Vary').toEqual([null, 'private, must-revalidate, max-age=0']);
    // The spec names no mode for the spam check; MediaWiki's ApiSpamBlacklist sets none, so it is private.
    expect(modes(await get(OPERATIONS['spamblacklist']!)), 'spamblacklist: private, as MediaWiki').toEqual([]);
  });
});

describe('Limits', () => {
  it('"Default result size: 10 entries per page: logevents, blocks, protectedtitles, extlinks"', async () => {
    for (const list of ['logevents', 'blocks', 'protectedtitles']) expect(rows(await query(list), list).length, list).toBe(10);
    const links = await get({ action: 'query', prop: 'extlinks', titles: 'Список ссылок' });
    expect((Object.values((links.body['query'] as Obj)['pages'] as Obj)[0] as Obj)['extlinks'], 'extlinks').toHaveLength(10);
  });

  it('the parser limits and the parser cache expiry, in the limit report', async () => {
    const report = (((await get(OPERATIONS['parse']!)).body['parse'] as Obj)['text'] as Obj)['*'] as string;
    const limits: [string, string][] = [
      ['Preprocessor visited node count', '1000000'],
      ['Post‐expand include size', '2097152 bytes'],
      ['Template argument size', '2097152 bytes'],
      ['Highest expansion depth', '100'],
      ['Expensive parser function count', '100'],
      ['Unstrip recursion depth', '20'],
      ['Unstrip post‐expand size', '5000000 bytes'],
    ];
    for (const [name, value] of limits) expect(report, `"Parser: ${name}: ${value}"`).toMatch(new RegExp(`\\n${name}: \\d+/${value}\\n`));
    expect(report, '"Parser cache expiry: 86400 (seconds)"').toContain('\nCache expiry: 86400\n');
  });
});

describe('Versioning', () => {
  it('"debuginfo.wikiVersion reports the engine version, observed as 1.44.0. The runtime engine and version are in phpEngine and phpVersion."', async () => {
    const d = debug(await get(OPERATIONS['spamblacklist']!));
    expect([d['wikiVersion'], d['phpEngine'], typeof d['phpVersion']]).toEqual(['1.44.0', 'PHP', 'string']);
  });
});

describe('the bundled 1.43 recording, one option away', () => {
  it('npm run start:recorded replays it, as recorded from MediaWiki 1.43', async () => {
    const recorded = await startCli(scriptArgs('start:recorded'), ROOT);
    try {
      const r = await fetch(`${recorded.url}?action=query&list=blocks&format=json`);
      const body = (await r.json()) as { query: { blocks: Obj[] }; debuginfo: Obj };
      expect(r.headers.get('x-wikitape-source')).toBe('cassette');
      expect(body.debuginfo['mwVersion']).toBe('1.43.9');
      expect(body.query.blocks[0]).not.toHaveProperty('duration-l10n');
    } finally {
      expect(await recorded.stop()).toBe(0);
    }
  }, 60_000);

  it('npm start says what it serves, and which cassettes it leaves unread', () => {
    expect(server.stdout()).toContain('serving the wiki the spec describes: MediaWiki 1.44.0 (ru), fixtures/spec-wiki.json, as of 2026-11-24T21:49:19Z\n');
    expect(server.stdout()).toContain('not read: 1 cassette(s) in ./cassettes (bundled-wiki); --cassettes ./cassettes replays them\n');
  });
});
