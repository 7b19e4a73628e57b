import { randomBytes } from 'node:crypto';
import { heapInUse, peakHeapInUse, type DebugMarks } from '../output/debuginfo.js';
import { newSessionId } from '../output/session.js';
import { phpFloat } from '../output/json.js';
import type { Rendered } from '../output/render.js';
import { megabyteParts } from '../i18n/numbers.js';
import type { Language } from '../i18n/language.js';
import type { Source } from '../options.js';
import { toMw } from '../util/timestamp.js';

/**
 * A cassette hit, printed once, with holes for what changes from one request to the next.
 *
 * Everything in the answer to a recorded question is fixed by the exact request (its URL and
 * headers): the data, the headers, and debuginfo's request part, log lines and queries. What
 * changes per request is only debuginfo's `time`, the session id of the session lines, the memory
 * figures, with a running clock two timestamps, and the HTML page's request id. The template is
 * the answer rendered with the marks below in those places, split at the marks; a request fills
 * the holes with fresh values and writes the parts as they are (the recorded bytes and the large constant pieces of
 * debuginfo are never copied). The values are ASCII digits and letters, which print the same in
 * JSON (ASCII or UTF-8), in the HTML page and in its script.
 */
/**
 * What every mark starts with: a word no answer contains, with a part drawn at random when the
 * process starts, so that neither a request nor recorded data can spell a mark (and have its text
 * replaced by a fresh value). A request that contains it is never printed from a template.
 */
export const MARK_PREFIX = `wikitapemark${randomBytes(4).toString('hex')}`;

export const MARKS: DebugMarks = {
  time: `${MARK_PREFIX}time`,
  // as long as a session id (32 characters), so that the lines around it keep their layout
  session: `${MARK_PREFIX}session`.padEnd(32, 'x'),
  memory: `${MARK_PREFIX}memory`,
  memoryPeak: `${MARK_PREFIX}peak`,
  expired: `${MARK_PREFIX}expired`,
  nowMw: `${MARK_PREFIX}nowmw`,
  requestId: `${MARK_PREFIX}requestid`,
};

type Slot = keyof DebugMarks;
/** The slots in a fixed order: a hole is stored as its index here plus one. */
const SLOT_LIST = Object.keys(MARKS) as Slot[];
const PREFIX = Buffer.from(MARK_PREFIX);
/** Mark names after the common prefix, longest first (none is a prefix of another, but be safe). */
const BY_SUFFIX = SLOT_LIST
  .map((slot) => ({ slot, rest: Buffer.from(MARKS[slot].slice(PREFIX.length)) }))
  .sort((x, y) => y.rest.length - x.rest.length);
const QUOTE = Buffer.from('"');
const QUOT = Buffer.from('&quot;');
/** Heap a kept template costs besides its bytes: its object, its layout and its lists (roughly). */
const OVERHEAD = 400;
/** Header lists by content, shared between templates. */
const headerLists = new Map<string, string[]>();

export interface HitTemplate {
  status: number;
  /** Response headers as a flat list (`writeHead`'s raw form), without `Date` (written per request). */
  headers: string[];
  /** The template's own constant bytes, one part after the other. */
  own: Buffer;
  /**
   * Three numbers per part, in order: its start and end in `own` (or a start of -1 - i for
   * `shared[i]`), then the hole written right after it (its index in SLOT_LIST plus one; 0: none).
   */
  layout: Int32Array;
  /** Parts shared by many answers (debuginfo's include list), kept as they are. */
  shared: Buffer[];
  /** Bytes of all the parts (the holes' values come on top). */
  fixedLength: number;
  /** The kinds of holes it has. */
  slots: Slot[];
  /** Memory the template holds of its own (shared fragments not counted). */
  ownBytes: number;
  /** Canonical key, for logs. */
  key: string;
  /** What `--track-usage` records when it answers (see engine.ts), or null. */
  usage: string | null;
  userLang: Language;
  source: Source;
  /** The Unix second it was printed in, when it follows the clock (valid for that second only); else null. */
  second: number | null;
  /** The instant the answer is as of when it is its own (Answer.at: a recording's time), for its Date and holes; null: the request's clock. */
  at: number | null;
}

/** The next mark in `buf` from `from`: where it starts and ends (with its quotes, for `time`). */
function nextMark(buf: Buffer, from: number): { at: number; end: number; slot: Slot } | null {
  for (let at = buf.indexOf(PREFIX, from); at >= 0; at = buf.indexOf(PREFIX, at + 1)) {
    const after = at + PREFIX.length;
    const hit = BY_SUFFIX.find((m) => buf.compare(m.rest, 0, m.rest.length, after, after + m.rest.length) === 0);
    if (!hit) continue;
    let start = at;
    let end = after + hit.rest.length;
    // `time` is a number: drop the quotes the mark was printed with (JSON, or the HTML page's &quot;)
    if (hit.slot === 'time') {
      for (const q of [QUOTE, QUOT]) {
        if (start >= q.length && buf.compare(q, 0, q.length, start - q.length, start) === 0 && buf.compare(q, 0, q.length, end, end + q.length) === 0) {
          start -= q.length;
          end += q.length;
          break;
        }
      }
    }
    return { at: start, end, slot: hit.slot };
  }
  return null;
}

/**
 * Splits a rendered answer at the marks. `shared` tells the pieces that belong to a cache shared
 * by every answer (debuginfo's include list); they are kept as they are and not counted as owned.
 * The template's own bytes are copied into one buffer (the rendered chunks may be views of larger
 * buffers kept elsewhere, or of the shared pool of small buffers).
 */
