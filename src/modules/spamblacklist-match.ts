/**
 * SpamBlacklist::filter as action=spamblacklist runs it (extensions/SpamBlacklist, the same in 1.39
 * and 1.43+): list lines become batched PCRE regexes (SpamRegexBatch), the sorted URLs are matched
 * as one newline-joined text, whitelist matches are cut out first, and capture group 1 of every
 * hit is reported (PHP array_unique keeps the indexes, so a gap makes the list an object).
 *
 * PHP runs these regexes in PCRE byte mode (`/Sim`, no `/u`): `i` folds ASCII letters only, `.`
 * is one byte other than LF, `\s` is ASCII white space, `$` with `m` is before any LF. To match
 * exactly, patterns are translated into JS regexes over "byte strings" (one char per UTF-8 byte)
 * with explicit byte sets (src/pcre/); constructs JS cannot express (recursion, conditionals,
 * \p, …) count as not compiling.
 */
import { compile, fromBytes, pregDelete, toBytes, translatePcre } from '../pcre/index.js';

export type SpamResult = { result: 'ok' } | { result: 'blacklisted'; matches: string[] | Record<string, string> };

const MAX_BATCH = 4096;
/** SpamBlacklist::getRegexStart. */
const REGEX_START = '(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(';

// ---------------------------------------------------------------------------------------------
// SpamRegexBatch

/** A batch regex as PHP holds it: the pattern between the delimiters and its modifiers. */
export interface BlacklistRegex {
  /** `(?:https?:)?\/\/+[a-z0-9_\-.]*(…)` */
  source: string;
  /** `Sim` for batches, `im` for one-line fallbacks. */
  modifiers: string;
}

/** SpamRegexBatch::stripLines: `#` comments cut, trimmed, empty and `0` lines dropped. */
function stripLines(lines: readonly string[]): string[] {
  return lines
    .flatMap((l) => l.split('\n'))
    .map((l) => l.replace(/#[^\n]*/, '').replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, ''))
    .filter((l) => l !== '' && l !== '0');
}

const escapeSlashes = (batch: string) => batch.replace(/\\*\//g, '/').replace(/\//g, '\\/');

/** SpamRegexBatch::buildRegexes: lines joined by `|` into batches of at most `batchSize` bytes (0: one per line). */
function buildBatches(lines: readonly string[], batchSize: number): BlacklistRegex[] {
  const out: BlacklistRegex[] = [];
  const modifiers = batchSize > 0 ? 'Sim' : 'im';
  let build: string | null = null;
  for (const line of lines) {
    if (line.endsWith('\\')) continue;
    if (build === null) {
      build = line;
    } else if (Buffer.byteLength(build) + Buffer.byteLength(line) > batchSize) {
      out.push({ source: `${REGEX_START}${escapeSlashes(build)})`, modifiers });
      build = line;
    } else {
      build += `|${line}`;
    }
  }
  if (build !== null) out.push({ source: `${REGEX_START}${escapeSlashes(build)})`, modifiers });
  return out;
}

/** SpamRegexBatch::buildSafeRegexes: batches, or one regex per line when a batch does not compile. */
export function buildRegexes(lines: readonly string[]): BlacklistRegex[] {
  const stripped = stripLines(lines);
  const batches = buildBatches(stripped, MAX_BATCH);
  if (batches.every((r) => compile(r.source, r.modifiers) !== null)) return batches;
  return buildBatches(stripped, 0);
}

// ---------------------------------------------------------------------------------------------
// SpamBlacklist::filter

const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

/** PHP 8 `sort()` order of two strings: numerically if both are numeric strings, else byte-wise. */
function phpCompare(a: string, b: string): number {
  if (PHP_NUMERIC.test(a) && PHP_NUMERIC.test(b)) return Math.sign(Number(a.trim()) - Number(b.trim()));
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Lists of lines: one list, or several (the local message and each shared file are batched apart). */
type Lists = readonly string[] | readonly (readonly string[])[];

function asLists(l: Lists): (readonly string[])[] {
  return l.length > 0 && Array.isArray(l[0]) ? (l as readonly (readonly string[])[]).slice() : [l as readonly string[]];
}

export function matchSpamBlacklist(urls: readonly string[], blacklistLines: Lists, whitelistLines: Lists): SpamResult {
  if (urls.length === 0) return { result: 'ok' };
  const black = asLists(blacklistLines).flatMap((l) => buildRegexes(l));
  if (black.length === 0) return { result: 'ok' };
  const white = asLists(whitelistLines).flatMap((l) => buildRegexes(l));

  // sort(); antiSpoof (fullwidth full stop); one text, one URL a line.
  let text = toBytes([...urls].sort(phpCompare).map((u) => u.replace(/\uff0e/g, '.')).join('\n'));
  for (const w of white) {
    const c = compile(w.source, w.modifiers);
    if (c) text = pregDelete(text, c);
  }

  const found: string[] = [];
  for (const b of black) {
    const check = translatePcre(b.source, b.modifiers);
    if (!check || !check.test(text)) continue;
    // The same regex with `.*` appended (to the end of the line), capture group 1 of each match.
    const full = translatePcre(`${b.source}.*`, 'Sim');
    if (!full) continue;
    for (const m of text.matchAll(full)) found.push(m[1] ?? '');
  }
  if (found.length === 0) return { result: 'ok' };

  // array_unique (on the bytes) keeps the first of each value with its index: a gap turns the list
  // into an object. ApiResult then cleans the strings up (invalid UTF-8 to U+FFFD, NFC).
  const seen = new Set<string>();
  const kept: [number, string][] = [];
  found.forEach((m, i) => {
    if (!seen.has(m)) {
      seen.add(m);
      kept.push([i, fromBytes(m).normalize('NFC')]);
    }
  });
  const contiguous = kept.every(([i], n) => i === n);
  return {
    result: 'blacklisted',
    matches: contiguous ? kept.map(([, m]) => m) : Object.fromEntries(kept.map(([i, m]) => [String(i), m])),
  };
}
