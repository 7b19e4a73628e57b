import type { WikiFacts } from './bot-facts.js';
import { at, entries, mwbot, mwclient, plain, type Item, type Question } from './bot-styles.js';

/**
 * The bots' differential's questions about forms: titles as bots write them, summaries with
 * tricky wikitext, spam checks of URLs no recording showed, and the wire sample (each base
 * question in every format, GET and POST). Pure functions of the live wiki's data.
 */

const ucfirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lcfirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
/** Lowercase hex in percent-escapes (`%d0%bc`): the same bytes, spelled as some clients do. */
const lowerHex = (s: string) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/** A page title and its namespace's local name, canonical name and aliases. */
function namespaceForms(f: WikiFacts): string[] {
  const out: string[] = [];
  for (const ns of f.namespaces.filter((n) => n.id > 0)) {
    const page = f.pages.find((p) => p.ns === ns.id);
    if (!page) continue;
    const rest = page.title.slice(page.title.indexOf(':') + 1);
    const names = [ns.canonical, ...f.aliases.filter((a) => a.id === ns.id).map((a) => a.alias)].filter((n): n is string => !!n && n !== ns.name);
    for (const n of names) out.push(`${n}:${rest}`, `${lcfirst(n)}:${lcfirst(rest)}`);
  }
  return out;
}

/** Title forms (issue 21, item 1): NFD, underscores, first letter, aliases, talk pages, invalid, interwiki, long, right-to-left. */
function titleForms(f: WikiFacts): string[] {
  const [a, b] = [at(f.linked, 0), at(f.linked, 1)];
  const decomposable = f.pages.map((p) => p.title).find((t) => t.normalize('NFD') !== t) ?? 'Ёлка';
  const latin = f.pages.map((p) => p.title).find((t) => /^[A-Z][a-z]+$/.test(t)) ?? 'Alpha';
  const iw = f.interwiki.filter((p) => !['wikipedia', 'mw'].includes(p)).slice(0, 2);
  return [
    decomposable.normalize('NFD'), 'Ёлка'.normalize('NFD'), `${decomposable.normalize('NFD')}|${decomposable}`,
    b.replace(/ /g, '_'), `_${a}_`, `  ${a}  `, `${a}\u00a0`, lcfirst(a), lcfirst(latin), latin.toUpperCase(),
    ...namespaceForms(f),
    `Обсуждение:${a}`, `Talk:${latin}`, `talk:${lcfirst(latin)}`, `Обсуждение участника:${at(f.logUsers, 0)}`, `User talk:${at(f.logUsers, 0)}`,
    'a[b', '#', `${a}#Раздел`, '<x>', '{{x}}', '../x', 'x/./y', '~~~', ':', 'Talk:', `:${a}`, `${a}%41`, 'A&amp;B', '&#1052;осква', `${a}|${a}|${lcfirst(a)}`,
    'Special:Random', 'Служебная:Случайная страница', 'Media:Образец 1.png',
    `${'Я'.repeat(127)}x`, 'Я'.repeat(128), 'x'.repeat(255), 'x'.repeat(256),
    'wikipedia:Foo', 'mw:Help:Foo', 'Wikipedia:Foo', ':wikipedia:Foo', `wikipedia:${a}|${a}`, ...iw.map((p) => `${p}:${ucfirst(a)}`),
    'שלום', 'مرحبا', `\u200f${a}\u200e`, `${latin}\u200e`,
  ];
}

