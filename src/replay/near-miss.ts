import { redactQuery } from '../util/secrets.js';

/**
 * The recorded questions closest to one no recording answers, and how each differs: what a user
 * whose test missed needs to see (a limit of 7 where 10 was recorded, a `meta=userinfo` the
 * client library adds). Keys are canonical (request/canonical.ts), so defaults are filled in and
 * only real differences show.
 */
export interface NearMiss {
  /** The recorded question's canonical key (secrets shown as `***`). */
  key: string;
  /**
   * How it differs from the question asked: `lelimit 7 ≠ 10` (asked 7, recorded 10),
   * `+ meta=userinfo` (the recording has it, the question does not), `- leprop=ids` (the question
   * has it, the recording does not).
   */
  differences: string[];
}

/** Parameters that pick a module: a difference in one weighs more than in a module's own parameter. */
const MODULE_PARAMS = new Set(['list', 'meta', 'prop', 'generator']);
const MODULE_WEIGHT = 5;
/** The most recordings named, and how far one may be to be named (differences, weighted). */
const SHOWN = 3;
const FARTHEST = 8;

function parse(key: string): { identity: string; params: Map<string, string> } {
  const at = key.indexOf(' @');
  const query = at < 0 ? key : key.slice(0, at);
  const params = new Map<string, string>();
  for (const pair of query === '' ? [] : query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    params.set(safeDecode(name), safeDecode(eq < 0 ? '' : pair.slice(eq + 1)));
  }
  return { identity: at < 0 ? '' : key.slice(at + 2), params };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** How a recording differs from a question, and how far it is; null for another action or another user's recording. */
function differ(asked: ReturnType<typeof parse>, recorded: ReturnType<typeof parse>): { differences: string[]; distance: number } | null {
  if (asked.identity !== recorded.identity || asked.params.get('action') !== recorded.params.get('action')) return null;
  const differences: string[] = [];
  let distance = 0;
  const note = (name: string, text: string) => {
    differences.push(text);
    distance += MODULE_PARAMS.has(name) ? MODULE_WEIGHT : 1;
  };
  for (const [name, value] of asked.params) {
    const other = recorded.params.get(name);
    if (other === value) continue;
    note(name, other === undefined ? `- ${name}=${value}` : `${name} ${value} ≠ ${other}`);
  }
  for (const [name, value] of recorded.params) if (!asked.params.has(name)) note(name, `+ ${name}=${value}`);
  return { differences, distance };
}

/**
 * The recorded keys, or a table of them (an InteractionTable: its `size` and `keys()`). Keys are
 * only ever added to a table (a recorder's), so its size says whether the groups made of it
 * (groupsOf) still hold.
 */
export type RecordedKeys = readonly string[] | { readonly size: number; keys(): Iterable<string> };

/** Recorded keys asked by one identity, of one action, picking the same modules (MODULE_PARAMS with their values). */
interface Group {
  identity: string;
  action: string | undefined;
  modules: Map<string, string>;
  keys: string[];
}

/** The groups of each set of recorded keys, made once per set (and again when a recorder added keys). */
const grouped = new WeakMap<object, { size: number; groups: Group[] }>();

/**
 * A miss costs what the recordings near it cost, not what all do: a difference in a module
 * parameter weighs MODULE_WEIGHT, so a group whose modules differ from the question's by more than
 * FARTHEST allows is skipped whole (a `prop=extlinks` question is never compared with the 2,000
 * pages of a `list=logevents` walk, one by one).
 */
function groupsOf(recorded: RecordedKeys): Group[] {
  const size = Array.isArray(recorded) ? recorded.length : (recorded as { size: number }).size;
  const held = grouped.get(recorded);
  if (held && held.size === size) return held.groups;
  const bySignature = new Map<string, Group>();
  for (const key of Array.isArray(recorded) ? recorded : (recorded as { keys(): Iterable<string> }).keys()) {
    const { identity, params } = parse(redactQuery(key));
    const modules = new Map([...params].filter(([name]) => MODULE_PARAMS.has(name)).sort((a, b) => (a[0] < b[0] ? -1 : 1)));
    const action = params.get('action');
    const signature = JSON.stringify([identity, action ?? null, [...modules]]);
    let g = bySignature.get(signature);
    if (!g) bySignature.set(signature, (g = { identity, action, modules, keys: [] }));
    g.keys.push(key);
  }
  const groups = [...bySignature.values()];
  grouped.set(recorded, { size, groups });
  return groups;
}

/** The least distance any key of a group can be from a question: its module parameters' differences alone. */
function moduleDistance(asked: ReturnType<typeof parse>, g: Group): number {
  let d = 0;
  for (const name of MODULE_PARAMS) if (asked.params.get(name) !== g.modules.get(name)) d += MODULE_WEIGHT;
  return d;
}

/** The recordings nearest to `question` (a canonical key), nearest first, none farther than FARTHEST. */
export function nearMisses(question: string, recorded: RecordedKeys): NearMiss[] {
  const asked = parse(redactQuery(question));
  const found: (NearMiss & { distance: number })[] = [];
  for (const g of groupsOf(recorded)) {
    if (g.identity !== asked.identity || g.action !== asked.params.get('action') || moduleDistance(asked, g) > FARTHEST) continue;
    for (const key of g.keys) {
      const shown = redactQuery(key);
      const d = differ(asked, parse(shown));
      if (d === null || d.distance === 0 || d.distance > FARTHEST) continue;
      found.push({ key: shown, ...d });
    }
  }
  found.sort((a, b) => a.distance - b.distance || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return found.slice(0, SHOWN).map(({ key, differences }) => ({ key, differences }));
}

/** One line per near miss, for error texts and logs: `KEY (lelimit 7 ≠ 10; + meta=userinfo)`. */
export function describeNearMisses(near: readonly NearMiss[]): string {
  return near.map((n) => `${n.key} (${n.differences.join('; ')})`).join(' | ');
}
