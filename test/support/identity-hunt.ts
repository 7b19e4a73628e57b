import { Client } from './cookie-client.js';
import { answerDifferences } from './differential.js';
import { aLimit, mainParams, Rng, someOf, values, type LiveFacts } from './random-replay-questions.js';
import type { ReadQuestion } from './read-questions.js';

/**
 * The logged-in hunt of replay (test/live/identity-replay-differential.test.ts): bots that log in
 * through `wikitape record` and read, then ask as themselves (logged in to replay through its own
 * login), anonymously and as each other, and the same of the live wiki in the same identity.
 */

type P = Record<string, string>;

/** Who asks: nobody, or a bot password of the live wiki's Admin. */
export interface Identity {
  /** How the counts name it: `anonymous`, `bot`, `admin` … */
  label: string;
  /** The bot password's user (`Admin@wikitape`) and password; none for anonymous. */
  credentials?: { user: string; password: string };
}

/** A bot's session on one server: its cookie jar, logged in as `who` (or not). */
export class Session {
  readonly client: Client;
  constructor(url: string) {
    this.client = new Client(url);
  }
  /**
   * Logs in as a bot does (a login token, then `action=login`, POST): the result, and whether
   * replay flagged it. `lowerFirst`: the name as some bots write it (`admin@wikitape`), which
   * MediaWiki normalises.
   */
  async login(who: Identity, lowerFirst = false): Promise<{ result: unknown; flagged: boolean }> {
    if (!who.credentials) return { result: 'anonymous', flagged: false };
    const lgtoken = await this.client.token('login');
    const { user } = who.credentials;
    const lgname = lowerFirst ? user.charAt(0).toLowerCase() + user.slice(1) : user;
    const r = await this.client.call({ action: 'login', lgname, lgpassword: who.credentials.password, lgtoken });
    return { result: (r.body['login'] as { result?: unknown } | undefined)?.result, flagged: r.headers.get('x-wikitape-source') === 'miss' || r.headers.get('x-wikitape-unknown') !== null };
  }
  /** `action=logout` with the session's csrf token, as mwn's logout does; the answer's body. */
  async logout(): Promise<Record<string, any>> {
    const token = await this.client.token('csrf');
    return (await this.client.call({ action: 'logout', token })).body;
  }
  /** One question (`format`/`formatversion` as asked), with the session's cookies; the cookies its answer sets are kept. */
  async ask(q: ReadQuestion): Promise<{ status: number; text: string; headers: Headers }> {
    const headers: Record<string, string> = this.client.jar.size > 0 ? { cookie: this.client.cookie } : {};
    const r =
      typeof q === 'string'
        ? await fetch(`${this.client.url}?${q}`, { headers })
        : await fetch(`${this.client.url}?${q.query}`, { method: 'POST', body: q.form, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });
    this.client.remember(r.headers);
    return { status: r.status, text: await r.text(), headers: r.headers };
  }
  /** Parsed formatversion=2 JSON of `p`, in the session. */
  async json(p: P): Promise<Record<string, any>> {
    return (await this.client.call(p, 'GET')).body;
  }
  /** Walks `p` to its end through its continuation, in the session (formatversion=2), as a crawling bot does (at most `most` pages: a bot that reads no further). */
  async crawl(p: P, most = 200): Promise<void> {
    let cont: P = {};
    for (let i = 0; i < most; i++) {
      const body = await this.json({ ...p, ...cont });
      if (!body['continue']) return;
      cont = body['continue'] as P;
    }
  }
}

/**
 * A session's tokens differ from any other session's by design (and are secrets): each token's
 * value is `TOKEN` on both sides, anonymous `+\` kept, so a logged-in token where the wiki gives an
 * anonymous one (or the other way round) still differs, and no token reaches the test's output.
 */
