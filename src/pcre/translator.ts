/**
 * One PCRE pattern (a byte string, without delimiters, in non-UTF mode) translated into the
 * source of a JS regex over byte strings: a recursive-descent parser of PCRE2's syntax (groups,
 * quantifiers, escapes, classes, backreferences, `\\K`) that writes the JS equivalent of each
 * construct, or throws `Unsupported` where JS cannot express it.
 *
 * One class of ~540 lines on purpose: its methods are the grammar's rules and call one another
 * (an atom is a group is an alternation of sequences of atoms), sharing the parse position and
 * the group numbering; split, each part would need the whole state.
 */
import { addAll, type ByteSet, caseClose, CLASS_ESCAPES, complement, emitSet, newSet, POSIX, setOf } from './bytes.js';

/** A construct PCRE accepts that JS cannot express (the pattern counts as not compiling). */
export class Unsupported extends Error {}

export interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
  U: boolean;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isOct = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';
const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isAlnum = (c: string) => /^[0-9A-Za-z]$/.test(c);
const X_SPACE = /^[\t\n\v\f\r \x85]$/;

/** Translated source and, where PCRE would see one, its fixed length in bytes. */
interface Piece {
  src: string;
  len: number | null;
  /** Source before the quantifiable part (`\\Q…\\E`: a quantifier applies to its last character only). */
  prefix?: Piece;
}
const one = (src: string): Piece => ({ src, len: 1 });
const zero = (src: string): Piece => ({ src, len: 0 });

/** One PCRE pattern (byte string, no delimiters) → JS source over byte strings. */
export class Translator {
  private pos = 0;
  private pcreGroups = 0;
  private jsGroups = 0;
  /** PCRE groups open at this point: a reference to one of them never matches in PCRE. */
  private readonly open = new Set<number>();
  /** PCRE group number → JS group number (from a first pass, for forward references). */
  readonly groupMap: number[] = [0];
  readonly names = new Set<string>();
  /** JS groups that mark a `\\K`. */
  readonly kGroups: number[] = [];
  /** Fixed lengths of finished PCRE groups (for lookbehinds), null if they vary. */
  private readonly groupLens: (number | null)[] = [];
  private totalGroups: number;

  constructor(
    private readonly p: string,
    private flags: Flags,
    private readonly previousMap: readonly number[] | null,
  ) {
    this.totalGroups = previousMap ? previousMap.length - 1 : Infinity;
  }

  translate(): string {
    const out = this.alternation();
    if (this.pos < this.p.length) throw new Unsupported('unmatched )');
    return out.src;
  }

  private peek(o = 0): string | undefined {
    return this.p[this.pos + o];
  }

  private skipExtended(): void {
    if (!this.flags.x) return;
    for (;;) {
      const c = this.peek();
      if (c !== undefined && X_SPACE.test(c)) this.pos++;
      else if (c === '#') {
        while (this.pos < this.p.length && this.p[this.pos] !== '\n') this.pos++;
      } else return;
    }
  }

  /** Branches; `len` is their common fixed length (null if they differ or vary). */
  private alternation(): Piece & { branches: (number | null)[] } {
    const first = this.sequence();
    const parts = [first];
    while (this.peek() === '|') {
      this.pos++;
      parts.push(this.sequence());
    }
    const lens = parts.map((b) => b.len);
    const len = lens.every((l) => l !== null && l === lens[0]) ? lens[0]! : null;
    return { src: parts.map((b) => b.src).join('|'), len, branches: lens };
  }

  private sequence(): Piece {
    let src = '';
    let len: number | null = 0;
    for (;;) {
      this.skipExtended();
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') return { src, len };
      const atom = this.atom();
      if (atom === null) continue;
      const q = this.quantified(atom);
      src += q.src;
      len = len === null || q.len === null ? null : len + q.len;
    }
  }

  private literal(code: number): Piece {
    if (code > 0xff) throw new Unsupported('code point above 0xff in byte mode');
    let s = newSet();
    s[code] = 1;
    if (this.flags.i) s = caseClose(s);
    return one(emitSet(s));
  }

