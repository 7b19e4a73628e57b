import type { IncomingHttpHeaders } from 'node:http';
import type { JsonObject } from '../api/result.js';
import { RENDERING_PARAMS } from '../request/canonical.js';
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
    if (['format', 'formatversion', 'callback', 'utf8', 'ascii'].includes(k)) continue;
    // A parameter sent as a PHP array (`list[]=x`) is asked as one, so the wiki reads it as it did;
    // a printing one (`origin[]=*`) is left out: replay prints its warning, not the data.
    if (v === ARRAY_VALUE) {
      if (!RENDERING_PARAMS.has(k)) form.append(`${k}[]`, '');
    } else form.append(k, v);
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
  let body: JsonObject;
  try {
    body = parseKeepingKeyOrder(r.text) as JsonObject;
  } catch {
    throw new Error('its formatversion=2 answer was not JSON');
  }
  const headers: IncomingHttpHeaders = {};
  r.headers.forEach((v, k) => (headers[k] = v));
  return { body, headers };
}

/** Who these credentials (Cookie, Authorization) log in as, asked of the wiki (`meta=userinfo`). */
export async function askWhoIs(upstream: Upstream, credentials: Record<string, string>): Promise<{ id: number; name: string }> {
  const r = await upstream.get({ action: 'query', meta: 'userinfo', format: 'json', formatversion: '2' }, { headers: credentials, what: 'its meta=userinfo answer' });
  const info = (JSON.parse(r.text) as { query?: { userinfo?: { id?: unknown; name?: unknown } } }).query?.userinfo;
  if (typeof info?.id !== 'number' || typeof info.name !== 'string') throw new Error(`meta=userinfo answered HTTP ${r.status} without a user`);
  return { id: info.id, name: info.name };
}

/** The wiki's names and languages, from meta=siteinfo (asked anonymously); rejects when it does not answer that. */
export async function askSiteInfo(upstream: Upstream): Promise<Partial<WikiProfile>> {
  // Through the bounded client: a redirect (to another host or not) is not followed, so
  // nothing but the upstream's own answer reaches the cassette's profile.
  const r = await upstream.get({ action: 'query', meta: 'siteinfo', siprop: 'general', format: 'json', formatversion: '2' }, { timeoutMs: 10_000 });
  let parsed: { query?: { general?: Record<string, string> } };
  try {
    parsed = JSON.parse(r.text) as typeof parsed;
  } catch {
    throw new Error(`meta=siteinfo answered HTTP ${r.status}, not as JSON`);
  }
  const g = parsed.query?.general ?? {};
  const p: Partial<WikiProfile> = {};
  if (g['generator']) p.version = g['generator'].replace(/^MediaWiki /, '');
  if (g['lang']) p.language = g['lang'];
  if (g['sitename']) p.siteName = g['sitename'];
  if (g['server']) p.server = g['server'];
  if (g['scriptpath'] !== undefined) p.scriptPath = g['scriptpath'];
  if (g['phpversion']) p.runtimeVersion = g['phpversion'];
  return p;
}
