import type { Lang } from './profile.js';
import { contentNamespaces } from './content-namespaces.js';

/**
 * Namespaces, interwiki prefixes and special page names of a default MediaWiki 1.39 install
 * (NamespaceInfo, Language::getNamespaceIds, maintenance/interwiki.list, SpecialPageFactory).
 * Namespace names and aliases follow any content language (content-namespaces.ts); special page
 * aliases are ru's and en's (another content language's own aliases are not known:
 * `specialAliasesKnown`).
 */

export interface NamespaceContext {
  /** The content language ($wgLanguageCode). */
  lang: Lang;
  /** $wgMetaNamespace: the site name, spaces as underscores (spaces are accepted too). */
  metaNamespace: string;
  /** The MediaWiki version (a language's names may differ between releases). Default: the newest. */
  version?: string;
}

/** NamespaceInfo canonical names (DB form). 4 and 5 are `Project`/`Project_talk` whatever the site is called. */
export const CANONICAL_NAMES: Readonly<Record<number, string>> = Object.freeze({
  [-2]: 'Media', [-1]: 'Special', 0: '', 1: 'Talk', 2: 'User', 3: 'User_talk', 4: 'Project', 5: 'Project_talk',
  6: 'File', 7: 'File_talk', 8: 'MediaWiki', 9: 'MediaWiki_talk', 10: 'Template', 11: 'Template_talk',
  12: 'Help', 13: 'Help_talk', 14: 'Category', 15: 'Category_talk',
});

/** $wgNamespacesWithSubpages default. */
const SUBPAGES: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15]);

function metaDb(ctx: NamespaceContext): string {
  return ctx.metaNamespace.replace(/ /g, '_');
}

/** The content language's names and aliases (Language::getNamespaces, getNamespaceAliases). */
const local = (ctx: NamespaceContext) => contentNamespaces(ctx.lang, metaDb(ctx), ctx.version);

/** The local name of a namespace in DB form (underscores); '' for the main namespace and unknown ones. */
export function namespaceDbName(ns: number, ctx: NamespaceContext): string {
  return local(ctx).names.get(ns) ?? '';
}

/** The localised name of a namespace, with spaces ('' for main), as Language::getFormattedNsText. */
export function namespaceName(ns: number, ctx: NamespaceContext): string {
  return namespaceDbName(ns, ctx).replace(/_/g, ' ');
}

/** Whether the namespace id exists on a default install. */
export function namespaceExists(ns: number): boolean {
  return Number.isInteger(ns) && ns >= -2 && ns <= 15;
}

export function hasSubpages(ns: number): boolean {
  return SUBPAGES.has(ns);
}

/** $wgCapitalLinks is true: every namespace is `first-letter`. */
export function isCapitalized(_ns: number): boolean {
  return true;
}

const idCache = new Map<string, Map<string, number>>();

/** Whether wikitape knows all the content language's namespace names and aliases (see ContentNamespaces.complete). */
export function namespacesKnown(ctx: NamespaceContext): boolean {
  return local(ctx).complete;
}

/** Language::getNamespaceIds: lower-cased local names and aliases (DB form) → id. */
function namespaceIds(ctx: NamespaceContext): Map<string, number> {
  const key = `${ctx.lang}\u0000${metaDb(ctx)}\u0000${ctx.version ?? ''}`;
  let ids = idCache.get(key);
  if (!ids) {
    ids = new Map();
    for (let ns = -2; ns <= 15; ns++) ids.set(namespaceDbName(ns, ctx).toLowerCase(), ns);
    for (const [alias, ns] of local(ctx).aliases) ids.set(alias.toLowerCase(), ns);
    idCache.set(key, ids);
  }
  return ids;
}

const CANONICAL_INDEX: ReadonlyMap<string, number> = new Map(
  Object.entries(CANONICAL_NAMES).map(([id, name]) => [name.toLowerCase(), Number(id)]),
);

/**
 * Language::getNsIndex: the namespace a prefix names (canonical names first, then local names and
 * aliases; case-insensitive; `_` and space alike), or null.
 */
export function namespaceIndex(prefix: string, ctx: NamespaceContext): number | null {
  const lc = prefix.replace(/ /g, '_').toLowerCase();
  return CANONICAL_INDEX.get(lc) ?? namespaceIds(ctx).get(lc) ?? null;
}