  /** An atom, or null for things that are no atom (option settings, comments, \\E). */
  private atom(): Piece | null {
    const c = this.p[this.pos]!;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return one(this.charClass());
      case '\\':
        return this.escape();
      case '.':
        this.pos++;
        return one(emitSet(this.flags.s ? setOf([0, 255]) : complement(setOf([0x0a, 0x0a]))));
      case '^':
        this.pos++;
        return zero(this.flags.m ? '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))' : '(?<![\\s\\S])');
      case '$':
        this.pos++;
        return zero(this.flags.m ? '(?=\\n|(?![\\s\\S]))' : '(?=\\n?(?![\\s\\S]))');
      case '*':
      case '+':
      case '?':
        throw new Unsupported('quantifier does not follow a repeatable item');
      case '{':
        if (this.quantifierAt(this.pos)) throw new Unsupported('quantifier does not follow a repeatable item');
        this.pos++;
        return this.literal(0x7b);
      default:
        this.pos++;
        return this.literal(c.charCodeAt(0));
    }
  }

  private quantifierAt(at: number): RegExpExecArray | null {
    return /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.p.slice(at));
  }

  private quantified(atom: Piece): Piece {
    if (atom.prefix) {
      const { prefix, ...last } = atom;
      const q = this.quantified(last);
      return { src: prefix.src + q.src, len: prefix.len !== null && q.len !== null ? prefix.len + q.len : null };
    }
    this.skipExtended();
    const c = this.peek();
    let q: string;
    let fixed: number | null = null;
    if (c === '*' || c === '+' || c === '?') {
      q = c;
      this.pos++;
    } else if (c === '{') {
      const m = this.quantifierAt(this.pos);
      if (!m) return atom;
      const min = Number(m[1]);
      const max = m[3] === undefined || m[3] === '' ? (m[2] ? Infinity : min) : Number(m[3]);
      if (min > 65535 || (max !== Infinity && max > 65535)) throw new Unsupported('number too big in {} quantifier');
      if (max < min) throw new Unsupported('numbers out of order in {} quantifier');
      if (max === min) fixed = min;
      q = m[0];
      this.pos += m[0].length;
    } else {
      return atom;
    }
    let lazy = false;
    let possessive = false;
    if (this.peek() === '?') {
      lazy = true;
      this.pos++;
    } else if (this.peek() === '+') {
      possessive = true;
      this.pos++;
    }
    if (this.flags.U && !possessive) lazy = !lazy;
    const len = fixed !== null && atom.len !== null ? atom.len * fixed : null;
    const base = `(?:${atom.src})${q}`;
    if (possessive) return { src: this.atomic(base), len };
    return { src: lazy ? `${base}?` : base, len };
  }

  /** An atomic (possessive) group: a lookahead captures, a back reference consumes. */
  private atomic(inner: string): string {
    const n = ++this.jsGroups;
    return `(?=(${inner}))\\${n}`;
  }

  private capture(name: string | null): Piece {
    const pcre = ++this.pcreGroups;
    const js = ++this.jsGroups;
    this.groupMap[pcre] = js;
    this.open.add(pcre);
    const body = this.groupBody();
    this.open.delete(pcre);
    this.groupLens[pcre] = body.len;
    return { src: name === null ? `(${body.src})` : `(?<${name}>${body.src})`, len: body.len };
  }

  private group(): Piece | null {
    const p = this.p;
    this.pos++; // (
    if (p[this.pos] === '*') throw new Unsupported('backtracking verbs');
    if (p[this.pos] !== '?') return this.capture(null);
    this.pos++; // ?
    const rest = p.slice(this.pos);
    if (rest.startsWith('#')) {
      const end = p.indexOf(')', this.pos);
      if (end < 0) throw new Unsupported('missing ) after comment');
      this.pos = end + 1;
      return null;
    }
    for (const [lead, js] of [['<=', '(?<='], ['<!', '(?<!']] as const) {
      if (rest.startsWith(lead)) {
        this.pos += lead.length;
        const body = this.groupBody();
        // PCRE2 10.42: every top-level branch of a lookbehind has a fixed length.
        if (body.branches.some((l) => l === null)) throw new Unsupported('lookbehind assertion is not fixed length');
        return zero(`${js}${body.src})`);
      }
    }
    if (rest.startsWith(':')) {
      this.pos++;
      const body = this.groupBody();
      return { src: `(?:${body.src})`, len: body.len };
    }
    for (const [lead, js] of [['=', '(?='], ['!', '(?!']] as const) {
      if (rest.startsWith(lead)) {
        this.pos += lead.length;
        return zero(`${js}${this.groupBody().src})`);
      }
    }
    if (rest.startsWith('>')) {
      this.pos++;
      const body = this.groupBody();
      return { src: this.atomic(body.src), len: body.len };
    }
    if (rest.startsWith('|')) {
      // A branch reset group without groups inside is a plain group.
      this.pos++;
      const groups = this.pcreGroups;
      const body = this.groupBody();
      if (this.pcreGroups !== groups) throw new Unsupported('branch reset with groups');
      return { src: `(?:${body.src})`, len: body.len };
    }
    const named = /^(?:P<|<|')([A-Za-z_][A-Za-z0-9_]{0,31})[>']/.exec(rest);
    if (named) {
      const name = named[1]!;
      if (this.names.has(name)) throw new Unsupported('duplicate group name');
      this.names.add(name);
      this.pos += named[0].length;
      return this.capture(name);
    }
    const backName = /^P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(rest);
    if (backName) {
      this.pos += backName[0].length;
      return { src: `(?:\\k<${backName[1]}>)`, len: null };
    }
    const opts = /^([imsxU]*)(?:-([imsxU]*))?([:)])/.exec(rest);
    if (opts) {
      this.pos += opts[0].length;
      const saved = { ...this.flags };
      for (const f of opts[1]!) this.flags[f as keyof Flags] = true;
      for (const f of opts[2] ?? '') this.flags[f as keyof Flags] = false;
      if (opts[3] === ')') return null; // applies to the rest of the enclosing group
      const body = this.groupBody();
      this.flags = saved;
      return { src: `(?:${body.src})`, len: body.len };
    }
    throw new Unsupported(`(?${rest.slice(0, 2)}`);
  }

  /** Group contents up to the closing `)`; option changes inside end with the group. */
  private groupBody(): Piece & { branches: (number | null)[] } {
    const saved = { ...this.flags };
    const body = this.alternation();
    if (this.peek() !== ')') throw new Unsupported('missing )');
    this.pos++;
    this.flags = saved;
    return body;
  }

  private backref(n: number): Piece {
    if (n > this.totalGroups || n === 0) throw new Unsupported('reference to non-existent group');
    const js = this.previousMap ? this.previousMap[n] : n;
    if (js === undefined) throw new Unsupported('reference to non-existent group');
    // JS lets a reference to an unfinished group match the empty string; PCRE fails it.
    if (this.open.has(n)) return zero('(?!)');
    return { src: `(?:\\${js})`, len: this.groupLens[n] ?? null };
  }

  /** `\` outside a class. */
  private escape(): Piece | null {
    const p = this.p;
    this.pos++; // backslash
    const c = p[this.pos];
    if (c === undefined) throw new Unsupported('\\ at end of pattern');
    this.pos++;
    const set = (s: ByteSet) => one(emitSet(s));
    const cls = CLASS_ESCAPES[c];
    if (cls) return set(cls);
    switch (c) {
      case 'N': return set(complement(setOf([0x0a, 0x0a])));
      case 'R': return { src: '(?:\\r\\n|[\\n\\x0b\\x0c\\r\\x85])', len: null };
      case 'b': return zero('\\b');
      case 'B': return zero('\\B');
      case 'A': return zero('(?<![\\s\\S])');
      case 'z': return zero('(?![\\s\\S])');
      case 'Z': return zero('(?=\\n?(?![\\s\\S]))');
      case 'p':
      case 'P':
        return set(this.property(c === 'P'));
      case 'C': return one('[\\s\\S]');
      // No Unicode extend characters below U+0100: a grapheme cluster is CR LF or one byte.
      case 'X': return { src: '(?:\\r\\n|[\\s\\S])', len: null };
      // \\K moves the start of the reported match: an empty group marks the spot.
      case 'K': {
        const n = ++this.jsGroups;
        this.kGroups.push(n);
        return zero('()');
      }
      case 'E': return null;
      case 'Q': {
        const end = p.indexOf('\\E', this.pos);
        const lit = end < 0 ? p.slice(this.pos) : p.slice(this.pos, end);
        this.pos = end < 0 ? p.length : end + 2;
        if (lit === '') return null;
        const chars = Array.from(lit, (ch) => this.literal(ch.charCodeAt(0)).src);
        const last = chars.pop()!;
        return chars.length === 0 ? { src: last, len: 1 } : { src: last, len: 1, prefix: { src: chars.join(''), len: chars.length } };
      }
      case 'g': {
        const m = /^(?:\{(-?\d+)\}|(-?\d+))/.exec(p.slice(this.pos));
        if (!m) {
          const nm = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(p.slice(this.pos));
          if (!nm) throw new Unsupported('\\g');
          this.pos += nm[0].length;
          return { src: `(?:\\k<${nm[1]}>)`, len: null };
        }
        this.pos += m[0].length;
        let n = Number(m[1] ?? m[2]);
        if (n < 0) n = this.pcreGroups + 1 + n;
        return this.backref(n);
      }
      case 'k': {
        const m = /^(?:<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)'|\{([A-Za-z_]\w*)\})/.exec(p.slice(this.pos));
        if (!m) throw new Unsupported('\\k');
        this.pos += m[0].length;
        return { src: `(?:\\k<${m[1] ?? m[2] ?? m[3]}>)`, len: null };
      }
      case '0': {
        let v = '';
        while (v.length < 2 && isOct(p[this.pos])) v += p[this.pos++];
        return this.literal(parseInt(`0${v}`, 8));
      }
      default:
        break;
    }
    if (isDigit(c)) {
      let digits = c;
      while (isDigit(p[this.pos])) digits += p[this.pos++];
      const n = Number(digits);
      if (n < 10 || c === '8' || c === '9' || n <= this.pcreGroups) return this.backref(n);
      // Octal: up to three digits from the first one.
      this.pos -= digits.length;
      let v = '';
      while (v.length < 3 && isOct(p[this.pos])) v += p[this.pos++];
      return this.literal(parseInt(v, 8));
    }
    const code = this.simpleEscape(c);
    if (code !== null) return this.literal(code);
    if (isAlnum(c)) throw new Unsupported(`\\${c}`);
    return this.literal(c.charCodeAt(0));
  }

  /**
   * `\\p{…}` / `\\P{…}` in non-UTF mode: the Unicode property of the code points 0–255 (what a
   * byte stands for in Latin-1), never case-folded.
   */
  private property(negated: boolean): ByteSet {
    const m = /^(?:\{(\^?)([A-Za-z_&]+)\}|([A-Za-z]))/.exec(this.p.slice(this.pos));
    if (!m) throw new Unsupported('malformed \\p');
    this.pos += m[0].length;
    const name = m[2] ?? m[3]!;
    const neg = negated !== (m[1] === '^');
    let s: ByteSet;
    const test = (re: RegExp) => {
      const out = newSet();
      for (let c = 0; c < 256; c++) if (re.test(String.fromCharCode(c))) out[c] = 1;
      return out;
    };
    if (name === 'Any') s = setOf([0, 255]);
    else if (name === 'Xan') s = test(/^[\p{L}\p{N}]$/u);
    else if (name === 'Xwd') s = test(/^[\p{L}\p{N}_]$/u);
    else if (name === 'Xsp' || name === 'Xps') s = test(/^[\p{Z}\t\n\v\f\r]$/u);
    else if (name === 'Xuc') s = test(/^[$@`\u00a0-\u00ff]$/u);
    else {
      const prop = name === 'L&' ? 'LC' : name;
      let re: RegExp;
      try {
        re = new RegExp(`^\\p{${prop}}$`, 'u');
      } catch {
        try {
          re = new RegExp(`^\\p{Script=${prop}}$`, 'u');
        } catch {
          throw new Unsupported(`unknown property ${name}`);
        }
      }
      s = newSet();
      for (let c = 0; c < 256; c++) if (re.test(String.fromCharCode(c))) s[c] = 1;
    }
    return neg ? complement(s) : s;
  }

  /** Escapes for single characters (shared by classes): \a \e \f \n \r \t \x \o \c. Null if not one. */
  private simpleEscape(c: string): number | null {
    const p = this.p;
    switch (c) {
      case 'a': return 0x07;
      case 'e': return 0x1b;
      case 'f': return 0x0c;
      case 'n': return 0x0a;
      case 'r': return 0x0d;
      case 't': return 0x09;
      case 'x': {
        if (p[this.pos] === '{') {
          const end = p.indexOf('}', this.pos);
          const h = end < 0 ? '' : p.slice(this.pos + 1, end);
          if (!/^[0-9a-fA-F]+$/.test(h)) throw new Unsupported('\\x{');
          this.pos = end + 1;
          const v = parseInt(h, 16);
          if (v > 0xff) throw new Unsupported('character code point value in \\x{} is too large');
          return v;
        }
        let h = '';
        while (h.length < 2 && isHex(p[this.pos])) h += p[this.pos++];
        return h === '' ? 0 : parseInt(h, 16);
      }
      case 'o': {
        const m = /^\{([0-7]+)\}/.exec(p.slice(this.pos));
        if (!m) throw new Unsupported('\\o');
        this.pos += m[0].length;
        const v = parseInt(m[1]!, 8);
        if (v > 0xff) throw new Unsupported('\\o too large');
        return v;
      }
      case 'c': {
        const ch = p[this.pos];
        if (ch === undefined || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) > 0x7e) throw new Unsupported('\\c');
        this.pos++;
        return ch.toUpperCase().charCodeAt(0) ^ 0x40;
      }
      default:
        return null;
    }
  }

  private charClass(): string {
    const p = this.p;
    this.pos++; // [
    let negate = false;
    if (p[this.pos] === '^') {
      negate = true;
      this.pos++;
    }
    const set = newSet();
    /** `\\p` members: caseless matching does not fold them. */
    const unfolded = newSet();
    let first = true;
    /** The last single character added (for ranges), or null after a class escape. */
    let last: number | null = null;
    let afterClassEscape = false;
    for (;;) {
      const c = p[this.pos];
      if (c === undefined) throw new Unsupported('missing terminating ] for character class');
      if (c === ']' && !first) {
        this.pos++;
        break;
      }
      first = false;
      if (c === '[') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(this.pos));
        if (posix) {
          const cls = POSIX[posix[2]!];
          if (!cls) throw new Unsupported('unknown POSIX class name');
          addAll(set, posix[1] ? complement(cls) : cls);
          this.pos += posix[0].length;
          last = null;
          afterClassEscape = true;
          continue;
        }
      }
      if (c === '-' && afterClassEscape && p[this.pos + 1] !== undefined && p[this.pos + 1] !== ']') {
        throw new Unsupported('invalid range in character class');
      }
      if (c === '-' && last !== null && p[this.pos + 1] !== undefined && p[this.pos + 1] !== ']') {
        this.pos++;
        const hi = this.classChar();
        if (hi === null) throw new Unsupported('invalid range in character class');
        if (hi < last) throw new Unsupported('range out of order in character class');
        for (let v = last; v <= hi; v++) set[v] = 1;
        last = null;
        afterClassEscape = false;
        continue;
      }
      const before = this.pos;
      const single = this.classChar(set, unfolded);
      if (single === null) {
        last = null;
        afterClassEscape = true;
      } else {
        set[single] = 1;
        last = single;
        afterClassEscape = false;
      }
      if (this.pos === before) throw new Unsupported('class parse');
    }
    let s: ByteSet = this.flags.i ? caseClose(set) : set;
    addAll(s, unfolded);
    if (negate) s = complement(s);
    return emitSet(s);
  }

  /** One class member: a character code, or null after adding a class escape (\d, …) to `into`. */
  private classChar(into?: ByteSet, unfolded?: ByteSet): number | null {
    const p = this.p;
    const c = p[this.pos]!;
    this.pos++;
    if (c !== '\\') return c.charCodeAt(0);
    const e = p[this.pos];
    if (e === undefined) throw new Unsupported('\\ at end of pattern');
    this.pos++;
    const add = (s: ByteSet) => {
      if (!into) throw new Unsupported('invalid range in character class');
      addAll(into, s);
      return null;
    };
    const cls = CLASS_ESCAPES[e];
    if (cls) return add(cls);
    switch (e) {
      case 'p':
      case 'P': {
        const prop = this.property(e === 'P');
        if (!unfolded) throw new Unsupported('invalid range in character class');
        addAll(unfolded, prop);
        return null;
      }
      case 'b': return 0x08;
      default:
        break;
    }
    if (isOct(e)) {
      let v = e;
      while (v.length < 3 && isOct(p[this.pos])) v += p[this.pos++];
      const n = parseInt(v, 8);
      if (n > 0xff) throw new Unsupported('octal value greater than \\377');
      return n;
    }
    if (e === '8' || e === '9') return e.charCodeAt(0);
    const code = this.simpleEscape(e);
    if (code !== null) return code;
    if (isAlnum(e)) throw new Unsupported(`\\${e} in class`);
    return e.charCodeAt(0);
  }
}
