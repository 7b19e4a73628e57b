/**
 * Questions about titles, as bots ask them: each form MediaWiki's page set reads (NFD, underscores,
 * case, namespace names, aliases and gender forms, talk pages, leading colons, fragments, invalid
 * titles, interwiki prefixes, special and media pages, 255/256 bytes, right-to-left text),
 * alone and together, with and without `redirects`, in formatversion 1 and 2. The live wikis
 * hold the data of /work/shared/livewiki/populate.mjs: `Zeta` was moved to `Зета`, so `Zeta`
 * is a redirect.
 */

const A255 = `${'А'.repeat(127)}x`;
const A256 = 'А'.repeat(128);

/** One title per question. */
const TITLE_FORMS: readonly string[] = [
  'Alpha', 'alpha', 'ALPHA', 'Zeta', 'zeta', 'Зета', 'зета', 'Ёлка', 'Е\u0308лка', 'е\u0308лка', 'Москва', 'москва',
  'Список_ссылок', '  список   ссылок  ', 'foo_bar', 'Foo%20bar', 'Foo&amp;bar', 'Foo&nbsp;bar', 'AT&T',
  'talk:Foo', 'Обсуждение:Foo', 'ОБСУЖДЕНИЕ:foo', 'Image:Образец_1.png', 'Изображение:Образец 1.png', 'File:Образец_1.png', 'file:образец_1.png',
  'Project:О_проекте', 'Тестовая вики:О проекте', 'Project talk:X', 'Участница:Admin', 'user:Admin', 'User:Admin', 'User talk:Admin',
  'Обсуждение участницы:Admin', 'Help:Справка', 'Category:Города', 'Template:Инфобокс', 'MediaWiki:Mainpage', 'MediaWiki:Nonexistent-msg',
  ':Alpha', ': alpha', '::Alpha', 'Alpha#Раздел', 'Zeta#x', '#', '#bar', 'a[b', 'a<b', 'x{y}', '~~~', '../x', './x', 'x/../y', 'Category:', ' ', '',
  'Special:Random', 'special:random', 'Special:Version', 'Служебная:Version', 'Special:Nonexistent', 'Special:RecentChanges/x y',
  'Special:Contributions/Admin', 'Special:MyPage', 'Special:Contribute', 'Special:Renameuser', 'Media:Образец_1.png', 'Медиа:Foo.png',
  'wikipedia:Foo', 'mw:Help:Foo', 'Wikipedia:foo', 'wikipedia:Foo bar#x', 'Commons:File:X.png', 'wikipedia:', 'wikipedia::Foo', 'wiki:Foo', 'c2:Foo',
  'Talk:Talk:Foo', 'Talk:wikipedia:Foo', 'Talk:Foo:bar', 'User:127.0.0.1', 'User:1::1', 'User:192.0.2.15',
  A255, A256, 'עברית_טקסט', 'مرحبا', '\u200Fשלום', 'Foo\u202Ebar', 'Foo\tbar', 'Foo\u0001bar', 'Foo\u00A0bar', 'Foo\uFEFFbar', 'Foo\u3000bar',
  'ǆemal', 'Ǆemal', 'ßtraße', 'აბ', 'ﬁx', 'ıx', 'ꭰx', 'ėx', 'ÿx',
];

/** Several titles at once: order, duplicates, namespaces, redirects and their targets. */
const TITLE_LISTS: readonly string[] = [
  'Справка:Справка|Beta|Шаблон:Инфобокс|Alpha|Категория:Города',
  'Beta|Alpha|Special:Random|a[b|Nope|Help:Nope|Nope2',
  'Zeta|Москва|Alpha', 'Zeta|Зета', 'zeta|Zeta|ZETA', 'alpha|Alpha|alpha', 'Alpha|alpha_|Alpha#x',
  'Ёлка|Е\u0308лка|е\u0308лка|zeta', 'Nope|Help:Nope|Nope2|Talk:Nope', 'wikipedia:Foo|Alpha|Special:Version|Медиа:X.png|::x',
  'Special:MyLanguage/Alpha|Zeta', `${A256}|${A255}|a[b|Category:`,
];

/** Each list is asked in both formats, with and without `redirects`. */
const VARIANTS: readonly Record<string, string>[] = [{}, { formatversion: '2' }, { redirects: '1', indexpageids: '1' }, { redirects: '1', formatversion: '2', indexpageids: '1' }];

const encode = (params: Record<string, string>) => new URLSearchParams({ action: 'query', format: 'json', ...params }).toString();

/** The questions, every one asked of the live wiki and of wikitape. */
export function pagesetQuestions(): string[] {
  const qs: string[] = [];
  for (const t of TITLE_FORMS) {
    qs.push(encode({ titles: t, formatversion: '2' }));
    qs.push(encode({ titles: t, redirects: '1', indexpageids: '1' }));
  }
  for (const list of TITLE_LISTS) {
    for (const extra of VARIANTS) qs.push(encode({ titles: list, ...extra }));
  }
  qs.push(
    encode({ titles: 'wikipedia:Foo bar#x|mw:Help:Foo|Commons:File:X.png|wikipedia:|wikipedia:Участник:x', iwurl: '1' }),
    encode({ titles: 'wikipedia:Foo|mw:Help:Foo', iwurl: '1', formatversion: '2' }),
    encode({ titles: 'Zeta|Alpha', redirects: '1', prop: 'extlinks' }),
    encode({ titles: 'Zeta|Alpha', redirects: '1', prop: 'extlinks', formatversion: '2' }),
    encode({ titles: 'zeta', redirects: '1', prop: 'extlinks', ellimit: 'max' }),
    encode({ titles: 'Zeta', redirects: '1', prop: 'extlinks', ellimit: 'max' }),
    encode({ titles: 'ZETA', redirects: '1', prop: 'extlinks', ellimit: 'max' }),
    encode({ titles: 'Zeta', prop: 'extlinks' }),
    encode({ titles: 'Nope|Alpha', converttitles: '1' }),
    encode({ titles: 'Nope|Alpha', converttitles: '1', formatversion: '2' }),
    encode({ titles: 'Alpha', pageids: '8' }),
    encode({ pageids: '8|2|12|28', indexpageids: '1' }),
    encode({ pageids: '9|8|999|0|-5', indexpageids: '1' }),
    encode({ pageids: '9|8|999|0|-5', indexpageids: '1', formatversion: '2' }),
    encode({ pageids: '28|13|8', redirects: '1' }),
    encode({ pageids: '28|13|8', redirects: '1', formatversion: '2' }),
    encode({ pageids: 'abc' }),
    encode({ titles: 'a[b|Category:|~~~|::x', errorformat: 'plaintext' }),
    encode({ titles: 'a[b|Category:', errorformat: 'html', uselang: 'en' }),
    encode({ titles: `a[b|${A256}`, errorformat: 'raw' }),
    encode({ titles: 'a[b|Talk:Talk:x', errorformat: 'wikitext', formatversion: '2' }),
    encode({ titles: 'Alpha|Zeta', redirects: '1', formatversion: '2', continue: '', meta: 'userinfo', uiprop: 'blockinfo|hasmsg' }),
    encode({ titles: 'Москва', prop: 'extlinks', redirects: '1', origin: '*' }),
    encode({ titles: 'Alpha|Zeta', indexpageids: '1', exportnowrap: '1', redirects: '1' }),
  );
  return qs;
}
