import { atLeast, type WikiProfile } from '../wiki/profile.js';

/**
 * Action modules of MediaWiki 1.39 with SpamBlacklist, in ApiMain's order (as the live 1.39 lists
 * them in `badvalue`): any other `action` is `badvalue`. 1.43 adds `acquiretempusername`.
 */
const ACTIONS_139: readonly string[] = [
  'login', 'clientlogin', 'logout', 'createaccount', 'linkaccount', 'unlinkaccount', 'changeauthenticationdata',
  'removeauthenticationdata', 'resetpassword', 'query', 'expandtemplates', 'parse', 'stashedit', 'opensearch',
  'feedcontributions', 'feedrecentchanges', 'feedwatchlist', 'help', 'paraminfo', 'rsd', 'compare', 'checktoken',
  'cspreport', 'validatepassword', 'purge', 'setnotificationtimestamp', 'rollback', 'delete', 'undelete', 'protect',
  'block', 'unblock', 'move', 'edit', 'upload', 'filerevert', 'emailuser', 'watch', 'patrol', 'import', 'clearhasmsg',
  'userrights', 'options', 'imagerotate', 'revisiondelete', 'managetags', 'tag', 'mergehistory', 'setpagelanguage',
  'changecontentmodel', 'spamblacklist',
];

const ACTIONS_143: readonly string[] = [...ACTIONS_139.slice(0, -1), 'acquiretempusername', 'spamblacklist'];

/** The action modules of a MediaWiki version (1.43's for later ones). */
export function actionsOf(profile: Pick<WikiProfile, 'version'>): readonly string[] {
  return atLeast(profile, '1.43') ? ACTIONS_143 : ACTIONS_139;
}

/** ApiMain::FORMATS. */
export const FORMATS: readonly string[] = ['json', 'jsonfm', 'php', 'phpfm', 'xml', 'xmlfm', 'rawfm', 'none'];
