import type { WikiFacts } from './bot-facts.js';
import { mulberry32 } from '../../src/util/random.js';

/**
 * Random questions over the parameter space a live wiki declares (`action=paraminfo`): each
 * parameter's value is drawn from its declared type (enum values single and multi, with `*`,
 * duplicates and unknown values; limits around their bounds; namespaces; timestamps in the forms
 * MediaWiki reads; user names and titles in the spellings bots use), over the wiki's own data
 * (WikiFacts), plus the main module's parameters bots add. Seeded: the same seed, paraminfo and
 * facts give the same questions, so a finding reproduces.
 */

/** A parameter as `action=paraminfo&formatversion=2` describes it. */
interface ParamInfo {
  name: string;
  type: string | string[];
  multi?: boolean;
  max?: number;
  highmax?: number;
  min?: number;
  allspecifier?: string;
  required?: boolean;
}

/** A module as `action=paraminfo&formatversion=2` describes it. */
export interface ModuleInfo {
  path: string;
  name: string;
  group?: string;
  prefix: string;
  parameters: ParamInfo[];
}

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export const seeded: (seed: number) => () => number = mulberry32;

type Random = () => number;
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const chance = (r: Random, p: number) => r() < p;

/** The modules the built-in wiki implements, by paraminfo path, and how often each is asked. */
const BUILTIN_MODULES: Readonly<Record<string, number>> = {
  'query+logevents': 5,
  'query+blocks': 4,
  'query+protectedtitles': 3,
  'query+allpages': 4,
  'query+extlinks': 4,
  'query+userinfo': 1,
  'query+siteinfo': 2,
  'query+tokens': 1,
  parse: 2,
  spamblacklist: 2,
  paraminfo: 1,
};

/**
 * The modules a logged-in hunt asks about, and how often: what the caller's rights change most
 * (hidden log entry parts and the suppression log, hidden blocks, `userinfo`, tokens) is asked
 * most; the rest still now and then (apihighlimits' limits, `assert`).
 */
export const IDENTITY_MODULES: Readonly<Record<string, number>> = {
  'query+logevents': 6,
  'query+blocks': 5,
  'query+userinfo': 3,
  'query+tokens': 2,
  'query+protectedtitles': 2,
  'query+allpages': 2,
  'query+extlinks': 2,
  'query+siteinfo': 1,
  parse: 1,
  spamblacklist: 1,
  paraminfo: 1,
};

/** Spellings of a timestamp MediaWiki's ConvertibleTimestamp reads (and some it does not). */
function timestamp(r: Random, facts: WikiFacts): string {
  const iso = chance(r, 0.7) && facts.logTimestamps.length > 0 ? pick(r, facts.logTimestamps) : pick(r, ['2001-01-15T00:00:00Z', '2030-01-01T00:00:00Z', '2026-11-27T12:00:00Z']);
  const ms = Date.parse(iso) + pick(r, [0, 0, 1000, -1000, 3600_000]);
  const d = new Date(ms).toISOString().replace('.000', '');
  const digits = d.replace(/[-:TZ]/g, '');
  return pick(r, [d, d, d.slice(0, -1), digits, digits, String(ms / 1000), 'now', d.slice(0, 10), `${d.slice(0, 10)} ${d.slice(11, 19)}`, d.replace('Z', '.123Z'), d.replace('Z', '+01:00'), '0', '', 'yesterday', '20010115']);
}

/** Namespace names in every spelling the wiki knows: localized, canonical, alias; with and without underscores. */
function namespaceName(r: Random, facts: WikiFacts, id: number): string {
  const ns = facts.namespaces.find((n) => n.id === id);
  const names = [ns?.name ?? '', ns?.canonical ?? ns?.name ?? '', ...facts.aliases.filter((a) => a.id === id).map((a) => a.alias)].filter(Boolean);
  const name = names.length > 0 ? pick(r, names) : '';
  return chance(r, 0.3) ? name.replace(/ /g, '_') : chance(r, 0.2) ? name.toLowerCase() : name;
}

