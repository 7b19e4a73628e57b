import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';
import { pool, type Answer } from '../support/bot-ask.js';
import { wikiFacts, wikiState } from '../support/bot-facts.js';
import { judge } from '../support/bot-verdict.js';
import { NO_CASSETTES } from '../support/app.js';
import { LIVE_VERSIONS, liveWiki, type LiveWiki } from '../support/live-wiki.js';
import { HEADERS } from '../support/questions.js';
import { continued, liveParamInfo, randomQuestions, seeded } from '../support/random-questions.js';

/**
 * The built-in wiki against a real MediaWiki on questions nobody wrote: the live wiki is crawled
 * into a fixture, and seeded random questions drawn from the live wiki's own `action=paraminfo`
 * for every module wikitape implements (test/support/random-questions.ts), and continuations
 * taken from the live answers, go to both. Each answer is equal, flagged (a `wikitape-miss` or
 * `wikitape-notimplemented`, or `X-Wikitape-Unknown` naming every part that differs) or silently
 * wrong; none may be silently wrong. The counts are printed by module. `WIKITAPE_RANDOM_SEED` and
 * `WIKITAPE_RANDOM_COUNT` ask other questions, or more; `WIKITAPE_RANDOM_OUT` writes the silently
 * wrong ones to `<path>-<version>.txt`.
 */
const run = promisify(execFile);
const SEED = Number(process.env['WIKITAPE_RANDOM_SEED'] ?? 20261127);
const COUNT = Number(process.env['WIKITAPE_RANDOM_COUNT'] ?? 400);
/** Questions in flight at once: the live wikis are PHP's built-in server, shared with other tests. */
const AT_ONCE = 3;
/** How many continuations of one question are followed, at most. */
const DEPTH = 3;

/**
 * An answer as a client receives it, with what differs on every request on either side made one:
 * an anonymous session's login and account creation tokens (new random hex each time), and the
 * parse's CPU and wall time in `limitreportdata`.
 */
async function ask(base: string, q: string): Promise<Answer> {
  const r = await fetch(`${base}?${q}`);
  const text = (await r.text()).replace(/\b[0-9a-f]{40}\+\\\\/g, 'TOKEN+\\\\').replace(/("name": ?"limitreport-(?:cputime|walltime)",\s*"0": ?)"[\d.]+"/g, '$1"T"');
  return { status: r.status, headers: r.headers, text };
}

/** The module a question asks about: its list, prop or meta, or its action. */
function moduleOf(q: string): string {
  const p = new URLSearchParams(q);
  return p.get('action') === 'query' ? (p.get('list') ?? p.get('prop') ?? p.get('meta') ?? 'query') : (p.get('action') ?? '?');
}

type Counts = Map<string, { equal: number; flagged: number; silent: number }>;

/** The built-in wiki on a fresh crawl of the live one (no cassettes). */
async function crawled(live: LiveWiki): Promise<RunningServer> {
  const fixture = join(await mkdtemp(join(tmpdir(), 'wikitape-random-')), 'live.json');
  await run('node', ['scripts/crawl-fixture.mjs', live.apiUrl, fixture, join(live.dir, 'spam-blacklist.txt')]);
  return startServer({ fixtures: [fixture], cassettes: NO_CASSETTES, onMiss: 'builtin' });
}

/** Asks both each question (and, half the time, the continuation of the live answer, to DEPTH); returns the silently wrong ones. */
async function hunt(liveUrl: string, oursUrl: string, questions: readonly string[], counts: Counts, seed: number): Promise<{ q: string; why: string }[]> {
  const follow = seeded(seed);
  const silent: { q: string; why: string }[] = [];
  const one = async (q: string, depth: number): Promise<void> => {
    const [a, b] = await Promise.all([ask(liveUrl, q), ask(oursUrl, q)]);
    const j = judge(a, b, HEADERS);
    const verdict = j.verdict === 'refused' ? 'flagged' : j.verdict;
    const c = counts.get(moduleOf(q)) ?? { equal: 0, flagged: 0, silent: 0 };
    c[verdict]++;
    counts.set(moduleOf(q), c);
    if (verdict === 'silent') silent.push({ q, why: `parts: ${j.uncovered.join(', ')}\n  ${j.detail}` });
    const next = depth < DEPTH && follow() < 0.5 ? continued(q, a.text) : null;
    if (next) await one(next, depth + 1);
  };
  await pool(questions, AT_ONCE, (q) => one(q, 0));
  return silent;
}

describe.each(LIVE_VERSIONS)('the built-in wiki answers random questions like MediaWiki %s', (version) => {
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it(`gives no silently wrong answer to ${COUNT} random questions (seed ${SEED}) and their continuations`, { timeout: 900_000 }, async () => {
    const live = await liveWiki(version);
    const before = await wikiState(live.apiUrl);
    const ours = await crawled(live);
    servers.push(ours);
    const [modules, facts] = await Promise.all([liveParamInfo(live.apiUrl), wikiFacts(live)]);
    const questions = randomQuestions(SEED, COUNT, modules, facts);
    const counts: Counts = new Map();
    let silent = await hunt(live.apiUrl, ours.url, questions, counts, SEED + 1);
    // The wikis are shared: another test that blocked, protected or logged meanwhile makes the
    // crawl and the live answers disagree. Then the silently wrong ones are asked again of a new crawl.
    const after = await wikiState(live.apiUrl);
    if (after !== before && silent.length > 0) {
      console.warn(`MediaWiki ${version} changed during the run (${before} → ${after}): ${silent.length} silently wrong answers asked again of a new crawl`);
      const again = await crawled(live);
      servers.push(again);
      silent = await hunt(live.apiUrl, again.url, silent.map((s) => s.q), new Map(), SEED + 1);
    }
    for (const [m, c] of [...counts].sort()) console.log(`MediaWiki ${version}, ${m}: ${c.equal} equal, ${c.flagged} flagged, ${c.silent} silently wrong`);
    const listed = silent.map((s) => `${s.q}\n  ${s.why}`);
    if (silent.length > 0) console.log(`silently wrong (MediaWiki ${version}, seed ${SEED}):\n${listed.join('\n')}`);
    if (process.env['WIKITAPE_RANDOM_OUT']) await writeFile(`${process.env['WIKITAPE_RANDOM_OUT']}-${version}.txt`, listed.join('\n'));
    const total = [...counts.values()].reduce((n, c) => n + c.equal + c.flagged + c.silent, 0);
    const equal = [...counts.values()].reduce((n, c) => n + c.equal, 0);
    // The hunt asks what wikitape answers: most answers must be the live one's, not refusals.
    expect(equal / total).toBeGreaterThan(0.6);
    // Every module was asked about (a question's module: its list, prop or meta, or its action).
    expect(modules.map((m) => m.path.replace(/^query\+/, '')).filter((m) => !counts.has(m))).toEqual([]);
    expect(listed).toEqual([]);
  });
});
