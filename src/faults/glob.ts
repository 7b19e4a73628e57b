/**
 * The glob of a fault's `match=PARAM=GLOB`: `*` matches any text (also none), every other
 * character itself. Any client can send one (`X-Wikitape-Fault`), so it is matched in time
 * linear in the value and the glob, whatever their shape, and never as a regular expression
 * built from client text (one `.*` per star backtracks exponentially: 10 stars against 3,000
 * characters ran for minutes).
 *
 * How: the text before the first star must begin the value, the text after the last star must
 * end it, and each piece between stars is found at its leftmost place after the one before
 * (leftmost is always right for `*`-only globs: a later place leaves less room for what
 * follows). Each piece is searched with Knuth–Morris–Pratt, and the searches go left to right
 * through the value without ever going back, so the comparisons are at most twice the value's
 * length plus twice the glob's.
 */
export class Glob {
  private readonly pieces: string[];
  /** Each middle piece's KMP failure table (built once per glob). */
  private readonly tables: Int32Array[];
  private readonly tableSteps: number;

  constructor(readonly glob: string) {
    this.pieces = glob.split('*');
    let steps = 0;
    this.tables = this.pieces.slice(1, -1).map((p) => {
      const t = failureTable(p);
      steps += 2 * p.length;
      return t;
    });
    this.tableSteps = steps;
  }

  /**
   * Whether the value matches. `counter.steps`, when given, is raised by the character
   * comparisons made (a deterministic measure of the cost: at most 2 × value + 2 × glob).
   */
  matches(value: string, counter: { steps: number } = { steps: 0 }): boolean {
    const pieces = this.pieces;
    if (pieces.length === 1) {
      counter.steps += Math.min(value.length, this.glob.length);
      return value === this.glob;
    }
    const head = pieces[0]!;
    const tail = pieces[pieces.length - 1]!;
    if (value.length < head.length + tail.length) return false;
    counter.steps += head.length + tail.length + this.tableSteps;
    if (!value.startsWith(head) || !value.endsWith(tail)) return false;
    let from = head.length;
    const end = value.length - tail.length;
    for (let i = 1; i < pieces.length - 1; i++) {
      const at = search(value, from, end, pieces[i]!, this.tables[i - 1]!, counter);
      if (at < 0) return false;
      from = at + pieces[i]!.length;
    }
    return true;
  }
}

/** KMP's failure table: for each prefix of `p`, the length of its longest proper border. */
function failureTable(p: string): Int32Array {
  const t = new Int32Array(p.length);
  let k = 0;
  for (let i = 1; i < p.length; i++) {
    while (k > 0 && p[i] !== p[k]) k = t[k - 1]!;
    if (p[i] === p[k]) k++;
    t[i] = k;
  }
  return t;
}

/** Where `p` first occurs in `s[from, end)`, or -1; each comparison is counted. */
function search(s: string, from: number, end: number, p: string, table: Int32Array, counter: { steps: number }): number {
  if (p.length === 0) return from;
  let k = 0;
  for (let i = from; i < end; i++) {
    while (k > 0 && s[i] !== p[k]) {
      counter.steps++;
      k = table[k - 1]!;
    }
    counter.steps++;
    if (s[i] === p[k]) k++;
    if (k === p.length) return i - p.length + 1;
  }
  return -1;
}
