/** The `Admin` account of an accounts fixture (README "Fixtures": `accounts`), id 1. */
export interface AdminAccount {
  /** The main password (`main-password` unless given). */
  password?: string;
  /** A bot password's name and its grants (`Admin@<bot>` logs in with `bot-password`). */
  bot?: { name: string; rights: string[] };
  groups?: string[];
  rights: string[];
}

/** The fixture document holding `Admin` as described. */
export function adminAccounts(a: AdminAccount) {
  const bot = a.bot ? { botPasswords: { [a.bot.name]: { password: 'bot-password', rights: a.bot.rights } } } : {};
  return { accounts: [{ name: 'Admin', id: 1, password: a.password ?? 'main-password', ...bot, groups: a.groups ?? ['*', 'user', 'sysop'], rights: a.rights }] };
}
