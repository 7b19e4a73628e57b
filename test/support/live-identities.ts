import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from './cookie-client.js';
import type { LiveWiki } from './live-wiki.js';

/**
 * The identities a logged-in hunt asks as, on a live wiki (scripts/live-wiki.sh) and on the
 * built-in wiki given an accounts fixture that mirrors them: the bot passwords of `Admin` with
 * their grants, and `Admin` itself. Their passwords stay in memory and in the temporary fixture
 * file; they are never printed.
 */
export interface Identity {
  /** How reports name it (`bot`, `admin`, `sysop`). */
  label: string;
  /** `Admin@<bot>` (a bot password: action=login) or `Admin` (the main account: action=clientlogin). */
  user: string;
  password: string;
}

/** The main password scripts/live-wiki.sh installs `Admin` with. */
const MAIN_PASSWORD = 'Adm1n-Passw0rd!';

/**
 * The live wiki's identities: `Admin@wikitape` (grants basic, highvolume: `apihighlimits`, none
 * that shows hidden parts), `Admin@wikitape-admin` (also blockusers: `block`, `hideuser`), and
 * `Admin` (a sysop with `deletedhistory`, `suppressrevision`, `suppressionlog`, `hideuser`).
 */
export async function liveIdentities(live: LiveWiki): Promise<Identity[]> {
  const [bot, admin] = await Promise.all([live.credentials(), live.adminCredentials()]);
  return [
    { label: 'bot', ...bot },
    { label: 'admin', ...admin },
    { label: 'sysop', user: 'Admin', password: MAIN_PASSWORD },
  ];
}

/**
 * A client logged in as `who`, the way bots log in: `meta=tokens&type=login`, then `action=login`
 * for a bot password (mwn, mwclient) or `action=clientlogin` for a main account; cookies kept.
 */
export async function loggedIn(api: string, who: Identity): Promise<Client> {
  const c = new Client(api);
  const token = await c.token('login');
  const result = who.user.includes('@')
    ? String((await c.call({ action: 'login', lgname: who.user, lgpassword: who.password, lgtoken: token })).body['login']?.result)
    : String((await c.call({ action: 'clientlogin', username: who.user, password: who.password, logintoken: token, loginreturnurl: 'http://127.0.0.1/' })).body['clientlogin']?.status);
  if (result !== 'Success' && result !== 'PASS') throw new Error(`${api}: the login as ${who.user} failed (${result})`);
  return c;
}

/** What `meta=userinfo` shows of a logged-in client: its id, groups and rights. */
async function groupsAndRights(c: Client): Promise<{ id: number; groups: string[]; rights: string[] }> {
  const r = await c.call({ action: 'query', meta: 'userinfo', uiprop: 'groups|rights' }, 'GET');
  return r.body['query'].userinfo as { id: number; groups: string[]; rights: string[] };
}

/**
 * An accounts fixture (README "Logged-in bots") mirroring the live identities: one account per
 * user name, its groups and rights those the live wiki shows the main account, each bot password
 * with the rights the live wiki shows its session. Written to `dir` (a temporary folder: it holds
 * the passwords); returns its path.
 */
export async function accountsFixture(api: string, identities: readonly Identity[], dir: string): Promise<string> {
  const accounts = new Map<string, { name: string; id: number; password?: string; botPasswords: Record<string, { password: string; rights: string[] }>; groups?: string[]; rights?: string[] }>();
  for (const who of identities) {
    const info = await groupsAndRights(await loggedIn(api, who));
    const [name, bot] = who.user.split('@') as [string, string | undefined];
    const account = accounts.get(name) ?? { name, id: info.id, botPasswords: {} };
    accounts.set(name, account);
    if (bot !== undefined) account.botPasswords[bot] = { password: who.password, rights: info.rights };
    else Object.assign(account, { password: who.password, groups: info.groups, rights: info.rights });
  }
  const file = join(dir, 'accounts.json');
  await writeFile(file, JSON.stringify({ accounts: [...accounts.values()] }), { mode: 0o600 });
  return file;
}