/** Title forms as `prop=extlinks` questions (formatversion 1 and 2 in turn), the moved page's old title with and without `redirects`, and spellings of the query string itself. */
export function titles(f: WikiFacts): Item[] {
  const [a, b] = [at(f.linked, 0), at(f.linked, 1)];
  const move = at(f.moves, 0);
  const items: Item[] = titleForms(f).map((t, i) => plain('titles', 'anon', { prop: 'extlinks', titles: t, ...(i % 2 === 1 ? { formatversion: '2' } : {}) }));
  const redirects: Record<string, string>[] = [{}, { redirects: '1' }, { redirects: '1', formatversion: '2' }, { redirects: '1', indexpageids: '1' }];
  for (const extra of redirects) {
    items.push(plain('titles', 'anon', { prop: 'extlinks', titles: move.from, ...extra }));
    items.push(plain('titles', 'anon', { prop: 'extlinks', titles: `${lcfirst(move.from)}|${move.to}|${a}`, ellimit: '7', ...extra }));
  }
  items.push(plain('titles', 'anon', { prop: 'extlinks', pageids: String(f.pages.find((p) => p.title === move.from)?.pageid ?? 0), redirects: '1' }));
  items.push(plain('titles', 'anon', { prop: 'extlinks', titles: a, pageids: '1' }));
  items.push(plain('titles', 'anon', { prop: 'extlinks', titles: `\u001f${a}\u001f${b}` }));
  items.push(plain('titles', 'bot', { prop: 'extlinks', titles: `${lcfirst(move.from)}|wikipedia:Foo|${decomposed(a)}`, redirects: '1', indexpageids: '1' }));
  const q = (raw: string): Question => ({ kind: 'titles', as: 'anon', how: 'GET', params: [], raw: `action=query&prop=extlinks&format=json&${raw}` });
  items.push(
    q(`titles=${lowerHex(b)}`),
    q(`titles=${b.split(' ').map(encodeURIComponent).join('+')}`),
    q(`titles=${encodeURIComponent(encodeURIComponent(a))}`),
    q(`titles=${encodeURIComponent(a)}%7C${encodeURIComponent(b)}`),
    q(`titles=${encodeURIComponent(a)}%7c${encodeURIComponent(b)}&redirects`),
  );
  return items;
}

const decomposed = (s: string) => s.normalize('NFD');

/** Summaries with tricky wikitext (issue 21): nested links, autocomments, external links, template-like text, entities. */
export function summaries(f: WikiFacts): Item[] {
  const [a, b] = [at(f.linked, 0), at(f.linked, 1)];
  const move = at(f.moves, 0);
  const texts = [
    `[[${a}|[[${b}]]]]`, `[[${a}|ссылка [[${b}]] внутри]]`, `/* ${b} */ правка`, `/* один */ текст /* два */`, `/* [[${a}]] */ x`,
    `[http://example.org пример] и http://example.com/x [https://example.net]`, '{{Шаблон:Инфобокс}} {{PAGENAME}} {{{1}}}',
    '&amp; &mdash; &#x41; &#1052; &nbsp; &lt;b&gt; &bogus;', '<b>жирный</b> <script>alert(1)</script> <nowiki>[[x]]</nowiki>',
    '[[:Категория:Города]] [[Категория:Города]] [[Файл:Образец 1.png]]', '[[wikipedia:Foo]] [[mw:Help:Foo|справка]]',
    '[[#Раздел]] [[/Подстраница]] [[../Выше]]', '[[Служебная:Случайная страница]] [[Special:Random]]', `[[${a}|]] [[${a}]]ы [[Alpha]]s`,
    "~~~~ ''курсив'' '''жирный'''", `[[${move.from}]] и [[${move.to}]]`, '[[Несуществующая страница]] [[a[b]] [[]]', `${'x'.repeat(600)} [[${a}]]`,
    `[[${a}#Раздел|якорь]] [[Обсуждение:${a}]]`, '/* */ пусто /*x*/', `[[${lcfirst(a)}]] [[ ${b} ]] [[${b.replace(/ /g, '_')}]]`,
  ];
  const items: Item[] = texts.map((summary, i) =>
    i % 2 === 0
      ? plain('summaries', 'anon', { action: 'parse', summary, prop: '', ...(i % 4 === 0 ? { formatversion: '2' } : {}) })
      : mwclient('summaries', i % 3 === 0 ? 'bot' : 'anon', { action: 'parse', summary, prop: '' }, 'POST'),
  );
  items.push(
    plain('summaries', 'anon', { action: 'parse', summary: `[[${a}]] /* x */`, title: b, prop: '' }),
    plain('summaries', 'anon', { action: 'parse', summary: '[[/Подстраница]] [[../Выше]]', title: `${a}/Раздел`, prop: '' }),
    plain('summaries', 'anon', { action: 'parse', summary: `[[${a}]]` }),
    plain('summaries', 'anon', { action: 'parse', summary: '[[Несуществующая]] /* Раздел */', prop: '', uselang: 'en' }),
  );
  return items;
}

