import { parsePhpCookies } from '../output/session.js';
import type { ParamMap } from '../request/params.js';

/** Who a session is, for the cassette: a user name, null for an anonymous reader, or why it cannot be told. */
export type Identity = { user: string | null } | { refused: string };

/** The names of MediaWiki's session cookies (CookieSessionProvider, BotPasswordSessionProvider). */
const SESSION_COOKIE = /_(?:BP)?session$/;
const BOT_SESSION_COOKIE = /_BPsession$/;
/** Cookies that make a session without a session cookie (`<prefix>UserID`, `<prefix>Token`: "remember me"). */
const USER_COOKIE = /(?:UserID|Token)$/;

/**
 * Who each session the recorder sees belongs to. A login the recorder passes on names its
 * sessions: `action=login` as `<name>@<bot>` for a bot password (its rights are the bot's grants,
 * not the user's) or `<name>`, `action=clientlogin` as `<name>`; every other session cookie the
 * wiki sets is an anonymous one. A session the recorder did not see begin is asked of the wiki
 * (`meta=userinfo` with the client's cookies); a bot-password session among those cannot be
 * named (the wiki does not say which bot password it is) and is not recorded.
 *
 * Only session cookie values are kept, in memory, to tell sessions apart; they never reach a
 * cassette or any output.
 */
export class SessionIdentities {
  private readonly bySession = new Map<string, string | null>();
  private readonly asked = new Map<string, Promise<Identity>>();

  constructor(
    /** Asks the wiki who these cookies log in as (`meta=userinfo`): its id and name. */
    private readonly whoIs: (cookie: string) => Promise<{ id: number; name: string }>,
  ) {}

  /**
   * Notes the session cookies an answer sets: those of a successful login belong to its user,
   * all others are anonymous sessions. Returns the user a login logged in, or null.
   */
  noteAnswer(params: ParamMap, body: string, setCookie: string | string[] | undefined): string | null {
    const values = sessionCookiesSet(setCookie);
    if (values.length === 0) return null;
    const user = loggedInAs(params, body);
    for (const v of values) this.bySession.set(v, user);
    // Bounded: a long recording of many clients forgets the oldest sessions (they are asked again).
    while (this.bySession.size > 10_000) this.bySession.delete(this.bySession.keys().next().value!);
    return user;
  }

  /** Who a request with this Cookie header asks as. */
  identify(cookieHeader: string | undefined): Promise<Identity> {
    if (!cookieHeader) return Promise.resolve({ user: null });
    const cookies = parsePhpCookies(cookieHeader);
    let sessionCookies = 0;
    for (const [name, value] of cookies) {
      if (!SESSION_COOKIE.test(name) || value === '' || value === 'deleted') continue;
      sessionCookies++;
      const known = this.bySession.get(value);
      // A bot-password session wins over a plain one (BotPasswordSessionProvider has priority).
      if (known !== undefined && (BOT_SESSION_COOKIE.test(name) || known !== null)) return Promise.resolve({ user: known });
    }
    const userCookies = [...cookies.keys()].some((n) => USER_COOKIE.test(n));
    if (sessionCookies === 0 && !userCookies) return Promise.resolve({ user: null });
    let p = this.asked.get(cookieHeader);
    if (!p) {
      const bot = [...cookies.keys()].some((n) => BOT_SESSION_COOKIE.test(n) && cookies.get(n) !== 'deleted');
      p = this.whoIs(cookieHeader).then(
        ({ id, name }): Identity => {
          if (id === 0) return { user: null };
          if (bot) return { refused: `its bot-password session (logged in as ${name}) did not log in through the recorder, so which bot password it is cannot be told; log in through the recorder` };
          return { user: name };
        },
        (e: unknown): Identity => ({ refused: `the wiki could not say who its session belongs to (${e instanceof Error ? e.message : String(e)})` }),
      );
      this.asked.set(cookieHeader, p);
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
function loggedInAs(params: ParamMap, body: string): string | null {
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
