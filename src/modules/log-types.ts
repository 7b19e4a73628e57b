import { atLeast, type WikiProfile } from '../wiki/profile.js';

/**
 * Log types and actions of a default MediaWiki 1.39 with SpamBlacklist ($wgLogTypes,
 * $wgLogActionsHandlers keys, plus newusers/create added by SetupDynamicConfig). The order is the
 * wiki's, shown by letype's error (errorformat=raw, errorlang=qqx): extension registration puts
 * SpamBlacklist's type ahead of core's, and newusers and create come last.
 */
const LOG_TYPES: readonly string[] = [
  'spamblacklist', '', 'block', 'protect', 'rights', 'delete', 'upload', 'move', 'import', 'patrol', 'merge',
  'suppress', 'tag', 'managetags', 'contentmodel', 'newusers', 'create',
];

const LOG_ACTIONS: readonly string[] = [
  'block/block', 'block/reblock', 'block/unblock', 'contentmodel/change', 'contentmodel/new',
  'delete/delete', 'delete/delete_redir', 'delete/delete_redir2', 'delete/event', 'delete/restore',
  'delete/revision', 'import/interwiki', 'import/upload', 'managetags/activate', 'managetags/create',
  'managetags/deactivate', 'managetags/delete', 'merge/merge', 'move/move', 'move/move_redir',
  'patrol/patrol', 'patrol/autopatrol', 'protect/modify', 'protect/move_prot', 'protect/protect',
  'protect/unprotect', 'rights/autopromote', 'rights/rights', 'suppress/block', 'suppress/delete',
  'suppress/event', 'suppress/reblock', 'suppress/revision', 'tag/update', 'upload/overwrite',
  'upload/revert', 'upload/upload', 'newusers/newusers', 'newusers/create', 'newusers/create2',
  'newusers/byemail', 'newusers/autocreate', 'create/create', 'spamblacklist/*',
];

/** 1.43 has Renameuser in core: its log type after contentmodel in $wgLogTypes, its action renameuser/renameuser. */
const LOG_TYPES_143 = [...LOG_TYPES.slice(0, LOG_TYPES.indexOf('contentmodel') + 1), 'renameuser', ...LOG_TYPES.slice(LOG_TYPES.indexOf('contentmodel') + 1)];
const LOG_ACTIONS_143 = [...LOG_ACTIONS, 'renameuser/renameuser'];

/** The log types (letype's values) of the profile's version. */
export function logTypes(profile: Pick<WikiProfile, 'version'>): readonly string[] {
  return atLeast(profile, '1.43') ? LOG_TYPES_143 : LOG_TYPES;
}

/** The log actions (`type/action`, or `type/*` for any action of a type) leaction accepts in the profile's version. */
export function logActions(profile: Pick<WikiProfile, 'version'>): readonly string[] {
  return atLeast(profile, '1.43') ? LOG_ACTIONS_143 : LOG_ACTIONS;
}

/**
 * $wgLogRestrictions: the restricted log types and the right each needs (core's suppress,
 * SpamBlacklist's and TitleBlacklist's logs).
 */
const LOG_RESTRICTIONS: Readonly<Record<string, string>> = { suppress: 'suppressionlog', spamblacklist: 'spamblacklistlog', titleblacklist: 'titleblacklistlog' };

/**
 * The restricted types a caller may not see (LogEventsList::getExcludeClause for the user's
 * audience): those whose right `allowed` says the caller lacks; all of them for readers.
 */
export function hiddenLogTypes(allowed: (right: string) => boolean): string[] {
  return Object.entries(LOG_RESTRICTIONS).filter(([, right]) => !allowed(right)).map(([type]) => type);
}

/** Whether a caller may read any restricted log ($wgLogRestrictions): its answers then differ from the public's. */
export function readsRestrictedLog(allowed: (right: string) => boolean): boolean {
  return Object.values(LOG_RESTRICTIONS).some(allowed);
}
