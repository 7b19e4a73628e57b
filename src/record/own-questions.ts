import type { IncomingHttpHeaders } from 'node:http';
import type { JsonObject } from '../api/result.js';
import { printedOnly } from '../request/canonical.js';
import { ARRAY_VALUE, type ParamMap } from '../request/params.js';
import { parseKeepingKeyOrder } from '../util/ordered-json.js';
import type { WikiProfile } from '../wiki/profile.js';
import { UpstreamError, type Upstream, type UpstreamAnswer } from './upstream.js';

/**
 * The questions the recorder asks the wiki itself, all through the bounded client (upstream.ts):
 * the formatversion=2 copy it stores, who a session is, and what the wiki says of itself.
 */

/** Whether a Content-Type is JSON (MediaWiki sends `application/json; charset=utf-8` for format=json). */
export function isJsonType(contentType: string | undefined | null): boolean {
  return /^\s*application\/json\b/i.test(contentType ?? '');
}

/** Printed-only parameters the canonical question sends as they are: they decide whether (maxlag) and as whom (origin) the wiki answers. */
const ASKED_AS_SENT: ReadonlySet<string> = new Set(['maxlag', 'origin']);
/** Printed-only parameters that change an answer's bytes, never its data. */
const BYTES_ONLY: ReadonlySet<string> = new Set(['format', 'formatversion', 'utf8', 'ascii']);

/**
 * Whether the canonical question leaves a parameter out. What the key leaves out is printed by
 * replay for each request, so the stored answer is asked without it: `requestid`, `curtimestamp`,
 * `responselanginfo`, `maxage` … would be stored in the answer every other spelling of the
 * question gets, and `_` and `wrappedhtml` asked without their printer would be warned about; a
 * printing one sent as a PHP array (`origin[]=*`) too: replay prints its warning.
 */
function leftOut(k: string, v: string, params: ParamMap): boolean {
  return printedOnly(k, params) && (v === ARRAY_VALUE || !ASKED_AS_SENT.has(k));
}

/**
 * Whether the client's own formatversion=2 JSON answer is the canonical question's: it sent
 * nothing the canonical question leaves out but what changes only bytes (`utf8`, `ascii`).
 */
export function answersAsCanonical(params: ParamMap): boolean {
  return [...params].every(([k, v]) => !leftOut(k, v, params) || (BYTES_ONLY.has(k) && v !== ARRAY_VALUE));
}

/**
 * Asks the canonical question (formatversion=2 JSON) for storage, as the identity the answer is
 * filed under (the user's session, or no credentials at all). Resolves to null when the wiki does
 * not answer it in JSON (the help page, an export: nothing to record, nothing lost); rejects (the
 * recording is then reported lost, by its question) when it does not answer with 200 or its JSON
 * cannot be read. Its headers come with it (what is stored of them: policy.ts KEPT_HEADERS).
 * A redirect is never followed: only the configured upstream is ever recorded.
 */
export async function askCanonical(upstream: Upstream, params: ParamMap, credentials: Readonly<Record<string, string>>): Promise<{ body: JsonObject; headers: IncomingHttpHeaders } | null> {
  const form = new URLSearchParams();
  for (const [k, v] of params) {
    if (leftOut(k, v, params)) continue;
    // Any other parameter sent as a PHP array (`list[]=x`) is asked as one, so the wiki reads it as it did.
    form.append(v === ARRAY_VALUE ? `${k}[]` : k, v === ARRAY_VALUE ? '' : v);
  }
  form.set('format', 'json');
  form.set('formatversion', '2');
  let r: UpstreamAnswer;
  try {
    r = await upstream.post(form, { headers: credentials, what: 'its formatversion=2 answer' });
  } catch (e) {
    // Said as what went wrong with this recording (the line names the cassette file).
    throw e instanceof UpstreamError ? new Error(e.why) : e;
  }
  if (r.status !== 200) throw new Error(`it answered the formatversion=2 question with HTTP ${r.status}`);
  if (!isJsonType(r.headers.get('content-type'))) return null;
  try {
    return { body: answerJson(upstream, r, 'its formatversion=2 answer'), headers: headersOf(r) };
  } catch (e) {
    throw e instanceof UpstreamError ? new Error(e.why) : e;
  }
}

/**
 * An answer's data: a JSON object, its integer-like keys kept in order (util/ordered-json.ts).
 * Anything else (HTML, a cut-off text, a bare `null`) is an UpstreamError (`not-json`) naming the
 * status and `what` the answer was; never JSON.parse's own message, which quotes the text.
 */
export function answerJson(upstream: Upstream, r: UpstreamAnswer, what = 'its answer'): JsonObject {
  let data: unknown;
  try {
    data = parseKeepingKeyOrder(r.text);
  } catch {
    throw new UpstreamError(upstream.url.href, 'not-json', `answered HTTP ${r.status} with something that is not JSON (${what})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UpstreamError(upstream.url.href, 'not-json', `answered HTTP ${r.status} with JSON that is not an object (${what})`);
  return data as JsonObject;
}

/** An answer's headers as Node gives a request's (lower-case names): what the recorder keeps of them is policy.ts KEPT_HEADERS. */
export function headersOf(r: UpstreamAnswer): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  r.headers.forEach((v, k) => (headers[k] = v));
  return headers;
}

/**
 * Who these credentials (Cookie, Authorization) log in as, asked of the wiki (`meta=userinfo`):
 * id 0 (and the caller's address as its name) for a session that is nobody's. Rejects when the
 * wiki does not answer that.
 */
export async function askWhoIs(upstream: Upstream, credentials: Readonly<Record<string, string>>): Promise<{ id: number; name: string }> {
  const what = 'its meta=userinfo answer';
  const r = await upstream.get({ action: 'query', meta: 'userinfo', format: 'json', formatversion: '2' }, { headers: credentials, what });
  const info = (answerJson(upstream, r, what)['query'] as { userinfo?: { id?: unknown; name?: unknown } } | undefined)?.userinfo;
  if (typeof info?.id !== 'number' || typeof info.name !== 'string') throw new UpstreamError(upstream.url.href, 'not-json', `answered HTTP ${r.status} without a user (${what})`);
  return { id: info.id, name: info.name };
}

/** The wiki's names and languages, from meta=siteinfo (asked anonymously); rejects when it does not answer that. */
export async function askSiteInfo(upstream: Upstream): Promise<Partial<WikiProfile>> {
  // Through the bounded client: a redirect (to another host or not) is not followed, so
  // nothing but the upstream's own answer reaches the cassette's profile.
  const r = await upstream.get({ action: 'query', meta: 'siteinfo', siprop: 'general', format: 'json', formatversion: '2' }, { timeoutMs: 10_000 });
  const g = (answerJson(upstream, r, 'its meta=siteinfo answer')['query'] as { general?: Record<string, string> } | undefined)?.general ?? {};
  const p: Partial<WikiProfile> = {};
  if (g['generator']) p.version = g['generator'].replace(/^MediaWiki /, '');
  if (g['lang']) p.language = g['lang'];
  if (g['sitename']) p.siteName = g['sitename'];
  if (g['server']) p.server = g['server'];
  if (g['scriptpath'] !== undefined) p.scriptPath = g['scriptpath'];
  if (g['phpversion']) p.runtimeVersion = g['phpversion'];
  return p;
}
