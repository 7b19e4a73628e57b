/**
 * SpamBlacklist::filter for action=spamblacklist: list lines become batched regexes
 * (SpamRegexBatch), URLs are matched as one newline-joined text, whitelist matches are removed
 * first, and capture group 1 of each hit is reported (PHP array_unique keeps the indexes).
 */
export type SpamResult = { result: 'ok' } | { result: 'blacklisted'; matches: string[] | Record<string, string> };

const MAX_BATCH = 4096;

/** SpamRegexBatch::stripLines: comments, blanks and lines ending in a backslash go. */
function stripLines(lines: readonly string[]): string[] {
  return lines
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l !== '' && !l.endsWith('\\'));
}

/** PCRE → JS: `\/` stays, bare `/` is escaped, `(?i)`-style options are not supported (left to fail). */
function toJs(body: string): RegExp | null {
  try {
    return new RegExp(`(?:https?:)?\\/\\/+[a-z0-9_\\-.]*(${body})`, 'gim');
  } catch {
    return null;
  }
}

/** SpamRegexBatch::buildSafeRegexes: one regex per ≤4096-byte batch, or one per line if a batch fails. */
export function buildRegexes(lines: readonly string[]): RegExp[] {
  const stripped = stripLines(lines).map((l) => l.replace(/(?<!\\)\//g, '\\/'));
  if (stripped.length === 0) return [];
  const batches: string[] = [];
  let current = '';
  for (const line of stripped) {
    if (current !== '' && Buffer.byteLength(current) + 1 + Buffer.byteLength(line) > MAX_BATCH) {
      batches.push(current);
      current = '';
    }
    current = current === '' ? line : `${current}|${line}`;
  }
  if (current !== '') batches.push(current);
  const compiled = batches.map(toJs);
  if (compiled.every((r) => r !== null)) return compiled as RegExp[];
  return stripped.map(toJs).filter((r): r is RegExp => r !== null);
}

export function matchSpamBlacklist(urls: readonly string[], blacklist: readonly string[], whitelist: readonly string[]): SpamResult {
  if (urls.length === 0) return { result: 'ok' };
  const black = buildRegexes(blacklist);
  if (black.length === 0) return { result: 'ok' };
  let text = [...urls].sort().map((u) => u.replace(/\uff0e/g, '.')).join('\n');
  for (const w of buildRegexes(whitelist)) text = text.replace(w, '');
  const matches: string[] = [];
  for (const re of black) {
    re.lastIndex = 0;
    if (!re.test(text)) continue;
    const full = new RegExp(`${re.source}.*`, re.flags);
    for (const m of text.matchAll(full)) if (m[1] !== undefined) matches.push(m[1]);
  }
  if (matches.length === 0) return { result: 'ok' };
  // array_unique keeps the first of each value and its index: a gap turns the list into an object.
  const seen = new Set<string>();
  const kept: [number, string][] = [];
  matches.forEach((m, i) => {
    if (!seen.has(m)) {
      seen.add(m);
      kept.push([i, m]);
    }
  });
  const contiguous = kept.every(([i], n) => i === n);
  return { result: 'blacklisted', matches: contiguous ? kept.map(([, m]) => m) : Object.fromEntries(kept.map(([i, m]) => [String(i), m])) };
}
