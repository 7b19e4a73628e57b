/** A client with a cookie jar, as bots keep one. */
export class Client {
  jar = new Map<string, string>();
  constructor(readonly url: string) {}
  get cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async call(params: Record<string, string>, how: 'GET' | 'POST' = 'POST', url = this.url): Promise<{ status: number; body: Record<string, any>; headers: Headers }> {
    const q = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
    const headers: Record<string, string> = this.jar.size > 0 ? { cookie: this.cookie } : {};
    const r = how === 'POST' ? await fetch(url, { method: 'POST', body: q, headers }) : await fetch(`${url}?${q}`, { headers });
    this.remember(r.headers);
    return { status: r.status, body: (await r.json()) as Record<string, any>, headers: r.headers };
  }
  /** Keeps the cookies an answer sets (and forgets those it deletes), as a bot's cookie jar does. */
  remember(headers: Headers): void {
    for (const c of headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      if (/Max-Age=0|expires=Thu, 01 Jan 1970/.test(c)) this.jar.delete(name);
      else this.jar.set(name, pair!.slice(eq + 1));
    }
  }
  async token(type: string): Promise<string> {
    return (await this.call({ action: 'query', meta: 'tokens', type }, 'GET')).body['query'].tokens[`${type}token`] as string;
  }
}

