import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { parseUrlEncoded } from '../../src/request/params.js';
import { startServer, type RunningServer } from '../../src/server.js';

/** Unusual requests a careless or hostile client sends, answered as MediaWiki answers them (checked on 1.39 and 1.43). */

let server: RunningServer;
beforeAll(async () => {
  // The bundled cassettes: recorded answers (a hit) and the built-in wiki.
  server = await startServer({ cassettes: 'cassettes' });
});
afterAll(() => server.close());

/** One raw HTTP/1.1 request (a request line no HTTP client library sends); the response text. */
function raw(requestLine: string): Promise<string> {
  const { port } = server;
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(`${requestLine}\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString('utf8')));
    s.on('end', () => resolve(text));
    s.on('error', reject);
  });
}

describe('an absolute-form request line', () => {
  it('leaves the HTML page links on the wiki, as WebRequest::getGlobalRequestURL does', async () => {
    const text = await raw('GET http://evil.example:9/wiki/api.php?action=query&meta=siteinfo&format=jsonfm HTTP/1.1');
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    const links = [...text.matchAll(/href="([^"]*format=json)"/g)].map((m) => m[1]);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/wiki\/api\.php\?action=query&amp;meta=siteinfo&amp;format=json$/);
    expect(text).not.toContain('evil.example');
  });
});

describe('a JSONP callback that needs cleaning (callback=a%00b)', () => {
  const warning = 'The value passed for \\"callback\\" contains invalid or non-normalized data. Textual data should be valid, NFC-normalized Unicode without C0 control characters other than HT (\\\\t), LF (\\\\n), and CR (\\\\r).';
  it('warns under the printer, as the wiki does, for a built-in answer and a recorded one', async () => {
    for (const q of ['action=query&list=blocks&bklimit=2', 'action=query&meta=siteinfo&siprop=general']) {
      const r = await fetch(`${server.url}?${q}&format=json&callback=a%00b`);
      const text = await r.text();
      expect(text.startsWith(`/**/ab({"warnings":{"json":{"*":"${warning}"}},`)).toBe(true);
    }
  });
});

describe('PHP array syntax (list[]=blocks)', () => {
  it('is keyed as list[]= (never the parser marker) and answered with MediaWiki\'s warning', async () => {
    expect(canonicalKey(parseUrlEncoded('action=query&list[]=blocks'), KEY_RULES)).toBe('action=query&list%5B%5D=');
    expect(canonicalKey(parseUrlEncoded('action=query&list[]=logevents'), KEY_RULES)).toBe(canonicalKey(parseUrlEncoded('action=query&list[]=blocks'), KEY_RULES));
    const r = (await (await fetch(`${server.url}?action=query&list%5B%5D=blocks&format=json&formatversion=2`)).json()) as Record<string, unknown>;
    delete r['debuginfo'];
    expect(r).toEqual({ batchcomplete: true, warnings: { main: { warnings: 'Parameter "list" uses unsupported PHP array syntax.' } } });
    expect(Object.keys(r)).toEqual(['batchcomplete', 'warnings']);
  });
});

describe('a request whose URL or headers pass 1 MiB', () => {
  /** Sends a GET with node:http (the client whose reads changed with libuv 1.52 in Node 24); the status or the error code. */
  function get(path: string, headers: Record<string, string> = {}): Promise<string> {
    const url = new URL(server.url);
    return new Promise((resolve) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
        res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      });
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.end();
    });
  }

  it('gets Node\'s 431 and a closed connection, never a reset, while the client is still sending', async () => {
    const path = `${new URL(server.url).pathname}?action=query&format=json&titles=${'x'.repeat(2_000_000)}`;
    const answers = [];
    for (let i = 0; i < 2; i++) answers.push(await get(path), await get(`${path.slice(0, 60)}`, { 'x-big': 'y'.repeat(2_000_000) }));
    expect(answers).toEqual(Array(4).fill('431'));
    // Under the limit, the API answers (a title too long is its own error).
    expect(await get(`${new URL(server.url).pathname}?action=query&format=json&titles=${'x'.repeat(500_000)}`)).toBe('200');
  });
});