/** Namespace aliases as siteinfo lists them (`Участница`, `Image`, …; the gender forms equal to a name excluded). */
export function namespaceAliases(ctx: NamespaceContext): { id: number; alias: string }[] {
  const names = new Set(Array.from({ length: 18 }, (_v, i) => namespaceDbName(i - 2, ctx)));
  return local(ctx).aliases.filter(([a]) => !names.has(a)).map(([alias, id]) => ({ id, alias: alias.replace(/_/g, ' ') }));
}

/** maintenance/interwiki.list as the installer loads it: prefix → URL with `$1`. */
const INTERWIKI_LIST =
  "acronym https://www.acronymfinder.com/~/search/af.aspx?string=exact&Acronym=$1\n" +
  "advogato http://www.advogato.org/$1\n" +
  "arxiv https://www.arxiv.org/abs/$1\n" +
  "c2find http://c2.com/cgi/wiki?FindPage&value=$1\n" +
  "cache https://www.google.com/search?q=cache:$1\n" +
  "commons https://commons.wikimedia.org/wiki/$1\n" +
  "dictionary http://www.dict.org/bin/Dict?Database=*&Form=Dict1&Strategy=*&Query=$1\n" +
  "doi https://dx.doi.org/$1\n" +
  "drumcorpswiki http://www.drumcorpswiki.com/$1\n" +
  "dwjwiki http://www.suberic.net/cgi-bin/dwj/wiki.cgi?$1\n" +
  "elibre http://enciclopedia.us.es/index.php/$1\n" +
  "emacswiki https://www.emacswiki.org/emacs/$1\n" +
  "foldoc https://foldoc.org/?$1\n" +
  "foxwiki https://fox.wikis.com/wc.dll?Wiki~$1\n" +
  "freebsdman https://www.FreeBSD.org/cgi/man.cgi?apropos=1&query=$1\n" +
  "gentoo-wiki http://gentoo-wiki.com/$1\n" +
  "google https://www.google.com/search?q=$1\n" +
  "googlegroups https://groups.google.com/groups?q=$1\n" +
  "hammondwiki http://www.dairiki.org/HammondWiki/$1\n" +
  "hrwiki http://www.hrwiki.org/wiki/$1\n" +
  "imdb http://www.imdb.com/find?q=$1&tt=on\n" +
  "kmwiki https://kmwiki.wikispaces.com/$1\n" +
  "linuxwiki http://linuxwiki.de/$1\n" +
  "lojban https://mw.lojban.org/papri/$1\n" +
  "lqwiki http://wiki.linuxquestions.org/wiki/$1\n" +
  "meatball http://meatballwiki.org/wiki/$1\n" +
  "mediawikiwiki https://www.mediawiki.org/wiki/$1\n" +
  "memoryalpha http://en.memory-alpha.org/wiki/$1\n" +
  "metawiki http://sunir.org/apps/meta.pl?$1\n" +
  "metawikimedia https://meta.wikimedia.org/wiki/$1\n" +
  "mozillawiki https://wiki.mozilla.org/$1\n" +
  "mw https://www.mediawiki.org/wiki/$1\n" +
  "oeis https://oeis.org/$1\n" +
  "openwiki http://openwiki.com/ow.asp?$1\n" +
  "pmid https://www.ncbi.nlm.nih.gov/pubmed/$1?dopt=Abstract\n" +
  "pythoninfo https://wiki.python.org/moin/$1\n" +
  "rfc https://tools.ietf.org/html/rfc$1\n" +
  "s23wiki http://s23.org/wiki/$1\n" +
  "seattlewireless http://seattlewireless.net/$1\n" +
  "senseislibrary https://senseis.xmp.net/?$1\n" +
  "shoutwiki http://www.shoutwiki.com/wiki/$1\n" +
  "squeak http://wiki.squeak.org/squeak/$1\n" +
  "tmbw http://www.tmbw.net/wiki/$1\n" +
  "tmnet http://www.technomanifestos.net/?$1\n" +
  "theopedia https://www.theopedia.com/$1\n" +
  "twiki http://twiki.org/cgi-bin/view/$1\n" +
  "uncyclopedia https://en.uncyclopedia.co/wiki/$1\n" +
  "unreal https://wiki.beyondunreal.com/$1\n" +
  "usemod http://www.usemod.com/cgi-bin/wiki.pl?$1\n" +
  "wiki http://c2.com/cgi/wiki?$1\n" +
  "wikia http://www.wikia.com/wiki/$1\n" +
  "wikibooks https://en.wikibooks.org/wiki/$1\n" +
  "wikidata https://www.wikidata.org/wiki/$1\n" +
  "wikif1 http://www.wikif1.org/$1\n" +
  "wikihow https://www.wikihow.com/$1\n" +
  "wikinfo http://wikinfo.co/English/index.php/$1\n" +
  "wikimedia https://foundation.wikimedia.org/wiki/$1\n" +
  "wikinews https://en.wikinews.org/wiki/$1\n" +
  "wikipedia https://en.wikipedia.org/wiki/$1\n" +
  "wikiquote https://en.wikiquote.org/wiki/$1\n" +
  "wikisource https://wikisource.org/wiki/$1\n" +
  "wikispecies https://species.wikimedia.org/wiki/$1\n" +
  "wikiversity https://en.wikiversity.org/wiki/$1\n" +
  "wikivoyage https://en.wikivoyage.org/wiki/$1\n" +
  "wikt https://en.wiktionary.org/wiki/$1\n" +
  "wiktionary https://en.wiktionary.org/wiki/$1\n";

