import { randomBytes } from 'node:crypto';
import { heapInUse, peakHeapInUse, type DebugMarks } from '../output/debuginfo.js';
import { newSessionId } from '../output/headers.js';
import { phpFloat } from '../output/json.js';
import type { Rendered } from '../output/render.js';
import { formatMegabytesParts } from '../output/texts.js';
import type { Lang } from '../wiki/profile.js';
import type { Source } from '../options.js';

/**
 * A cassette hit, printed once, with holes for what changes from one request to the next.
 *
 * Everything in the answer to a recorded question is fixed by the exact request (its URL and
 * headers): the data, the headers, and debuginfo's request part, log lines and queries. What
 * changes per request is only debuginfo's `time`, the session id of the session lines, the memory
 * figures, with a running clock two timestamps, and the HTML page's request id. The template is the answer rendered with
 * the marks below in those places, split at the marks; a request fills the holes with fresh
 * values and writes the parts as they are (the recorded bytes and the large constant pieces of
 * debuginfo are never copied). The values are ASCII digits and letters, which print the same in
 * JSON (ASCII or UTF-8), in the HTML page and in its script.
 */
export const MARKS: DebugMarks = {
  time: 'wikitapemarktime',
  session: 'wikitapemarksessionxxxxxxxxxxxxx',
  memory: 'wikitapemarkmemory',
  memoryPeak: 'wikitapemarkpeak',
  expired: 'wikitapemarkexpired',
  nowMw: 'wikitapemarknowmw',
  requestId: 'wikitapemarkrequestid',
};

type Slot = keyof DebugMarks;
const SLOTS = Object.keys(MARKS) as Slot[];
const QUOTE = Buffer.from('"');
const QUOT = Buffer.from('&quot;');

export interface HitTemplate {
  status: number;
  /** Response headers as a flat list (`writeHead`'s raw form). */
  headers: string[];
  /** Constant parts; `holes[i]` (when not null) is written right after `parts[i]`. */
  parts: Buffer[];
  holes: Array<Slot | null>;
  /** The kinds of holes it has. */
  slots: Slot[];
  /** Bytes of the constant parts this template owns (shared fragments not counted). */
  ownBytes: number;
  /** Canonical key, for logs. */
  key: string;
  /** What `--track-usage` records when it answers (see engine.ts), or null. */
  usage: string | null;
  userLang: Lang;
  source: Source;
  /** The Unix second it was printed in, when it follows the clock (valid for that second only); else null. */
  second: number | null;
}

/** Where the next mark is in `buf` from `from`, and how many bytes around it belong to it. */
function nextMark(buf: Buffer, from: number): { at: number; end: number; slot: Slot } | null {
  let best: { at: number; end: number; slot: Slot } | null = null;
  for (const slot of SLOTS) {
    const at = buf.indexOf(MARKS[slot], from, 'latin1');
    if (at < 0 || (best && at >= best.at)) continue;
    let start = at;
    let end = at + MARKS[slot].length;
    // `time` is a number: drop the quotes the mark was printed with (JSON, or the HTML page's &quot;)
    if (slot === 'time') {
      for (const q of [QUOTE, QUOT]) {
        if (start >= q.length && buf.subarray(start - q.length, start).equals(q) && buf.subarray(end, end + q.length).equals(q)) {
          start -= q.length;
          end += q.length;
          break;
        }
      }
    }
    best = { at: start, end, slot };
  }
  return best;
}

/**
 * Splits a rendered answer at the marks. `shared` tells the pieces that belong to a cache shared
 * by every answer (debuginfo's include list); they are kept as they are and not counted as owned.
 */
export function makeTemplate(
  rendered: Rendered,
  extra: { key: string; usage: string | null; userLang: Lang; source: Source; second: number | null; shared: (b: Buffer) => boolean },
): HitTemplate {
  const chunks = Array.isArray(rendered.body) ? rendered.body : [Buffer.from(rendered.body)];
  const parts: Buffer[] = [];
  const holes: Array<Slot | null> = [];
  let ownBytes = 0;
  const own = (b: Buffer, hole: Slot | null) => {
    parts.push(b);
    holes.push(hole);
    ownBytes += b.length;
  };
  for (const chunk of chunks) {
    if (extra.shared(chunk)) {
      parts.push(chunk);
      holes.push(null);
      continue;
    }
    let from = 0;
    // copied: the rendered chunk may be a view of a larger buffer kept elsewhere
    for (let m = nextMark(chunk, 0); m; m = nextMark(chunk, from)) {
      own(Buffer.from(chunk.subarray(from, m.at)), m.slot);
      from = m.end;
    }
    if (from < chunk.length) own(from === 0 ? chunk : Buffer.from(chunk.subarray(from)), null);
  }
  const headers: string[] = [];
  for (const [k, v] of rendered.headers) headers.push(k, v);
  headers.push('X-Wikitape-Source', extra.source);
  return { status: rendered.status, headers, parts, holes, slots: [...new Set(holes.filter((h): h is Slot => h !== null))], ownBytes, key: extra.key, usage: extra.usage, source: extra.source, userLang: extra.userLang, second: extra.second };
}

/** MediaWiki timestamp (`yyyymmddhhmmss`) of a time in ms. */
function mwTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * The fresh values for one request, each worked out only when the template has a hole for it; null
 * when one cannot be printed in the template's form (a heap outside the megabyte range): the
 * caller then prints the answer in full.
 */
export function fillHoles(t: HitTemplate, startedAt: bigint, nowMs: number): Partial<Record<Slot, string>> | null {
  const out: Partial<Record<Slot, string>> = {};
  for (const slot of t.slots) {
    let v: string | null;
    switch (slot) {
      case 'time':
        v = phpFloat(Number(process.hrtime.bigint() - startedAt) / 1e9);
        break;
      case 'session':
        v = newSessionId();
        break;
      case 'memory':
        v = formatMegabytesParts(t.userLang, heapInUse())?.num ?? null;
        break;
      case 'memoryPeak':
        v = formatMegabytesParts(t.userLang, peakHeapInUse())?.num ?? null;
        break;
      case 'expired':
        v = String(Math.floor(nowMs / 1000) - 365 * 86400);
        break;
      case 'nowMw':
        v = mwTimestamp(nowMs);
        break;
      case 'requestId':
        v = randomBytes(12).toString('hex');
        break;
    }
    if (v === null) return null;
    out[slot] = v;
  }
  return out;
}
