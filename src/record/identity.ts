import { parsePhpCookies } from '../output/session.js';
import { lacksSameOriginSecurity } from '../api/session.js';

/** Who a session is, for the cassette: a user name, null for an anonymous reader, or why it cannot be told. */
export type Identity = { user: string | null } | { refused: string };

/**
 * As whom the recorder asks the wiki for one request, decided once: the identity the answer is
 * filed under and the credentials every question the recorder itself asks for it carries (the
 * formatversion=2 question again, the user's rights). An anonymous identity is always asked with
 * no credentials at all, so an answer filed as anonymous is one the wiki gave to nobody in
 * particular, whatever the client sent; a user's is asked with the client's session cookies.
 */
export type Asking = { user: string | null; credentials: Readonly<Record<string, string>> } | { refused: string };

const ANONYMOUS: Asking = { user: null, credentials: {} };

/** The names of MediaWiki's session cookies (CookieSessionProvider, BotPasswordSessionProvider). */
const SESSION_COOKIE = /_(?:BP)?session$/;
const BOT_SESSION_COOKIE = /_BPsession$/;
/** Cookies that make a session without a session cookie (`<prefix>UserID`, `<prefix>Token`: "remember me"). */
const USER_COOKIE = /(?:UserID|Token)$/;

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** A request header's one value (a repeated one is not a credential the recorder passes on). */
function single(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The values of a Cookie header's session cookies (`<prefix>_session`, `<prefix>_BPsession`), set ones only. */
export function sessionIds(cookieHeader: string | undefined): string[] {
  const ids: string[] = [];
  for (const [name, value] of parsePhpCookies(cookieHeader)) if (SESSION_COOKIE.test(name) && value !== '' && value !== 'deleted') ids.push(value);
  return ids;
}

/**
 * Who each session the recorder sees belongs to. A login the recorder passes on names its
 * sessions: `action=login` as `<name>@<bot>` for a bot password (its rights are the bot's grants,
 * not the user's) or `<name>`, `action=clientlogin` as `<name>`. Any other session is asked of
 * the wiki (`meta=userinfo` with the client's cookies and Authorization header); a
 * bot-password session among those, or one an Authorization header makes, cannot be named (the
 * wiki does not say which bot password or grant it is) and is not recorded.
 *
 * Only session cookie values are kept, in memory, to tell sessions apart; they never reach a
 * cassette or any output.
 */
export class SessionIdentities {
  private readonly bySession = new Map<string, string>();
  private readonly asked = new Map<string, Promise<Identity>>();

  constructor(
    /** Asks the wiki who these credentials (Cookie, Authorization) log in as (`meta=userinfo`): its id and name. */
    private readonly whoIs: (credentials: Record<string, string>) => Promise<{ id: number; name: string }>,
  ) {}

  /**
   * How the recorder asks for one request. Where MediaWiki strips credentials (JSONP, `origin=*`,
   * `Treat-as-Untrusted`: ApiMain::lacksSameOriginSecurity, read as PHP reads the parameters) the
   * wiki answers as nobody: anonymous, asked with no credentials. Otherwise it answers as the
   * session's user, asked with the client's cookies; a session the wiki says is nobody's is
   * anonymous, asked with none.
   */
  async asking(params: ReadonlyMap<string, string>, headers: Headers): Promise<Asking> {
    if (lacksSameOriginSecurity(params, headers)) return ANONYMOUS;
    const cookie = single(headers, 'cookie');
    const authorization = single(headers, 'authorization');
    if (cookie === undefined && authorization === undefined) return ANONYMOUS;
    const identity = await this.identify(cookie, authorization);
    if ('refused' in identity) return identity;
    if (identity.user === null || cookie === undefined) return ANONYMOUS;
    return { user: identity.user, credentials: { cookie } };
  }

  /**
   * Notes the session cookies an answer sets: those of a successful login belong to its user (any
   * other session is asked of the wiki when it is used); a logout forgets the request's sessions.
   * Returns the user a login logged in, or null.
   */
  noteAnswer(params: ReadonlyMap<string, string>, body: string, setCookie: string | string[] | undefined, headers: Headers): string | null {
    if (params.get('action') === 'logout') this.forget(single(headers, 'cookie'));
    const user = loggedInAs(params, body);
    if (user === null) return null;
    for (const v of sessionCookiesSet(setCookie)) this.bySession.set(v, user);
    // Bounded: a long recording of many clients forgets the oldest sessions (they are asked again).
    while (this.bySession.size > 10_000) this.bySession.delete(this.bySession.keys().next().value!);
    return user;
  }

  /** Forgets what is known of a Cookie header's sessions (it logged out). */
  private forget(cookieHeader: string | undefined): void {
    if (cookieHeader === undefined) return;
    for (const k of [...this.asked.keys()]) if (k.startsWith(`${cookieHeader}\n`)) this.asked.delete(k);
    for (const [name, value] of parsePhpCookies(cookieHeader)) if (SESSION_COOKIE.test(name)) this.bySession.delete(value);
  }

  /** The user a login through the recorder made one of these cookies' sessions, or undefined. */
  private known(cookies: ReadonlyMap<string, string>): string | undefined {
    let plain: string | undefined;
    for (const [name, value] of cookies) {
      if (!SESSION_COOKIE.test(name) || value === '' || value === 'deleted') continue;
      const user = this.bySession.get(value);
      // A bot-password session wins over a plain one (BotPasswordSessionProvider has priority).
      if (user !== undefined && BOT_SESSION_COOKIE.test(name)) return user;
      plain ??= user;
    }
    return plain;
  }

  /** Who a request with these credentials asks as. */
  private identify(cookieHeader: string | undefined, authorization: string | undefined): Promise<Identity> {
    const cookies = parsePhpCookies(cookieHeader);
    const known = this.known(cookies);
    if (known !== undefined && authorization === undefined) return Promise.resolve({ user: known });
    const sessionish = [...cookies].some(([n, v]) => (SESSION_COOKIE.test(n) || USER_COOKIE.test(n)) && v !== '' && v !== 'deleted');
    if (!sessionish && authorization === undefined) return Promise.resolve({ user: null });
    const cacheKey = `${cookieHeader ?? ''}\n${authorization ?? ''}`;
    let p = this.asked.get(cacheKey);
    if (!p) {
      const bot = [...cookies].some(([n, v]) => BOT_SESSION_COOKIE.test(n) && v !== 'deleted');
      const credentials: Record<string, string> = { ...(cookieHeader !== undefined ? { cookie: cookieHeader } : {}), ...(authorization !== undefined ? { authorization } : {}) };
      p = this.whoIs(credentials).then(
        ({ id, name }): Identity => {
          if (id === 0) return { user: null };
          // The session a login through the recorder named, still the one the wiki answers as.
          if (known !== undefined && known.replace(/@.*$/, '') === name) return { user: known };
          if (authorization !== undefined) return { refused: `its Authorization header (or session) logs in as ${name}, with grants that cannot be told; log in through the recorder with a bot password` };
          if (bot) return { refused: `its bot-password session (logged in as ${name}) did not log in through the recorder, so which bot password it is cannot be told; log in through the recorder` };
          return { user: name };
        },
        (e: unknown): Identity => ({ refused: `the wiki could not say who its session belongs to (${e instanceof Error ? e.message : String(e)})` }),
      );
      this.asked.set(cacheKey, p);
      if (this.asked.size > 1000) this.asked.delete(this.asked.keys().next().value!);
    }
    return p;
  }
}

/** Values of the session cookies a Set-Cookie header list sets (not deletions). */
function sessionCookiesSet(setCookie: string | string[] | undefined): string[] {
  const out: string[] = [];
  for (const c of setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]) {
    const pair = c.slice(0, c.indexOf(';') < 0 ? c.length : c.indexOf(';'));
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (SESSION_COOKIE.test(name) && value !== '' && value !== 'deleted') out.push(value);
  }
  return out;
}

