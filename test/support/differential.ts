import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../../src/util/ordered-json.js';
import { HEADERS } from './questions.js';
import type { ReadQuestion } from './read-questions.js';

/**
 * A body without what differs on every request: debuginfo, curtimestamp, siteinfo's time, and the
 * parser's limit report figures (CPU and real time of this parse, the second it was cached at, in
 * the report's text and in `limitreportdata`):
 * the live wiki itself gives other figures each time (JSONP kept).
 */
export function normalize(text: string): string {
  if (text.startsWith('<!DOCTYPE html>')) return normalizePage(text);
  const m = /^(\/\*\*\/[\w.]*\()?([\s\S]*?)(\))?$/.exec(text)!;
  try {
    // Keeping the order of integer-like keys: formatversion=1's `query.pages` is keyed by page id
    // in the order the page set found the pages, which JSON.parse would put in numeric order.
    const j = parseKeepingKeyOrder(m[2]!) as Record<string, unknown>;
    delete j['debuginfo'];
    delete j['curtimestamp'];
    // siteinfo's general.time is "now" on each side: the two answers may straddle a second.
    const general = (j['query'] as Record<string, Record<string, unknown>> | undefined)?.['general'];
    if (general) delete general['time'];
    // (and `prop=limitreportdata`'s: the second of the parse, its CPU and real time, the whole
    // expansion's time in the timing profile, which the report's text shows too)
    const steady = stringifyKeepingKeyOrder(j)
      .replace(/Cached time: \d+/g, 'Cached time: T')
      .replace(/(CPU|Real) time usage: [\d.]+ seconds?/g, '$1 time usage: S')
      .replace(/("name": ?"cachereport-timestamp", ?"0": ?)"\d+"/g, '$1"T"')
      .replace(/("name": ?"limitreport-(?:cpu|wall)time", ?"0": ?)"[\d.]+"/g, '$1"S"')
      .replace(/(100\.00% +)[\d.]+( +\d+ -total)/g, '$1T$2');
    return (m[1] ?? '') + steady + (m[3] ?? '');
  } catch {
    return text;
  }
}

/**
 * The HTML page (`jsonfm`, no `format`) without its per-request values, its bytes otherwise kept
 * (the pretty-printing is what is compared): the request id and backend time in the page's
 * scripts, the debug toolbar's copy of debuginfo, and in the pretty JSON the debuginfo block (the
 * last member, four spaces in), curtimestamp, siteinfo's time and the limit report's figures.
 */
function normalizePage(text: string): string {
  return text
    .replace(/"wgRequestId":"[^"]*"/g, '"wgRequestId":"R"')
    .replace(/"wgBackendResponseTime":\d+/g, '"wgBackendResponseTime":T')
    .replace(/mw\.config\.set\(\{"debugInfo":[\s\S]*?\}\);/g, 'mw.config.set({"debugInfo":D});')
    .replace(/,\n {4}"debuginfo": \{[\s\S]*?\n {4}\}(?=\n\})/, '')
    // (the last member once debuginfo is gone: the comma before it goes with it)
    .replace(/\n {4}"curtimestamp": "[^"]*",/, '')
    .replace(/,\n {4}"curtimestamp": "[^"]*"(?=\n\})/, '')
    .replace(/("general": \{[\s\S]*?\n {12}"time": )"[^"]*"/, '$1"T"')
    .replace(/Cached time: \d+/g, 'Cached time: T')
    .replace(/(CPU|Real) time usage: [\d.]+ seconds?/g, '$1 time usage: S');
}

/** The parts of an answer the differential compares. */
export interface Printed {
  text: string;
  headers: Headers;
}

/** Where two answers part: the normalized bodies around their first difference, and each of `headers` that differs. */
export function answerDifferences(live: Printed, ours: Printed, headers: readonly string[] = HEADERS): string[] {
  const [ta, tb] = [normalize(live.text), normalize(ours.text)];
  const details: string[] = [];
  if (ta !== tb) {
    let i = 0;
    while (ta[i] === tb[i]) i++;
    // An HTML page's own line breaks are shown as ⏎: the excerpt stays on its line.
    const near = (t: string) => t.slice(Math.max(0, i - 60), i + 120).replace(/\n/g, '⏎');
    details.push(`live: …${near(ta)}\n  ours: …${near(tb)}`);
  }
  for (const h of headers) {
    if (live.headers.get(h) !== ours.headers.get(h)) details.push(`header ${h}: live ${live.headers.get(h)} / ours ${ours.headers.get(h)}`);
  }
  return details;
}