export const INTERWIKI: ReadonlyMap<string, string> = new Map(
  INTERWIKI_LIST.trim()
    .split('\n')
    .map((line) => line.split(' ') as [string, string]),
);

/** Whether a prefix is an interwiki prefix (InterwikiLookup::isValidInterwiki: case-insensitive). */
export function isInterwiki(prefix: string): boolean {
  return INTERWIKI.has(prefix.toLowerCase());
}

/** Special pages of a default 1.39 install (SpecialPageFactory::getNames). */
const SPECIAL_PAGES =
  "BrokenRedirects Deadendpages DoubleRedirects Longpages Ancientpages Lonelypages Fewestrevisions Withoutinterwiki Protectedpages Protectedtitles " +
  "Shortpages Uncategorizedcategories Uncategorizedimages Uncategorizedpages Uncategorizedtemplates Unusedcategories Unusedimages Unusedtemplates " +
  "Unwatchedpages Wantedcategories Wantedfiles Wantedpages Wantedtemplates Allpages Prefixindex Categories Listredirects PagesWithProp TrackingCategories " +
  "Userlogin Userlogout CreateAccount LinkAccounts UnlinkAccounts ChangeCredentials RemoveCredentials Activeusers Block Unblock BlockList AutoblockList " +
  "ChangePassword BotPasswords PasswordReset DeletedContributions Preferences ResetTokens Contributions Listgrouprights Listgrants Listusers Listadmins " +
  "Listbots Userrights EditWatchlist PasswordPolicies Newimages Log Watchlist Newpages Recentchanges Recentchangeslinked Tags Listfiles Filepath " +
  "MediaStatistics MIMEsearch FileDuplicateSearch Upload UploadStash ListDuplicatedFiles ApiSandbox Statistics Allmessages Version Lockdb Unlockdb " +
  "LinkSearch Randompage RandomInCategory Randomredirect Randomrootpage GoToInterwiki Mostlinkedcategories Mostimages Mostinterwikis Mostlinked " +
  "Mostlinkedtemplates Mostcategories Mostrevisions ComparePages Export Import Undelete Whatlinkshere MergeHistory ExpandTemplates ChangeContentModel " +
  "Booksources ApiHelp Blankpage DeletePage Diff EditPage EditTags Emailuser Movepage Mycontributions MyLanguage Mypage Mytalk PageHistory PageInfo " +
  "ProtectPage Purge Myuploads AllMyUploads NewSection PermanentLink Redirect Revisiondelete RunJobs Specialpages PageData Search Confirmemail " +
  "Invalidateemail ChangeEmail";

