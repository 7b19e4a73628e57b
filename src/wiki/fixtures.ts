import { JSONFile } from 'lowdb/node';
import { type ExtLink, type InterwikiEntry, type Page, type Redirect, type WikiModel, addEntities, emptyModel, entityKind } from './model.js';
import type { WikiProfile } from './profile.js';

/**
 * A fixture file: a wiki model and, optionally, the profile of the wiki it describes. Pages
 * may list external links as plain URLs; they get `el_id`s in file order. Each list module's
 * entities are listed under its kind (`logevents`, `blocks`, `protectedtitles` …), written as the
 * API shows them (see FixtureKind).
 */
export interface FixtureFile {
  profile?: Partial<WikiProfile>;
  pages?: Array<Omit<Page, 'extlinks'> & { extlinks?: Array<ExtLink | string> }>;
  spamBlacklist?: string[];
  spamWhitelist?: string[];
  /** The blacklist file the wiki reads (shown in action=spamblacklist's debuginfo). */
  spamBlacklistFile?: string;
  /** Redirects and their targets, as `query.redirects` shows them (`{from, to, tofragment?, tointerwiki?}`). */
  redirects?: Redirect[];
  /** The interwiki table, as `meta=siteinfo&siprop=interwikimap` shows it (`{prefix, url}`); default a default install's. */
  interwikimap?: InterwikiEntry[];
  /**
   * Accounts replay can log in, with their passwords (never shown anywhere): `name`, `id`,
   * `password` (main account), `botPasswords` (`{ "<bot>": "<password>" }` or
   * `{ "<bot>": { "password": …, "rights": […] } }`), `groups`, `rights`. Given at all, they are
   * all the accounts there are: another name fails to log in, as on the wiki.
   */
  accounts?: FixtureAccountData[];
  /**
   * The rights the file's lists were read with (a crawl logged in; `scripts/crawl-fixture.mjs`
   * writes its session's rights): they hold what those rights show (hidden log entry parts, the
   * suppression log, hidden blocks). Without it, the lists are what readers see, and a caller
   * with rights that show more is flagged (`session.visibility`).
   */
  seenWithRights?: string[];
  [kind: string]: unknown;
}

/**
 * A kind of entity fixtures may list, as its list module declares it (api/list-module.ts
 * ListEntity): the name it is listed under and how an entry is read into the model.
 */
export interface FixtureKind {
  readonly kind: string;
  /** The entry as the model keeps it, or what is wrong with it. */
  fromFixture(entry: Record<string, unknown>): object | string;
}

/** An account of a fixture file (see FixtureFile.accounts). */
export interface FixtureAccountData {
  name: string;
  id?: number;
  password?: string;
  botPasswords?: Record<string, string | { password: string; groups?: string[]; rights?: string[] }>;
  groups?: string[];
  rights?: string[];
}

/** Error raised for a fixture file that cannot be used; says which file and what to fix. */
class FixtureError extends Error {
  readonly code = 'WIKITAPE_FIXTURE';
  constructor(file: string, problem: string) {
    super(`wikitape: fixture file ${file}: ${problem}`);
    this.name = 'FixtureError';
  }
}

/**
 * Reads fixture files (data only: JSON is parsed, never evaluated) and merges them into one model;
 * `kinds` are the list modules' kinds of entity a file may list.
 */
export async function loadFixtures(
  files: readonly string[],
  kinds: readonly FixtureKind[],
): Promise<{ model: WikiModel; profile: Partial<WikiProfile>; accounts: FixtureAccountData[]; counts: { file: string; entries: number }[]; seenWithRights: string[] | null }> {
  const model = emptyModel();
  let profile: Partial<WikiProfile> = {};
  const accounts: FixtureAccountData[] = [];
  const counts: { file: string; entries: number }[] = [];
  let seen: string[] | null = null;
  for (const file of files) {
    let data: unknown;
    try {
      data = await new JSONFile<unknown>(file).read();
    } catch (e) {
      throw new FixtureError(file, tooLongForJson(e) ? TOO_BIG : `not readable JSON (${(e as Error).message})`);
    }
    if (data === null) throw new FixtureError(file, 'no such file');
    mergeFixture(model, data, kinds, file);
    const p = (data as FixtureFile).profile;
    if (p) profile = { ...profile, ...p };
    for (const a of readAccounts(data as FixtureFile, file)) accounts.push(a);
    seen = seenWith(seen, data as FixtureFile, kinds, file);
    // What replay says it loaded: the file's pages and list entries.
    const lists = [...kinds.map((k) => k.kind), 'pages'].map((k) => (data as FixtureFile)[k]);
    counts.push({ file, entries: lists.reduce((n: number, l) => n + (Array.isArray(l) ? l.length : 0), 0) });
  }
  return { model, profile, accounts, counts, seenWithRights: seen };
}

