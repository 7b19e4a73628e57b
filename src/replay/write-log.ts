import type { WriteEntry } from '../api/session.js';

/**
 * The write log's bounds. Any client can write (an anonymous edit needs only the `+\` token), so
 * the log is bounded in entries and in bytes (the oldest writes are dropped first, and counted),
 * and a long parameter value is kept cut, with a marker: the log always fits in one answer
 * (80 edits of 7 MB once took the server to 764 MB and `GET /_wikitape/writes` to HTTP 500,
 * "Invalid string length").
 */
export const WRITE_LOG_LIMITS = {
  /** Writes kept. */
  entries: 10_000,
  /** Bytes kept: the UTF-8 JSON of the kept writes. */
  bytes: 32 << 20,
  /** Characters of one parameter value kept whole; a longer one is cut, with CUT_MARK. */
  value: 64 << 10,
  /** Characters of parameter values kept per write; past them, values are only the marker. */
  valuesPerEntry: 1 << 20,
} as const;

/** What a cut value ends with: `… [wikitape: cut, 7340032 characters in all]`. */
function cutMark(length: number): string {
  return `… [wikitape: cut, ${length} characters in all]`;
}

/** The first `n` characters, never half of a surrogate pair. */
function head(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/** A write with its long parameter values cut (the log keeps this copy). */
function bounded(entry: WriteEntry): WriteEntry {
  let budget: number = WRITE_LOG_LIMITS.valuesPerEntry;
  let cut = false;
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(entry.params)) {
    const keep = Math.max(0, Math.min(v.length, WRITE_LOG_LIMITS.value, budget));
    budget -= keep;
    if (keep === v.length) params[k] = v;
    else {
      params[k] = head(v, keep) + cutMark(v.length);
      cut = true;
    }
  }
  return cut ? { ...entry, params } : entry;
}

/** The write log of one engine: oldest first, bounded (WRITE_LOG_LIMITS); what was dropped is counted. */
export class WriteLog {
  private kept: { entry: WriteEntry; bytes: number }[] = [];
  /** Index of the oldest kept write in `kept` (dropping from the front costs nothing per write). */
  private first = 0;
  private bytes = 0;
  private droppedCount = 0;

  add(entry: WriteEntry): void {
    const e = bounded(entry);
    const bytes = Buffer.byteLength(JSON.stringify(e));
    this.kept.push({ entry: e, bytes });
    this.bytes += bytes;
    while (this.kept.length - this.first > WRITE_LOG_LIMITS.entries || this.bytes > WRITE_LOG_LIMITS.bytes) {
      this.bytes -= this.kept[this.first]!.bytes;
      this.first++;
      this.droppedCount++;
    }
    // Compacted now and then, so that dropped writes are let go.
    if (this.first > 1024 && this.first * 2 > this.kept.length) {
      this.kept = this.kept.slice(this.first);
      this.first = 0;
    }
  }

  /** The kept writes, oldest first. */
  writes(): WriteEntry[] {
    return this.kept.slice(this.first).map((k) => k.entry);
  }

  /** The newest write, null when the log is empty (a write is always kept: bounded() cuts it to fit). */
  last(): WriteEntry | null {
    return this.kept.length > this.first ? this.kept[this.kept.length - 1]!.entry : null;
  }

  /** How many writes were dropped (the oldest, to keep the bounds) since the log was last emptied. */
  get dropped(): number {
    return this.droppedCount;
  }

  clear(): void {
    this.kept = [];
    this.first = 0;
    this.bytes = 0;
    this.droppedCount = 0;
  }
}
