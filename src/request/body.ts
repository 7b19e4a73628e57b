import type { Readable } from 'node:stream';
import { MAX_INPUT_VARS, POST_URLENCODED_VARS, mergeParams, type ParamMap, parseUrlEncoded } from './params.js';

/** The largest request body read; PHP's default post_max_size is 8M. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The POST parameters of a body, as PHP fills `$_POST`: urlencoded and multipart/form-data
 * (file parts are skipped); any other content type, or a GET body, gives none.
 */
export function parseBody(method: string, contentType: string | undefined, body: Buffer, lossy?: Set<string>): ParamMap {
  const out: ParamMap = new Map();
  if (method !== 'POST' || body.length === 0 || !contentType) return out;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return parseUrlEncoded(latin1ToPercent(body), out, lossy, POST_URLENCODED_VARS);
  if (type === 'multipart/form-data') {
    const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
    const boundary = m?.[1] ?? m?.[2];
    if (boundary) parseMultipart(body, boundary.trim(), out, lossy);
  }
  return out;
}

/** Raw non-ASCII bytes in a urlencoded body are percent-encoded so decoding sees bytes, not chars. */
function latin1ToPercent(body: Buffer): string {
  const s = body.toString('latin1');
  return /[\x80-\xff]/.test(s) ? s.replace(/[\x80-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16)}`) : s;
}

/**
 * The parameters of a part's Content-Disposition header as PHP's rfc1867 reads them: names in any
 * case, values quoted with `"` or `'` or bare up to the next `;` (`name=meta` is a field).
 */
function dispositionParams(headers: string): Map<string, string> | null {
  const line = /^content-disposition:([^\r\n]*)/im.exec(headers);
  if (!line) return null;
  const params = new Map<string, string>();
  const re = /;\s*([^=;\s]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^;]*))/g;
  for (const m of line[1]!.matchAll(re)) {
    const key = m[1]!.toLowerCase();
    if (!params.has(key)) params.set(key, (m[2] ?? m[3] ?? m[4] ?? '').trim());
  }
  return params;
}

function parseMultipart(body: Buffer, boundary: string, out: ParamMap, lossy?: Set<string>): void {
  const delim = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delim);
  let parts = 0;
  while (pos >= 0) {
    // PHP's max_input_vars counts the fields of a multipart body too
    if (++parts > MAX_INPUT_VARS) break;
    const start = pos + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next < 0) break;
    const part = body.subarray(start, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      let content = part.subarray(headerEnd + 4);
      if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
      const disp = dispositionParams(headers);
      const partName = disp?.get('name');
      if (disp && !disp.has('filename') && partName) {
        // Multipart values are raw bytes: percent-encode them and reuse the urlencoded decoder.
        const name = encodeURIComponent(partName);
        let value = '';
        for (const b of content) value += `%${b.toString(16).padStart(2, '0')}`;
        parseUrlEncoded(`${name}=${value}`, out, lossy);
      }
    }
    pos = next;
  }
}

/**
 * Reads a body up to `limit` bytes: null when it is larger (PHP drops a POST over
 * post_max_size), empty when the stream breaks. What was read is let go as soon as the limit is
 * passed; with `destroyOnOverflow` the stream is also destroyed then (its socket closed, nothing
 * more read) and null is given at once, instead of reading on to the end.
 */
export function readBody(stream: Readable, limit = MAX_BODY_BYTES, { destroyOnOverflow = false } = {}): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
      else {
        chunks = [];
        if (destroyOnOverflow) {
          resolve(null);
          stream.destroy();
        }
      }
    });
    stream.on('end', () => {
      // The listeners stay on the request while it is answered: the chunks are let go here, not
      // kept beside their copy (a 5.7 MB POST held 11 MB through its answer).
      const body = size <= limit ? Buffer.concat(chunks) : null;
      chunks = [];
      resolve(body);
    });
    stream.on('error', () => resolve(size <= limit ? Buffer.alloc(0) : null));
  });
}

/**
 * A request's parameters as PHP reads them: `$_GET` from the URL's query string, `$_POST` from the
 * body, merged (`$_POST + $_GET`); `lossy` names those whose bytes were not valid UTF-8.
 */
export function requestParams(method: string, url: string, contentType: string | undefined, body: Buffer): { query: string; get: ParamMap; post: ParamMap; params: ParamMap; lossy: Set<string> } {
  const lossy = new Set<string>();
  const q = url.indexOf('?');
  const query = q < 0 ? '' : url.slice(q + 1);
  const get = parseUrlEncoded(query, new Map(), lossy);
  const post = parseBody(method, contentType, body, lossy);
  return { query, get, post, params: mergeParams(get, post), lossy };
}