function maskTokens(text: string): string {
  // (the live wiki's debug log repeats the request's cookies; debuginfo is left out of the comparison, but an answer that is not JSON keeps it)
  return text.replace(/(COOKIE(?:"\s*:\s*"|: ))[^"\\\n]*/gi, '$1***').replace(/("[a-z]*token"\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (_m, key: string, value: string) => (/^\+(?:\\\\)+$/.test(value) ? `${key}"${value}"` : `${key}"TOKEN"`));
}

export type Counts = { equal: number; flagged: number; silent: number };

/** How often replay flagged each unknown (`X-Wikitape-Unknown`, or `miss`), across the hunt. */
export const flagReasons = new Map<string, number>();

/**
 * Asks the live wiki and replay each question, each side in its own session of the same identity,
 * and counts each answer equal, flagged (a `wikitape-miss`, or `X-Wikitape-Unknown`) or silently
 * wrong; returns the silently wrong ones with where they part.
 */
export async function countAnswers(live: Session, ours: Session, questions: readonly ReadQuestion[], counts: Counts): Promise<string[]> {
  const silent: string[] = [];
  for (const q of questions) {
    const [a, b] = await Promise.all([live.ask(q), ours.ask(q)]);
    const flagged = b.headers.get('x-wikitape-source') === 'miss' || b.headers.get('x-wikitape-unknown') !== null;
    const differs = answerDifferences({ text: maskTokens(a.text), headers: a.headers }, { text: maskTokens(b.text), headers: b.headers });
    if (a.status !== b.status) differs.unshift(`status: live ${a.status} / ours ${b.status}`);
    if (differs.length === 0) counts.equal++;
    else if (flagged) {
      counts.flagged++;
      for (const r of (b.headers.get('x-wikitape-unknown') ?? 'miss').split(',')) flagReasons.set(r.trim(), (flagReasons.get(r.trim()) ?? 0) + 1);
    }
    else {
      counts.silent++;
      silent.push(`${typeof q === 'string' ? q : JSON.stringify(q)}\n  ${differs.join('\n  ')}`);
    }
  }
  return silent;
}

/** The live wiki's one user blocked with `hidename` (scripts/livewiki/populate.mjs). */
const HIDDEN_USER = 'Sockpuppet 2';

const TOKEN_TYPES = ['csrf', 'watch', 'patrol', 'rollback', 'userrights', 'login', 'createaccount'];

/**
 * A question whose answer depends on who asks: userinfo, tokens, `assert` and `assertuser`, and
 * lists at limits between the two maxima (500, and 5000 with `apihighlimits`) or past them.
 */
export function sessionQuestion(rng: Rng, facts: LiveFacts): P {
  const userProps = values(facts, 'userinfo', 'prop');
  const list = (): P =>
    rng.pick<() => P>([
      () => ({ list: 'logevents', lelimit: rng.pick(['max', '499', '500', '501', '5000', '5001']), leprop: rng.pick(['ids', 'ids|user', 'type|title']) }),
      () => ({ list: 'blocks', bklimit: rng.pick(['max', '500', '501', '5000', '5001']), bkprop: rng.pick(['id', 'id|user', 'id|user|flags']) }),
      () => ({ list: 'allpages', aplimit: rng.pick(['max', '501', '5001']) }),
      () => ({ list: 'protectedtitles', ptlimit: rng.pick(['max', '501']) }),
    ])();
  const base = rng.pick<() => P>([
    () => ({ meta: 'userinfo', uiprop: someOf(rng, userProps, 0.25) }),
    () => ({ meta: 'userinfo' }),
    () => ({ meta: 'tokens', type: someOf(rng, TOKEN_TYPES, 0.3) }),
    () => ({ meta: 'tokens' }),
    list,
    list,
    () => ({ ...list(), meta: 'userinfo', uiprop: someOf(rng, userProps, 0.2) }),
    // The live wiki's hidden user (blocked with hidename): `hideuser` sees the block, readers do not, nor the user's name in the log.
    () => ({ list: 'blocks', bkusers: rng.pick([HIDDEN_USER, `${HIDDEN_USER}|Sockpuppet 1`]), bkprop: rng.pick(['id|user', 'id|user|by|flags', 'user|expiry|reason']) }),
    () => ({ list: 'blocks', bkprop: 'id|user|flags', bkshow: rng.pick(['account', '!temp', 'account|!temp']), bklimit: rng.pick(['3', '10', 'max']) }),
    () => ({ list: 'logevents', leuser: HIDDEN_USER, leprop: rng.pick(['ids|user', 'ids|type|title|user|comment']) }),
    () => ({ list: 'logevents', letitle: `Участник:${HIDDEN_USER}`, leprop: rng.pick(['ids|user|type', 'ids|details|title']) }),
  ])();
  const q: P = { action: 'query', format: 'json', ...base };
  if (rng.chance(0.35)) q['assert'] = rng.pick(['user', 'bot', 'anon']);
  if (rng.chance(0.15)) q['assertuser'] = rng.pick(['Admin', 'admin', 'Admin@wikitape', 'Someone else', '127.0.0.1']);
  if (rng.chance(0.2)) {
    const l = aLimit(rng);
    const key = Object.keys(q).find((k) => /limit$/.test(k));
    if (l && key) q[key] = l;
  }
  return { ...q, ...mainParams(rng) };
}

/** The questions of one area as `ReadQuestion`s (a tenth of them POSTed, as the anonymous hunt does). */
export function asQuestions(rng: Rng, ps: readonly P[]): ReadQuestion[] {
  return ps.map((p) => (rng.chance(0.1) ? { query: 'format=json', form: new URLSearchParams(Object.entries(p).filter(([k]) => k !== 'format')).toString() } : new URLSearchParams(p).toString()));
}

/** The first page of another identity's walk, and the same at another limit: what replay must not answer from that identity's recording. */
export function othersWalks(rng: Rng, walks: readonly P[], n: number): P[] {
  const out: P[] = [];
  for (let i = 0; i < n && walks.length > 0; i++) {
    const w: P = { format: 'json', formatversion: '2', ...rng.pick(walks) };
    const key = Object.keys(w).find((k) => /^..limit$/.test(k));
    if (key && rng.chance(0.4)) w[key] = aLimit(rng) ?? 'max';
    out.push(w);
  }
  return out;
}
