import type { ReadQuestion } from './read-questions.js';
import { mulberry32 } from '../../src/util/random.js';

/**
 * A seeded random hunt of replay (test/live/random-replay-differential.test.ts): walks recorded
 * from a live wiki, chosen at random from `action=paraminfo`'s parameter space, then other
 * questions drawn from the same space (other limits, continuation points taken from the live
 * wiki's answers, prop subsets and supersets, filters, title spellings, the main module's
 * parameters, POST) that replay must answer from those walks, refuse or flag.
 */

/** A seeded generator (mulberry32): the same seed draws the same walks and questions. */
export class Rng {
  private readonly draw: () => number;
  constructor(seed: number) {
    this.draw = mulberry32(seed);
  }
  next(): number {
    return this.draw();
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  /** A random subset of `xs` (each in with probability p), in their declared order. */
  subset<T>(xs: readonly T[], p = 0.5): T[] {
    return xs.filter(() => this.chance(p));
  }
}

type P = Record<string, string>;

/** One parameter as paraminfo declares it. */
interface Param {
  name: string;
  type: string | string[];
  multi?: boolean;
  max?: number;
  highmax?: number;
}

/** What the questions draw from: paraminfo's parameters and values the live wiki holds. */
export interface LiveFacts {
  params: Record<string, Param[]>;
  events: { logid: number; ns?: number; title?: string; type: string; action: string; user?: string; timestamp: string; tags?: string[] }[];
  blocks: { id: number; user: string; timestamp: string }[];
  protectedTitles: { ns: number; title: string; timestamp: string }[];
  pages: { ns: number; title: string }[];
  namespaces: { id: number; name: string; canonical?: string }[];
  aliases: { id: number; alias: string }[];
}

/** Asks a wiki one question (formatversion=2 JSON unless `p` says otherwise) and gives the parsed answer. */
export type AskJson = (p: P) => Promise<Record<string, any>>;

/** AskJson of the wiki at `apiUrl`, anonymously. */
export async function askWiki(apiUrl: string, p: P): Promise<Record<string, any>> {
  return (await (await fetch(`${apiUrl}?${new URLSearchParams({ format: 'json', formatversion: '2', ...p })}`)).json()) as Record<string, any>;
}

const MODULES = ['logevents', 'blocks', 'protectedtitles', 'allpages', 'extlinks', 'siteinfo', 'userinfo'];

/** Reads paraminfo and the lists' contents from the live wiki (read only). */
export async function liveFacts(apiUrl: string): Promise<LiveFacts> {
  const info = await askWiki(apiUrl, { action: 'paraminfo', modules: MODULES.map((m) => `query+${m}`).join('|') });
  const params: Record<string, Param[]> = {};
  for (const m of info['paraminfo']['modules'] as { name: string; parameters: Param[] }[]) params[m.name] = m.parameters;
  const q = async (p: P) => (await askWiki(apiUrl, { action: 'query', ...p }))['query'] as Record<string, any>;
  const events = (await q({ list: 'logevents', lelimit: 'max', leprop: 'ids|title|type|user|timestamp|tags' }))['logevents'];
  const blocks = (await q({ list: 'blocks', bklimit: 'max', bkprop: 'id|user|timestamp' }))['blocks'];
  const protectedTitles = (await q({ list: 'protectedtitles', ptlimit: 'max', ptprop: 'timestamp' }))['protectedtitles'];
  const site = await q({ meta: 'siteinfo', siprop: 'namespaces|namespacealiases' });
  const pages: { ns: number; title: string }[] = [];
  for (const ns of [0, 2, 4, 6, 10, 14]) pages.push(...((await q({ list: 'allpages', apnamespace: String(ns), aplimit: 'max' }))['allpages'] as { ns: number; title: string }[]));
  return { params, events, blocks, protectedTitles, pages, namespaces: Object.values(site['namespaces']), aliases: site['namespacealiases'] };
}

export function values(facts: LiveFacts, module: string, name: string): string[] {
  const t = facts.params[module]?.find((p) => p.name === name)?.type;
  return Array.isArray(t) ? t : [];
}

/** A nonempty random subset of a multi-value parameter's declared values, joined. */
export function someOf(rng: Rng, vs: readonly string[], p = 0.5): string {
  const s = rng.subset(vs, p);
  return (s.length > 0 ? s : [rng.pick(vs)]).join('|');
}

const LIST_PREFIX: Record<string, string> = { logevents: 'le', blocks: 'bk', protectedtitles: 'pt', allpages: 'ap', extlinks: 'el' };

/** A title in another spelling that names the same page (or, for some, another one). */
function spelling(rng: Rng, facts: LiveFacts, title: string): string {
  const colon = title.indexOf(':');
  const ns = facts.namespaces.find((n) => n.id !== 0 && colon > 0 && n.name === title.slice(0, colon));
  const rest = ns ? title.slice(colon + 1) : title;
  switch (rng.int(0, 7)) {
    case 0:
      return title.replace(/ /g, '_');
    case 1:
      return ns ? `${ns.name}:${rest.charAt(0).toLowerCase()}${rest.slice(1)}` : title.charAt(0).toLowerCase() + title.slice(1);
    case 2: {
      if (!ns) return `:${title}`;
      const names = [ns.canonical ?? ns.name, ...facts.aliases.filter((a) => a.id === ns.id).map((a) => a.alias), ns.name.toLowerCase()];
      return `${rng.pick(names)}:${rest}`;
    }
    case 3:
      // A percent-encoded letter (the title parser decodes it).
      return title.replace(/[^ _:]/u, (c) => encodeURIComponent(c));
    case 4:
      return title.normalize('NFD');
    case 5:
      return `  ${title}_`;
    case 6:
      return `${title}#Раздел`;
    default:
      return title;
  }
}

/** The timestamp `ts` (ISO) in another form the API accepts. */
function timestampForm(rng: Rng, ts: string): string {
  const d = new Date(ts);
  switch (rng.int(0, 4)) {
    case 0:
      return ts.replace(/\D/g, '').slice(0, 14);
    case 1:
      return String(Math.floor(d.getTime() / 1000));
    case 2:
      return ts.replace('T', ' ').replace('Z', '');
    case 3:
      return ts.replace('Z', '.000Z');
    default:
      return ts;
  }
}

/** Walks recorded through `wikitape record`: each a list (or page, or meta module) asked to its end. */
export function recordedWalks(rng: Rng, facts: LiveFacts): P[] {
  const walks: P[] = [];
  const limit = () => rng.pick(['max', 'max', '', String(rng.int(3, 60))]);
  const withLimit = (p: P, key: string) => {
    const l = limit();
    return l ? { ...p, [key]: l } : p;
  };
  // Each list whole: every prop, or some of them (with what orders and names its entries, mostly).
  const props = (declared: string[], essential: string[]) =>
    rng.chance(0.5) ? declared.join('|') : [...new Set([...rng.subset(declared, 0.6), ...(rng.chance(0.8) ? essential : [])])].sort().join('|') || declared.join('|');
  // The log: whole, and a few parts of it.
  const leprops = values(facts, 'logevents', 'prop');
  walks.push(withLimit({ list: 'logevents', leprop: props(leprops, ['ids', 'timestamp']) }, 'lelimit'));
  for (let i = rng.int(0, 2); i > 0; i--) {
    const e = rng.pick(facts.events);
    const part = rng.pick<P>([{ letype: e.type }, { leaction: `${e.type}/${e.action}` }, { leuser: e.user ?? 'Admin' }, { letype: e.type, lenamespace: String(e.ns ?? 0) }]);
    walks.push(withLimit({ list: 'logevents', leprop: someOf(rng, leprops, 0.8), ...part }, 'lelimit'));
  }
  // The log since a time, as a bot that polls it records it: read newer from a start to its end.
  if (rng.chance(0.5)) walks.push({ list: 'logevents', leprop: props(leprops, ['ids', 'timestamp']), ledir: 'newer', lestart: rng.pick(facts.events).timestamp, lelimit: rng.pick(['max', '20']) });
  const bkprops = values(facts, 'blocks', 'prop');
  walks.push(withLimit({ list: 'blocks', bkprop: props(bkprops, ['id', 'timestamp']) }, 'bklimit'));
  if (rng.chance(0.3) && facts.blocks.length > 0) walks.push({ list: 'blocks', bkprop: props(bkprops, ['id', 'timestamp']), bkdir: 'newer', bkstart: rng.pick(facts.blocks).timestamp, bklimit: 'max' });
  if (rng.chance(0.4)) walks.push({ list: 'blocks', bkprop: someOf(rng, bkprops, 0.7), bkshow: rng.pick(values(facts, 'blocks', 'show')) });
  const ptprops = values(facts, 'protectedtitles', 'prop');
  walks.push(withLimit({ list: 'protectedtitles', ptprop: props(ptprops, ['timestamp']) }, 'ptlimit'));
  if (rng.chance(0.3)) walks.push({ list: 'protectedtitles', ptprop: someOf(rng, ptprops, 0.7), ptlevel: rng.pick(values(facts, 'protectedtitles', 'level')) });
  for (const ns of rng.subset([0, 2, 4, 6, 10, 14], 0.6).concat([0])) {
    walks.push(withLimit({ list: 'allpages', apnamespace: String(ns) }, 'aplimit'));
    if (rng.chance(0.3)) walks.push({ list: 'allpages', apnamespace: String(ns), apfilterredir: rng.pick(['redirects', 'nonredirects']), aplimit: 'max' });
  }
  // What prop=info and prop=langlinks show of a namespace's pages (list=allpages' size, protection
  // and language-link filters read it): whole, or without protections, or with language links that
  // continue (not each page's whole list).
  for (const ns of rng.subset([0, 2, 4, 6, 10, 14], 0.3)) {
    const titles = facts.pages.filter((x) => x.ns === ns).map((x) => x.title);
    const q: P = { prop: rng.pick(['info|langlinks', 'info|langlinks', 'info', 'langlinks']), ...(rng.chance(0.8) ? { inprop: 'protection' } : {}), lllimit: rng.pick(['max', 'max', '2']) };
    for (let i = 0; i < titles.length; i += 50) walks.push({ ...q, titles: titles.slice(i, i + 50).join('|') });
  }
  for (const p of rng.subset(facts.pages.filter((x) => x.ns === 0), 0.4)) walks.push(withLimit({ prop: 'extlinks', titles: p.title }, 'ellimit'));
  walks.push({ prop: 'extlinks', titles: 'Список ссылок', ellimit: rng.pick(['max', '3', '10']) });
  const siprops = values(facts, 'siteinfo', 'prop').filter((p) => !['dbrepllag', 'libraries', 'extensions', 'showhooks'].includes(p));
  walks.push({ meta: 'siteinfo', siprop: someOf(rng, siprops, 0.3) });
  if (rng.chance(0.5)) walks.push({ meta: 'siteinfo', siprop: someOf(rng, siprops, 0.3) });
  walks.push({ meta: 'userinfo', uiprop: someOf(rng, values(facts, 'userinfo', 'prop'), 0.3) });
  for (const s of rng.subset(SUMMARIES, 0.5)) walks.push({ action: 'parse', summary: s, prop: '' });
  for (const u of rng.subset(URLS, 0.4)) walks.push({ action: 'spamblacklist', url: u });
  return walks.map((w) => (w['action'] ? w : { action: 'query', ...w }));
}

const SUMMARIES = ['/* Раздел */ [[Москва]] и [[Alpha|альфа]]', 'правка [[Несуществующая]]', '[[Beta]] → [[Gamma]]', '/* Section */ fix'];
const URLS = ['http://casino-spam.example/page', 'https://ok.test/', 'http://free-money.test/|https://example.org/x'];

/** The main module's parameters bots and clients add. */
export function mainParams(rng: Rng): P {
  const out: P = {};
  if (rng.chance(0.5)) out['formatversion'] = rng.pick(['1', '2', 'latest']);
  const extras: (() => P)[] = [
    () => ({ utf8: '1' }),
    () => ({ ascii: '1' }),
    () => ({ errorformat: rng.pick(['plaintext', 'wikitext', 'html', 'raw', 'none', 'bc']) }),
    () => ({ uselang: rng.pick(['ru', 'en', 'de', 'user', 'content']) }),
    () => ({ errorformat: 'plaintext', errorlang: rng.pick(['en', 'uselang', 'de']) }),
    () => ({ curtimestamp: '1' }),
    () => ({ responselanginfo: '1' }),
    () => ({ requestid: `r${rng.int(1, 99)}` }),
    () => ({ assert: 'anon' }),
    () => ({ maxlag: '5' }),
    () => ({ origin: '*' }),
    () => ({ callback: 'cb' }),
    () => ({ servedby: '1' }),
    () => ({ continue: '' }),
  ];
  for (const x of rng.subset(extras, 0.15)) Object.assign(out, x());
  return out;
}

/** A limit as bots give it: small, odd, the maximum, over it, or none. */
export function aLimit(rng: Rng): string | null {
  return rng.pick([null, '1', '2', '7', String(rng.int(3, 40)), 'max', '501', '5000']);
}

function logeventsQuestion(rng: Rng, facts: LiveFacts): P {
  const q: P = { list: 'logevents' };
  if (rng.chance(0.7)) q['leprop'] = someOf(rng, values(facts, 'logevents', 'prop'), 0.5);
  const e = rng.pick(facts.events);
  if (rng.chance(0.3)) q['letype'] = rng.chance(0.8) ? e.type : rng.pick(values(facts, 'logevents', 'type'));
  if (rng.chance(0.15)) q['leaction'] = rng.chance(0.8) ? `${e.type}/${e.action}` : rng.pick(values(facts, 'logevents', 'action'));
  if (rng.chance(0.15)) q['leuser'] = rng.chance(0.7) ? (e.user ?? 'Admin') : rng.pick(['admin', 'Admin_', 'Nobody here', '127.0.0.1']);
  // (an entry whose action is hidden shows no title)
  const title = e.title ?? 'Москва';
  if (rng.chance(0.15)) q['letitle'] = spelling(rng, facts, title);
  if (rng.chance(0.1)) q['lenamespace'] = String(rng.chance(0.7) ? (e.ns ?? 0) : rng.pick([0, 1, 2, 6, 14]));
  if (rng.chance(0.05)) q['leprefix'] = title.slice(0, 3);
  if (rng.chance(0.05)) q['letag'] = rng.pick(['mw-new-redirect', 'bogus tag']);
  if (rng.chance(0.3)) q['ledir'] = rng.pick(['newer', 'older']);
  if (rng.chance(0.2)) q['lestart'] = timestampForm(rng, rng.pick(facts.events).timestamp);
  if (rng.chance(0.2)) q['leend'] = timestampForm(rng, rng.pick(facts.events).timestamp);
  const l = aLimit(rng);
  if (l) q['lelimit'] = l;
  return q;
}

function blocksQuestion(rng: Rng, facts: LiveFacts): P {
  const q: P = { list: 'blocks' };
  if (rng.chance(0.7)) q['bkprop'] = someOf(rng, values(facts, 'blocks', 'prop'), 0.5);
  if (rng.chance(0.15)) q['bkshow'] = someOf(rng, values(facts, 'blocks', 'show'), 0.2);
  const b = rng.pick(facts.blocks);
  const which = rng.next();
  if (which < 0.15) q['bkusers'] = rng.subset(facts.blocks, 0.2).map((x) => x.user).concat([b.user]).filter((u) => !u.includes('/')).join('|') || 'Вандал 1';
  else if (which < 0.25) q['bkip'] = rng.pick(['192.0.2.15', '198.51.100.7', '198.51.100.0/24', '2001:db8::1', '2001:DB8::/64', '10.0.0.1', '1.0.0.0/16']);
  else if (which < 0.35) q['bkids'] = rng.subset(facts.blocks, 0.3).map((x) => x.id).concat([b.id]).join('|');
  if (rng.chance(0.3)) q['bkdir'] = rng.pick(['newer', 'older']);
  if (rng.chance(0.15)) q['bkstart'] = timestampForm(rng, rng.pick(facts.blocks).timestamp);
  if (rng.chance(0.15)) q['bkend'] = timestampForm(rng, rng.pick(facts.blocks).timestamp);
  const l = aLimit(rng);
  if (l) q['bklimit'] = l;
  return q;
}

function protectedTitlesQuestion(rng: Rng, facts: LiveFacts): P {
  const q: P = { list: 'protectedtitles' };
  if (rng.chance(0.7)) q['ptprop'] = someOf(rng, values(facts, 'protectedtitles', 'prop'), 0.5);
  if (rng.chance(0.2)) q['ptnamespace'] = rng.subset(['0', '2', '6', '10', '14'], 0.4).join('|') || '0';
  if (rng.chance(0.2)) q['ptlevel'] = someOf(rng, values(facts, 'protectedtitles', 'level'), 0.5);
  if (rng.chance(0.3)) q['ptdir'] = rng.pick(['newer', 'older']);
  if (rng.chance(0.15)) q['ptstart'] = timestampForm(rng, rng.pick(facts.protectedTitles).timestamp);
  if (rng.chance(0.15)) q['ptend'] = timestampForm(rng, rng.pick(facts.protectedTitles).timestamp);
  const l = aLimit(rng);
  if (l) q['ptlimit'] = l;
  return q;
}

function allpagesQuestion(rng: Rng, facts: LiveFacts): P {
  const q: P = { list: 'allpages' };
  const ns = rng.pick([0, 0, 0, 2, 4, 6, 10, 14]);
  if (ns !== 0 || rng.chance(0.3)) q['apnamespace'] = String(ns);
  const inNs = facts.pages.filter((p) => p.ns === ns);
  const strip = (t: string) => (ns === 0 ? t : t.slice(t.indexOf(':') + 1));
  const some = () => (inNs.length > 0 ? strip(rng.pick(inNs).title) : 'A');
  if (rng.chance(0.25)) q['apfrom'] = rng.chance(0.7) ? some() : spelling(rng, facts, some());
  if (rng.chance(0.2)) q['apto'] = some();
  if (rng.chance(0.2)) q['apprefix'] = some().slice(0, rng.int(1, 3));
  if (rng.chance(0.2)) q['apfilterredir'] = rng.pick(values(facts, 'allpages', 'filterredir'));
  if (rng.chance(0.1)) q[rng.pick(['apminsize', 'apmaxsize'])] = String(rng.pick([0, 10, 100, 1000]));
  if (rng.chance(0.05)) q['apfilterlanglinks'] = rng.pick(values(facts, 'allpages', 'filterlanglinks'));
  if (rng.chance(0.05)) q['apprtype'] = someOf(rng, values(facts, 'allpages', 'prtype'));
  if (rng.chance(0.3)) q['apdir'] = rng.pick(['ascending', 'descending']);
  const l = aLimit(rng);
  if (l) q['aplimit'] = l;
  return q;
}

function extlinksQuestion(rng: Rng, facts: LiveFacts): P {
  const ns0 = facts.pages.filter((p) => p.ns === 0).map((p) => p.title);
  const titles = ['Список ссылок', ...rng.subset(ns0, 0.08)].map((t) => (rng.chance(0.3) ? spelling(rng, facts, t) : t));
  const q: P = { prop: 'extlinks', titles: (rng.chance(0.5) ? titles.slice(1).concat(titles[0]!) : titles).join('|') };
  if (rng.chance(0.2)) q['elprotocol'] = rng.pick(['http', 'https', 'mailto', 'ftp', '']);
  if (rng.chance(0.15)) q['elquery'] = rng.pick(['example.org', '*.example.org', 'example.org/page', 'docs.example.io']);
  if (rng.chance(0.1)) q['elexpandurl'] = '1';
  const l = aLimit(rng);
  if (l) q['ellimit'] = l;
  return q;
}

function metaQuestion(rng: Rng, facts: LiveFacts): P {
  if (rng.chance(0.6)) {
    const q: P = { meta: 'siteinfo', siprop: someOf(rng, values(facts, 'siteinfo', 'prop').filter((p) => !['dbrepllag', 'libraries', 'extensions', 'showhooks'].includes(p)), 0.15) };
    if (rng.chance(0.1)) q['sifilteriw'] = rng.pick(['local', '!local']);
    if (rng.chance(0.1)) q['sinumberingroup'] = '1';
    if (rng.chance(0.1)) q['siinlanguagecode'] = rng.pick(['en', 'de']);
    return q;
  }
  return { meta: 'userinfo', uiprop: someOf(rng, values(facts, 'userinfo', 'prop'), 0.2) };
}

function actionQuestion(rng: Rng): P {
  if (rng.chance(0.5)) return { action: 'parse', summary: rng.pick(SUMMARIES), prop: rng.pick(['', '', 'displaytitle']) };
  return { action: 'spamblacklist', url: rng.pick([...URLS, 'http://casino-spam.example/other', 'https://ok.test/|http://casino-spam.example/page']) };
}

/** The module a walk asks about: its list, prop or meta module, or its action (a parse's `prop` is the parse's own). */
function walkModule(w: P): string {
  if (w['action'] !== undefined && w['action'] !== 'query') return w['action'];
  return w['list'] ?? w['prop'] ?? w['meta'] ?? '';
}

const GENERATORS: Record<string, (rng: Rng, facts: LiveFacts) => P> = {
  logevents: logeventsQuestion,
  blocks: blocksQuestion,
  protectedtitles: protectedTitlesQuestion,
  allpages: allpagesQuestion,
  extlinks: extlinksQuestion,
  meta: metaQuestion,
  'parse, spamblacklist': (rng) => actionQuestion(rng),
};

/**
 * `n` questions per area, each drawn from the declared parameter space; a list question is asked
 * from a continuation point of the live wiki's own (a walk at another limit, stopped at a random
 * page) in about a third of the cases. Asks the live wiki for those continuation points (`ask`: as
 * a logged-in bot, in its session; else anonymously).
 */
export async function randomQuestions(rng: Rng, facts: LiveFacts, apiUrl: string, walks: readonly P[], n: number, ask: AskJson = (p) => askWiki(apiUrl, p)): Promise<Record<string, ReadQuestion[]>> {
  const out: Record<string, ReadQuestion[]> = {};
  for (const [area, gen] of Object.entries(GENERATORS)) {
    const qs: ReadQuestion[] = [];
    const mine = walks.filter((w) => area.split(', ').includes(walkModule(w) === 'siteinfo' || walkModule(w) === 'userinfo' ? 'meta' : walkModule(w)));
    for (let i = 0; i < n; i++) {
      // Half of them near a recorded walk (what replay can answer), the rest anywhere in the space.
      const drawn = gen(rng, facts);
      let p: P = { action: 'query', format: 'json', ...(mine.length > 0 && rng.chance(0.5) ? nearWalk(rng, facts, rng.pick(mine), drawn) : drawn) };
      if (p['action'] !== 'query') p = { ...p, format: 'json' };
      const list = (p['list'] ?? p['prop']) as string | undefined;
      const prefix = list ? LIST_PREFIX[list] : undefined;
      if (prefix && rng.chance(0.35)) p = await fromContinuation(rng, ask, p, prefix);
      p = { ...p, ...mainParams(rng) };
      const query = new URLSearchParams(p).toString();
      qs.push(rng.chance(0.1) ? { query: 'format=json', form: new URLSearchParams(Object.entries(p).filter(([k]) => k !== 'format')).toString() } : query);
    }
    out[area] = qs;
  }
  return out;
}

/**
 * A question near a recorded walk: its props a subset (now and then a superset), another limit,
 * its titles in other spellings or fewer, and some of the filters of a question drawn at random.
 */
function nearWalk(rng: Rng, facts: LiveFacts, w: P, drawn: P): P {
  const out: P = {};
  const module = walkModule(w);
  for (const [k, v] of Object.entries(w)) {
    if (k === 'action') continue;
    if (/^(?:le|bk|pt|ap|el)limit$/.test(k)) {
      const l = aLimit(rng);
      if (l) out[k] = l;
    } else if (/^..prop$/.test(k)) {
      const declared = values(facts, module, 'prop');
      const vs = v.split('|');
      const extra = rng.chance(0.15) ? [rng.pick(declared)] : [];
      out[k] = someOf(rng, [...new Set([...vs.filter(() => rng.chance(0.7)), ...extra])].concat(vs.length > 0 ? [] : [rng.pick(declared)]), 0.9) || v;
    } else if (k === 'titles') out[k] = v.split('|').map((t) => (rng.chance(0.4) ? spelling(rng, facts, t) : t)).join('|');
    // A time window's bound moved to another moment of the list (a bot's "since" is its own clock's).
    else if (/^(?:le|bk|pt)(?:start|end)$/.test(k) && rng.chance(0.6)) out[k] = timestampForm(rng, rng.pick(facts.events).timestamp);
    else out[k] = v;
  }
  for (const [k, v] of Object.entries(drawn)) if (!(k in out) && !/(?:limit|prop|titles)$/.test(k) && rng.chance(0.3)) out[k] = v;
  return out;
}

/** `p` from a point of the live wiki's walk at another limit: its `continue` after a random number of pages, the limit perhaps changed again. */
async function fromContinuation(rng: Rng, ask: AskJson, p: P, prefix: string): Promise<P> {
  const step = rng.pick(['1', '2', '3', '5', '10']);
  let cont: P = {};
  for (let pages = rng.int(1, 6); pages > 0; pages--) {
    const body = await ask({ format: 'json', formatversion: '2', ...p, [`${prefix}limit`]: step, ...cont });
    if (!body['continue']) break;
    cont = body['continue'] as P;
  }
  const out: P = { ...p, ...cont };
  if (rng.chance(0.5)) out[`${prefix}limit`] = step;
  return out;
}

/**
 * `n` questions within the first pages of a list's walk recorded without its last (`pages` of
 * them): the list near the walk (props among its own, now and then a filter drawn at random) at a
 * limit that keeps the page and the row after it among the rows those pages showed, from the
 * list's start or from a continuation point of the live wiki's own inside them. What replay must
 * answer from those pages (docs/decisions/0026-first-pages-of-a-walk.md), or flag where a filter
 * reaches past them.
 */
export async function withinFirstPages(rng: Rng, facts: LiveFacts, w: P, pages: number, n: number, ask: AskJson): Promise<ReadQuestion[]> {
  const list = w['list'];
  const prefix = list === undefined ? undefined : LIST_PREFIX[list];
  const gen = list === undefined ? undefined : GENERATORS[list];
  if (prefix === undefined || gen === undefined) return [];
  const asked = w[`${prefix}limit`];
  const shown = pages * (asked === undefined ? 10 : asked === 'max' ? 500 : Number(asked));
  const qs: ReadQuestion[] = [];
  for (let i = 0; i < n; i++) {
    let p: P = { action: 'query', format: 'json', ...nearWalk(rng, facts, w, gen(rng, facts)) };
    let room = Math.min(shown, 60);
    if (rng.chance(0.4) && room > 3) {
      // A continuation point a page of `step` rows or a few in: the wiki's own token.
      const step = rng.int(1, Math.max(1, Math.floor(room / 4)));
      let cont: P = {};
      let skipped = 0;
      for (let k = rng.int(1, 3); k > 0 && skipped + step < room - 1; k--) {
        const body = await ask({ ...p, formatversion: '2', [`${prefix}limit`]: String(step), ...cont });
        if (!body['continue']) break;
        cont = body['continue'] as P;
        skipped += step;
      }
      p = { ...p, ...cont };
      room -= skipped;
    }
    p[`${prefix}limit`] = String(rng.int(1, Math.max(1, room - 1)));
    p = { ...p, ...mainParams(rng) };
    qs.push(new URLSearchParams(p).toString());
  }
  return qs;
}
