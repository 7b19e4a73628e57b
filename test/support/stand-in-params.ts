import type { IncomingMessage } from 'node:http';

/**
 * The parameters a stand-in wiki's request carries, as PHP merges them: the query string's, then a
 * POST body's (`application/x-www-form-urlencoded`). `append` keeps both of a name sent twice
 * (the first is what `get` reads); `set` lets the body's win, as `$_POST + $_GET` does.
 */
export async function standInParams(req: IncomingMessage, same: 'append' | 'set' = 'append'): Promise<URLSearchParams> {
  const q = new URL(req.url ?? '/', 'http://x').searchParams;
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString())) q[same](k, v);
  return q;
}
