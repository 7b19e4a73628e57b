import { isWalk, type Item, type Params, type Question } from './bot-styles.js';
import type { Client } from './cookie-client.js';

/** An answer as a client receives it. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** A question and the live wiki's answer to it. */
export interface Asked {
  q: Question;
  live: Answer;
}

/** Runs `fn` over `items`, at most `n` at a time (the live wikis are PHP's built-in server); results in order. */
export async function pool<T, R>(items: readonly T[], n: number, fn: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/**
 * At most `size` requests at once, across every caller that shares the gate (the live wikis are
 * PHP's built-in server, shared with other tests); `resize` lets a caller give a slot back, e.g.
 * when a snapshot that asks on its own has finished.
 */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private size: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    while (this.running >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  resize(size: number): void {
    this.size = size;
    for (let free = size - this.running; free > 0 && this.waiting.length > 0; free--) this.waiting.shift()!();
  }
}

const form = (params: Params) => new URLSearchParams(params as [string, string][]);

function encode(q: Question): string {
  if (q.raw !== undefined) return q.raw;
  if (q.encoding === 'uri') return q.params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return form(q.params).toString();
}

function request(api: string, q: Question, headers: Record<string, string>): Promise<Response> {
  switch (q.how) {
    case 'GET':
      return fetch(`${api}?${encode(q)}`, { headers });
    case 'POST':
      return fetch(api, { method: 'POST', body: form(q.params), headers });
    case 'POST-multipart': {
      const body = new FormData();
      for (const [k, v] of q.params) body.append(k, v);
      return fetch(api, { method: 'POST', body, headers });
    }
    case 'POST-split':
      // mwbot: `?format=json` in the URL, every other parameter in the form.
      return fetch(`${api}?format=json`, { method: 'POST', body: form(q.params.filter(([k]) => k !== 'format')), headers });
  }
}

/** Sends a question as its client would, with the session's cookies (none: anonymous); the session keeps what the answer sets. */
export async function send(api: string, q: Question, session: Client | null): Promise<Answer> {
  const headers: Record<string, string> = { ...q.headers };
  if (session && session.jar.size > 0) headers['cookie'] = session.cookie;
  const r = await request(api, q, headers);
  session?.remember(r.headers);
  return { status: r.status, headers: r.headers, text: await r.text() };
}

/** What a client merges into its next question: the whole `continue` (mwn, mwclient), else legacy `query-continue`; null at the end. */
function continuation(text: string): Record<string, string> | null {
  let body: Record<string, any>;
  try {
    body = JSON.parse(text) as Record<string, any>;
  } catch {
    return null;
  }
  if (body['continue']) return body['continue'] as Record<string, string>;
  const legacy = body['query-continue'] as Record<string, Record<string, string>> | undefined;
  return legacy ? Object.assign({}, ...Object.values(legacy)) : null;
}

/** The question with continuation merged in: values replaced where the question has them, new ones after (a dict update). */
function merged(q: Question, next: Record<string, string>): Question {
  const params = q.params.map(([k, v]) => [k, k in next ? String(next[k]) : v] as const);
  for (const [k, v] of Object.entries(next)) if (!q.params.some(([p]) => p === k)) params.push([k, String(v)]);
  return { ...q, params };
}

/** Asks an item: a question once, a walk page by page following each answer's continuation. */
export async function askItem(item: Item, ask: (q: Question) => Promise<Answer>): Promise<Asked[]> {
  if (!isWalk(item)) return [{ q: item, live: await ask(item) }];
  const out: Asked[] = [];
  let q = item.first;
  for (let i = 0; i < (item.pages ?? 10); i++) {
    const live = await ask(q);
    out.push({ q, live });
    const next = continuation(live.text);
    if (!next) break;
    q = merged(q, next);
  }
  return out;
}

/** Logs a session in as mwn and mwclient do: `meta=tokens&type=login`, then `action=login` with `lgtoken`, cookies kept. */
export async function logIn(session: Client, user: string, password: string): Promise<string> {
  const token = await session.token('login');
  const r = await session.call({ action: 'login', lgname: user, lgpassword: password, lgtoken: token });
  return String(r.body['login']?.result);
}
