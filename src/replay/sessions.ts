import { createHmac, randomBytes } from 'node:crypto';
import { ANONYMOUS, type Account, type Caller, type SessionPort, type SharedSessionState, type TokenType, type WriteEntry } from '../api/session.js';
import { parsePhpCookies } from '../output/session.js';
import type { Interaction } from '../cassette/format.js';
import type { JsonObject } from '../api/result.js';
import { splitMulti } from '../request/canonical.js';
import { takeUserInfo } from './recorded-meta.js';
import { LocalState } from './shared-state.js';
import { newSessionKey, SessionSigner, type SignedSession } from './signed-session.js';
// An account a fixture declares (`accounts` in a fixture file); its passwords never reach any output.
import type { FixtureAccountData } from '../wiki/fixtures.js';

/** What recordings show of an identity (`Name`, `Name@bot`, or '' for anonymous callers): its `meta=userinfo`. */
export interface IdentityFacts {
  id: number | null;
  name: string | null;
  groups: string[] | null;
  rights: string[] | null;
  /** Each recorded userinfo prop's fields (`hasmsg` → `messages` …), as recorded-meta.ts takes them apart. */
  userinfo: Map<string, Record<string, unknown>>;
}

/**
 * The accounts replay can log in: those fixtures declare (with their passwords) and those whose
 * answers were recorded (`Name`, `Name@bot`; any password is taken for them, and the login says
 * so). The facts of each identity (id, groups, rights) come from its recorded `meta=userinfo`.
 */
export class AccountBook {
  private readonly fixtures = new Map<string, FixtureAccountData>();
  constructor(
    fixtures: readonly FixtureAccountData[],
    /** Recorded identities and their facts, worked out when first needed. */
    private readonly recorded: () => ReadonlyMap<string, IdentityFacts>,
  ) {
    for (const a of fixtures) this.fixtures.set(a.name, a);
  }

  /** Fixtures that declare accounts declare them all. */
  get complete(): boolean {
    return this.fixtures.size > 0;
  }

  /**
   * The account of this name. When fixtures declare accounts, they are all the accounts there are
   * (with all their bot passwords): a name or bot password only recordings show is none. Else an
   * identity recordings show is an account that logs in with any password.
   */
  account(name: string): Account | null {
    const f = this.fixtures.get(name);
    if (this.complete && !f) return null;
    const seen = this.complete ? [] : [...this.recorded().keys()].filter((k) => k === name || k.startsWith(`${name}@`));
    if (!f && seen.length === 0) return null;
    const facts = this.recorded().get(name) ?? this.recorded().get(seen[0] ?? '');
    return {
      name,
      id: f?.id ?? facts?.id ?? null,
      passwordKnown: f !== undefined,
      accepts: (password, bot) => {
        if (!f) return true;
        if (bot === null) return f.password !== undefined && password === f.password;
        const b = f.botPasswords?.[bot];
        return b !== undefined && password === (typeof b === 'string' ? b : b.password);
      },
      hasBot: (bot) => (f ? f.botPasswords?.[bot] !== undefined : false) || seen.includes(`${name}@${bot}`),
    };
  }

  /** The caller a session logged in as `identity` is (null: anonymous). */
  caller(identity: string | null): Caller {
    const facts = this.recorded().get(identity ?? '');
    if (identity === null) return { ...ANONYMOUS, groups: facts?.groups ?? null, rights: facts?.rights ?? null };
    const at = identity.indexOf('@');
    const name = at >= 0 ? identity.slice(0, at) : identity;
    const f = this.fixtures.get(name);
    const bot = at >= 0 ? f?.botPasswords?.[identity.slice(at + 1)] : undefined;
    const given = typeof bot === 'object' ? bot : at >= 0 ? undefined : f;
    return {
      name,
      id: f?.id ?? facts?.id ?? null,
      anon: false,
      identity,
      // A bot password narrows the account's rights by its grants, never its groups: ApiQueryUserInfo
      // shows getUserEffectiveGroups of the session's user, the account itself.
      groups: facts?.groups ?? given?.groups ?? f?.groups ?? null,
      rights: facts?.rights ?? given?.rights ?? null,
      ...(facts ? { userinfo: facts.userinfo } : {}),
    };
  }
}

