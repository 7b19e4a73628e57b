/**
 * PHP-compatible `json_encode`, as MediaWiki's ApiFormatJson / FormatJson::encode use it.
 *
 * Built on `JSON.stringify` plus a post-pass (fast; it runs on the hot path):
 * - `/` is never escaped (FormatJson always passes JSON_UNESCAPED_SLASHES) — same as JSON.stringify;
 * - `<`, `>`, `&` stay literal (the API never uses JSON_HEX_TAG/AMP), unless `hexTagAmp`
 *   (ResourceLoader inline scripts: `\u003C`, `\u003E`, `\u0026`);
 * - `ascii`: every non-ASCII UTF-16 unit becomes `\uXXXX`, lower-case hex (astral characters
 *   therefore as surrogate pairs), as PHP does without JSON_UNESCAPED_UNICODE;
 * - U+2028 / U+2029 are always escaped (PHP has no JSON_UNESCAPED_LINE_TERMINATORS here);
 * - control characters: `\b \f \n \r \t`, others `\u00XX` lower-case; DEL stays raw — identical
 *   in PHP and JSON.stringify;
 * - `pretty` = JSON_PRETTY_PRINT: 4 spaces, `"key": value`, `[]`/`{}` for empty — identical to
 *   `JSON.stringify(v, null, 4)`;
 * - numbers as PHP 8.2 prints them with serialize_precision = -1: integer-valued numbers are PHP
 *   ints (`1.0` prints `1`, PHP does the same without JSON_PRESERVE_ZERO_FRACTION); other floats use
 *   the shortest round-trip digits, in exponent form when the decimal exponent is < -4 or > 16
 *   (`1.0e-5`, `1.0e-7`, `5.0e-5`, `1.0e+19`) — JS prints `0.00001`, `1e-7`, `10000000000000000000`.
 *   Integers beyond PHP's int64 are floats there and printed as such (`9.223372036854776e+18`).
 *
 * Frozen fragments: `frozenJson(value)` (api/frozen.ts) marks an immutable object/array whose
 * encodings are cached (per option set) and spliced in wherever it appears as a member of the encoded
 * top-level object or of an object or list marked with `frozenJson`/`withFrozenMembers`. debuginfo's
 * `includes` list uses this, so encoding a fresh debuginfo does not re-encode ~900 file entries per
 * request, and so do a list's rows shown again (modules/list-support.ts showRows): a page of them is
 * their cached texts joined.
 *
 * Byte output (`encodeJsonTailChunks`, `encodeJsonChunks`): the same text as byte chunks, long
 * strings and the HTML page's `<pre>` text escaped straight into buffers (text-bytes.ts). This
 * file is over 400 lines because the string and the byte printers share the frozen-fragment
 * caches and the PHP post-pass, which stay private to it.
 */

import { holdsFrozen, isFrozenJson } from '../api/frozen.js';
import { escapePreBytes, textBytes, writeUnicodeEscape } from './text-bytes.js';

export interface JsonOptions {
  /** Escape non-ASCII as `\uXXXX` (fv1 without utf8, fv2 with ascii). */
  ascii: boolean;
  /** PHP JSON_PRETTY_PRINT (HTML `*fm` output only). */
  pretty: boolean;
  /**
   * Pretty output only: the nesting depth the text will be spliced in at (each line after the
   * first gets `4 × indent` more spaces). Default 0.
   */
  indent?: number;
  /** JSON_HEX_TAG | JSON_HEX_AMP, as ResourceLoader::encodeJsonForScript uses. Default false. */
  hexTagAmp?: boolean;
}

const NON_ASCII = /[^\x00-\x7f]/;
const LINE_SEP_G = /[\u2028\u2029]/g;
const TAG_AMP = /[<>&]/;
const TAG_AMP_G = /[<>&]/g;
const TAG_AMP_MAP: Record<string, string> = { '<': '\\u003C', '>': '\\u003E', '&': '\\u0026' };
/** Cheap test for number tokens JS prints differently from PHP (may also hit inside strings). */
const NUM_SUSPECT = /\d(?:e[+-]\d|\d{18})|0\.0000/;
/** NUM_SUSPECT or a line/paragraph separator: the only things to fix in UTF-8 mode. */
const UTF8_SUSPECT = /[\u2028\u2029]|\d(?:e[+-]\d|\d{18})|0\.0000/;
/** Strings (skipped) or number tokens. */
const TOKENS_G = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/g;
const INT64_LIMIT = 2 ** 63;

