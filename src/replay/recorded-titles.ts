import { isObject, type Json, type JsonObject } from '../api/result.js';
import { cleanUp } from '../api/unicode.js';
import { splitMulti } from '../request/canonical.js';
import type { ParamMap } from '../request/params.js';
import { foldTitle } from '../request/title-spelling.js';
import { languageUcfirst } from '../util/ucfirst.js';

/**
 * `query.normalized` for the titles as this request spells them. The cassette key folds only
 * spellings whose answers differ in nothing else (request/title-spelling.ts), so a recorded
 * answer serves another spelling with this list written anew, in MediaWiki's order
 * (ApiPageSet's mNormalizedTitles): first what WebRequest cleaned (only titles that do not fold,
 * sent exactly as recorded: their recorded entries), then each title in the order given that the
 * wiki writes otherwise — a folded one as MediaWiki writes it (spaces, the version's first
 * letter), any other as recorded.
 */
export function withClientSpelling(body: JsonObject, params: ParamMap, titleCase: boolean): JsonObject {
  const titles = params.get('titles');
  const q = body['query'];
  if (titles === undefined || !isObject(q) || pageSetDone(params)) return body;
  const raw = [...new Set(splitMulti(titles))];
  const folded = raw.map(foldTitle);
  // Nothing folded: the request spells every title as the recording did.
  if (folded.every((f) => f === null)) return body;
  const recorded = Array.isArray(q['normalized']) ? q['normalized'].filter(isObject) : [];
  const entries = new Map<string, Json>();
  for (const n of recorded) if (n['fromencoded'] === true) entries.set(String(n['from']), n);
  raw.forEach((t, i) => {
    const f = folded[i];
    if (f === null || f === undefined) {
      const clean = cleanUp(t);
      const hit = recorded.find((n) => n['fromencoded'] !== true && n['from'] === clean);
      if (hit) entries.set(clean, hit);
      return;
    }
    const to = languageUcfirst(f, titleCase);
    if (to !== t) entries.set(t, { fromencoded: false, from: t, to });
  });
  const rebuilt: JsonObject = {};
  if (entries.size > 0) rebuilt['normalized'] = [...entries.values()];
  for (const [k, v] of Object.entries(q)) if (k !== 'normalized') rebuilt[k] = v;
  return { ...body, query: rebuilt };
}

/**
 * Whether `continue` says the page set is done (`-||…`): ApiQuery then runs the page set dry and
 * writes no page information, so the answer has no `normalized` whatever the spelling.
 */
function pageSetDone(params: ParamMap): boolean {
  const parts = (params.get('continue') ?? '').split('||');
  return parts.length === 2 && parts[0] === '-';
}