/**
 * The rights the lists of the files read so far (`seen`, null: none listed anything) and of `f`
 * were all read with: those every file that lists entities declares (`seenWithRights`; a file
 * without it is a reader's, none). A file that lists nothing (accounts, a profile) changes nothing.
 */
export function seenWith(seen: string[] | null, f: FixtureFile, kinds: readonly FixtureKind[], file: string): string[] | null {
  const given = f.seenWithRights;
  if (given !== undefined && (!Array.isArray(given) || given.some((r) => typeof r !== 'string'))) throw new FixtureError(file, '"seenWithRights" must be a list of rights');
  if (!kinds.some((k) => Array.isArray(f[k.kind]) && (f[k.kind] as unknown[]).length > 0)) return seen;
  const own = given ?? [];
  return seen === null ? own : seen.filter((r) => own.includes(r));
}

/**
 * Whether reading a JSON file failed because its text is longer than V8 makes a string (about
 * 512 MB): a fixture or cassette of about a million log events.
 */
export function tooLongForJson(e: unknown): boolean {
  return e instanceof RangeError && /Invalid string length|Cannot create a string longer/.test(e.message);
}

const TOO_BIG =
  'too big to read as one JSON text (Node.js strings stop at about 512 MB): split it into several fixture files, or keep the wiki in a database store (wikitape cassettes convert)';

/** Adds one fixture document (a file's, or a model given directly) to a model, checking the shape of each list. */
export function mergeFixture(model: WikiModel, data: unknown, kinds: readonly FixtureKind[], file = '<fixture>'): void {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new FixtureError(file, 'the top level must be an object');
  const f = data as FixtureFile;
  for (const key of [...kinds.map((k) => k.kind), 'pages', 'spamBlacklist', 'spamWhitelist', 'redirects', 'interwikimap']) {
    if (f[key] !== undefined && !Array.isArray(f[key])) throw new FixtureError(file, `"${key}" must be a list`);
  }
  for (const k of kinds) {
    const entries = (f[k.kind] ?? []) as unknown[];
    const read = entries.map((e, n) => {
      const r = typeof e === 'object' && e !== null && !Array.isArray(e) ? k.fromFixture(e as Record<string, unknown>) : 'it is not an object';
      if (typeof r === 'string') throw new FixtureError(file, `"${k.kind}[${n}]": ${r}`);
      return r;
    });
    addEntities(model, entityKind(k.kind), read);
  }
  // (a loop: spread into Math.max, a million links passed the call stack's limit)
  let nextId = 1;
  for (const p of model.pages) for (const l of p.extlinks) if (l.id >= nextId) nextId = l.id + 1;
  for (const p of (f.pages ?? []) as unknown[]) {
    const page = typeof p === 'object' && p !== null ? readFixturePage(p as Record<string, unknown>, () => nextId++) : 'every page needs "pageid" and "title"';
    if (typeof page === 'string') throw new FixtureError(file, page);
    model.pages.push(page);
  }
  for (const line of f.spamBlacklist ?? []) model.spamBlacklist.push(line);
  for (const line of f.spamWhitelist ?? []) model.spamWhitelist.push(line);
  if (typeof f.spamBlacklistFile === 'string') model.spamBlacklistFile = f.spamBlacklistFile;
  mergeRedirects(model, f, file);
}