/** `\uXXXX` (lower-case hex) per UTF-16 unit, filled lazily. */
const U_ESCAPES: string[] = [];
function uEscapeCode(c: number): string {
  return (U_ESCAPES[c] ??= '\\u' + c.toString(16).padStart(4, '0'));
}
function uEscape(c: string): string {
  return uEscapeCode(c.charCodeAt(0));
}

/**
 * Every non-ASCII UTF-16 unit as `\uXXXX`, written into one buffer sized once: a text of
 * a million Cyrillic letters made a string of two million pieces when built by concatenation
 * (some 80 MB until flattened); this costs the answer's size once. One loop over the characters,
 * making nothing per character: finding the non-ASCII runs with a regular expression was a third
 * faster on a computed log page, but its match strings took a 5.9 MB answer of Cyrillic links
 * (bench/worst-requests.mjs) over its memory ceiling.
 */
function escapeNonAscii(s: string): string {
  // Each non-ASCII UTF-16 unit takes at least one byte more in UTF-8 than its one character (a
  // surrogate pair 4 bytes for 2 units, a lone surrogate 3), so this bounds their count without a
  // pass over the characters in JS (exact for Cyrillic; twice the need at most, for CJK).
  const wide = Buffer.byteLength(s, 'utf8') - s.length;
  if (wide === 0) return s;
  const out = Buffer.allocUnsafe(s.length + 5 * wide);
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x7f) {
      out[o++] = c;
      continue;
    }
    o = writeUnicodeEscape(out, o, c);
  }
  return out.toString('latin1', 0, o);
}

/** A JS number as PHP 8.2 `json_encode` prints the corresponding PHP float. */
export function phpFloat(x: number): string {
  if (!Number.isFinite(x)) return '0'; // json_encode fails on INF/NAN; never produced by the API
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  // Exponents -4 to 15 (debuginfo's time, on every hot-path answer): String(x), without toExponential.
  if ((x >= 1e-4 && x < 1e16) || (x <= -1e-4 && x > -1e16)) return String(x);
  const e = x.toExponential();
  const at = e.indexOf('e');
  const exp = parseInt(e.slice(at + 1), 10);
  if (exp < -4 || exp > 16) {
    const mant = e.slice(0, at);
    return (mant.includes('.') ? mant : mant + '.0') + e.slice(at);
  }
  return String(x);
}

function fixNumberToken(tok: string): string {
  if (tok.charCodeAt(0) === 34 /* " */) return tok;
  const x = Number(tok);
  const isIntToken = !tok.includes('.') && !tok.includes('e');
  if (isIntToken && Math.abs(x) < INT64_LIMIT) return tok; // a PHP int
  if (Number.isInteger(x) && Math.abs(x) < INT64_LIMIT) return tok;
  return phpFloat(x);
}