/** A page title in one of the spellings bots send. */
function title(r: Random, facts: WikiFacts): string {
  if (chance(r, 0.08)) return pick(r, ['Нет такой страницы', 'No such page', 'Special:Random', 'Служебная:Все страницы', 'a[b', 'Talk:', ':', '', 'Media:X.png', 'Category:Без ссылок', 'en:Foo', 'Foo#bar', 'Файл:Нет.png']);
  const page = facts.pages.length > 0 ? pick(r, facts.pages) : { title: 'Alpha', ns: 0 };
  const colon = page.ns !== 0 ? page.title.indexOf(':') : -1;
  let prefix = colon >= 0 ? page.title.slice(0, colon + 1) : '';
  let rest = colon >= 0 ? page.title.slice(colon + 1) : page.title;
  if (prefix && chance(r, 0.4)) prefix = `${namespaceName(r, facts, page.ns)}:`;
  const forms: (() => void)[] = [
    () => (rest = rest.replace(/ /g, '_')),
    () => (rest = rest.charAt(0).toLowerCase() + rest.slice(1)),
    () => (rest = `${rest}#Раздел`),
    () => (prefix = `:${prefix}`),
    () => (rest = `${rest}  `),
    () => (prefix = ` ${prefix}`),
    () => (rest = rest.normalize('NFD')),
    () => (rest = encodeURIComponent(rest)),
    () => (rest = rest.toUpperCase()),
    () => (rest = `${rest}_`),
  ];
  for (const f of forms) if (chance(r, 0.1)) f();
  return prefix + rest;
}

/** A user name in one of the spellings bots send: real names, IPs and ranges, lowercase, underscores, prefixed. */
function user(r: Random, facts: WikiFacts): string {
  const real = [...facts.logUsers, ...facts.blocks.map((b) => b.user)];
  if (chance(r, 0.25) || real.length === 0) {
    return pick(r, ['127.0.0.1', '203.0.113.5', '2001:db8::1', '2001:DB8:0:0:0:0:0:1', '192.0.2.0/24', '2001:db8::/64', '10.0.0.0/8', 'Nobody here', 'en>Admin', 'imported>Someone', 'Участник:Admin', 'User:Admin', 'a|b', '#foo', '~2024-1', '']);
  }
  let name = pick(r, real);
  if (chance(r, 0.15)) name = name.charAt(0).toLowerCase() + name.slice(1);
  if (chance(r, 0.15)) name = name.replace(/ /g, '_');
  if (chance(r, 0.08)) name = name.toLowerCase();
  if (chance(r, 0.05)) name = `${name} `;
  return name;
}

function ip(r: Random, facts: WikiFacts): string {
  const blocked = facts.blocks.map((b) => b.user).filter((u) => /^[\d.:/A-Fa-f]+$/.test(u));
  if (chance(r, 0.4) && blocked.length > 0) {
    const b = pick(r, blocked);
    return chance(r, 0.3) ? b.toLowerCase() : b.replace(/\/\d+$/, '');
  }
  return pick(r, ['127.0.0.1', '192.0.2.7', '198.51.100.0/24', '203.0.113.0/16', '2001:db8::5', '2001:db8::/32', '10.0.0.0/8', '1.2.3.4/33', 'abc', '', '203.0.113.185']);
}

function url(r: Random, facts: WikiFacts): string {
  const base = chance(r, 0.6) && facts.urls.length > 0 ? pick(r, facts.urls) : `http://${pick(r, [...facts.blacklistHosts, 'example.com', 'пример.рф'])}/x`;
  return pick(r, [base, base.replace(/^https?:/, ''), base.toUpperCase(), base.replace(/^http/, 'ftp'), base.replace(/\/[^/]*$/, ''), 'not a url', 'mailto:info@example.org', `${base}?a=b#c`]);
}

