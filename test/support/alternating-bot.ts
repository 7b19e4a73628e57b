/**
 * A bot's life (log in, read, get a CSRF token, edit, read the write log) with each request sent
 * to the next of several addresses in turn, over a fresh connection each time: two processes
 * serving one set of cassettes must answer it as one server does (docs/decisions/0019-many-processes.md).
 */

/** One answer as the bot saw it: tokens and session ids replaced (they are random per session). */
export interface SeenAnswer {
  step: string;
  status: number;
  /** Set-Cookie names with their attributes, the values replaced. */
  cookies: string[];
  body: unknown;
}

/** Tokens and session cookie values are random per session: compared by their form. */
function normalized(text: string): string {
  return text.replace(/[0-9a-f]{32,}\+\\\\/g, 'TOKEN+\\\\');
}

/** Runs the bot against `urls` (api.php URLs), the i-th request going to urls[i % urls.length]. */
export async function alternatingBot(urls: readonly string[], login: { name: string; password: string }): Promise<{ seen: SeenAnswer[]; writes: unknown[] }> {
  const jar = new Map<string, string>();
  const seen: SeenAnswer[] = [];
  let n = 0;
  const call = async (step: string, params: Record<string, string>, post: boolean): Promise<any> => {
    const url = urls[n++ % urls.length]!;
    const q = new URLSearchParams({ format: 'json', formatversion: '2', ...params }).toString();
    const headers: Record<string, string> = { connection: 'close', ...(jar.size > 0 ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}) };
    if (post) headers['content-type'] = 'application/x-www-form-urlencoded';
    const r = await fetch(post ? url : `${url}?${q}`, { method: post ? 'POST' : 'GET', ...(post ? { body: q } : {}), headers });
    const cookies: string[] = [];
    for (const c of r.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const name = pair!.slice(0, pair!.indexOf('='));
      if (/Max-Age=0/.test(c)) jar.delete(name);
      else jar.set(name, pair!.slice(name.length + 1));
      cookies.push([name, ...attrs.map((a) => (/^ ?expires=/.test(a) ? ' expires=…' : a))].join(';'));
    }
    const text = await r.text();
    // debuginfo says how long each answer took: never the same twice.
    const { debuginfo: _, ...body } = JSON.parse(normalized(text)) as Record<string, unknown>;
    seen.push({ step, status: r.status, cookies, body });
    return JSON.parse(text);
  };
  const logintoken = (await call('login token', { action: 'query', meta: 'tokens', type: 'login' }, false)).query.tokens.logintoken as string;
  await call('login', { action: 'login', lgname: login.name, lgpassword: login.password, lgtoken: logintoken }, true);
  await call('read', { action: 'query', meta: 'userinfo', uiprop: 'groups|rights' }, false);
  await call('read', { action: 'query', meta: 'siteinfo', siprop: 'general' }, false);
  const csrf = (await call('csrf token', { action: 'query', meta: 'tokens' }, false)).query.tokens.csrftoken as string;
  // Asked again of the next process: the same token (derived from the signed session, not from one process's memory).
  const again = (await call('csrf token', { action: 'query', meta: 'tokens' }, false)).query.tokens.csrftoken as string;
  if (again !== csrf) throw new Error('the CSRF token changed between processes');
  for (const title of ['Sandbox', 'Sandbox/2']) await call('edit', { action: 'edit', title, text: `text of ${title}`, summary: 'bot', token: csrf }, true);
  const writes: unknown[] = [];
  for (const u of urls) writes.push(await (await fetch(new URL('/_wikitape/writes', u), { headers: { connection: 'close' } })).json());
  return { seen, writes };
}