/** $specialPageAliases of MessagesEn.php, in order: `Name=Alias,Alias`. */
const SPECIAL_ALIASES_EN =
  "Activeusers=ActiveUsers Allmessages=AllMessages AllMyUploads=AllMyUploads,AllMyFiles Allpages=AllPages Ancientpages=AncientPages ApiHelp=ApiHelp " +
  "ApiSandbox=ApiSandbox AutoblockList=AutoblockList,ListAutoblocks Badtitle=Badtitle Blankpage=BlankPage Block=Block,BlockIP,BlockUser " +
  "BlockList=BlockList,ListBlocks,IPBlockList Booksources=BookSources BotPasswords=BotPasswords BrokenRedirects=BrokenRedirects Categories=Categories " +
  "ChangeContentModel=ChangeContentModel ChangeCredentials=ChangeCredentials ChangeEmail=ChangeEmail " +
  "ChangePassword=ChangePassword,ResetPass,ResetPassword ComparePages=ComparePages Confirmemail=ConfirmEmail Contributions=Contributions,Contribs " +
  "CreateAccount=CreateAccount Deadendpages=DeadendPages DeletedContributions=DeletedContributions DeletePage=DeletePage,Delete Diff=Diff " +
  "DoubleRedirects=DoubleRedirects EditPage=EditPage,Edit EditTags=EditTags EditWatchlist=EditWatchlist Emailuser=EmailUser,Email " +
  "ExpandTemplates=ExpandTemplates Export=Export Fewestrevisions=FewestRevisions FileDuplicateSearch=FileDuplicateSearch Filepath=FilePath " +
  "GoToInterwiki=GoToInterwiki Import=Import Invalidateemail=InvalidateEmail JavaScriptTest=JavaScriptTest LinkAccounts=LinkAccounts " +
  "LinkSearch=LinkSearch Listadmins=ListAdmins Listbots=ListBots ListDuplicatedFiles=ListDuplicatedFiles,ListFileDuplicates " +
  "Listfiles=ListFiles,FileList,ImageList Listgrants=ListGrants Listgrouprights=ListGroupRights,UserGroupRights Listredirects=ListRedirects " +
  "Listusers=ListUsers,UserList,Users Lockdb=LockDB Log=Log,Logs Lonelypages=LonelyPages,OrphanedPages Longpages=LongPages " +
  "MediaStatistics=MediaStatistics MergeHistory=MergeHistory MIMEsearch=MIMESearch Mostcategories=MostCategories " +
  "Mostimages=MostLinkedFiles,MostFiles,MostImages Mostinterwikis=MostInterwikis Mostlinked=MostLinkedPages,MostLinked " +
  "Mostlinkedcategories=MostLinkedCategories,MostUsedCategories Mostlinkedtemplates=MostTranscludedPages,MostLinkedTemplates,MostUsedTemplates " +
  "Mostrevisions=MostRevisions Movepage=MovePage Mute=Mute Mycontributions=MyContributions,MyContribs MyLanguage=MyLanguage Mypage=MyPage Mytalk=MyTalk " +
  "Myuploads=MyUploads,MyFiles Newimages=NewFiles,NewImages Newpages=NewPages NewSection=NewSection,Newsection PageData=PageData " +
  "PageHistory=PageHistory,History PageInfo=PageInfo,Info PageLanguage=PageLanguage PagesWithProp=PagesWithProp,Pageswithprop,PagesByProp,Pagesbyprop " +
  "PasswordPolicies=PasswordPolicies PasswordReset=PasswordReset PermanentLink=PermanentLink,PermaLink Preferences=Preferences Prefixindex=PrefixIndex " +
  "Protectedpages=ProtectedPages Protectedtitles=ProtectedTitles ProtectPage=ProtectPage,Protect Purge=Purge RandomInCategory=RandomInCategory " +
  "Randompage=Random,RandomPage Randomredirect=RandomRedirect Randomrootpage=RandomRootpage Recentchanges=RecentChanges " +
  "Recentchangeslinked=RecentChangesLinked,RelatedChanges Redirect=Redirect RemoveCredentials=RemoveCredentials ResetTokens=ResetTokens " +
  "Revisiondelete=RevisionDelete RunJobs=RunJobs Search=Search Shortpages=ShortPages Specialpages=SpecialPages Statistics=Statistics,Stats Tags=Tags " +
  "TrackingCategories=TrackingCategories Unblock=Unblock Uncategorizedcategories=UncategorizedCategories " +
  "Uncategorizedimages=UncategorizedFiles,UncategorizedImages Uncategorizedpages=UncategorizedPages Uncategorizedtemplates=UncategorizedTemplates " +
  "Undelete=Undelete UnlinkAccounts=UnlinkAccounts Unlockdb=UnlockDB Unusedcategories=UnusedCategories Unusedimages=UnusedFiles,UnusedImages " +
  "Unusedtemplates=UnusedTemplates Unwatchedpages=UnwatchedPages Upload=Upload UploadStash=UploadStash Userlogin=UserLogin,Login " +
  "Userlogout=UserLogout,Logout Userrights=UserRights,MakeSysop,MakeBot Version=Version Wantedcategories=WantedCategories Wantedfiles=WantedFiles " +
  "Wantedpages=WantedPages,BrokenLinks Wantedtemplates=WantedTemplates Watchlist=Watchlist Whatlinkshere=WhatLinksHere Withoutinterwiki=WithoutInterwiki";

