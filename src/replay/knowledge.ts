import type { Interaction } from '../cassette/format.js';
import { formatHex, isValid, isValidRange, parseRange } from '../util/ip.js';
import type { Block, Knowledge, LogEvent, ProtectedTitle, WikiModel } from '../wiki/model.js';
import { completeLinkPages, completeNamespaces, computeCoverage } from '../cassette/coverage.js';
import { learnLinkIds } from './link-ids.js';
import { recordedMeta } from './recorded-meta.js';

/**
 * What the recordings prove, and what follows from it (issue: "knowledge, not defaults"):
 * - which lists and which pages' links the cassettes hold completely (cassette/coverage.ts);
 * - per entity, which props an answer showed (`known`, written by record/harvest.ts);
 * - what those imply: a user's id from any answer that showed it, a block's range from its
 *   target, a sitewide block's empty restrictions, an IP's user id 0.
 * Everything else stays unknown, and answers that need it say so.
 */
export function buildKnowledge(model: WikiModel, missing: readonly { ns: number; title: string }[], read: () => Iterable<Interaction>): Knowledge {
  const recorded = [...read()];
  const interactions = () => recorded;
  for (const e of model.logevents) e.known ??= inferred(e, LOG_FIELDS);
  for (const b of model.blocks) b.known ??= inferred(b, BLOCK_FIELDS);
  for (const p of model.protectedtitles) p.known ??= inferred(p, TITLE_FIELDS);
  const links = recorded.filter((i) => i.request['prop'] === 'extlinks');
  learnLinkIds(model, () => links);
  const ids = userIds(model);
  for (const e of model.logevents) deriveLogEvent(e, ids);
  for (const b of model.blocks) deriveBlock(b, ids);
  for (const p of model.protectedtitles) deriveTitle(p, ids);
  return {
    completeLists: new Set(computeCoverage(interactions()).keys()),
    completeLinks: completeLinkPages(interactions()),
    missingTitles: new Set(missing.map((m) => `${m.ns}|${m.title}`)),
    ...namespaces(interactions()),
    spamPatterns: false,
    meta: recordedMeta(interactions()),
  };
}

function namespaces(interactions: Iterable<Interaction>): Pick<Knowledge, 'completeNamespaces' | 'completeRedirects'> {
  const c = completeNamespaces(interactions);
  return { completeNamespaces: c.all, completeRedirects: c.redirects };
}

/** The field whose presence shows that a prop was asked for, for entities recorded before `known` was kept. */
const LOG_FIELDS: Record<string, string> = { ids: 'pageid', title: 'title', type: 'action', user: 'user', userid: 'userid', timestamp: 'timestamp', comment: 'comment', parsedcomment: 'parsedcomment', details: 'params', tags: 'tags' };
const BLOCK_FIELDS: Record<string, string> = { id: 'id', user: 'user', userid: 'userid', by: 'by', byid: 'byid', timestamp: 'timestamp', expiry: 'expiry', reason: 'reason', parsedreason: 'parsedreason', range: 'rangestart', flags: 'automatic', restrictions: 'restrictions' };
const TITLE_FIELDS: Record<string, string> = { timestamp: 'timestamp', user: 'user', userid: 'userid', comment: 'comment', parsedcomment: 'parsedcomment', expiry: 'expiry', level: 'level' };

function inferred(e: object, fields: Record<string, string>): string[] {
  return Object.entries(fields).filter(([, f]) => f in e).map(([p]) => p).sort();
}

function learn(e: { known?: string[] }, prop: string): void {
  if (e.known && !e.known.includes(prop)) e.known = [...e.known, prop].sort();
}

/** Users' ids by name, from every answer that showed a name with its id. */
function userIds(model: WikiModel): Map<string, number> {
  const ids = new Map<string, number>();
  const add = (name: unknown, id: unknown) => {
    if (typeof name === 'string' && typeof id === 'number') ids.set(name, id);
  };
  for (const e of model.logevents) if (!((e.deleted ?? 0) & 4)) add(e.user, e.userid);
  for (const p of model.protectedtitles) add(p.user, p.userid);
  for (const b of model.blocks) {
    add(b.by, b.byid);
    if (!b.automatic && b.user !== undefined && !isValid(b.user) && !isValidRange(b.user)) add(b.user, b.userid);
  }
  return ids;
}

/** A user id that follows from a name: anonymous (IP) actors have id 0, accounts what an answer showed. */
function idOf(name: string | undefined, ids: ReadonlyMap<string, number>): number | undefined {
  if (name === undefined) return undefined;
  if (isValid(name) || isValidRange(name)) return 0;
  return ids.get(name);
}

function deriveLogEvent(e: LogEvent, ids: ReadonlyMap<string, number>): void {
  if (e.known?.includes('userid') || !e.known?.includes('user') || (e.deleted ?? 0) & 4) return;
  const id = idOf(e.user, ids);
  if (id === undefined) return;
  e.userid = id;
  learn(e, 'userid');
}

function deriveBlock(b: Block, ids: ReadonlyMap<string, number>): void {
  const k = b.known;
  if (!k) return;
  if (!k.includes('byid') && k.includes('by') && ids.has(b.by)) {
    b.byid = ids.get(b.by)!;
    learn(b, 'byid');
  }
  const target = k.includes('user') || k.includes('flags') ? b.user : undefined;
  if (!k.includes('userid') && target !== undefined && !b.automatic) {
    const id = idOf(target, ids);
    if (id !== undefined) {
      b.userid = id;
      learn(b, 'userid');
    }
  }
  if (!k.includes('range') && target !== undefined) {
    // An IP block's range is its target's; an account block has none (modules/blocks.ts prints
    // each version's form of "none").
    const range = isValid(target) || isValidRange(target) ? parseRange(target) : null;
    if (range) {
      b.rangestart = formatHex(range.start);
      b.rangeend = formatHex(range.end);
    }
    learn(b, 'range');
  }
  if (!k.includes('restrictions') && k.includes('flags') && b.partial === false) {
    b.restrictions = [];
    learn(b, 'restrictions');
  }
}

function deriveTitle(p: ProtectedTitle, ids: ReadonlyMap<string, number>): void {
  if (p.known?.includes('userid') || !p.known?.includes('user')) return;
  const id = idOf(p.user, ids);
  if (id === undefined) return;
  p.userid = id;
  learn(p, 'userid');
}