/** The PHP-specific post-pass over `JSON.stringify` output (one regex scan in the common case). */
function postPass(s: string, opts: JsonOptions): string {
  if (opts.ascii) {
    if (NUM_SUSPECT.test(s)) s = s.replace(TOKENS_G, fixNumberToken);
    if (NON_ASCII.test(s)) s = escapeNonAscii(s);
  } else if (UTF8_SUSPECT.test(s)) {
    if (NUM_SUSPECT.test(s)) s = s.replace(TOKENS_G, fixNumberToken);
    s = s.replace(LINE_SEP_G, uEscape);
  }
  if (opts.hexTagAmp && TAG_AMP.test(s)) s = s.replace(TAG_AMP_G, (c) => TAG_AMP_MAP[c]!);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Frozen fragments

/** The encodings of frozen values (api/frozen.ts), by option set. */
const frozenTexts = new WeakMap<object, Map<string, string>>();

function optKey(opts: JsonOptions, indent: number): string {
  return `${opts.ascii ? 1 : 0}${opts.pretty ? 1 : 0}${opts.hexTagAmp ? 1 : 0}${opts.pretty ? indent : 0}`;
}

function isSplittable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function indentText(s: string, indent: number): string {
  return indent > 0 && s.includes('\n') ? s.replace(/\n/g, '\n' + '    '.repeat(indent)) : s;
}

/** Encodes `value` as if it sat at nesting depth `indent` (pretty mode). */
function encodeAt(value: unknown, opts: JsonOptions, indent: number): string {
  if (typeof value === 'object' && value !== null) {
    if (isFrozenJson(value)) {
      let cache = frozenTexts.get(value);
      if (!cache) frozenTexts.set(value, (cache = new Map()));
      const k = optKey(opts, indent);
      let s = cache.get(k);
      if (s === undefined) {
        s = isSplittable(value) && holdsFrozen(value) ? encodeSplit(value, opts, indent) : encodePlain(value, opts, indent);
        cache.set(k, s);
      }
      return s;
    }
    if (holdsFrozen(value)) return encodeSplit(value as Record<string, unknown> | unknown[], opts, indent);
  }
  return encodePlain(value, opts, indent);
}

function encodePlain(value: unknown, opts: JsonOptions, indent: number): string {
  const s = JSON.stringify(value, null, opts.pretty ? 4 : undefined) as string | undefined;
  if (s === undefined) return 'null';
  return indentText(postPass(s, opts), opts.pretty ? indent : 0);
}

function encodeKey(key: string, opts: JsonOptions): string {
  return postPass(JSON.stringify(key), opts);
}

/**
 * The members JSON.stringify prints of an object or a list (what JSON cannot hold is left out of an
 * object and printed as `null` in a list), each handed to `each` with the text before it (the
 * opening bracket or a comma, the indentation, the key) and the depth it sits at; returns the text
 * that closes the value. The string printer (encodeSplit) and the byte printer (membersAt) share it.
 */
function eachMember(value: Record<string, unknown> | readonly unknown[], opts: JsonOptions, indent: number, each: (before: string, v: unknown, indent: number) => void): string {
  const list = Array.isArray(value);
  const [open, close] = list ? ['[', ']'] : ['{', '}'];
  const pad = opts.pretty ? '\n' + '    '.repeat(indent + 1) : '';
  let first = true;
  for (const k of list ? value.keys() : Object.keys(value)) {
    let v = (value as Record<string | number, unknown>)[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') {
      if (!list) continue;
      v = null;
    }
    const key = list ? '' : encodeKey(k as string, opts) + (opts.pretty ? ': ' : ':');
    each((first ? open : ',') + pad + key, v, opts.pretty ? indent + 1 : 0);
    first = false;
  }
  return first ? open + close : (opts.pretty ? '\n' + '    '.repeat(indent) : '') + close;
}

/** An object or a list that holds frozen values, member by member (eachMember). */
function encodeSplit(value: Record<string, unknown> | readonly unknown[], opts: JsonOptions, indent: number): string {
  // String concatenation (ropes), not Array#join: join copies the (large) frozen fragments every time.
  let out = '';
  const end = eachMember(value, opts, indent, (before, v, at) => {
    out += before + encodeAt(v, opts, at);
  });
  return out + end;
}

function topLevelHasFrozen(value: unknown): boolean {
  if (!isSplittable(value)) return false;
  if (holdsFrozen(value) || isFrozenJson(value)) return true;
  for (const k in value) {
    const v = value[k];
    if (typeof v === 'object' && v !== null && (isFrozenJson(v) || holdsFrozen(v))) return true;
  }
  return false;
}

/** PHP `json_encode` with the flags ApiFormatJson uses (see the module comment). */
export function encodeJson(value: unknown, opts: JsonOptions): string {
  const indent = opts.pretty ? (opts.indent ?? 0) : 0;
  if (topLevelHasFrozen(value)) {
    const v = value as Record<string, unknown>;
    return isFrozenJson(v) ? encodeAt(v, opts, indent) : encodeSplit(v, opts, indent);
  }
  return encodePlain(value, opts, indent);
}

/**
 * Appends `"key": value` as the last member of an encoded top-level object (the prebuilt body of
 * a cassette hit), encoding only `value`. Works for compact and pretty text as `encodeJson`
 * produced them with the same options; `bodyJson` must be a JSON object.
 */
export function encodeJsonTail(bodyJson: string, key: string, value: unknown, opts: JsonOptions): string {
  const valueJson = encodeJson(value, { ...opts, indent: 1 });
  return spliceLastMember(bodyJson, encodeKey(key, opts), valueJson, opts.pretty);
}

/**
 * Low-level splice: `keyJson` is an encoded string, `valueJson` an encoded value (in pretty mode
 * already indented for depth 1, i.e. `encodeJson(v, { ..., indent: 1 })`).
 */
function spliceLastMember(bodyJson: string, keyJson: string, valueJson: string, pretty: boolean): string {
  if (pretty) {
    if (bodyJson === '{}') return `{\n    ${keyJson}: ${valueJson}\n}`;
    // pretty object text always ends with "\n}"
    return `${bodyJson.slice(0, -2)},\n    ${keyJson}: ${valueJson}\n}`;
  }
  if (bodyJson === '{}') return `{${keyJson}:${valueJson}}`;
  return `${bodyJson.slice(0, -1)},${keyJson}:${valueJson}}`;
}

// ---------------------------------------------------------------------------------------------
// Byte output: frozen fragments as cached UTF-8 buffers (transcoding a 100 KB string per response
// costs far more than encoding the rest)

const frozenBytes = new WeakMap<object, Map<string, Buffer>>();

const frozenBuffers = new WeakSet<Buffer>();

function frozenBuffer(value: object, opts: JsonOptions, indent: number): Buffer {
  let m = frozenBytes.get(value);
  if (!m) frozenBytes.set(value, (m = new Map()));
  const k = optKey(opts, indent);
  let b = m.get(k);
  if (!b) {
    m.set(k, (b = Buffer.from(encodeAt(value, opts, indent), 'utf8')));
    frozenBuffers.add(b);
  }
  return b;
}

/** Whether a chunk of `encodeJsonTailChunks` is a frozen fragment's cached bytes (shared, never changed). */
export function isFrozenBytes(b: Buffer): boolean {
  return frozenBuffers.has(b);
}

/**
 * A plain (not frozen) value's text for the byte output: a string as encodePlain gives it, or,
 * for a long one or the HTML page's `<pre>`, its bytes written in one pass (text-bytes.ts): the
 * `\u` escapes, the indentation and the HTML escapes then make no whole-text strings of their own.
 */
function plainPart(value: unknown, opts: JsonOptions, indent: number, pre: boolean): string | Buffer {
  const s = JSON.stringify(value, null, opts.pretty ? 4 : undefined) as string | undefined;
  if (s === undefined) return pre ? Buffer.from('null') : 'null';
  if (!pre && s.length < BYTES_FROM) return indentText(postPass(s, opts), opts.pretty ? indent : 0);
  const fixed = NUM_SUSPECT.test(s) ? s.replace(TOKENS_G, fixNumberToken) : s;
  return textBytes(fixed, { ascii: opts.ascii, lineSeparators: true, hexTagAmp: opts.hexTagAmp ?? false, indent: opts.pretty ? indent : 0, pre });
}

/** Plain text this long (UTF-16 units) is written as bytes (plainPart) even outside the HTML page. */
const BYTES_FROM = 64 * 1024;

/** A string this long (UTF-16 units) is escaped straight into bytes (never through JSON.stringify's copies of it). */
const LONG_STRING = 64 * 1024;

/** An array or a plain object: JSON.stringify prints its members and nothing else (no toJSON). */
function isPlainContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  if (Array.isArray(v)) return true;
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * Whether a long string lies within a few levels of `value` (at most 256 values looked at: a big
 * answer's data is not walked): the value is then printed member by member, the string as bytes.
 */
function holdsLongString(value: unknown, depth: number, seen = { n: 0 }): boolean {
  if (typeof value === 'string') return value.length >= LONG_STRING;
  if (depth === 0 || !isPlainContainer(value)) return false;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    if (++seen.n > 256) return false;
    if (holdsLongString(v, depth - 1, seen)) return true;
  }
  return false;
}

/**
 * Like encodeAt, but appends to `out`: strings for the dynamic parts, Buffers for frozen fragments
 * and long texts. `pre`: every part is escaped for the HTML page's `<pre>` (strings are escaped
 * when chunkParts turns them into bytes).
 */
function partsAt(value: unknown, opts: JsonOptions, indent: number, out: Array<string | Buffer>, pre: boolean): void {
  if (typeof value === 'string' && value.length >= LONG_STRING) {
    out.push(textBytes(value, { jsonString: true, ascii: opts.ascii, lineSeparators: true, hexTagAmp: opts.hexTagAmp ?? false, pre }));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    if (isFrozenJson(value)) {
      const b = frozenBuffer(value, opts, indent);
      out.push(pre ? escapePreBytes(b) : b);
      return;
    }
    if (isPlainContainer(value) && ((!Array.isArray(value) && holdsFrozen(value)) || holdsLongString(value, 3))) {
      membersAt(value, opts, indent, out, pre);
      return;
    }
  }
  out.push(plainPart(value, opts, indent, pre));
}

/** An object's or array's members printed one by one (partsAt), in JSON.stringify's layout (eachMember). */
function membersAt(value: Record<string, unknown> | unknown[], opts: JsonOptions, indent: number, out: Array<string | Buffer>, pre: boolean): void {
  const end = eachMember(value, opts, indent, (before, v, at) => {
    out.push(before);
    partsAt(v, opts, at, out, pre);
  });
  out.push(end);
}

/** The parts as byte chunks (adjacent strings joined), without copying the cached fragments or long texts. */
function chunkParts(parts: Array<string | Buffer>, pre: boolean): Buffer[] {
  const bufs: Buffer[] = [];
  let pending = '';
  const flush = () => {
    if (pending) bufs.push(pre ? textBytes(pending, { pre }) : Buffer.from(pending, 'utf8'));
    pending = '';
  };
  for (const p of parts) {
    if (typeof p === 'string') pending += p;
    else {
      flush();
      bufs.push(p);
    }
  }
  flush();
  return bufs;
}

/** `encodeJson` as UTF-8 byte chunks, reusing cached bytes for frozen fragments. */
export function encodeJsonChunks(value: unknown, opts: JsonOptions): Buffer[] {
  const parts: Array<string | Buffer> = [];
  partsAt(value, opts, opts.pretty ? (opts.indent ?? 0) : 0, parts, false);
  return chunkParts(parts, false);
}

/** `encodeJson` as UTF-8 bytes, reusing cached bytes for frozen fragments. */
export function encodeJsonBytes(value: unknown, opts: JsonOptions): Buffer {
  const bufs = encodeJsonChunks(value, opts);
  return bufs.length === 1 ? bufs[0]! : Buffer.concat(bufs);
}

/**
 * `encodeJsonTail` on bytes: `body` is the prebuilt encoded object (a cassette hit's bytes), the
 * result is the body with `"key": value` appended as its last member. Only the dynamic part of
 * `value` is encoded and transcoded; frozen fragments are copied from cached bytes.
 */
export function encodeJsonTailBytes(body: Buffer | string, key: string, value: unknown, opts: JsonOptions): Buffer {
  const chunks = encodeJsonTailChunks(body, key, value, opts);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * `encodeJsonTailBytes` as a list of byte chunks to write in turn: the prebuilt body and the
 * cached fragments (debuginfo's includes) are not copied, only the dynamic part is new. `pre`:
 * the text as the HTML page's `<pre>` holds it (escapePreText's escapes), made in the same pass.
 */
export function encodeJsonTailChunks(body: Buffer | string, key: string, value: unknown, opts: JsonOptions, pre = false): Buffer[] {
  const b = jsonBytes(body, pre);
  const keyJson = encodeKey(key, opts);
  const parts: Array<string | Buffer> = [];
  const empty = b.length === 2 && b[0] === 0x7b && b[1] === 0x7d;
  if (opts.pretty) {
    if (empty) parts.push(`{\n    ${keyJson}: `);
    else parts.push(b.subarray(0, b.length - 2), `,\n    ${keyJson}: `);
    partsAt(value, opts, 1, parts, pre);
    parts.push('\n}');
  } else {
    if (empty) parts.push(`{${keyJson}:`);
    else parts.push(b.subarray(0, b.length - 1), `,${keyJson}:`);
    partsAt(value, opts, 0, parts, pre);
    parts.push('}');
  }
  return chunkParts(parts, pre);
}

/** Encoded JSON text as bytes, escaped for the HTML page's `<pre>` when `pre`. */
export function jsonBytes(json: Buffer | string, pre: boolean): Buffer {
  if (typeof json !== 'string') return pre ? escapePreBytes(json) : json;
  return pre ? textBytes(json, { pre }) : Buffer.from(json, 'utf8');
}

// ---------------------------------------------------------------------------------------------
// JSONP

/** ApiFormatJson: `preg_replace("/[^][.\'\"_A-Za-z0-9]/", '', $callback)`. */
export function jsonpCallbackName(raw: string): string {
  return raw.replace(/[^\][.'"_A-Za-z0-9]/g, '');
}

/** What JSONP writes before and after the JSON: `/**\/<callback>(<json>)` — the comment guards against content sniffing (T70187). */
export function jsonpEnds(name: string): readonly [string, string] {
  return [`/**/${name}(`, ')'];
}
