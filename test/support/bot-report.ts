import { KINDS, label, type Kind, type Question } from './bot-styles.js';
import { VERDICTS, type Judgement, type Verdict } from './bot-verdict.js';

/** One question judged. */
export interface Judged {
  q: Question;
  j: Judgement;
}

/** Counts of one kind (or all): how many were asked, each verdict, and how many a recording answered as is. */
type Counts = Record<Verdict, number> & { asked: number; cassette: number };

/** Counts per kind, and `all`. */
function tally(results: readonly Judged[]): Record<Kind | 'all', Counts> {
  const zero = (): Counts => ({ asked: 0, cassette: 0, ...(Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>) });
  const out = Object.fromEntries([...KINDS, 'all'].map((k) => [k, zero()])) as Record<Kind | 'all', Counts>;
  for (const { q, j } of results) {
    for (const c of [out[q.kind], out.all]) {
      c.asked++;
      c[j.verdict]++;
      if (j.source === 'cassette') c.cassette++;
    }
  }
  return out;
}

const pct = (n: number, of: number) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(1)}%`);

/**
 * The table of one setup: per kind, the verdicts with default settings (what a bot that reads no
 * header gets) and with `onMiss: 'builtin'` (the option that serves flagged answers).
 */
export function table(title: string, byDefault: readonly Judged[], builtin: readonly Judged[]): string {
  const [d, b] = [tally(byDefault), tally(builtin)];
  const rows = [
    title,
    '  kind        asked | default settings: equal refused flagged silent  equal% | --on-miss builtin: equal flagged silent | recorded as asked',
  ];
  for (const k of [...KINDS, 'all'] as const) {
    const [x, y] = [d[k], b[k]];
    if (x.asked === 0) continue;
    const cells = [x.equal, x.refused, x.flagged, x.silent].map((n) => String(n).padStart(7)).join('');
    rows.push(`  ${k.padEnd(10)} ${String(x.asked).padStart(6)} | ${cells} ${pct(x.equal, x.asked).padStart(7)} | ${[y.equal, y.flagged, y.silent].map((n) => String(n).padStart(7)).join('')} | ${x.cassette}`);
  }
  return rows.join('\n');
}

/** Each answer of a verdict, with its question and where it parts from the live one. */
export function listing(heading: string, results: readonly Judged[], verdict: Verdict): string {
  const hits = results.filter((r) => r.j.verdict === verdict);
  if (hits.length === 0) return `${heading}: none`;
  const where = new Map<string, number>();
  for (const { j } of hits) {
    // Where an answer first parts, without indexes and ids: a rough grouping by cause.
    const at = (j.uncovered[0] ?? j.parts[0] ?? '?').split('.').map((s) => (/^-?\d+$/.test(s) ? '#' : s)).slice(0, 3).join('.');
    where.set(at, (where.get(at) ?? 0) + 1);
  }
  const lines = [`${heading}: ${hits.length} (where they first part: ${[...where].sort((x, y) => y[1] - x[1]).map(([w, n]) => `${w} ${n}`).join(', ')})`];
  for (const { q, j } of hits) {
    lines.push(`- [${q.kind}] ${label(q)}`);
    lines.push(`  source ${j.source}${j.flags.length > 0 ? `, unknown: ${j.flags.join(', ')}` : ''}; differs at ${j.uncovered.slice(0, 6).join(', ')}${j.uncovered.length > 6 ? ', …' : ''}`);
    lines.push(`  ${j.detail}`);
  }
  return lines.join('\n');
}

/** The share of equal answers. */
export const equalShare = (results: readonly Judged[]): number => results.filter((r) => r.j.verdict === 'equal').length / Math.max(1, results.length);

/** How many answers had a verdict. */
export const count = (results: readonly Judged[], v: Verdict): number => results.filter((r) => r.j.verdict === v).length;
