import { ARRAY_VALUE } from '../request/params.js';
import type { JsonObject } from './result.js';
/**
 * Who is calling and what their session can do, as the API modules see it (ApiMain's user and
 * session): the replay server's offline sessions implement it (replay/sessions.ts).
 */

/** The token types of `meta=tokens` (ApiQueryTokens::getTokenTypeSalts, core 1.39 and 1.43). */
export const TOKEN_TYPES = ['createaccount', 'csrf', 'login', 'patrol', 'rollback', 'userrights', 'watch'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

/** The caller: an anonymous reader (named by address) or a logged-in account. */
export interface Caller {
  /** User name, or the address for an anonymous caller. */
  name: string;
  /** User id; 0 for anonymous callers; null for an account whose id nobody recorded nor a fixture gives. */
  id: number | null;
  anon: boolean;
  /** The identity recordings are stored under: `Name`, `Name@bot` (a bot password), or null. */
  identity: string | null;
  /** Groups and rights as recorded or given by a fixture; null when nobody recorded them. */
  groups: readonly string[] | null;
  rights: readonly string[] | null;
  /** What recorded `meta=userinfo` answers showed of the caller, by prop (`hasmsg` → `{ messages: false }`). */
  userinfo?: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /**
   * An anonymous caller in a bot-password session (its credentials stripped: JSONP, `origin=*`,
   * `Treat-as-Untrusted`): the session still allows only the bot password's grants
   * (BotPasswordSessionProvider::getAllowedUserRights), so its rights are those of `*` within the
   * bot's; these are the bot's recorded rights, null when nobody recorded them.
   */
  allowedRights?: readonly string[] | null;
}

/** An account replay can log in, and how sure it is of it. */
export interface Account {
  /** User name (`Admin`). */
  name: string;
  id: number | null;
  /** Whether a fixture gave its password (else it is only known from recordings: any password is taken, flagged). */
  passwordKnown: boolean;
  /** Checks a password for the main account (`bot` null) or one of its bot passwords. */
  accepts(password: string, bot: string | null): boolean;
  /** Whether the account has this bot password (a fixture or a recording under `Name@bot` says so). */
  hasBot(bot: string): boolean;
}

/** One write a client made against replay: kept in the write log, never applied to recordings. */
export interface WriteEntry {
  /** The module (`edit`, `move` …). */
  action: string;
  /** Who wrote: the identity (`Admin@bot`) or the address of an anonymous caller. */
  user: string;
  /** The request's parameters, secrets (the token) left out. */
  params: Record<string, string>;
  /** When (the server's clock), ISO 8601. */
  timestamp: string;
  /** The answer replay gave (the module's part of the result). */
  result: JsonObject;
}

/** What every process knows of a write (the write log itself is held by one): its module and what it named. */
export interface WrittenMark {
  action: string;
  /** The page, file or user it named (`title`, `from`, `filename`, `user`), '' when none. */
  target: string;
}

/** A write's mark (see WrittenMark). */
export function writtenMark(entry: Pick<WriteEntry, 'action' | 'params'>): WrittenMark {
  const p = entry.params;
  return { action: entry.action, target: p['title'] ?? p['from'] ?? p['filename'] ?? p['user'] ?? p['pageid'] ?? p['fromid'] ?? p['userid'] ?? p['id'] ?? '' };
}

/** The write log as `/_wikitape/writes` shows it: the kept writes, oldest first, and how many were dropped. */
export interface WriteLogView {
  writes: WriteEntry[];
  dropped: number;
}

/**
 * What the processes serving one set of cassettes share about one engine's sessions (a suite's,
 * or the server's own): the write log and the sessions logged out. The sessions themselves are
 * signed cookies any process can read (replay/signed-session.ts). Held in the process (one
 * server), or by the primary of `--workers N` or a `--state-socket` holder for the others
 * (replay/state-link.ts); docs/decisions/0019-many-processes.md.
 */
export interface SharedSessionState {
  /** Adds a write to the one log. */
  addWrite(entry: WriteEntry): void;
  /** Ends a session everywhere (logout, or the session a login replaces), by its nonce. */
  revoke(nonce: string): void;
  /** Whether a session was ended (here or by any other process, once it said so). */
  revoked(nonce: string): boolean;
  /**
   * The newest write made since the write log was last emptied, by any session of the engine and
   * through any process; null when there is none. Replay applies no write, so from the first one
   * on the recordings show the wiki as it was before (request/after-writes.ts).
   */
  lastWrite(): WrittenMark | null;
  /** Resolves once every write and revocation this process made is known to every process: an answer waits for it. */
  settled(): Promise<void>;
  /** The one write log. */
  readWrites(): Promise<WriteLogView>;
  clearWrites(): Promise<void>;
  /** The write log, when this process holds it (else null). */
  heldWrites(): WriteLogView | null;
}

/** The session of one request. */
export interface SessionPort {
  readonly caller: Caller;
  /** The token of this type for the session (`+\` for an anonymous caller's CSRF-like tokens). */
  token(type: TokenType): string;
  /** Whether a token sent is this session's token of that type. */
  tokenValid(type: TokenType, value: string): boolean;
  /** The account of this name (`Admin`), null when neither fixtures nor recordings know it. */
  account(name: string): Account | null;
  /** Whether the accounts are all known (fixtures declare them): an unknown name then surely does not exist. */
  readonly accountsComplete: boolean;
  /**
   * ApiMain stripped the user's credentials (lacksSameOriginSecurity: JSONP, `origin=*`,
   * `Treat-as-Untrusted`): the caller is anonymous, the session is kept as it was.
   */
  readonly credentialsStripped: boolean;
  /** Logs the session in (new session id and cookies, as MediaWiki sets them). */
  login(account: Account, bot: string | null, how: 'login' | 'clientlogin'): void;
  logout(): void;
  /** Keeps a write in the write log. */
  write(entry: Omit<WriteEntry, 'user' | 'timestamp'>): void;
}

/** The caller a replay server names anonymous clients by (they reach it on loopback). */
export const ANONYMOUS: Caller = { name: '127.0.0.1', id: 0, anon: true, identity: null, groups: null, rights: null };

/**
 * A session-less anonymous caller (the built-in modules run without a replay server): CSRF-like
 * tokens are `+\`, login tokens cannot be had, nothing is logged in or written.
 */
export function anonymousSession(): SessionPort {
  return {
    caller: ANONYMOUS,
    token: () => '+\\',
    tokenValid: (type, value) => value === '+\\' && type !== 'login' && type !== 'createaccount',
    account: () => null,
    accountsComplete: false,
    credentialsStripped: false,
    login: () => undefined,
    logout: () => undefined,
    write: () => undefined,
  };
}

/**
 * Rights that let a user see what readers may not, in the lists wikitape answers: hidden parts of
 * log entries (`deletedhistory`, `deletelogentry`, `suppressrevision`, `viewsuppressed`), the
 * restricted logs (`suppressionlog`, `spamblacklistlog`, `titleblacklistlog`: $wgLogRestrictions),
 * hidden blocks (`hideuser`). A user without any of them sees the lists as readers do.
 */
const VISIBILITY_RIGHTS: ReadonlySet<string> = new Set(['deletedhistory', 'deletelogentry', 'suppressrevision', 'viewsuppressed', 'suppressionlog', 'spamblacklistlog', 'titleblacklistlog', 'hideuser']);

/**
 * Authority::isAllowed for the caller: an anonymous caller has the readers' rights (none of those
 * wikitape asks about); a logged-in one whose rights nobody recorded is taken to have none (such
 * an answer is flagged `session.rights` already).
 */
export function isAllowed(caller: Caller, right: string): boolean {
  return caller.rights?.includes(right) ?? false;
}

/** ApiQueryBase::userCanSeeRevDel: the rights that show revision-deleted parts. */
export function userCanSeeRevDel(caller: Caller): boolean {
  return ['deletedhistory', 'deletedtext', 'deleterevision', 'suppressrevision', 'viewsuppressed'].some((r) => isAllowed(caller, r));
}

/**
 * Whether rights (null: not known) may show more of the lists than readers see; or, given `seen`
 * (the rights the lists were read with), more than those rights showed.
 */
export function seesMoreThanReaders(rights: readonly string[] | null, seen: readonly string[] = []): boolean {
  return rights === null || rights.some((r) => VISIBILITY_RIGHTS.has(r) && !seen.includes(r));
}

/**
 * ApiMain::lacksSameOriginSecurity: JSONP (`callback`), anonymous CORS (`origin=*`) or a
 * `Treat-as-Untrusted` header. MediaWiki then strips the user's credentials: the request is
 * answered as an anonymous caller's, whatever its cookies. Read as WebRequest reads them:
 * `getCheck('callback')` is false for `callback[]=x` (an array is no value), `getVal('origin')`
 * is null for `origin[]=*`, and the header counts with any value, even an empty one (checked on
 * MediaWiki 1.39 and 1.43: `callback[]=x` and `origin[]=*` are answered as the logged-in user).
 */
export function lacksSameOriginSecurity(params: ReadonlyMap<string, string>, headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  const callback = params.get('callback');
  return (callback !== undefined && callback !== ARRAY_VALUE) || params.get('origin') === '*' || headers['treat-as-untrusted'] !== undefined;
}
