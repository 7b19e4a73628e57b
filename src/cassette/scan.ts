import { fstatSync, readSync } from 'node:fs';
import { parseKeepingKeyOrder } from '../util/ordered-json.js';
import { interactionProblem, type Cassette, type Interaction } from './format.js';
import { CassetteError } from './store.js';

/**
 * Loading a cassette file without reading it as one string.
 *
 * A cassette written by wikitape is pretty JSON with two spaces per level (store.ts): top-level
 * members start at `\n  "`, each interaction of the `interactions` array at `\n    {` and ends at
 * the next `\n    }` (deeper lines are indented further, and a JSON string cannot hold a raw line
 * break). The scan reads the file in windows of a few MB, takes each interaction's key from its
 * first line and remembers where the interaction is; `meta` and `entities` are parsed as usual.
 * An interaction is parsed when it is first asked for. So a cassette of 100,000 interactions
 * loads in a second and holds only its keys in memory, and no file is ever one giant string
 * (V8 cannot make strings past ~512 MB).
 *
 * A file in another layout (written by hand, say) is not scanned: the caller parses it whole.
 */
export interface ScannedInteraction {
  key: string;
  /** Byte offset and length of the interaction's JSON text in the file. */
  offset: number;
  length: number;
}

export interface ScannedCassette {
  /** Every top-level member except `interactions`, parsed. */
  rest: Omit<Cassette, 'interactions'>;
  interactions: ScannedInteraction[];
  /** The top-level members' names in the file's order (`interactions` among them). */
  members: string[];
}

const WINDOW = 8 << 20;
const MEMBER = Buffer.from('\n  "');
const ELEMENT_START = '    {\n      "key": ';
const ELEMENT_END = Buffer.from('\n    }');
const ARRAY_END = Buffer.from('\n  ]');

/** A sliding window over a file: `buf` holds the bytes from file offset `start`. */
class Window {
  buf = Buffer.alloc(0);
  start = 0;
  constructor(
    private readonly fd: number,
    private readonly fileSize: number,
    private readonly size: number,
  ) {}
  get end(): number {
    return this.start + this.buf.length;
  }
  /** Makes the window hold the file's bytes [from, from + need) (fewer at the end of the file). */
  fill(from: number, need: number): void {
    if (from >= this.start && Math.min(from + need, this.fileSize) <= this.end) return;
    const size = Math.min(Math.max(this.size, need), Math.max(0, this.fileSize - from));
    const next = Buffer.allocUnsafe(size);
    let have = from >= this.start && from < this.end ? this.buf.copy(next, 0, from - this.start) : 0;
    while (have < size) {
      const n = readSync(this.fd, next, have, size - have, from + have);
      if (n === 0) break;
      have += n;
    }
    this.buf = next.subarray(0, have);
    this.start = from;
  }
  /** File offset of `needle` at or after `from`, or -1. */
  find(needle: Buffer | string, from: number): number {
    if (from >= this.start && from < this.end) {
      const i = this.buf.indexOf(needle, from - this.start);
      if (i >= 0) return this.start + i;
    }
    for (let need = Math.max(this.size, 2 * (this.end - from)); ; need *= 2) {
      this.fill(from, need);
      const i = this.buf.indexOf(needle, from - this.start);
      if (i >= 0) return this.start + i;
      if (this.end >= this.fileSize) return -1;
    }
  }
  text(from: number, to: number): string {
    this.fill(from, to - from);
    return this.buf.toString('utf8', from - this.start, to - this.start);
  }
  startsWith(at: number, s: string): boolean {
    this.fill(at, s.length);
    return this.buf.toString('latin1', at - this.start, at - this.start + s.length) === s;
  }
}

/** Scans an open cassette file; null when it is not in wikitape's own layout. */
export function scanCassette(fd: number, windowBytes = WINDOW): ScannedCassette | null {
  const size = fstatSync(fd).size;
  const w = new Window(fd, size, windowBytes);
  if (!w.startsWith(0, '{\n  "')) return null;
  const rest: Record<string, unknown> = {};
  const interactions: ScannedInteraction[] = [];
  const members: string[] = [];
  let at = 1; // at a member's leading line break
  let sawInteractions = false;
  for (;;) {
    const nameEnd = w.find('": ', at + 4);
    if (nameEnd < 0) return null;
    const name = JSON.parse(w.text(at + 3, nameEnd + 1)) as string;
    members.push(name);
    const valueStart = nameEnd + 3;
    let valueEnd: number;
    if (name === 'interactions') {
      sawInteractions = true;
      if (w.startsWith(valueStart, '[]')) valueEnd = valueStart + 2;
      else {
        if (!w.startsWith(valueStart, '[\n')) return null;
        let el = valueStart + 2;
        for (;;) {
          if (!w.startsWith(el, ELEMENT_START)) return null;
          const keyStart = el + ELEMENT_START.length;
          const lineEnd = w.find('\n', keyStart);
          const end = w.find(ELEMENT_END, keyStart);
          if (lineEnd < 0 || end < 0) return null;
          const keyText = w.text(keyStart, lineEnd);
          if (!keyText.endsWith(',')) return null;
          const key = JSON.parse(keyText.slice(0, -1)) as unknown;
          if (typeof key !== 'string') return null;
          const elEnd = end + ELEMENT_END.length;
          interactions.push({ key, offset: el + 4, length: elEnd - (el + 4) });
          if (w.startsWith(elEnd, ',\n')) el = elEnd + 2;
          else if (w.startsWith(elEnd, ARRAY_END.toString())) {
            valueEnd = elEnd + ARRAY_END.length;
            break;
          } else return null;
        }
      }
    } else {
      const next = w.find(MEMBER, valueStart);
      valueEnd = next < 0 ? size - (w.startsWith(size - 2, '}\n') ? 2 : 1) : next;
      // the member's text ends before the separating comma, or before the final line break
      let text = w.text(valueStart, valueEnd);
      if (next >= 0) {
        if (!text.endsWith(',')) return null;
        text = text.slice(0, -1);
      } else text = text.replace(/\n$/, '');
      rest[name] = parseKeepingKeyOrder(text);
      if (next < 0) break;
      at = next;
      continue;
    }
    if (w.startsWith(valueEnd, ',\n  "')) at = valueEnd + 1;
    else if (w.startsWith(valueEnd, '\n}')) break;
    else return null;
  }
  if (!sawInteractions) return null;
  return { rest: rest as Omit<Cassette, 'interactions'>, interactions, members };
}

/** Reads and parses one scanned interaction. */
export function readInteraction(fd: number, where: ScannedInteraction): Interaction {
  const buf = Buffer.allocUnsafe(where.length);
  let have = 0;
  while (have < where.length) {
    const n = readSync(fd, buf, have, where.length - have, where.offset + have);
    if (n === 0) throw new Error('cassette file changed while replaying');
    have += n;
  }
  const i = parseKeepingKeyOrder(buf.toString('utf8')) as Interaction;
  const problem = interactionProblem(i);
  if (problem) throw new CassetteError(`an interaction of a cassette cannot be replayed: ${problem}`);
  if (i.key !== where.key) throw new Error('cassette file changed while replaying');
  return i;
}