/** MessagesRu.php $specialPageAliases (the Russian aliases; the English ones follow), in its order. */
const SPECIAL_ALIASES_RU =
  "Activeusers=Активные_участники Allmessages=Системные_сообщения AllMyUploads=Все_мои_файлы Allpages=Все_страницы Badtitle=Недопустимое_название " +
  "Blankpage=Пустая_страница Block=Заблокировать BlockList=Список_блокировок,Блокировки Booksources=Источники_книг " +
  "BrokenRedirects=Разорванные_перенаправления Categories=Категории ChangeEmail=Сменить_e-mail,Сменить_почту ChangePassword=Сменить_пароль " +
  "ComparePages=Сравнение_страниц Confirmemail=Подтвердить_e-mail,Подтвердить_почту Contributions=Вклад " +
  "CreateAccount=Создать_учётную_запись,Создать_пользователя,Зарегистрироваться Deadendpages=Тупиковые_страницы DeletedContributions=Удалённый_вклад " +
  "Diff=Изменения DoubleRedirects=Двойные_перенаправления EditWatchlist=Править_список_наблюдения Emailuser=Письмо_участнику,Отправить_письмо " +
  "ExpandTemplates=Развёртка_шаблонов Export=Экспорт,Выгрузка Fewestrevisions=Редко_редактируемые FileDuplicateSearch=Поиск_дубликатов_файлов " +
  "Filepath=Путь_к_файлу Import=Импорт Invalidateemail=Отменить_подтверждение_адреса JavaScriptTest=Тестирование_JavaScript LinkSearch=Поиск_ссылок " +
  "Listadmins=Список_администраторов Listbots=Список_ботов ListDuplicatedFiles=Список_файлов-дубликатов Listfiles=Список_файлов,Список_изображений " +
  "Listgrouprights=Права_групп_участников,Список_прав_групп Listredirects=Список_перенаправлений Listusers=Список_участников " +
  "Lockdb=Заблокировать_БД,Заблокировать_базу_данных Log=Журналы,Журнал Lonelypages=Изолированные_страницы Longpages=Длинные_страницы " +
  "MergeHistory=Объединение_историй MIMEsearch=Поиск_по_MIME Mostcategories=Самые_категоризованные Mostimages=Самые_используемые_файлы " +
  "Mostinterwikis=Наибольшее_количество_интервики-ссылок Mostlinked=Самые_используемые_страницы Mostlinkedcategories=Самые_используемые_категории " +
  "Mostlinkedtemplates=Самые_используемые_шаблоны Mostrevisions=Наибольшее_количество_версий Movepage=Переименовать_страницу,Переименование,Переименовать " +
  "Mycontributions=Мой_вклад MyLanguage=Мой_язык Mypage=Моя_страница Mytalk=Моё_обсуждение Myuploads=Мои_загрузки Newimages=Новые_файлы " +
  "Newpages=Новые_страницы PasswordReset=Сброс_пароля PermanentLink=Постоянная_ссылка Preferences=Настройки Prefixindex=Указатель_по_началу_названия " +
  "Protectedpages=Защищённые_страницы Protectedtitles=Защищённые_названия Randompage=Случайная_страница,Случайная " +
  "Randomredirect=Случайное_перенаправление Recentchanges=Свежие_правки Recentchangeslinked=Связанные_правки Revisiondelete=Удаление_правки Search=Поиск " +
  "Shortpages=Короткие_страницы Specialpages=Спецстраницы Statistics=Статистика Tags=Метки Unblock=Разблокировка " +
  "Uncategorizedcategories=Некатегоризованные_категории Uncategorizedimages=Некатегоризованные_файлы Uncategorizedpages=Некатегоризованные_страницы " +
  "Uncategorizedtemplates=Некатегоризованные_шаблоны Undelete=Восстановить,Восстановление Unlockdb=Разблокировка_БД " +
  "Unusedcategories=Неиспользуемые_категории Unusedimages=Неиспользуемые_файлы Unusedtemplates=Неиспользуемые_шаблоны Upload=Загрузка " +
  "UploadStash=Скрытная_загрузка Userlogin=Вход Userlogout=Завершение_сеанса,Выход Userrights=Управление_правами Version=Версия " +
  "Wantedcategories=Требуемые_категории Wantedfiles=Требуемые_файлы Wantedpages=Требуемые_страницы Wantedtemplates=Требуемые_шаблоны " +
  "Watchlist=Список_наблюдения Whatlinkshere=Ссылки_сюда Withoutinterwiki=Без_интервики Ancientpages ApiHelp ApiSandbox AutoblockList BotPasswords " +
  "ChangeContentModel ChangeCredentials DeletePage EditPage EditTags GoToInterwiki LinkAccounts Listgrants MediaStatistics Mute NewSection PageData " +
  "PageHistory PageInfo PageLanguage PagesWithProp PasswordPolicies ProtectPage Purge RandomInCategory Randomrootpage Redirect RemoveCredentials " +
  "ResetTokens RunJobs TrackingCategories UnlinkAccounts Unwatchedpages";

