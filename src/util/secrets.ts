/**
 * What is secret, decided in one place. Every output wikitape writes (cassettes, request log lines
 * in text and JSON, `onRequest`, error texts, `cassettes show`, the HTML page outside debuginfo)
 * goes through these functions, and a secret appears there as `SECRET`, never as its value or
 * a hash of it. debuginfo's `request` block is the one exception: like MediaWiki's, it echoes the
 * request to the client that sent it.
 */

/** What a secret is replaced with. */
export const SECRET = '***';

/**
 * The name as PHP files it: `a[b]` is `a`, and a NUL ends the name. Lower-cased: MediaWiki's
 * parameter names are case-sensitive, but a secret spelled otherwise is still a secret.
 */
function baseName(name: string): string {
  const nul = name.indexOf('\0');
  const cut = nul < 0 ? name : name.slice(0, nul);
  const bracket = cut.indexOf('[');
  return (bracket > 0 ? cut.slice(0, bracket) : cut).toLowerCase();
}

/**
 * Parameter names whose values are secrets: passwords (`lgpassword`, `password`, `retype` and
 * clientlogin's other password fields), every token (`token`, `lgtoken`, `logintoken`,
 * `csrftoken`, `wltoken`, `OATHToken` …), OAuth's parameters, and session ids.
 */
export function isSecretParam(name: string): boolean {
  const n = baseName(name);
  if (n.endsWith('token') || n.includes('password') || n === 'retype' || n.startsWith('oauth_') || n.endsWith('session') || n === 'sessionid') return true;
  // A name still percent-encoded (a multipart part is not decoded) is judged as it reads decoded too.
  return n.includes('%') && decodeLoosely(n) !== n && isSecretParam(decodeLoosely(n));
}

/** Request and response headers whose values are secrets. */
const SECRET_HEADERS: ReadonlySet<string> = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization', 'x-csrf-token']);

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** A query string (`a=1&b=2`, percent- or `+`-encoded) with the values of secret parameters replaced. */
export function redactQuery(query: string): string {
  if (query === '') return query;
  let changed = false;
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    if (!isSecretParam(decodeLoosely(rawName))) return part;
    changed = true;
    return `${rawName}=${SECRET}`;
  });
  return changed ? parts.join('&') : query;
}

/** `+` and `%XX` decoded; a malformed escape stays as written. */
function decodeLoosely(s: string): string {
  const t = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(t);
  } catch {
    return t.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** A URL or path with its query string redacted. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : `${url.slice(0, q + 1)}${redactQuery(url.slice(q + 1))}`;
}

/** Parameters (name, value) with the values of secret ones replaced. */
export function redactParams<T extends Iterable<[string, string]>>(params: T): [string, string][] {
  return [...params].map(([k, v]) => [k, isSecretParam(k) ? SECRET : v]);
}

/**
 * A secret handed out in an answer: a string under a key named like a token (`csrftoken`,
 * `watchlisttoken` in user options …). Short values are names, not secrets (`"needstoken": "csrf"`
 * style flags); the anonymous user's token `+\` is the same for everyone. A module named like a
 * token is no secret either: paraminfo lists each submodule by its name and path
 * (`"checktoken": "checktoken"` in main's, `"centralauthtoken": "query+centralauthtoken"`).
 */
function isSecretValue(key: string, value: unknown): value is string {
  return typeof value === 'string' && isSecretParam(key) && value !== '+\\' && value.length >= 8 && value !== key && !value.endsWith(`+${key}`);
}

/** A JSON value with every secret handed out in it replaced (a new value; the argument is left alone). */
export function redactJson<T>(value: T): T {
  if (Array.isArray(value)) {
    const items = value.map((v) => redactJson(v));
    return (items.some((v, i) => v !== value[i]) ? items : value) as T;
  }
  if (value === null || typeof value !== 'object') return value;
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const next = isSecretValue(k, v) ? SECRET : redactJson(v);
    if (next !== v) {
      out ??= { ...(value as Record<string, unknown>) };
      out[k] = next;
    }
  }
  return (out ?? value) as T;
}