export function makeTemplate(
  rendered: Rendered,
  extra: { key: string; usage: string | null; userLang: Language; source: Source; second: number | null; at: number | null; shared: (b: Buffer) => boolean },
): HitTemplate {
  const chunks = Array.isArray(rendered.body) ? rendered.body : [Buffer.from(rendered.body)];
  // pieces: a shared buffer, or a [start, end) range of an own chunk, each followed by a hole or not
  const pieces: Array<{ shared?: Buffer; chunk?: Buffer; start: number; end: number; hole: Slot | null }> = [];
  let ownLength = 0;
  for (const chunk of chunks) {
    if (extra.shared(chunk)) {
      pieces.push({ shared: chunk, start: 0, end: chunk.length, hole: null });
      continue;
    }
    let from = 0;
    for (let m = nextMark(chunk, 0); m; m = nextMark(chunk, from)) {
      pieces.push({ chunk, start: from, end: m.at, hole: m.slot });
      ownLength += m.at - from;
      from = m.end;
    }
    if (from < chunk.length) {
      pieces.push({ chunk, start: from, end: chunk.length, hole: null });
      ownLength += chunk.length - from;
    }
  }
  const own = Buffer.allocUnsafeSlow(ownLength);
  const layout = new Int32Array(pieces.length * 3);
  const shared: Buffer[] = [];
  let at = 0;
  let fixedLength = 0;
  pieces.forEach((p, i) => {
    if (p.shared) {
      shared.push(p.shared);
      layout[3 * i] = -shared.length;
    } else {
      const n = p.chunk!.copy(own, at, p.start, p.end);
      layout[3 * i] = at;
      layout[3 * i + 1] = at + n;
      at += n;
    }
    layout[3 * i + 2] = p.hole === null ? 0 : SLOT_LIST.indexOf(p.hole) + 1;
    fixedLength += p.end - p.start;
  });
  const ownBytes = ownLength + OVERHEAD + layout.byteLength;
  // Date is the clock's at each request (the writer puts it first): not kept in the shared list.
  const list: string[] = [];
  for (const [k, v] of rendered.headers) if (k !== 'Date') list.push(k, v);
  list.push('X-Wikitape-Source', extra.source);
  // most answers share their headers: one list is kept for all of them
  const joined = list.join('\n');
  let headers = headerLists.get(joined);
  if (!headers) {
    if (headerLists.size >= 10_000) headerLists.clear();
    headerLists.set(joined, (headers = list));
  }
  const slots = [...new Set(pieces.map((p) => p.hole).filter((h): h is Slot => h !== null))];
  return { status: rendered.status, headers, own, layout, shared, fixedLength, slots, ownBytes, key: extra.key, usage: extra.usage, source: extra.source, userLang: extra.userLang, second: extra.second, at: extra.at };
}

/** A part at least this long is written as it is; shorter ones, holes among them, are copied together. */
const BIG_PART = 16 * 1024;

/**
 * A template's answer as few buffers, `values` in its holes: its long parts as they are (no copy),
 * each run of short parts and holes between them copied into one buffer. Written part by part
 * (about 30 buffers for an answer with 1.43's debuginfo, most of them a few bytes), the 131 KB
 * answer of the bundled wiki went out at 0.61–0.69 of a bare server, `writev` a third of the
 * profile; copied into one buffer, the copy and its garbage cost more than that.
 */
export function templateChunks(t: HitTemplate, values: Partial<Record<Slot, string>>): Buffer[] {
  const { own, layout, shared } = t;
  const out: Buffer[] = [];
  let run: (Buffer | string)[] = [];
  let runLength = 0;
  const flush = () => {
    if (run.length === 0) return;
    const b = Buffer.allocUnsafe(runLength);
    let at = 0;
    for (const x of run) at += typeof x === 'string' ? b.write(x, at, 'latin1') : x.copy(b, at);
    out.push(b);
    run = [];
    runLength = 0;
  };
  for (let i = 0; i < layout.length; i += 3) {
    const start = layout[i]!;
    const part = start < 0 ? shared[-start - 1]! : own.subarray(start, layout[i + 1]!);
    if (part.length >= BIG_PART) {
      flush();
      out.push(part);
    } else if (part.length > 0) {
      run.push(part);
      runLength += part.length;
    }
    const hole = layout[i + 2]!;
    if (hole === 0) continue;
    const v = values[SLOT_LIST[hole - 1]!]!;
    run.push(v);
    runLength += v.length;
  }
  flush();
  return out;
}

/** The length in bytes of a template written with these values (they are ASCII). */
export function templateLength(t: HitTemplate, values: Partial<Record<Slot, string>>): number {
  let n = t.fixedLength;
  for (let i = 2; i < t.layout.length; i += 3) {
    const hole = t.layout[i]!;
    if (hole !== 0) n += values[SLOT_LIST[hole - 1]!]!.length;
  }
  return n;
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
        v = megabyteParts(t.userLang, heapInUse())?.num ?? null;
        break;
      case 'memoryPeak':
        v = megabyteParts(t.userLang, peakHeapInUse())?.num ?? null;
        break;
      case 'expired':
        v = String(Math.floor(nowMs / 1000) - 365 * 86400);
        break;
      case 'nowMw':
        v = toMw(nowMs);
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