/** Max-Age of the cookies of a main-account `action=login` (remember me) and of `clientlogin`, in seconds. */
const REMEMBER = 15_552_000;
const CLIENTLOGIN = 2_592_000;

/** How the sessions of one engine are shared with the other processes serving the same cassettes. */
export interface SessionSharing {
  /** The key session cookies are signed with (one for all processes; never written anywhere). */
  key: Buffer;
  /** The engine's scope (its suite; '' for the server's own): a cookie of one scope is no session of another. */
  scope: string;
  /** The write log and the sessions logged out. */
  state: SharedSessionState;
}

/**
 * Replay's sessions: made by a login token request or a login, named by their cookie, a signed
 * one any process serving the cassettes can read (signed-session.ts); and the write log. Tokens
 * are HMACs of the session's secret, in MediaWiki's form (`<32 hex><hex time>+\`).
 */
export class OfflineSessions {
  private readonly signer: SessionSigner;
  readonly state: SharedSessionState;

  constructor(
    readonly book: AccountBook,
    private readonly cookiePrefix: string,
    sharing: SessionSharing = { key: newSessionKey(), scope: '', state: new LocalState() },
  ) {
    this.signer = new SessionSigner(sharing.key, sharing.scope);
    this.state = sharing.state;
  }

  /** Writes made so far, oldest first (at most the bounds of WRITE_LOG_LIMITS; long values cut), when this process holds the log. */
  writes(): WriteEntry[] {
    return this.state.heldWrites()?.writes ?? [];
  }

  /** How many of the oldest writes were dropped to keep the log's bounds. */
  get droppedWrites(): number {
    return this.state.heldWrites()?.dropped ?? 0;
  }

  clearWrites(): void {
    void this.state.clearWrites();
  }

  /**
   * The session of one request (from its Cookie header). `stripped`: MediaWiki strips the user's
   * credentials (JSONP, `origin=*`, `Treat-as-Untrusted`): the caller is anonymous, but the session
   * is the one its cookies name, kept, never replaced (no new session cookie logs the client out).
   */
  open(cookieHeader: string | undefined, now: number, stripped = false): RequestSession {
    const cookies = parsePhpCookies(cookieHeader);
    const p = this.cookiePrefix;
    for (const name of [`${p}_BPsession`, `${p}_session`]) {
      const value = cookies.get(name);
      const s = value === undefined ? null : this.signer.read(value);
      if (value !== undefined && s && !this.state.revoked(s.nonce)) return new RequestSession(this, now, value, s, stripped);
    }
    return new RequestSession(this, now, null, null, stripped);
  }

  /** A new session (its cookie value and what it names). */
  create(identity: string | null): [string, SignedSession] {
    return this.signer.mint(identity);
  }

  /** Ends a session in every process (a logout, or the session a login replaces). */
  drop(session: SignedSession): void {
    this.state.revoke(session.nonce);
  }

  record(entry: WriteEntry): void {
    this.state.addWrite(entry);
  }

  get prefix(): string {
    return this.cookiePrefix;
  }
}

function gmt(ms: number): string {
  return new Date(ms).toUTCString();
}

/** One request's session, as the API modules use it (SessionPort), and the cookies it sets. */
export class RequestSession implements SessionPort {
  readonly caller: Caller;
  /** Set-Cookie values this request sets (a new session, a login). */
  readonly setCookie: string[] = [];
  private loggedOut = false;

  constructor(
    private readonly store: OfflineSessions,
    private readonly now: number,
    private id: string | null,
    private session: SignedSession | null,
    readonly credentialsStripped = false,
  ) {
    const identity = session?.identity ?? null;
    if (!credentialsStripped) this.caller = store.book.caller(identity);
    else if (identity !== null && identity.includes('@')) {
      // Nobody, in a bot-password session: `*`'s rights within the bot password's grants (checked on 1.39 and 1.43).
      this.caller = { ...store.book.caller(null), allowedRights: store.book.caller(identity).rights };
    } else this.caller = store.book.caller(null);
  }

  /** Whether replay's sessions answer this request (it carried one of them, or started one): else MediaWiki's cookie handling for unknown sessions applies. */
  get active(): boolean {
    return this.session !== null && !this.loggedOut;
  }

