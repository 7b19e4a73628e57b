/** Action modules of MediaWiki 1.39 with SpamBlacklist: any other `action` is `badvalue`. */
export const ACTIONS: readonly string[] = [
  'login', 'clientlogin', 'logout', 'createaccount', 'linkaccount', 'unlinkaccount', 'changeauthenticationdata',
  'removeauthenticationdata', 'resetpassword', 'query', 'expandtemplates', 'parse', 'stashedit', 'compare',
  'tokens', 'checktoken', 'cspreport', 'help', 'paraminfo', 'rsd', 'feedcontributions', 'feedrecentchanges',
  'feedwatchlist', 'opensearch', 'purge', 'setnotificationtimestamp', 'rollback', 'delete', 'undelete',
  'protect', 'block', 'unblock', 'move', 'edit', 'upload', 'filerevert', 'emailuser', 'watch', 'patrol',
  'import', 'clearhasmsg', 'userrights', 'options', 'imagerotate', 'revisiondelete', 'managetags', 'tag',
  'mergehistory', 'setpagelanguage', 'changecontentmodel', 'validatepassword', 'spamblacklist',
];

/** ApiMain::FORMATS. */
export const FORMATS: readonly string[] = ['json', 'jsonfm', 'php', 'phpfm', 'xml', 'xmlfm', 'rawfm', 'none'];
