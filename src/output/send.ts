import type { ServerResponse } from 'node:http';

/** Ends a response with a body given whole or in chunks (one writev, nothing concatenated). */
export function sendBody(res: ServerResponse, body: Buffer | string | Buffer[]): void {
  if (!Array.isArray(body)) {
    res.end(body);
    return;
  }
  res.setHeader('Content-Length', body.reduce((n, b) => n + b.length, 0));
  res.cork();
  for (const chunk of body) res.write(chunk);
  res.end();
  res.uncork();
}