export interface Comparison {
  asked: number;
  equal: number;
  /** One entry per differing question: the question and where the answers part. */
  differences: { question: string; detail: string }[];
  /** What each side answered, by question (normalized). */
  ours: Map<string, string>;
  /** What our answer said it could not know (`X-Wikitape-Unknown`, or `miss`), by question; absent when nothing. */
  flags: Map<string, string>;
}

/** Asks both servers each question; bodies must match byte for byte (debuginfo aside), and the headers clients read. */
export async function compare(liveUrl: string, oursUrl: string, questions: readonly string[]): Promise<Comparison> {
  const differences: Comparison['differences'] = [];
  const ours = new Map<string, string>();
  const flags = new Map<string, string>();
  for (const q of questions) {
    const [a, b] = await Promise.all([fetch(`${liveUrl}?${q}`), fetch(`${oursUrl}?${q}`)]);
    const [live, answer] = [{ text: await a.text(), headers: a.headers }, { text: await b.text(), headers: b.headers }];
    ours.set(q, normalize(answer.text));
    const flag = b.headers.get('x-wikitape-unknown') ?? (b.headers.get('x-wikitape-source') === 'miss' ? 'miss' : null);
    if (flag !== null) flags.set(q, flag);
    const details = answerDifferences(live, answer);
    if (details.length > 0) differences.push({ question: q, detail: details.join('\n  ') });
  }
  return { asked: questions.length, equal: questions.length - differences.length, differences, ours, flags };
}

/** Prints a comparison the way the differential tests report it. */
export function report(title: string, c: Comparison): void {
  console.log(`${title}: ${c.equal}/${c.asked} equal (${((100 * c.equal) / c.asked).toFixed(1)}%)`);
  for (const d of c.differences) console.log(`${d.question}\n  ${d.detail}`);
}

/**
 * Asks the live wiki and ours each question of each area and counts each answer equal (status,
 * body and the headers clients read), flagged (ours a `wikitape-miss`, or `X-Wikitape-Unknown`)
 * or silently wrong; prints the counts per area, and returns the silently wrong ones with where
 * they part.
 */
export async function silentlyWrongByArea(label: string, liveUrl: string, oursUrl: string, areas: Readonly<Record<string, readonly ReadQuestion[]>>, counted?: Map<string, { equal: number; flagged: number; silent: number }>): Promise<string[]> {
  const ask = async (base: string, q: ReadQuestion) => {
    const r = typeof q === 'string' ? await fetch(`${base}?${q}`) : await fetch(`${base}?${q.query}`, { method: 'POST', body: q.form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    // wikitape's own failure (`wikitape.internal`) is flagged for users, but a bug to these hunts.
    const unknown = r.headers.get('x-wikitape-unknown');
    const flagged = r.headers.get('x-wikitape-source') === 'miss' || (unknown !== null && !unknown.split(', ').includes('wikitape.internal'));
    return { status: r.status, text: await r.text(), headers: r.headers, flagged, unknown };
  };
  const silent: string[] = [];
  for (const [area, questions] of Object.entries(areas)) {
    const counts = { equal: 0, flagged: 0, silent: 0 };
    // What the flagged answers named (a miss without a name counts as `miss`): where replay refuses most.
    const why = new Map<string, number>();
    for (const q of questions) {
      const [a, b] = await Promise.all([ask(liveUrl, q), ask(oursUrl, q)]);
      const differs = answerDifferences(a, b);
      if (a.status !== b.status) differs.unshift(`status: live ${a.status} / ours ${b.status}`);
      if (differs.length === 0) counts.equal++;
      else if (b.flagged) {
        counts.flagged++;
        for (const name of b.unknown?.split(', ') ?? ['miss']) why.set(name, (why.get(name) ?? 0) + 1);
      } else {
        counts.silent++;
        silent.push(`${typeof q === 'string' ? q : JSON.stringify(q)}\n  ${differs.join('\n  ')}`);
      }
    }
    const named = [...why].sort((x, y) => y[1] - x[1]).map(([name, n]) => `${name} ${n}`);
    console.log(`${label}, ${area}: ${counts.equal} equal, ${counts.flagged} flagged, ${counts.silent} silently wrong (of ${questions.length})${named.length > 0 ? `; flagged for ${named.join(', ')}` : ''}`);
    counted?.set(area, counts);
  }
  if (silent.length > 0) console.log(`silently wrong:\n${silent.join('\n')}`);
  return silent;
}
