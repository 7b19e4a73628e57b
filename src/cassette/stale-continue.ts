import { isObject, type Json, type JsonObject } from '../api/result.js';
import { sortedKeys, type Interaction } from './format.js';

/**
 * Recordings filed under the wrong key by wikitape before an empty `continue=` was part of a
 * non-query question's key (request/canonical.ts): such a module leaves `continue` unread and the
 * wiki warns "Unrecognized parameter: continue.", but the recorder dropped `continue=` from every
 * key, so the recording of `action=parse&…&continue=` was filed as `action=parse&…`, and a
 * question without `continue` got the stray warning. Its stored request lost `continue` too: the
 * answer's warning is what tells. Such a recording is re-filed under the key it answers (its
 * request with `continue=`) when read.
 */

/** `continue` named in a warning's text (any language, any markup around it). */
const NAMED = /(?<![\w-])continue(?![\w-])/;

/** Whether a stored key may be such a recording (the key alone: no answer read): a question of another action than query, without `continue`. */
export function mayLackContinue(key: string): boolean {
  const question = questionOf(key);
  const action = /(?:^|&)action=([^&]*)/.exec(question)?.[1] ?? 'help';
  return action !== 'query' && !/(?:^|&)continue(?:=|%5B)/.test(question);
}

/**
 * The recording re-filed under the key it answers (`continue=` added to its key and request), or
 * null when it is filed right: its answer does not warn that `continue` is unrecognized, or its
 * question is one whose key keeps no empty `continue` (a query) or has one.
 */
export function refiledContinue(i: Interaction): Interaction | null {
  if (!mayLackContinue(i.key) || 'continue' in i.request || !warnsUnrecognizedContinue(i.body)) return null;
  return { ...i, key: withEmptyContinue(i.key), request: sortedKeys({ ...i.request, continue: '' }) };
}

/** The question of a stored key (a logged-in user's key ends in ` @<user>`, cassette/format.ts identityKey). */
function questionOf(key: string): string {
  const at = key.indexOf(' @');
  return at < 0 ? key : key.slice(0, at);
}

/** The key with `continue=` among its parameters, where the canonical key sorts it (by name). */
function withEmptyContinue(key: string): string {
  const question = questionOf(key);
  const parts = question === '' ? [] : question.split('&');
  const nameOf = (p: string) => decodeURIComponent(p.slice(0, p.indexOf('=') < 0 ? p.length : p.indexOf('=')));
  const at = parts.findIndex((p) => nameOf(p) > 'continue');
  parts.splice(at < 0 ? parts.length : at, 0, 'continue=');
  return parts.join('&') + key.slice(question.length);
}

/**
 * Whether an answer warns that `continue` is an unrecognized parameter (ApiMain's
 * `unrecognizedparams`): in `errorformat=bc`, a line of the main module's warnings naming it; in
 * the other error formats, the `unrecognizedparams` warning whose list (`raw`) or text names it.
 * (`errorformat=none` names no parameter: such a recording cannot be told, and stays.)
 */
export function warnsUnrecognizedContinue(body: JsonObject): boolean {
  const warnings = body['warnings'];
  if (Array.isArray(warnings)) {
    return warnings.some((w) => isObject(w) && w['module'] === 'main' && w['code'] === 'unrecognizedparams' && (listed(w['params']).includes('continue') || texts(w['text']).some((t) => NAMED.test(t))));
  }
  if (!isObject(warnings) || !isObject(warnings['main'])) return false;
  return texts(warnings['main']).some((t) => t.split('\n').some((line) => NAMED.test(line)));
}

/** The names an `errorformat=raw` warning lists (its first parameter's `list`: a list, or on 1.39 an object keyed by place). */
function listed(params: Json | undefined): string[] {
  const first = Array.isArray(params) ? params[0] : undefined;
  const list = isObject(first) ? first['list'] : undefined;
  return Array.isArray(list) || isObject(list) ? Object.values(list).map(String) : [];
}

/** The strings a value holds (not its member names). */
function texts(v: Json | undefined): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(texts);
  return isObject(v) ? Object.values(v).flatMap(texts) : [];
}
