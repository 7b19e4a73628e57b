/**
 * The wiki model: the entities the built-in modules answer from. Each entity is kept in the
 * shape the API shows it with formatversion=2 and every prop on, so recorded answers can be
 * harvested into it and fixtures read like API output.
 */

/** One row of `logging`, as `list=logevents` shows it with every prop. */
export interface LogEvent {
  logid: number;
  ns: number;
  title: string;
  /** Id of the page currently at the title, 0 if none. */
  pageid: number;
  /** Page id at log time. */
  logpage: number;
  /** Associated revision (1.43+ output only). */
  revid?: number;
  /** Type-specific parameters in formatversion=2 form (booleans real). */
  params: Record<string, unknown>;
  type: string;
  action: string;
  user: string;
  userid: number;
  /** ISO 8601 `YYYY-MM-DDTHH:MM:SSZ`. */
  timestamp: string;
  comment: string;
  parsedcomment?: string;
  tags: string[];
  /** log_deleted bits: 1 action, 2 comment, 4 user, 8 restricted. */
  deleted?: number;
}

/** One block, as `list=blocks` shows it with every prop (formatversion=2). */
export interface Block {
  id: number;
  /** Absent for autoblocks. */
  user?: string;
  userid?: number;
  by: string;
  byid: number;
  timestamp: string;
  /** `infinity` or ISO 8601. */
  expiry: string;
  reason: string;
  parsedreason?: string;
  rangestart?: string;
  rangeend?: string;
  automatic: boolean;
  anononly: boolean;
  nocreate: boolean;
  autoblock: boolean;
  noemail: boolean;
  hidden: boolean;
  allowusertalk: boolean;
  partial: boolean;
  /** `[]` for sitewide blocks; partial blocks: `{pages?, namespaces?, actions?}`. */
  restrictions: unknown;
}

/** One create-protected title, as `list=protectedtitles` shows it with every prop. */
export interface ProtectedTitle {
  ns: number;
  title: string;
  timestamp: string;
  user: string;
  userid: number;
  comment: string;
  parsedcomment?: string;
  expiry: string;
  level: string;
}

/** An external link row: its `el_id` decides order and continuation. */
export interface ExtLink {
  id: number;
  url: string;
}

/** A page: identity, existence and external links. */
export interface Page {
  pageid: number;
  ns: number;
  title: string;
  extlinks: ExtLink[];
  redirect?: boolean;
}

export interface WikiModel {
  logevents: LogEvent[];
  blocks: Block[];
  protectedtitles: ProtectedTitle[];
  pages: Page[];
  /** Lines of MediaWiki:Spam-blacklist (and shared lists). */
  spamBlacklist: string[];
  /** Lines of MediaWiki:Spam-whitelist. */
  spamWhitelist: string[];
}

export function emptyModel(): WikiModel {
  return { logevents: [], blocks: [], protectedtitles: [], pages: [], spamBlacklist: [], spamWhitelist: [] };
}
