import { MODULES } from '../modules/index.js';

/**
 * How `cassettes diff` compares a recorded answer with the live one: the differences between two
 * formatversion=2 answers, one line each with its path, volatile fields aside; and a walk's pages
 * joined into one answer, so that a walk's differences read per entry, not per page.
 */

/** Fields of an answer that differ from one asking to the next: never a change. */
const VOLATILE = new Set(['curtimestamp', 'servedby', 'requestid', 'debuginfo']);
const VOLATILE_PATHS = new Set(['query.general.time']);

/** The differences between two answers, one line each (`a.b[2].c: 1 → 2`, `+ a.d: …`, `- a.e: …`); none when they are equal. */
export function diffAnswers(was: unknown, now: unknown): string[] {
  const out: string[] = [];
  diffJson(was, now, '', out);
  return out;
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
};

/** The differences between two JSON values, one line each, with the path: `a.b[2].c: 1 → 2`, `+ a.d`, `- a.e`. */
function diffJson(was: unknown, now: unknown, path: string, out: string[]): void {
  if (VOLATILE_PATHS.has(path)) return;
  if (Array.isArray(was) && Array.isArray(now)) {
    // Entities (log events, blocks, pages …) are matched by what identifies them, so that one
    // added at the top reads as one added, not as every later one changed.
    const id = identityOf(was, now);
    if (id) {
      const name = (v: unknown) => `${path}[${id.map((f) => `${f}=${String((v as Record<string, unknown>)[f])}`).join(',')}]`;
      const before = new Map(was.map((v) => [name(v), v]));
      const after = new Map(now.map((v) => [name(v), v]));
      for (const [p, v] of before) if (!after.has(p)) out.push(`- ${p}: ${show(v)}`);
      for (const [p, v] of after) {
        if (!before.has(p)) out.push(`+ ${p}: ${show(v)}`);
        else diffJson(before.get(p), v, p, out);
      }
      return;
    }
    for (let n = 0; n < Math.max(was.length, now.length); n++) {
      const p = `${path}[${n}]`;
      if (n >= was.length) out.push(`+ ${p}: ${show(now[n])}`);
      else if (n >= now.length) out.push(`- ${p}: ${show(was[n])}`);
      else diffJson(was[n], now[n], p, out);
    }
    return;
  }
  if (isObject(was) && isObject(now)) {
    for (const k of new Set([...Object.keys(was), ...Object.keys(now)])) {
      if (path === '' && VOLATILE.has(k)) continue;
      const p = path === '' ? k : `${path}.${k}`;
      if (!(k in now)) out.push(`- ${p}: ${show(was[k])}`);
      else if (!(k in was)) out.push(`+ ${p}: ${show(now[k])}`);
      else diffJson(was[k], now[k], p, out);
    }
    return;
  }
  if (typeof was === 'string' && typeof now === 'string' && stable(was) === stable(now)) return;
  if (typeof was === 'string' && typeof now === 'string' && (was.length > 80 || now.length > 80)) {
    // Long texts (a parse result): shown around where they first differ.
    let i = 0;
    while (i < was.length && was[i] === now[i]) i++;
    const from = Math.max(0, i - 30);
    const part = (t: string) => `${from > 0 ? '…' : ''}${t.slice(from, i + 40)}${t.length > i + 40 ? '…' : ''}`;
    out.push(`${path} (from character ${i}): ${JSON.stringify(part(was))} → ${JSON.stringify(part(now))}`);
  } else if (JSON.stringify(was) !== JSON.stringify(now)) out.push(`${path}: ${show(was)} → ${show(now)}`);
}

/** A parse result without the parser's reports (times and cache keys that differ every time it parses). */
function stable(text: string): string {
  return text.replace(/<!--\s*(?:NewPP limit report|Transclusion expansion time report|Saved in (?:parser|RevisionOutput) cache)[\s\S]*?-->\n?/g, '');
}

/**
 * What may name the elements of a list in an answer: each list's entity id (ListEntity.idFields),
 * a page's id, a title, a link's URL; fewer fields first (a page row also has a title).
 */
const IDENTITIES: readonly (readonly string[])[] = [...MODULES.query.list.map((l) => l.entity.idFields), ['pageid'], ['ns', 'title'], ['url']]
  .filter((f, n, all) => all.findIndex((g) => g.join('|') === f.join('|')) === n)
  .sort((a, b) => a.length - b.length);

/** The fields that name each element of both lists (and name each once), if any do. */
function identityOf(was: unknown[], now: unknown[]): readonly string[] | null {
  const all = [...was, ...now];
  if (all.length === 0 || !all.every(isObject)) return null;
  for (const fields of IDENTITIES) {
    const unique = (list: unknown[]) => {
      const seen = new Set(list.map((v) => fields.map((f) => JSON.stringify((v as Record<string, unknown>)[f])).join('|')));
      return seen.size === list.length;
    };
    if (all.every((v) => fields.every((f) => f in (v as object))) && unique(was) && unique(now)) return fields;
  }
  return null;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A walk's pages as one answer: what each page adds, in order. Lists are joined (an entry a later
 * page shows again, as a page of `prop=extlinks` whose links go on, is joined with the earlier
 * one by what names it); a value later pages give again is the last one; the continuation, which
 * only says where each page ends, is left out.
 */
export function joinPages(pages: readonly unknown[]): unknown {
  let out: unknown = undefined;
  for (const p of pages) {
    if (!isObject(p)) continue;
    const { continue: _c, 'query-continue': _q, batchcomplete: _b, ...rest } = p;
    out = join(out, rest);
  }
  return out ?? {};
}

function join(a: unknown, b: unknown): unknown {
  if (isObject(a) && isObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in a ? join(a[k], v) : v;
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const id = identityOf(a, b);
    if (!id) return [...a, ...b];
    const name = (v: unknown) => id.map((f) => JSON.stringify((v as Record<string, unknown>)[f])).join('|');
    const out = [...a];
    const at = new Map(a.map((v, n) => [name(v), n]));
    for (const v of b) {
      const n = at.get(name(v));
      if (n === undefined) out.push(v);
      else out[n] = join(out[n], v);
    }
    return out;
  }
  return b;
}