/** A host each blacklist line matches: the line's text with its escapes taken out (`casino-spam\.example` → `casino-spam.example`). */
export function blacklistHosts(lines: readonly string[]): string[] {
  return lines.map((l) => l.replace(/\\b/g, '').replace(/\\(.)/g, '$1')).filter((h) => /^[a-z0-9.-]+$/i.test(h)).map((h) => (h.includes('.') ? h : `${h}.example`));
}

/** Spam checks of URLs no recorded answer showed: hosts of the wiki's blacklist, their subdomains, near misses. */
export function spamChecks(f: WikiFacts): Item[] {
  const urls = f.blacklistHosts.flatMap((h) => [`http://${h}/`, `https://www.${h}/page?q=1`, `//${h}/x`, `http://${h.replace(/^[^.]+/, (m) => `${m}x`)}/`]);
  const items: Item[] = urls.map((url, i) => (i % 2 === 0 ? plain('spam', 'anon', { action: 'spamblacklist', url }) : mwbot('spam', 'anon', { action: 'spamblacklist', url })));
  items.push(
    plain('spam', 'anon', { action: 'spamblacklist', url: urls.join('|'), formatversion: '2' }),
    plain('spam', 'anon', { action: 'spamblacklist', url: `${at(f.urls, 0)}|${at(urls, 1)}` }),
    plain('spam', 'anon', { action: 'spamblacklist', url: 'не ссылка' }),
    mwbot('spam', 'bot', { action: 'spamblacklist', url: `${at(urls, 0)}|${at(urls, 5)}` }),
  );
  return items;
}

/** The formats the wire sample asks each base question in. */
const WIRE_FORMATS = [
  { name: 'json', params: { format: 'json' } },
  { name: 'jsonfm', params: { format: 'jsonfm' } },
  { name: 'html', params: {} },
  { name: 'json fv2', params: { format: 'json', formatversion: '2' } },
  { name: 'jsonp', params: { format: 'json', callback: 'botCallback' } },
  { name: 'none', params: { format: 'none' } },
  { name: 'utf8', params: { format: 'json', utf8: '1' } },
  { name: 'ascii', params: { format: 'json', formatversion: '2', ascii: '1' } },
] as const;

/** The wire sample: a few questions of every module, each in every format, GET and POST. */
export function wireSample(f: WikiFacts): Question[] {
  const a = at(f.linked, 0);
  const bases: Record<string, string>[] = [
    { action: 'query', list: 'logevents', lelimit: '3', leprop: 'ids|title|type|timestamp' },
    { action: 'query', list: 'blocks', bklimit: '2' },
    { action: 'query', prop: 'extlinks', titles: a, ellimit: '3' },
    { action: 'query', meta: 'siteinfo', siprop: 'general' },
    { action: 'query', meta: 'userinfo', uiprop: 'blockinfo|hasmsg' },
    { action: 'parse', summary: `[[${a}]] и [[Несуществующая]]`, prop: '' },
    { action: 'spamblacklist', url: `http://${at(f.blacklistHosts, 0)}/x` },
    { action: 'query', list: 'blocks', bkdir: 'sideways' },
    { action: 'query', list: 'logevents', lelimit: '600', foo: '1' },
    { action: 'query', list: 'protectedtitles', ptlimit: '2', origin: '*' },
    { action: 'query', list: 'logevents', lelimit: '2', maxage: '60', smaxage: '30' },
  ];
  return bases.flatMap((base) =>
    WIRE_FORMATS.flatMap((fmt) => (['GET', 'POST'] as const).map((how): Question => ({ kind: 'wire', as: 'anon', how, params: entries({ ...base, ...fmt.params }) }))),
  );
}
