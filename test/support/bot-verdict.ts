import type { Answer } from './bot-ask.js';
import { answerDifferences, normalize } from './differential.js';

/**
 * How the bots' differential judges one answer beside the live wiki's (issue 21):
 * - `equal`: status, the headers clients read and the body (per-request values aside) are the live one's;
 * - `refused`: replay answered the `wikitape-miss` error (a bot sees an error in the body);
 * - `flagged`: it differs, and `X-Wikitape-Unknown` names every part that differs;
 * - `silent`: it differs and nothing says so, or the flag names other parts than those that differ
 *   (issue 21, item 6: every other part of a flagged answer must be exact).
 */
export const VERDICTS = ['equal', 'refused', 'flagged', 'silent'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Judgement {
  verdict: Verdict;
  /** `X-Wikitape-Source` of our answer. */
  source: string | null;
  /** What our answer said it did not know (`X-Wikitape-Unknown`). */
  flags: string[];
  /** Where the answers part: a path in the body (`query.pages.28.extlinks`), `header <name>` or `status`. */
  parts: string[];
  /** The parts no flag names. */
  uncovered: string[];
  /** The bodies around their first difference, and each header that differs. */
  detail: string;
}

/** Parts of an answer that hang on whether a list is complete: its continuation. */
const CONTINUATION = ['continue', 'query-continue', 'batchcomplete'];

/**
 * Whether a flag names a part. A flag is `<area>.<what>` (README "Known differences"):
 * `query+x`-style module names and `action=…`/`prop=…` (a module wikitape does not implement),
 * `format.*` and `session.*` (the caller's rights) leave the whole answer unknown; `siteinfo.<prop>`
 * names `query.<prop>`; `pages.*` the page set (pages, redirects, pageids); any other area names
 * the parts of that name (`extlinks.id` → `query.pages.28.extlinks`, `logevents.userid` →
 * `query.logevents`), and an `entries` or `id` flag also the continuation. Extend here when a new
 * kind of flag appears.
 */
export function covers(flag: string, part: readonly string[]): boolean {
  if (/[+=]/.test(flag) || /^(?:format|session)\./.test(flag)) return true;
  const [area = '', what = ''] = flag.split('.');
  // A `query` left out whole (every part asked was unknown) is what the siteinfo flags name.
  if (area === 'siteinfo') return part[0] === 'query' && (part[1] === what || part.length === 1);
  if (area === 'pages' && part[0] === 'query' && ['pages', 'redirects', 'pageids', 'normalized'].includes(part[1] ?? '')) return true;
  // A page's size, protections and language links are what list=allpages' filters read.
  if (area === 'pages' && ['length', 'protection', 'langlinks'].includes(what) && (part[1] === 'allpages' || CONTINUATION.includes(part[0] ?? ''))) return true;
  // The HTML page around the JSON (`page.user`, `page.styles`, `page.header`).
  if (area === 'page' && part[0] === '(outside the JSON, or its spelling)') return true;
  if (part.includes(area)) return true;
  return ['entries', 'id', 'existence', 'redirect'].includes(what) && CONTINUATION.includes(part[0] ?? '');
}

/** The JSON an answer shows: its body (a JSONP call's argument, the HTML page's pretty JSON), normalized; null if none. */
function shown(text: string): unknown {
  const steady = normalize(text);
  const page = /<pre class="api-pretty-content">([\s\S]*?)<\/pre>/.exec(steady);
  const json = page ? page[1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#039;/g, "'").replace(/&amp;/g, '&') : steady.replace(/^\/\*\*\/[\w.]*\(([\s\S]*)\)$/, '$1');
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The paths where two JSON values differ (at most 40); a member order that differs is a part of its own. */
function jsonParts(a: unknown, b: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (out.length >= 40 || JSON.stringify(a) === JSON.stringify(b)) return out;
  if (isObject(a) && isObject(b)) {
    const before = out.length;
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) jsonParts(a[k], b[k], [...at, k], out);
    if (out.length === before) out.push([...at, '(member order)']);
  } else {
    out.push(at);
  }
  return out;
}

/** The headers a client reads, as it reads them: `Expires` as seconds after `Date` (two clocks must agree), cookies by name. */
function asRead(a: Answer, names: readonly string[]): Headers {
  const h = new Headers();
  for (const n of names) {
    const v = a.headers.get(n);
    if (v !== null) h.set(n, v);
  }
  const [expires, date] = [a.headers.get('expires'), a.headers.get('date')];
  // A fixed date far from Date (PHP's "already expired" 1970) is read as it is.
  const ahead = expires && date ? (Date.parse(expires) - Date.parse(date)) / 1000 : NaN;
  if (names.includes('expires') && Math.abs(ahead) < 365 * 86400) h.set('expires', `${ahead}s after Date`);
  const cookies = a.headers.getSetCookie().map((c) => c.slice(0, c.indexOf('='))).sort();
  if (names.includes('set-cookie')) h.set('set-cookie', cookies.join(', '));
  return h;
}

/** Judges our answer beside the live one: `headers` are those compared (the differential's or the wire's). */
export function judge(live: Answer, ours: Answer, headers: readonly string[]): Judgement {
  const details = answerDifferences({ text: live.text, headers: asRead(live, headers) }, { text: ours.text, headers: asRead(ours, headers) }, headers);
  if (live.status !== ours.status) details.unshift(`status: live ${live.status} / ours ${ours.status}`);
  const source = ours.headers.get('x-wikitape-source');
  const flags = (ours.headers.get('x-wikitape-unknown') ?? '').split(/,\s*/).filter(Boolean);
  const base = { source, flags, detail: details.join('\n  ') };
  if (details.length === 0) return { verdict: 'equal', ...base, parts: [], uncovered: [] };
  const bodies = normalize(live.text) === normalize(ours.text) ? [] : jsonParts(shown(live.text), shown(ours.text));
  // Bodies that differ where no JSON value does: the page around the JSON, or how it is spelled (escapes, spacing).
  const paths = bodies.length === 0 && normalize(live.text) !== normalize(ours.text) ? [['(outside the JSON, or its spelling)']] : bodies;
  const named = [...paths, ...details.filter((d) => d.startsWith('header ')).map((d) => ['header', d.slice(7, d.indexOf(':'))]), ...(live.status !== ours.status ? [['status']] : [])];
  const parts = named.map((p) => (p.length === 0 ? '(whole body)' : p.join('.')));
  const uncovered = named.filter((p) => !flags.some((f) => covers(f, p))).map((p) => (p.length === 0 ? '(whole body)' : p.join('.')));
  if (source === 'miss' || ours.text.includes('wikitape-miss')) return { verdict: 'refused', ...base, parts, uncovered };
  return { verdict: flags.length > 0 && uncovered.length === 0 ? 'flagged' : 'silent', ...base, parts, uncovered };
}