/** An `elquery`: a link's host and path, with and without the protocol and wildcards. */
function linkQuery(r: Random, facts: WikiFacts): string {
  const u = facts.urls.length > 0 ? pick(r, facts.urls) : 'http://example.org/x';
  const noProto = u.replace(/^[a-z]+:(\/\/)?/, '');
  const host = noProto.replace(/[/?#].*/, '');
  const forms = [noProto, host, `${host}/`, `*.${host.split('.').slice(-2).join('.')}`, `${host}/*`, u, `${noProto.slice(0, Math.max(1, noProto.length - 3))}*`, host.toUpperCase(), '', '*', 'example.org'];
  return pick(r, forms);
}

const TAGS = ['mw-new-redirect', 'mw-replace', 'mw-blank', 'mw-rollback', 'bogus-tag', ''];
const SUMMARIES = ['Правка', '[[Alpha]] и [[Нет такой страницы|ссылка]]', '/* Раздел */ текст', "'''жирный''' <b>x</b>", '[[Special:Random]]', '{{шаблон}}', 'http://example.org/ ссылка', '[[:Категория:X]]', '[[Файл:X.png]]', '', '/* */', '&amp; & <', '[[User:Admin|Админ]]', '[[w:Foo]]'];

/** A value for one parameter, from its declared type. */
function value(r: Random, p: ParamInfo, mod: ModuleInfo, facts: WikiFacts): string | null {
  const t = p.type;
  const n = p.name;
  const multi = (one: () => string) => {
    const k = pick(r, [1, 1, 1, 2, 2, 3]);
    const vs = Array.from({ length: k }, one);
    if (chance(r, 0.08) && vs.length > 0) vs.push(vs[0]!);
    return vs.join('|');
  };
  if (Array.isArray(t)) {
    const one = () => (chance(r, 0.06) ? pick(r, ['bogus', 'Bogus', '']) : pick(r, t));
    if (p.multi) {
      if (p.allspecifier && chance(r, 0.12)) return p.allspecifier;
      return chance(r, 0.05) ? '' : multi(one);
    }
    return one();
  }
  switch (t) {
    case 'limit': {
      const max = p.max ?? 500;
      return pick(r, ['1', '1', '2', String(2 + Math.floor(r() * 8)), String(2 + Math.floor(r() * 8)), 'max', 'max', String(max), String(max + 1), String((p.highmax ?? 5000) + 1), '0', '-1', 'abc', '']);
    }
    case 'boolean':
      return pick(r, ['', '1', 'true', 'false', '0']);
    case 'timestamp':
      return timestamp(r, facts);
    case 'namespace': {
      const ids = facts.namespaces.map((x) => x.id);
      const one = () => pick(r, [...ids, ...ids, -1, -2, 9999, 'abc'].map(String));
      if (p.multi) return p.allspecifier && chance(r, 0.15) ? p.allspecifier : multi(one);
      return one();
    }
    case 'user':
      return p.multi ? multi(() => user(r, facts)) : user(r, facts);
    case 'integer': {
      if (n === 'ids') return multi(() => (chance(r, 0.8) && facts.blocks.length > 0 ? String(pick(r, facts.blocks).id) : pick(r, ['0', '-1', '99999', 'abc'])));
      if (n === 'pageids' || n === 'pageid') return String(pick(r, facts.pages).pageid);
      if (n === 'minsize' || n === 'maxsize') return pick(r, ['0', '100', '150', '200', '300', '1000', '-5', 'abc']);
      if (n === 'maxlag') return pick(r, ['5', '0', '-1', '100']);
      return pick(r, ['0', '1', '5', '-1', 'abc']);
    }
    case 'text':
      return pick(r, SUMMARIES);
    default:
      break;
  }
  // Strings, by what the parameter names.
  if (n === 'continue') return null;
  if (n === 'title' || n === 'titles' || n === 'page') return p.multi ? multi(() => title(r, facts)) : title(r, facts);
  if (n === 'from' || n === 'to' || n === 'prefix') {
    const t0 = title(r, facts);
    const bare = mod.name === 'allpages' ? t0.replace(/^[^:]*:/, '') : t0;
    return pick(r, [bare, bare.slice(0, 1 + Math.floor(r() * 3)), bare.toLowerCase(), '', 'Я', 'A']);
  }
  if (n === 'ip') return ip(r, facts);
  if (n === 'tag') return pick(r, TAGS);
  if (n === 'query') return linkQuery(r, facts);
  if (n === 'url') return multi(() => url(r, facts));
  if (n === 'summary') return pick(r, SUMMARIES);
  if (n === 'modules') {
    return multi(() => pick(r, ['query+logevents', 'query+blocks', 'query+allpages', 'query+extlinks', 'query+siteinfo', 'main', 'parse', 'spamblacklist', 'query', 'query+*', 'bogus', 'query+bogus', 'paraminfo', 'query+userinfo']));
  }
  return pick(r, ['x', 'Раздел', '1', '']);
}

/** How likely a module's parameter is asked: parse's own questions are about its summary, the rest stay rare. */
function share(mod: ModuleInfo, p: ParamInfo): number {
  if (mod.name === 'parse') return ['title', 'prop', 'section', 'sectiontitle', 'disablelimitreport', 'contentmodel', 'pst', 'preview'].includes(p.name) ? 0.2 : 0.03;
  if (mod.name === 'paraminfo') return p.name === 'modules' || p.name === 'helpformat' ? 0.7 : 0.1;
  return 0.4;
}

/** `assertuser` values: the caller's own name in the spellings bots send, and others. */
const ASSERT_USERS = ['Admin', 'Admin', 'admin', 'Admin ', 'Admin_', 'User:Admin', 'Участник:Admin', 'Admin@wikitape', 'Nobody here', '127.0.0.1', 'Sockpuppet 2', '', 'a|b'];

/** The main module's parameters as bots add them; logged in, also `assertuser` and `assert` more often. */
function mainParams(r: Random, loggedIn: boolean): [string, string][] {
  const out: [string, string][] = [];
  const format = pick(r, ['json', 'json', 'json', 'json', 'json', 'json', 'json', 'json', 'xml', 'php', 'jsonfm', 'none']);
  out.push(['format', format]);
  const add = (p: number, name: string, values: string[]) => {
    if (chance(r, p)) out.push([name, pick(r, values)]);
  };
  add(0.5, 'formatversion', ['2', '2', '1', 'latest']);
  add(0.1, 'utf8', ['1', '']);
  add(0.1, 'ascii', ['1']);
  add(0.15, 'errorformat', ['plaintext', 'wikitext', 'html', 'raw', 'none', 'bc']);
  add(0.2, 'uselang', ['ru', 'en', 'de', 'content', 'user', 'bogus']);
  add(0.08, 'errorlang', ['ru', 'en', 'de', 'content', 'uselang']);
  add(0.08, 'maxlag', ['5', '0', '-1']);
  add(0.08, 'assert', ['anon', 'user', 'bot', 'bogus']);
  add(0.1, 'curtimestamp', ['1']);
  add(0.08, 'responselanginfo', ['1']);
  add(0.08, 'requestid', ['abc', '42', 'é']);
  add(0.06, 'origin', ['*', 'http://example.org']);
  add(0.06, 'smaxage', ['0', '60', '-1']);
  add(0.05, 'maxage', ['0', '60']);
  if (format === 'json') add(0.05, 'callback', ['cb', 'x.y', 'a b']);
  add(0.02, 'errorsuselocal', ['1']);
  if (loggedIn) {
    add(0.12, 'assertuser', ASSERT_USERS);
    add(0.08, 'assert', ['user', 'bot', 'anon']);
  }
  return out;
}

/** The query module's own parameters for one module: the page set for a prop module. */
function queryBase(r: Random, mod: ModuleInfo, facts: WikiFacts): [string, string][] {
  const kind = mod.group ?? 'list';
  const out: [string, string][] = [['action', 'query'], [kind, mod.name]];
  if (kind === 'prop') {
    if (chance(r, 0.85)) {
      const linked = facts.linked.length > 0 && chance(r, 0.7);
      const k = pick(r, [1, 1, 2, 3, 5]);
      const titles = Array.from({ length: k }, () => (linked ? pick(r, facts.linked) : title(r, facts)));
      out.push(['titles', titles.join('|')]);
    } else {
      out.push(['pageids', Array.from({ length: pick(r, [1, 2]) }, () => String(pick(r, facts.pages).pageid)).join('|')]);
    }
    if (chance(r, 0.1)) out.push(['redirects', '1']);
    if (chance(r, 0.05)) out.push(['indexpageids', '1']);
  }
  return out;
}

/** A module's own parameters, each asked with its share of chance. */
function moduleParams(r: Random, mod: ModuleInfo, facts: WikiFacts, prefix = mod.prefix): [string, string][] {
  const params: [string, string][] = [];
  for (const p of mod.parameters) {
    const required = p.required === true || (mod.name === 'parse' && p.name === 'summary') || (mod.name === 'paraminfo' && p.name === 'modules' && chance(r, 0.8));
    if (!required && !chance(r, share(mod, p))) continue;
    const v = value(r, p, mod, facts);
    if (v !== null) params.push([prefix + p.name, v]);
  }
  return params;
}

/**
 * One random question (a query string) about `mod`; a query module now and then with another
 * query module of the same request (two lists, a list and a meta), or a prop module over
 * `generator=allpages`, as bots combine them.
 */
function randomQuestion(r: Random, mod: ModuleInfo, facts: WikiFacts, all: readonly ModuleInfo[], loggedIn: boolean): string {
  const params: [string, string][] = [];
  if (mod.path.startsWith('query+')) {
    const base = queryBase(r, mod, facts);
    const allpages = all.find((m) => m.name === 'allpages');
    if (mod.group === 'prop' && allpages && chance(r, 0.12)) {
      // the page set from a generator: its parameters with the `g` prefix
      params.push(['action', 'query'], ['prop', mod.name], ['generator', 'allpages'], ...moduleParams(r, allpages, facts, 'gap'));
    } else params.push(...base);
    params.push(...moduleParams(r, mod, facts));
    const others = all.filter((m) => m.path.startsWith('query+') && m !== mod && m.group !== 'prop');
    if (mod.group !== 'prop' && others.length > 0 && chance(r, 0.1)) {
      const other = pick(r, others);
      const kind = other.group ?? 'list';
      const at = params.findIndex(([k]) => k === kind);
      if (at >= 0) params[at] = [kind, `${params[at]![1]}|${other.name}`];
      else params.push([kind, other.name]);
      params.push(...moduleParams(r, other, facts));
    }
  } else {
    params.push(['action', mod.name], ...moduleParams(r, mod, facts));
  }
  params.push(...mainParams(r, loggedIn));
  // A parameter the module does not declare, now and then: the "unrecognized parameter" warning.
  if (chance(r, 0.03)) params.push([pick(r, ['foo', `${mod.prefix}bogus`]), '1']);
  return new URLSearchParams(params).toString();
}

/**
 * `count` questions over the modules in `weights` (paraminfo paths), seeded. `loggedIn`: questions
 * for a logged-in caller, with the main parameters logged-in bots add (`assertuser`).
 */
export function randomQuestions(seed: number, count: number, modules: readonly ModuleInfo[], facts: WikiFacts, weights: Readonly<Record<string, number>> = BUILTIN_MODULES, loggedIn = false): string[] {
  const r = seeded(seed);
  const bag = modules.flatMap((m) => Array<ModuleInfo>(weights[m.path] ?? 0).fill(m));
  return Array.from({ length: count }, () => randomQuestion(r, pick(r, bag), facts, modules, loggedIn));
}

/** The modules' paraminfo from a live wiki (`formatversion=2`). */
export async function liveParamInfo(api: string, paths: readonly string[] = Object.keys(BUILTIN_MODULES)): Promise<ModuleInfo[]> {
  const r = await fetch(`${api}?${new URLSearchParams({ action: 'paraminfo', format: 'json', formatversion: '2', modules: paths.join('|') })}`);
  const body = (await r.json()) as { paraminfo: { modules: ModuleInfo[] } };
  // A module the wiki left out would silently never be asked about.
  const missing = paths.filter((p) => !body.paraminfo.modules.some((m) => m.path === p));
  if (missing.length > 0) throw new Error(`${api}: paraminfo has no ${missing.join(', ')}`);
  return body.paraminfo.modules;
}

/** The question continued from the live wiki's answer to it (its `continue` members), or null when the answer has none. */
export function continued(question: string, liveText: string): string | null {
  let body: { continue?: Record<string, string> };
  try {
    body = JSON.parse(liveText.replace(/^\/\*\*\/[\w.]*\(([\s\S]*)\)$/, '$1')) as typeof body;
  } catch {
    return null;
  }
  if (!body.continue || typeof body.continue !== 'object') return null;
  const q = new URLSearchParams(question);
  for (const [k, v] of Object.entries(body.continue)) q.set(k, String(v));
  return q.toString();
}
