/**
 * A question of the bots' differential, and how each client library puts one on the wire
 * (/work/shared/reference/real-clients.md; the walk scripts in test/clients/): the parameters
 * it adds, their order, GET or POST, the encoding.
 */

/** The kinds the report counts apart (issue 21, "Your own differential grows by"). */
export const KINDS = ['walks', 'clients', 'general', 'languages', 'titles', 'logged-in', 'summaries', 'spam', 'wire'] as const;
export type Kind = (typeof KINDS)[number];

/** How a question travels: a GET, a POST form, a multipart POST, mwbot's `?format=json` URL with the rest in a form. */
export const HOWS = ['GET', 'POST', 'POST-multipart', 'POST-split'] as const;
export type How = (typeof HOWS)[number];

/** Who asks: anonymously, or the test bot logged in with its bot password. */
export type Identity = 'anon' | 'bot';

/** Parameters in the order the client sends them. */
export type Params = readonly (readonly [string, string])[];

export interface Question {
  kind: Kind;
  as: Identity;
  how: How;
  params: Params;
  /** GET: how values are escaped: `form` (space as `+`, URLSearchParams, the default) or `uri` (`%20`, nodemw). */
  encoding?: 'form' | 'uri';
  /** GET: the query string exactly as sent, where it is neither encoding of `params` (title forms). */
  raw?: string;
  /** Request headers the client adds (mwn's `Promise-Non-Write-API-Action` on a POST). */
  headers?: Record<string, string>;
}

/** A walk: its first question; each later page merges the live answer's `continue` (or `query-continue`). */
export interface Walk {
  first: Question;
  /** At most this many pages (default 10): the live tier's time budget. */
  pages?: number;
}

export type Item = Question | Walk;

export const isWalk = (i: Item): i is Walk => 'first' in i;

/** Characters a reader cannot see: combining marks (NFD), format and control characters, the no-break space. */
const invisible = /[\p{M}\p{Cf}\p{Cc}\u00a0]/gu;
const visible = (v: string) => (v.length > 200 ? `${v.slice(0, 200)}…` : v).replace(invisible, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);

/** The question as the report prints it: method, who, and the decoded parameters (invisible characters as `\uXXXX`). */
export function label(q: Question): string {
  return `${q.how} [${q.as}] ${q.raw !== undefined ? `(as sent) ${q.raw}` : q.params.map(([k, v]) => `${k}=${visible(v)}`).join('&')}`;
}

export const entries = (o: Record<string, string>): Params => Object.entries(o);

/** The i-th element, counting round (negative from the end): deterministic picks from the wiki's data. */
export const at = <T>(list: readonly T[], i: number): T => list[((i % list.length) + list.length) % list.length]!;

export const walk = (first: Question, pages?: number): Walk => (pages === undefined ? { first } : { first, pages });

/** A question as a plain script asks it: `action=query` first, `format=json` last. */
export function plain(kind: Kind, as: Identity, what: Record<string, string>, how: How = 'GET'): Question {
  return { kind, as, how, params: entries({ action: 'query', ...what, format: 'json' }) };
}

/** mwclient's `Site.api`: `continue=`, `meta=…|userinfo`, `uiprop=…|blockinfo|hasmsg` on every query, then `action`, `format=json` (formatversion 1). */
export function mwclient(kind: Kind, as: Identity, what: Record<string, string>, how: How = 'GET'): Question {
  const { action = 'query', ...rest } = what;
  const extra: Record<string, string> = {};
  if (action === 'query') {
    extra['continue'] = rest['continue'] ?? '';
    extra['meta'] = rest['meta'] ? `${rest['meta']}|userinfo` : 'userinfo';
    extra['uiprop'] = rest['uiprop'] ? `${rest['uiprop']}|blockinfo|hasmsg` : 'blockinfo|hasmsg';
  }
  return { kind, as, how, params: entries({ ...rest, ...extra, action, format: 'json' }) };
}

/** mwn 3: `format=json&formatversion=2&maxlag=5` first (a logged-in bot adds `assert=user`); GET for queries and summaries, else POST (multipart past 8000 characters). */
export function mwn(kind: Kind, as: Identity, what: Record<string, string>, forcePost = false): Question {
  const params = entries({ format: 'json', formatversion: '2', maxlag: '5', ...(as === 'bot' ? { assert: 'user' } : {}), ...what });
  if (!forcePost && (what['action'] === 'query' || (what['action'] === 'parse' && !('text' in what)))) return { kind, as, how: 'GET', params };
  const long = Object.values(what).some((v) => v.length > 8000);
  return { kind, as, how: long ? 'POST-multipart' : 'POST', params, headers: { 'Promise-Non-Write-API-Action': 'true' } };
}

/** wikijs 6: `format=json&action=query&redirects=1` first, `origin=*` last, always GET, no cookies. */
export function wikijs(kind: Kind, what: Record<string, string>): Question {
  return { kind, as: 'anon', how: 'GET', params: entries({ format: 'json', action: 'query', redirects: '1', ...what, origin: '*' }) };
}

/** mwbot 2: every request a POST to `?format=json` with the rest in a form body. */
export function mwbot(kind: Kind, as: Identity, what: Record<string, string>): Question {
  return { kind, as, how: 'POST-split', params: entries({ format: 'json', ...what }) };
}

/** nodemw: GET, `format=json` after the caller's parameters, spaces as `%20`. */
export function nodemw(kind: Kind, what: Record<string, string>): Question {
  return { kind, as: 'anon', how: 'GET', params: entries({ ...what, format: 'json' }), encoding: 'uri' };
}

/** pywikibot over http: every read POSTed, with `meta=userinfo&uiprop=blockinfo|hasmsg`, `maxlag=5`, `format=json`. */
export function pywikibot(kind: Kind, as: Identity, what: Record<string, string>): Question {
  const meta = what['meta'] ? `${what['meta']}|userinfo` : 'userinfo';
  return { kind, as, how: 'POST', params: entries({ ...what, meta, uiprop: 'blockinfo|hasmsg', maxlag: '5', format: 'json' }) };
}

export const LOG_PROPS = 'ids|title|type|user|userid|timestamp|comment|parsedcomment|details|tags';
export const BLOCK_PROPS = 'id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions';
export const PT_PROPS = 'timestamp|user|userid|comment|parsedcomment|expiry|level';