function parseAliases(data: string): [string, string[]][] {
  return data.split(' ').map((item) => {
    const eq = item.indexOf('=');
    return eq < 0 ? [item, []] : [item.slice(0, eq), item.slice(eq + 1).split(',')];
  });
}

interface SpecialTables {
  /** Language::getSpecialPageAliases, in order. */
  aliases: Map<string, string[]>;
  /** SpecialPageFactory::getAliasList: case-folded alias → canonical name. */
  list: Map<string, string>;
}

const specialCache = new Map<Lang, SpecialTables>();
const PAGE_LIST: ReadonlySet<string> = new Set(SPECIAL_PAGES.split(' '));
const caseFold = (s: string) => s.toUpperCase();

function specialTables(lang: Lang): SpecialTables {
  let t = specialCache.get(lang);
  if (t) return t;
  const en = new Map(parseAliases(SPECIAL_ALIASES_EN));
  const aliases =
    lang !== 'ru' ? en : new Map(parseAliases(SPECIAL_ALIASES_RU).map(([name, own]) => [name, [...own, ...(en.get(name) ?? [])]]));
  const list = new Map<string, string>();
  const keep = new Set<string>();
  for (const name of PAGE_LIST) {
    list.set(caseFold(name), name);
    keep.add(caseFold(name));
  }
  for (const [realName, aliasList] of aliases) {
    aliasList.forEach((alias, i) => {
      const folded = caseFold(alias);
      if (list.get(folded) === realName) return;
      if (!keep.has(folded)) {
        list.set(folded, realName);
        if (i === 0) keep.add(folded);
      }
    });
  }
  t = { aliases, list };
  specialCache.set(lang, t);
  return t;
}

/** Whether the special page aliases of content language `lang` are known here (ru and en). */
export function specialAliasesKnown(lang: Lang): boolean {
  return lang === 'ru' || lang === 'en';
}

/** SpecialPageFactory::resolveAlias: `Recentchanges/x` → `{ name: 'Recentchanges', subpage: 'x' }`, or null. */
export function resolveSpecialAlias(dbkey: string, lang: Lang): { name: string; subpage: string | null } | null {
  const slash = dbkey.indexOf('/');
  const head = slash < 0 ? dbkey : dbkey.slice(0, slash);
  const name = specialTables(lang).list.get(caseFold(head).replace(/ /g, '_'));
  if (name === undefined) return null;
  return { name, subpage: slash < 0 ? null : dbkey.slice(slash + 1) };
}

/** SpecialPageFactory::exists: the special page a DB key names is installed. */
export function specialPageExists(dbkey: string, lang: Lang): boolean {
  const r = resolveSpecialAlias(dbkey, lang);
  return r !== null && PAGE_LIST.has(r.name);
}

/** SpecialPageFactory::getLocalNameFor: the first usable alias (DB form), with `/subpage`, first letter upper. */
export function specialLocalName(name: string, subpage: string | null, lang: Lang): string {
  const { aliases, list } = specialTables(lang);
  let local = name;
  for (const alias of aliases.get(name) ?? []) {
    if (list.get(caseFold(alias).replace(/ /g, '_')) === name) {
      local = alias;
      break;
    }
  }
  if (subpage !== null) local = `${local}/${subpage.replace(/ /g, '_')}`;
  return ucfirst(local);
}

/**
 * Language::ucfirst: bytes below 0x60 stay, ASCII letters go upper, a multibyte first character
 * goes through mb_strtoupper (full case mapping, e.g. `ß` → `SS`, `ǆ` → `Ǆ`).
 */
export function ucfirst(s: string): string {
  const cp = s.codePointAt(0);
  if (cp === undefined || cp < 0x60) return s;
  if (cp < 0x80) return s[0]!.toUpperCase() + s.slice(1);
  const first = String.fromCodePoint(cp);
  return first.toUpperCase() + s.slice(first.length);
}
