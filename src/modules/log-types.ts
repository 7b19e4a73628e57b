/**
 * Log types and actions of a default MediaWiki with SpamBlacklist ($wgLogTypes,
 * $wgLogActionsHandlers keys, plus newusers/create added by SetupDynamicConfig).
 */
export const LOG_TYPES: readonly string[] = [
  '', 'block', 'protect', 'rights', 'delete', 'upload', 'move', 'import', 'patrol', 'merge', 'suppress',
  'tag', 'managetags', 'contentmodel', 'newusers', 'create', 'spamblacklist',
];

export const LOG_ACTIONS: readonly string[] = [
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

/**
 * Types hidden from anonymous callers ($wgLogRestrictions: suppress needs `suppressionlog`,
 * spamblacklist `spamblacklistlog`, titleblacklist `titleblacklistlog`).
 */
export const HIDDEN_LOG_TYPES: readonly string[] = ['suppress', 'spamblacklist', 'titleblacklist'];