/** A fixture's redirects (each a `from` and a `to`) and interwiki table (each a `prefix` and a `url`). */
function mergeRedirects(model: WikiModel, f: FixtureFile, file: string): void {
  for (const r of f.redirects ?? []) {
    if (typeof r?.from !== 'string' || typeof r.to !== 'string') throw new FixtureError(file, 'every redirect needs "from" and "to"');
    (model.redirects ??= []).push(r);
  }
  if (f.interwikimap === undefined) return;
  if (!f.interwikimap.every((e) => typeof e?.prefix === 'string' && typeof e.url === 'string')) throw new FixtureError(file, 'every interwikimap entry needs "prefix" and "url"');
  model.interwikimap = f.interwikimap;
}

/**
 * A fixture's page as the model keeps it (links given as plain URLs numbered by `nextLinkId`), or
 * what is wrong with it. Its namespace may be left out only for a title without a colon, which
 * no namespace prefix can start (the main namespace's, 0): the namespaces a prefix names depend
 * on the wiki's language and settings, so any other title needs `ns`.
 */
export function readFixturePage(p: Record<string, unknown>, nextLinkId: () => number): Page | string {
  if (typeof p['title'] !== 'string' || typeof p['pageid'] !== 'number') return 'every page needs "pageid" and "title"';
  if (p['ns'] !== undefined && typeof p['ns'] !== 'number') return `page ${p['pageid']} ("${p['title']}"): "ns" must be a number`;
  if (p['ns'] === undefined && p['title'].includes(':')) return `page ${p['pageid']} ("${p['title']}") needs "ns": its title has a colon, so its namespace is not known from the title alone`;
  const given = Array.isArray(p['extlinks']) ? (p['extlinks'] as Array<ExtLink | string>) : [];
  const bad = given.find((l) => typeof l !== 'string' && (typeof l !== 'object' || l === null || typeof l.url !== 'string'));
  if (bad !== undefined) return `page ${p['pageid']} ("${p['title']}"): every external link needs a "url" (a link is a URL, or an object with "url" and "id")`;
  // A protection is its type, level and expiry (list=allpages' protection filters read all three; `cascade` absent: not cascading).
  const protection = p['protection'];
  if (protection !== undefined) {
    const fields = ['type', 'level', 'expiry'];
    const wrong = Array.isArray(protection) ? (protection as unknown[]).find((r) => typeof r !== 'object' || r === null || fields.some((f) => typeof (r as Record<string, unknown>)[f] !== 'string')) : protection;
    if (wrong !== undefined) return `page ${p['pageid']} ("${p['title']}"): "protection" must be a list of protections, each with "type", "level" and "expiry"`;
  }
  if (p['contentmodel'] !== undefined && (typeof p['contentmodel'] !== 'string' || p['contentmodel'] === '')) return `page ${p['pageid']} ("${p['title']}"): "contentmodel" must be a content model's name ("wikitext", "css", "javascript", "json", "text" …)`;
  const links = given.map((l) => (typeof l === 'string' ? { id: nextLinkId(), url: l } : l));
  return { ...(p as unknown as Page), ns: (p['ns'] as number | undefined) ?? 0, extlinks: links };
}

/** The accounts of a fixture file, each checked: a name, and passwords that are strings. */
function readAccounts(f: FixtureFile, file: string): FixtureAccountData[] {
  if (f.accounts === undefined) return [];
  if (!Array.isArray(f.accounts)) throw new FixtureError(file, '"accounts" must be a list');
  for (const a of f.accounts as unknown[]) {
    const x = a as FixtureAccountData;
    if (typeof a !== 'object' || a === null || typeof x.name !== 'string' || x.name === '') throw new FixtureError(file, 'every account needs a "name"');
    if (x.password !== undefined && typeof x.password !== 'string') throw new FixtureError(file, `account ${x.name}: "password" must be a string`);
    for (const [bot, b] of Object.entries(x.botPasswords ?? {})) {
      if (typeof b !== 'string' && (typeof b !== 'object' || b === null || typeof b.password !== 'string')) throw new FixtureError(file, `account ${x.name}: bot password "${bot}" must be a string or have a "password"`);
    }
  }
  return f.accounts;
}
