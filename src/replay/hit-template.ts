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
 * the holes with fresh values and writes the parts as they are (long parts, such as debuginfo's
 * include list or a big recorded answer, are never copied). The values are ASCII digits and
 * letters, which print the same in JSON (ASCII or UTF-8), in the HTML page and in its script.
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
/** The slots in a fixed order: a hole is stored as its index here. */
const SLOT_LIST = Object.keys(MARKS) as Slot[];
const SLOT_INDEX = Object.fromEntries(SLOT_LIST.map((slot, i) => [slot, i])) as Record<Slot, number>;
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
  /**
   * The answer in order, two numbers per part: a run of constant text (its start and end in
   * `text`), a hole (-1, then its slot's index in SLOT_LIST), or a long part written as it is (-2,
   * then its index in `long`).
   */
  layout: Int32Array;
  /** The constant text of the runs, one after the other (kept outside V8's heap, as buffers are). */
  text: Buffer;
  /** Long parts: shared fragments, or the template's own. */
  long: Buffer[];
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
  /** Whether its usage was noted (once is enough: the engine keeps a set). */
  usageNoted: boolean;
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

/** A part at least this long is written as it is (never copied); shorter ones are kept as text. */
const BIG_PART = 16 * 1024;
/** Constant text after the last long part, up to this long, is written with it (see withTail). */
const TAIL_MAX = 4096;

/** A run of a rendered answer: bytes, then the hole written right after them (or none). */
interface Piece {
  bytes: Buffer;
  shared: boolean;
  hole: Slot | null;
}

/** The rendered chunks cut at the marks; `shared` tells the fragments shared by many answers. */
function piecesOf(chunks: readonly Buffer[], shared: (b: Buffer) => boolean): Piece[] {
  const pieces: Piece[] = [];
  for (const chunk of chunks) {
    if (shared(chunk)) {
      pieces.push({ bytes: chunk, shared: true, hole: null });
      continue;
    }
    let from = 0;
    for (let m = nextMark(chunk, 0); m; m = nextMark(chunk, from)) {
      pieces.push({ bytes: chunk.subarray(from, m.at), shared: false, hole: m.slot });
      from = m.end;
    }
    if (from < chunk.length) pieces.push({ bytes: chunk.subarray(from), shared: false, hole: null });
  }
  return pieces;
}

/** Shared fragments with the constant text that ends an answer after them, by fragment and text. */
const tails = new WeakMap<Buffer, Map<string, Buffer>>();

/**
 * A long part and the short constant text after it as one buffer: the answer then ends with one
 * write instead of two (debuginfo's include list is followed by the `}}` that closes the answer).
 * A shared fragment's copy is shared too (a few per fragment: each format closes its own way);
 * null when it already has its few.
 */
function withTail(part: Buffer, tail: string, shared: boolean): Buffer | null {
  const bytes = Buffer.from(tail, 'latin1');
  if (!shared) return Buffer.concat([part, bytes]);
  let m = tails.get(part);
  if (!m) tails.set(part, (m = new Map()));
  let joined = m.get(tail);
  if (!joined && m.size < 4) m.set(tail, (joined = Buffer.concat([part, bytes])));
  return joined ?? null;
}

/**
 * The template's parts in order: each run of short constant parts as one latin1 string (encoded()
 * copies them into the template's text buffer), holes as their slot's index, long parts as buffers
 * (own ones copied out of the rendered chunks, which may be views of larger buffers kept elsewhere,
 * and listed in `owned`).
 */
function partsOf(pieces: readonly Piece[]): { parts: Array<string | number | Buffer>; owned: Set<Buffer> } {
  const parts: Array<string | number | Buffer> = [];
  const owned = new Set<Buffer>();
  let run: Buffer[] = [];
  const endRun = () => {
    if (run.length > 0) parts.push(Buffer.concat(run).toString('latin1'));
    run = [];
  };
  for (const p of pieces) {
    if (p.shared || p.bytes.length >= BIG_PART) {
      endRun();
      const own = p.shared ? p.bytes : Buffer.from(p.bytes);
      if (!p.shared) owned.add(own);
      parts.push(own);
    } else if (p.bytes.length > 0) run.push(p.bytes);
    if (p.hole === null) continue;
    endRun();
    parts.push(SLOT_INDEX[p.hole]);
  }
  endRun();
  const [last, tail] = parts.slice(-2);
  if (Buffer.isBuffer(last) && typeof tail === 'string' && tail.length <= TAIL_MAX) {
    const joined = withTail(last, tail, !owned.has(last));
    if (joined) {
      parts.splice(-2, 2, joined);
      if (owned.delete(last)) owned.add(joined);
    }
  }
  return { parts, owned };
}

/**
 * The parts in the template's compact form (HitTemplate.layout): the text runs copied into one
 * buffer (a string per run in V8's heap made the 100,000-interaction case's RSS 120 MB larger).
 */
function encoded({ parts, owned }: { parts: Array<string | number | Buffer>; owned: Set<Buffer> }): { text: Buffer; layout: Int32Array; long: Buffer[]; owned: number } {
  let size = 0;
  for (const x of parts) if (typeof x === 'string') size += x.length;
  const text = Buffer.allocUnsafeSlow(size);
  const layout = new Int32Array(parts.length * 2);
  const long: Buffer[] = [];
  let at = 0;
  parts.forEach((x, i) => {
    if (typeof x === 'string') {
      layout[2 * i] = at;
      at += text.write(x, at, 'latin1');
      layout[2 * i + 1] = at;
    } else if (typeof x === 'number') {
      layout[2 * i] = -1;
      layout[2 * i + 1] = x;
    } else {
      layout[2 * i] = -2;
      layout[2 * i + 1] = long.push(x) - 1;
    }
  });
  let mine = 0;
  for (const b of owned) mine += b.length;
  return { text, layout, long, owned: size + mine + layout.byteLength };
}

