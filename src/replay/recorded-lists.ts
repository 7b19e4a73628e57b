import type { Interaction } from '../cassette/format.js';
import type { JsonObject } from '../api/result.js';
import { seesMoreThanReaders, type Caller } from '../api/session.js';
import { MODULES } from '../modules/index.js';

/**
 * What the lists a recorded or computed answer shows mean for replay, as each list module says
 * (api/list-module.ts): entries that expire with the clock (blocks), and lists a caller with more
 * rights than readers sees more of.
 */

/** The lists whose entries expire (ListModule.expiry): a recorded answer showing one changes with the clock. */
const EXPIRING = MODULES.query.list.filter((l) => l.expiry !== undefined);

/** When each entry a recorded answer lists stops being shown (none: the answer never changes with the clock). */
function recordedExpiries(i: Interaction): string[] {
  const q = i.body['query'];
  if (!q || typeof q !== 'object' || Array.isArray(q)) return [];
  const out: string[] = [];
  for (const list of EXPIRING) {
    const rows = (q as Record<string, unknown>)[list.name];
    if (!Array.isArray(rows)) continue;
    for (const row of rows) {
      const at = row && typeof row === 'object' && !Array.isArray(row) ? list.expiry!(row as JsonObject) : null;
      if (at !== null) out.push(at);
    }
  }
  return out;
}

/** Whether a recorded answer lists an entry (a block) whose expiry is at or before `now`. */
export function expiredSince(i: Interaction, now: number): boolean {
  return recordedExpiries(i).some((at) => Date.parse(at) <= now);
}

/** Whether a recorded answer will change when the clock passes one of its entries' expiry. */
export function expiring(i: Interaction): boolean {
  return recordedExpiries(i).length > 0;
}

/** The lists a caller with rights readers lack sees more of (ListModule.widerForRights), as the modules that ran are named. */
const WIDER_FOR_RIGHTS: ReadonlySet<string> = new Set(MODULES.query.list.filter((l) => l.widerForRights).map((l) => `query+${l.name}`));

/**
 * A logged-in caller with rights to see what readers may not (hidden log entry parts, the
 * suppression log, hidden blocks; see VISIBILITY_RIGHTS): a list computed for them from what
 * readers were shown may lack what they would see, and is flagged. `seen`: the rights the lists
 * were read with (fixtures crawled logged in), which show the caller all they hold. (Unknown
 * rights are flagged as `session.rights` already.)
 */
export function visibilityUnknown(caller: Caller | undefined, modules: readonly { path: string }[], seen: readonly string[] = []): string[] {
  if (!caller || caller.anon || caller.rights === null || !seesMoreThanReaders(caller.rights, seen)) return [];
  return modules.some((m) => WIDER_FOR_RIGHTS.has(m.path)) ? ['session.visibility'] : [];
}