/** The user a login answer logged in (`Name` or `Name@bot`), or null when it is not a successful login. */
function loggedInAs(params: ReadonlyMap<string, string>, body: string): string | null {
  const action = params.get('action');
  if (action !== 'login' && action !== 'clientlogin') return null;
  let data: { login?: { result?: string; lgusername?: string }; clientlogin?: { status?: string; username?: string } };
  try {
    data = JSON.parse(body) as typeof data;
  } catch {
    return null;
  }
  if (action === 'login' && data.login?.result === 'Success' && typeof data.login.lgusername === 'string') {
    const lgname = params.get('lgname') ?? '';
    const at = lgname.indexOf('@');
    return at >= 0 ? `${data.login.lgusername}@${lgname.slice(at + 1)}` : data.login.lgusername;
  }
  if (action === 'clientlogin' && data.clientlogin?.status === 'PASS' && typeof data.clientlogin.username === 'string') return data.clientlogin.username;
  return null;
}

/** The Cookie header a client sends after an answer: its cookies, with those the answer set (or deleted). */
export function cookiesAfter(cookieHeader: string | undefined, setCookie: string | string[] | undefined): string {
  const jar = new Map<string, string>();
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) jar.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  for (const c of setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]) {
    const pair = c.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === 'deleted' || /max-age=0/i.test(c)) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}