/**
 * Splits a rendered answer at the marks. `shared` tells the pieces that belong to a cache shared
 * by every answer (debuginfo's include list); they are kept as they are and not counted as owned.
 */
export function makeTemplate(
  rendered: Rendered,
  extra: { key: string; usage: string | null; userLang: Language; source: Source; second: number | null; at: number | null; shared: (b: Buffer) => boolean },
): HitTemplate {
  const chunks = Array.isArray(rendered.body) ? rendered.body : [Buffer.from(rendered.body)];
  const pieces = piecesOf(chunks, extra.shared);
  const { text, layout, long, owned } = encoded(partsOf(pieces));
  const fixedLength = pieces.reduce((n, p) => n + p.bytes.length, 0);
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
  return { status: rendered.status, headers, text, layout, long, fixedLength, slots, ownBytes: owned + OVERHEAD, key: extra.key, usage: extra.usage, usageNoted: false, source: extra.source, userLang: extra.userLang, second: extra.second, at: extra.at };
}

/** The values of one request's holes, by slot index (SLOT_LIST). */
type HoleValues = Array<string | undefined>;

/**
 * A template's answer as few chunks, `values` in its holes: each run of constant text and holes
 * as one latin1 string (read from the template's text buffer; no buffer made per request: Node
 * joins the first string to the status line and headers in one write), the long parts as they
 * are. The bundled wiki's 131 KB answer with 1.43's debuginfo is two chunks, as a bare server's
 * headers and body: part by part (about 30 buffers, most of them a few bytes) it went out at
 * 0.61–0.69 of a bare server; copied into one buffer per request, the copy and its garbage cost
 * more than that.
 */
export function templateChunks(t: HitTemplate, values: HoleValues): Array<string | Buffer> {
  const { layout, text, long } = t;
  const out: Array<string | Buffer> = [];
  let run = '';
  // The text runs up to the next long part lie one after the other in `text`: read once, then sliced.
  let base = -1;
  let region = '';
  for (let i = 0; i < layout.length; i += 2) {
    const a = layout[i]!;
    const b = layout[i + 1]!;
    if (a >= 0) {
      if (base < 0) {
        let end = b;
        for (let j = i + 2; j < layout.length && layout[j] !== -2; j += 2) if (layout[j]! >= 0) end = layout[j + 1]!;
        base = a;
        region = text.toString('latin1', a, end);
      }
      run += region.slice(a - base, b - base);
    } else if (a === -1) run += values[b]!;
    else {
      if (run !== '') out.push(run);
      run = '';
      base = -1;
      out.push(long[b]!);
    }
  }
  if (run !== '') out.push(run);
  return out;
}

/** The length in bytes of a template written with these values (they are ASCII). */
export function templateLength(t: HitTemplate, values: HoleValues): number {
  let n = t.fixedLength;
  for (let i = 0; i < t.layout.length; i += 2) if (t.layout[i] === -1) n += values[t.layout[i + 1]!]!.length;
  return n;
}

/**
 * The fresh values for one request, each worked out only when the template has a hole for it; null
 * when one cannot be printed in the template's form (a heap outside the megabyte range): the
 * caller then prints the answer in full.
 */
export function fillHoles(t: HitTemplate, startedAt: bigint, nowMs: number): HoleValues | null {
  const out: HoleValues = [];
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
        v = megabytes(HEAP, t.userLang, heapInUse());
        break;
      case 'memoryPeak':
        v = megabytes(PEAK, t.userLang, peakHeapInUse());
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
    out[SLOT_INDEX[slot]] = v;
  }
  return out;
}

/**
 * The last figure printed for a heap size, and the sizes it holds for: the heap is read at most
 * once a millisecond (debuginfo.ts), so at thousands of answers a second it changes every few
 * answers, and working the figure out again (PHP's round to two decimals, the language's digits)
 * was 2–3 % of a hit's CPU.
 */
export interface Figure {
  lang: Language | null;
  /** Sizes strictly between these print the same figure. */
  low: number;
  high: number;
  num: string | null;
}
const HEAP = newFigure();
const PEAK = newFigure();

/** A figure that holds for no size yet (one per heap figure a template prints; tests make their own). */
export function newFigure(): Figure {
  return { lang: null, low: 0, high: 0, num: null };
}
const MB = 1048576;
/** Less than half a hundredth of a megabyte: a size this close to a figure rounds to it, in PHP as in JS. */
const NEAR = 0.0049 * MB;

/** A heap size as debuginfo prints it in megabytes (null outside the range it prints that way); `last` remembers it. */
export function megabytes(last: Figure, lang: Language, bytes: number): string | null {
  if (last.lang === lang && bytes > last.low && bytes < last.high) return last.num;
  last.num = megabyteParts(lang, bytes)?.num ?? null;
  last.lang = lang;
  const figure = (Math.round((bytes / MB) * 100) / 100) * MB;
  // the sizes that round to the same figure, within the range printed in megabytes (megabyteParts)
  const near = last.num !== null && Math.abs(bytes - figure) < NEAR;
  last.low = near ? Math.max(figure - NEAR, MB - 1) : bytes - 1;
  last.high = near ? Math.min(figure + NEAR, 1000 * MB) : bytes + 1;
  return last.num;
}
