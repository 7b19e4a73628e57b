import { Client } from './cookie-client.js';
import { normalize } from './differential.js';

/** A walk of one list as a client saw it, page by page. */
export interface Walk {
  /** Each page's answer, normalized (debuginfo, curtimestamp aside). */
  texts: string[];
  sources: (string | null)[];
  bodies: Record<string, any>[];
}

/** A client's walk of `q` (formatversion=2), following `continue` to its end. */
export async function walk(url: string, q: Record<string, string>, cookie?: string): Promise<Walk> {
  const out: Walk = { texts: [], sources: [], bodies: [] };
  let cont: Record<string, string> = {};
  for (let n = 0; n < 50; n++) {
    const r = await fetch(`${url}?${new URLSearchParams({ ...q, ...cont, format: 'json', formatversion: '2' })}`, cookie ? { headers: { cookie } } : {});
    const text = await r.text();
    out.texts.push(normalize(text));
    out.sources.push(r.headers.get('x-wikitape-source'));
    const body = JSON.parse(text) as Record<string, any>;
    out.bodies.push(body);
    if (!body['continue']) return out;
    cont = body['continue'] as Record<string, string>;
  }
  throw new Error(`the walk of ${JSON.stringify(q)} did not end`);
}

/** Logs a client in (action=login with a bot password); the wiki's (or replay's) answer. */
export async function login(c: Client, user: string, password: string): Promise<Record<string, unknown>> {
  const lgtoken = await c.token('login');
  return (await c.call({ action: 'login', lgname: user, lgpassword: password, lgtoken })).body['login'] as Record<string, unknown>;
}
