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
  /** The props recordings showed this entity with (see `Known`); absent: every field is known. */
  known?: string[];
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
  /** The props recordings showed this entity with (see `Known`); absent: every field is known. */
  known?: string[];
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
  /** The props recordings showed this entity with (see `Known`); absent: every field is known. */
  known?: string[];
}

/**
 * An external link row: its `el_id` decides order and continuation. The API shows an id only
 * inside `elcontinue`, so a recorded link's id is 0 (unknown) until a continuation token names it.
 */
export interface ExtLink {
  id: number;
  url: string;
  /** Bounds on an id not known exactly, from continuation requests (replay/link-ids.ts). */
  idMin?: number;
  idMax?: number;
  /** 1.39 stores a protocol-relative link twice (an http and an https row): the https row's id, when a token named it. */
  httpsId?: number;
}

/** A page: identity, existence and external links. */
export interface Page {
  pageid: number;
  ns: number;
  title: string;
  extlinks: ExtLink[];
  /** Whether the page is a redirect (its target: `WikiModel.redirects`); absent: not known (see Knowledge.completeRedirects). */
  redirect?: boolean;
}

/**
 * A redirect as `query.redirects` shows it (ApiPageSet::getRedirectTitlesAsResult): the redirect
 * page's title, its target's (with the interwiki prefix when it has one), and the target's fragment
 * and interwiki prefix. Kept in its own list (harvested by record/harvest-redirects.ts) so that
 * replay follows `redirects=1` only where an answer showed where a redirect leads.
 */
export interface Redirect {
  from: string;
  to: string;
  tofragment?: string;
  tointerwiki?: string;
}

/** An interwiki prefix as `meta=siteinfo&siprop=interwikimap` shows it (the fields wikitape reads). */
export interface InterwikiEntry {
  prefix: string;
  url: string;
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
  /** The file the blacklist is read from ($wgBlacklistSettings), as its debug log names it; absent: not said. */
  spamBlacklistFile?: string;
  /** Redirects and where they lead (a page of `pages` with that title is a redirect). Absent: none known. */
  redirects?: Redirect[];
  /** The wiki's interwiki table, as a fixture gives it. Absent: a recorded siteinfo's, else a default install's. */
  interwikimap?: InterwikiEntry[];
}

/**
 * Knowledge, not defaults: what recordings proved. An answer that needs anything else says so
 * (`X-Wikitape-Unknown`) instead of inventing it. Worked out where the engine is built
 * (replay/knowledge.ts) and handed to the modules with each call (ApiContext.knows).
 */
export interface Knowledge {
  /** Lists whose every entry is in the model: the recordings hold a complete walk of them. */
  completeLists: Set<string>;
  /** Pages whose every external link is in the model (a complete walk of their links), by page id. */
  completeLinks: Set<number>;
  /** Titles recordings showed to be missing (`<ns>|<prefixed title>`). */
  missingTitles: Set<string>;
  /** Namespaces whose every page the model holds (a complete `list=allpages` walk): other titles are missing. */
  completeNamespaces: Set<number>;
  /** Namespaces whose every redirect the model marks (`redirect: true`): its other pages are no redirects. */
  completeRedirects: Set<number>;
  /** Whether the spam blacklist's and whitelist's lines are known (only fixtures can say). */
  spamPatterns: boolean;
  /** Recorded `meta=` answers, by module and prop: the fields that prop showed (see replay/recorded-meta.ts). */
  meta: Map<string, Map<string, Record<string, unknown>>>;
}

export function emptyModel(): WikiModel {
  return { logevents: [], blocks: [], protectedtitles: [], pages: [], spamBlacklist: [], spamWhitelist: [] };
}
