import type { Interaction } from '../cassette/format.js';
import { partsCovering, type ListModule } from '../api/list-module.js';
import type { ParamMap } from '../request/params.js';
import { splitMulti } from '../request/canonical.js';
import type { Knowledge } from '../wiki/model.js';

/**
 * The time an answer is as of under `--clock recorded` (docs/decisions/0015-a-clock-per-recording.md):
 * each recording keeps its own. A recorded answer is replayed as of the time it was recorded; an
 * answer computed from a list is as of the complete walk it comes from. A later recording (a
 * `record --mode new` run a day after) then changes no answer recorded or computed before it: a
 * block that expired in between still lists in the answers recorded while it held.
 */

/** When a recording was made (its `recordedAt`), in ms; null when it does not say (then the cassettes' clock). */
export function recordingTime(i: Interaction): number | null {
  const at = Date.parse(i.recordedAt);
  return Number.isNaN(at) ? null : at;
}

/**
 * When the walks an answer computed from lists comes from were recorded, in ms: for each list the
 * question names, its complete walk of the part asked (or, when that part was not walked
 * completely, the newest walk of it recorded from its first page but not to its last, whose pages
 * a page within them is computed from; else the list's newest complete walk: the answer is flagged
 * `<list>.entries` then); the latest of them. Null when
 * a list it names was never walked, or it names none (then the cassettes' clock: the latest
 * recording, as answers that read no walk have no time of their own).
 */
export function walkTime(params: ParamMap, knows: Knowledge | null, lists: readonly ListModule[]): number | null {
  if (knows === null) return null;
  const names = splitMulti(params.get('list') ?? '');
  if (names.length === 0) return null;
  const request = Object.fromEntries(params);
  let latest = '';
  for (const name of names) {
    const list = lists.find((l) => l.name === name);
    if (!list) return null;
    const times = knows.walkTimes.get(name) ?? new Map<string, string>();
    const scope = list.walk.scope(request);
    // (of the walks holding the part asked, the newest: its entries are the newest the model holds;
    // without one, of the first pages of walks holding it, the newest: a page within them is computed)
    const covering = scope !== null ? partsCovering(list, times.keys(), scope).map((s) => times.get(s)!) : [];
    const prefixes = scope !== null && covering.length === 0 ? (knows.walkPrefixes.get(name) ?? []).filter((p) => partsCovering(list, [p.scope], scope).length > 0).map((p) => p.recordedAt) : [];
    const some = covering.length > 0 ? covering : prefixes.length > 0 ? prefixes : [...times.values()];
    if (some.length === 0) return null;
    const at = some.reduce((a, b) => (a > b ? a : b));
    if (at > latest) latest = at;
  }
  const ms = Date.parse(latest);
  return Number.isNaN(ms) ? null : ms;
}
