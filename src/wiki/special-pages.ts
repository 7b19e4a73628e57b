import { languageUcfirst } from '../util/ucfirst.js';
import { atLeast, type Lang } from './profile.js';

/**
 * Special pages and their names in the content language (SpecialPageFactory, Language's
 * $specialPageAliases): a default install's of MediaWiki 1.39 and 1.43 in ru or en, or the wiki's
 * own as a recorded `meta=siteinfo&siprop=specialpagealiases` shows them.
 */

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

/** What 1.43 adds (SpecialPageFactory::getNames and MessagesEn/MessagesRu.php of 1.43, as the live wiki lists them). */
const SPECIAL_PAGES_143 = 'AuthenticationPopupSuccess Contribute Mylog NamespaceInfo Renameuser TalkPage';
const SPECIAL_ALIASES_EN_143 = 'AuthenticationPopupSuccess=AuthenticationPopupSuccess Contribute=Contribute EditRecovery=EditRecovery Mylog=MyLog NamespaceInfo=NamespaceInfo Renameuser=RenameUser TalkPage=TalkPage';
const SPECIAL_ALIASES_RU_143 = 'Renameuser=Переименовать_участника';

function parseAliases(data: string): [string, string[]][] {
  return data.split(' ').map((item) => {
    const eq = item.indexOf('=');
    return eq < 0 ? [item, []] : [item.slice(0, eq), item.slice(eq + 1).split(',')];
  });
}

/** A wiki's special pages: the installed ones, their aliases (Language::getSpecialPageAliases) and the alias list. */
export interface SpecialPageTable {
  /** SpecialPageFactory::getNames. */
  names: ReadonlySet<string>;
  /** Canonical name → aliases, in order (the first usable one is the local name). */
  aliases: ReadonlyMap<string, readonly string[]>;
  /** SpecialPageFactory::getAliasList: case-folded alias → canonical name. */
  list: ReadonlyMap<string, string>;
  /** MediaWiki 1.43 and later title-case the first letter (Language::ucfirst). */
  titleCase: boolean;
}

const caseFold = (s: string) => s.toUpperCase();

/** SpecialPageFactory::getAliasList: every name, then each alias unless an earlier first alias holds it. */
function makeTable(names: ReadonlySet<string>, aliases: ReadonlyMap<string, readonly string[]>, titleCase: boolean): SpecialPageTable {
  const list = new Map<string, string>();
  const keep = new Set<string>();
  for (const name of names) {
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
  return { names, aliases, list, titleCase };
}

const builtins = new Map<string, SpecialPageTable>();

/**
 * Whether a default install's special page aliases of content language `lang` are known here (ru's
 * and en's; another language's own aliases are not: its pages are named as in English, flagged).
 */
export function specialAliasesKnown(lang: Lang): boolean {
  return lang === 'ru' || lang === 'en';
}

/** A default install's special pages for a content language and version (1.39's, or 1.43's from 1.43). */
export function builtinSpecialPages(lang: Lang, version = '1.39'): SpecialPageTable {
  const modern = atLeast({ version }, '1.43');
  const key = `${lang} ${modern}`;
  let t = builtins.get(key);
  if (t) return t;
  const en = new Map(parseAliases(modern ? `${SPECIAL_ALIASES_EN} ${SPECIAL_ALIASES_EN_143}` : SPECIAL_ALIASES_EN));
  const ru = new Map(parseAliases(modern ? `${SPECIAL_ALIASES_RU} ${SPECIAL_ALIASES_RU_143}` : SPECIAL_ALIASES_RU));
  // $specialPageAliases of MessagesRu.php come first, MessagesEn.php's merge in after them.
  const aliases = lang !== 'ru' ? en : new Map([...ru.keys(), ...en.keys()].map((name) => [name, [...(ru.get(name) ?? []), ...(en.get(name) ?? [])]]));
  const names = new Set([...SPECIAL_PAGES.split(' '), ...(modern ? SPECIAL_PAGES_143.split(' ') : [])]);
  t = makeTable(names, aliases, modern);
  builtins.set(key, t);
  return t;
}

/**
 * The special pages a recorded `siprop=specialpagealiases` shows (`[{realname, aliases}]`: the
 * installed pages with aliases, each alias list as the content language has it), or null.
 */
export function specialPagesFromSiteinfo(entries: unknown, version: string): SpecialPageTable | null {
  if (!Array.isArray(entries)) return null;
  const aliases = new Map<string, string[]>();
  for (const e of entries as { realname?: unknown; aliases?: unknown }[]) {
    if (typeof e?.realname !== 'string' || !Array.isArray(e.aliases)) return null;
    aliases.set(e.realname, e.aliases.filter((a): a is string => typeof a === 'string'));
  }
  return makeTable(new Set(aliases.keys()), aliases, atLeast({ version }, '1.43'));
}

const tableOf = (t: SpecialPageTable | Lang): SpecialPageTable => (typeof t === 'string' ? builtinSpecialPages(t) : t);

/** SpecialPageFactory::resolveAlias: `Recentchanges/x` → `{ name: 'Recentchanges', subpage: 'x' }`, or null. */
export function resolveSpecialAlias(dbkey: string, table: SpecialPageTable | Lang): { name: string; subpage: string | null } | null {
  const slash = dbkey.indexOf('/');
  const head = slash < 0 ? dbkey : dbkey.slice(0, slash);
  const name = tableOf(table).list.get(caseFold(head).replace(/ /g, '_'));
  if (name === undefined) return null;
  return { name, subpage: slash < 0 ? null : dbkey.slice(slash + 1) };
}

/** SpecialPageFactory::exists: the special page a DB key names is installed. */
export function specialPageExists(dbkey: string, table: SpecialPageTable | Lang): boolean {
  const r = resolveSpecialAlias(dbkey, table);
  return r !== null && tableOf(table).names.has(r.name);
}

/** SpecialPageFactory::getLocalNameFor: the first usable alias (DB form), with `/subpage`, first letter upper. */
export function specialLocalName(name: string, subpage: string | null, table: SpecialPageTable | Lang): string {
  const { aliases, list, titleCase } = tableOf(table);
  let local = name;
  for (const alias of aliases.get(name) ?? []) {
    if (list.get(caseFold(alias).replace(/ /g, '_')) === name) {
      local = alias;
      break;
    }
  }
  if (subpage !== null) local = `${local}/${subpage.replace(/ /g, '_')}`;
  return languageUcfirst(local, titleCase);
}
