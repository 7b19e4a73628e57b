import { readFile } from 'node:fs/promises';
import { cookiesAfter } from './identity.js';
import { askWhoIs } from './own-questions.js';
import { UpstreamError, type Upstream, type UpstreamAnswer } from './upstream.js';

/**
 * How `cassettes diff` checks what was recorded logged in: it logs in as the identity the
 * recording names (docs/decisions/0006-sessions-are-identities.md) and asks again with that
 * session. `Admin@mybot` logs in with the bot password `mybot` (`action=login`, as a bot does);
 * `Admin` with the account's own password (`action=clientlogin`). The passwords come from the
 * environment or a file the caller names; they are held in memory only, sent to the upstream only
 * (in a POST body, never a URL), and named by no output, log line or error text.
 */
export interface DiffCredential {
  /** The identity as the cassette names it: `Admin@mybot` (a bot password) or `Admin`. */
  user: string;
  password: string;
}

/** Credentials that cannot be read: where from and why, never what they hold. */
export class CredentialsError extends Error {
  readonly code = 'WIKITAPE_CREDENTIALS';
  constructor(message: string) {
    super(`wikitape: ${message}`);
    this.name = 'CredentialsError';
  }
}

/** A credentials file that cannot be read, and what it should hold. */
const badFile = (file: string, why: string) => new CredentialsError(`the credentials file ${file} ${why}; it holds {"user": "Admin@mybot", "password": "…"} or a list of them`);

/** The credentials a file holds: `{"user", "password"}` or a list of them (the wiki's bot password files are the first form). */
async function readCredentialsFile(file: string): Promise<DiffCredential[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw badFile(file, `could not be read (${(e as { code?: string }).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON.parse's message: it quotes the text around the fault, which may be a password.
    throw badFile(file, 'is not JSON');
  }
  const list = Array.isArray(data) ? data : [data];
  return list.map((c: unknown, n) => {
    const o = c as Partial<Record<string, unknown>> | null;
    if (typeof o !== 'object' || o === null || typeof o['user'] !== 'string' || typeof o['password'] !== 'string' || o['user'] === '') {
      throw badFile(file, Array.isArray(data) ? `has an entry (${n}) without a "user" and a "password"` : 'has no "user" and "password"');
    }
    return { user: o['user'], password: o['password'] };
  });
}

/** A session the diff asks with: its Cookie header; or why that identity's recordings are not checked. */
export type DiffSession = { cookie: string } | { unchecked: string };

/** Logs in once per identity (a second question for it waits for the first login). */
export class DiffSessions {
  private readonly passwords = new Map<string, string>();
  private readonly sessions = new Map<string, Promise<DiffSession>>();

  constructor(
    private readonly upstream: Upstream,
    credentials: readonly DiffCredential[],
    /** How the report names where credentials come from (what to set to check these). */
    private readonly hint: string,
  ) {
    for (const c of credentials) this.passwords.set(c.user, c.password);
  }

  /** The session to ask as `user` with, logging in the first time; or why its recordings are not checked. */
  session(user: string): Promise<DiffSession> {
    let s = this.sessions.get(user);
    if (!s) {
      const password = this.passwords.get(user);
      s = password === undefined ? Promise.resolve({ unchecked: `recorded logged in as ${user}, and no credentials for ${user} were given (${this.hint})` }) : this.logIn(user, password);
      this.sessions.set(user, s);
    }
    return s;
  }

  private async logIn(user: string, password: string): Promise<DiffSession> {
    const failed = (why: string) => ({ unchecked: `recorded logged in as ${user}; could not log in as ${user}: ${why}` });
    const first = await this.upstream.get({ action: 'query', meta: 'tokens', type: 'login', format: 'json', formatversion: '2' }, { what: 'its login token' });
    let cookie = cookiesAfter(undefined, first.headers.getSetCookie());
    const token = (json(first) as { query?: { tokens?: { logintoken?: unknown } } } | null)?.query?.tokens?.logintoken;
    if (typeof token !== 'string') return failed(`the wiki gave no login token (HTTP ${first.status})`);
    const at = user.indexOf('@');
    // A bot password logs in through action=login; a main account through clientlogin (ApiLogin
    // deprecates main-account logins, and a wiki may refuse them).
    const form =
      at > 0
        ? new URLSearchParams({ action: 'login', lgname: user, lgpassword: password, lgtoken: token, format: 'json', formatversion: '2' })
        : new URLSearchParams({ action: 'clientlogin', username: user, password, logintoken: token, loginreturnurl: this.upstream.url.href, format: 'json', formatversion: '2' });
    const answer = await this.upstream.post(form, { headers: { cookie }, what: 'its login answer' });
    cookie = cookiesAfter(cookie, answer.headers.getSetCookie());
    const body = json(answer) as { login?: { result?: unknown; reason?: unknown }; clientlogin?: { status?: unknown; message?: unknown }; error?: { code?: unknown } } | null;
    const result = at > 0 ? body?.login?.result : body?.clientlogin?.status;
    if (result !== (at > 0 ? 'Success' : 'PASS')) {
      const reason = at > 0 ? body?.login?.reason : body?.clientlogin?.message;
      return failed(`${String(result ?? body?.error?.code ?? `HTTP ${answer.status}`)}${typeof reason === 'string' ? ` (${reason})` : ''}`);
    }
    // The session is the identity's: the wiki says whose it is.
    let me: { id: number; name: string };
    try {
      me = await askWhoIs(this.upstream, { cookie });
    } catch (e) {
      return failed(e instanceof UpstreamError ? e.why : String(e));
    }
    if (me.name !== (at > 0 ? user.slice(0, at) : user)) return failed(`the wiki says the session is ${me.id === 0 ? 'nobody' : me.name}'s`);
    return { cookie };
  }
}

function json(a: UpstreamAnswer): unknown {
  try {
    return JSON.parse(a.text);
  } catch {
    return null;
  }
}

/** The environment variables that give one identity's credentials to `cassettes diff`. */
export const CREDENTIAL_VARIABLES = { user: 'WIKITAPE_DIFF_USER', password: 'WIKITAPE_DIFF_PASSWORD' } as const;

/**
 * The credentials `cassettes diff` logs in with: the file's (`--credentials FILE`) and the
 * environment's (WIKITAPE_DIFF_USER and WIKITAPE_DIFF_PASSWORD, one identity); the environment's
 * win for the identity it names. One variable without the other is refused, naming the other.
 */
export async function diffCredentials(env: Readonly<Record<string, string | undefined>>, file?: string): Promise<DiffCredential[]> {
  const out = file !== undefined ? await readCredentialsFile(file) : [];
  // An empty variable is an unset one (a CI secret that is not defined expands to nothing).
  const user = env[CREDENTIAL_VARIABLES.user] || undefined;
  const password = env[CREDENTIAL_VARIABLES.password] || undefined;
  if ((user === undefined) !== (password === undefined)) {
    const missing = user === undefined ? CREDENTIAL_VARIABLES.user : CREDENTIAL_VARIABLES.password;
    throw new CredentialsError(`${missing} is not set: ${CREDENTIAL_VARIABLES.user} and ${CREDENTIAL_VARIABLES.password} are given together`);
  }
  if (user !== undefined && password !== undefined) return [...out.filter((c) => c.user !== user), { user, password }];
  return out;
}