  get sessionId(): string | null {
    return this.id;
  }

  private ensure(): SignedSession {
    if (this.session) return this.session;
    const [id, s] = this.store.create(null);
    this.id = id;
    this.session = s;
    this.setCookie.push(`${this.store.prefix}_session=${id}; path=/; HttpOnly`);
    return s;
  }

  token(type: TokenType): string {
    // A logged-out user's CSRF-like tokens are `+\` (LoggedOutEditToken); login tokens need a session.
    if (this.caller.anon && type !== 'login' && type !== 'createaccount') return '+\\';
    const s = this.ensure();
    const hex = createHmac('md5', s.secret).update(type).digest('hex');
    return `${hex}${Math.floor(this.now / 1000).toString(16)}+\\`;
  }

  tokenValid(type: TokenType, value: string): boolean {
    if (this.caller.anon && type !== 'login' && type !== 'createaccount') return value === '+\\';
    if (!this.session) return false;
    const hex = createHmac('md5', this.session.secret).update(type).digest('hex');
    return value.length > 34 && value.startsWith(hex) && value.endsWith('+\\');
  }

  account(name: string): Account | null {
    return this.store.book.account(name);
  }

  get accountsComplete(): boolean {
    return this.store.book.complete;
  }

  login(account: Account, bot: string | null, how: 'login' | 'clientlogin'): void {
    if (this.session) this.store.drop(this.session);
    const identity = bot === null ? account.name : `${account.name}@${bot}`;
    const [id, s] = this.store.create(identity);
    this.id = id;
    this.session = s;
    const p = this.store.prefix;
    this.setCookie.length = 0;
    if (bot !== null) {
      this.setCookie.push(`${p}_BPsession=${id}; path=/; HttpOnly`);
      return;
    }
    const age = how === 'login' ? REMEMBER : CLIENTLOGIN;
    const keep = `expires=${gmt(this.now + age * 1000)}; Max-Age=${age}; path=/; HttpOnly`;
    this.setCookie.push(`${p}_session=${id}; path=/; HttpOnly`, `${p}UserID=${account.id ?? 0}; ${keep}`, `${p}UserName=${encodeURIComponent(account.name)}; ${keep}`);
    if (how === 'login') this.setCookie.push(`${p}Token=${randomBytes(16).toString('hex')}; ${keep}`);
  }

  logout(): void {
    if (this.session) this.store.drop(this.session);
    this.loggedOut = true;
  }

  write(entry: Omit<WriteEntry, 'user' | 'timestamp'>): void {
    this.store.record({ ...entry, user: this.caller.identity ?? this.caller.name, timestamp: new Date(this.now).toISOString().replace(/\.\d{3}Z$/, 'Z') });
  }
}

/**
 * The identities recordings were made as, with what their recorded `meta=userinfo` answers show
 * (and '' for anonymous callers): keys of logged-in recordings end in ` @<identity>`.
 */
export function recordedIdentities(keys: Iterable<string>, interaction: (key: string) => Interaction | undefined): Map<string, IdentityFacts> {
  const out = new Map<string, IdentityFacts>();
  const empty = (): IdentityFacts => ({ id: null, name: null, groups: null, rights: null, userinfo: new Map() });
  for (const key of keys) {
    const at = key.indexOf(' @');
    const identity = at < 0 ? '' : decodeURIComponent(key.slice(at + 2));
    let facts = out.get(identity);
    if (!facts && identity !== '') out.set(identity, (facts = empty()));
    if (!/(?:^|&)meta=[^&]*userinfo/.test(key)) continue;
    const i = interaction(key);
    const info = (i?.body['query'] as { userinfo?: JsonObject } | undefined)?.userinfo;
    if (!i || !info || i.status !== 200) continue;
    if (!facts) out.set(identity, (facts = empty()));
    takeUserInfo(facts.userinfo, info, splitMulti(i.request['uiprop'] ?? ''), i.request);
    if (typeof info['id'] === 'number') facts.id = info['id'];
    if (typeof info['name'] === 'string') facts.name = info['name'];
    if (Array.isArray(info['groups'])) facts.groups = info['groups'] as string[];
    if (Array.isArray(info['rights'])) facts.rights = info['rights'] as string[];
  }
  return out;
}
