import { PAGE_FIELD_TYPES, type FieldType, type FieldTypes } from '../api/list-module.js';
import { interactionProblem, isObject } from './format.js';
import { summariesProblem } from './walk-summary.js';
import type { IndexSpecs } from '../wiki/entity-table.js';

/**
 * What makes a parsed cassette file unusable, every problem of it (`cassettes verify` lists them
 * all; a reader that stops at the first asks for one). Entities are checked field by field: an
 * entity of the wrong type (`"logid": "x"`) would be served as if the wiki had shown it.
 */

/** The JSON types an entity field may have (FieldType, api/list-module.ts). */
const TYPES: Record<FieldType, { test: (v: unknown) => boolean; name: string }> = {
  integer: { test: (v) => Number.isSafeInteger(v), name: 'a whole number' },
  string: { test: (v) => typeof v === 'string', name: 'a string' },
  boolean: { test: (v) => typeof v === 'boolean', name: 'true or false' },
  object: { test: isObject, name: 'an object' },
  strings: { test: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), name: 'a list of strings' },
  list: { test: Array.isArray, name: 'a list' },
};

/**
 * A kind of entity a cassette may list (`entities.<kind>`), with its fields' types: a list
 * module's own kind (ListEntity: the module declares them), or the wiki's pages and missing titles.
 */
export interface EntityShape {
  readonly kind: string;
  readonly fieldTypes: FieldTypes;
  /** The fields that name one, and its declared indexes: a database cassette keeps such a kind in a table of its own. */
  readonly idFields?: readonly string[];
  readonly indexes?: IndexSpecs<object>;
}

/** The wiki's own kinds: always there (but `missing`, absent in older cassettes). */
const CORE: readonly EntityShape[] = [
  { kind: 'pages', fieldTypes: PAGE_FIELD_TYPES },
  { kind: 'missing', fieldTypes: { required: { ns: 'integer', title: 'string' }, optional: {} } },
];

/** The problems of one entity (`entities.logevents[3]`). */
function entityProblems(where: string, x: unknown, fields: FieldTypes, out: string[]): void {
  if (!isObject(x)) return void out.push(`"${where}" is not an object`);
  for (const [k, t] of Object.entries(fields.required)) {
    if (!TYPES[t].test(x[k])) out.push(`"${where}.${k}" is ${x[k] === undefined ? 'missing' : JSON.stringify(x[k])}, not ${TYPES[t].name}`);
  }
  for (const [k, t] of Object.entries(fields.optional)) {
    if (x[k] !== undefined && !TYPES[t].test(x[k])) out.push(`"${where}.${k}" is ${JSON.stringify(x[k])}, not ${TYPES[t].name}`);
  }
}

/** An external link a page holds: `{ id, url }` (ids whole numbers). */
function linkProblems(where: string, l: unknown, out: string[]): void {
  if (!isObject(l)) return void out.push(`"${where}" is not an object`);
  if (typeof l['url'] !== 'string') out.push(`"${where}.url" is not a string`);
  for (const k of ['id', 'idMin', 'idMax', 'httpsId']) if (l[k] !== undefined && !Number.isSafeInteger(l[k])) out.push(`"${where}.${k}" is ${JSON.stringify(l[k])}, not a whole number`);
}

/**
 * The problems of a cassette's `entities`, at most `limit` of them: each kind the `lists` declare
 * (absent in a cassette recorded before its list was added), then the wiki's own.
 */
function harvestProblems(e: unknown, lists: readonly EntityShape[], out: string[], limit: number): void {
  if (!isObject(e)) return void out.push('"entities" is not an object');
  const redirects = e['redirects'];
  if (redirects !== undefined && (!Array.isArray(redirects) || !redirects.every((r) => isObject(r) && typeof r['from'] === 'string' && typeof r['to'] === 'string'))) {
    out.push('"entities.redirects" is not a list of {from, to}');
  }
  for (const { kind, fieldTypes } of [...lists, ...CORE]) {
    const items = e[kind];
    if (kind !== 'pages' && items === undefined) continue;
    if (!Array.isArray(items)) {
      out.push(`"entities.${kind}" is not a list`);
      continue;
    }
    for (let n = 0; n < items.length && out.length < limit; n++) {
      entityProblems(`entities.${kind}[${n}]`, items[n], fieldTypes, out);
      const links = kind === 'pages' && isObject(items[n]) ? items[n]['extlinks'] : undefined;
      if (Array.isArray(links)) for (let k = 0; k < links.length && out.length < limit; k++) linkProblems(`entities.pages[${n}].extlinks[${k}]`, links[k], out);
    }
  }
}

/**
 * Every problem of a parsed cassette file (at most `limit`), in file order; empty when it is
 * sound. The entities of the `lists`' kinds are checked field by field (none given: only the
 * wiki's own).
 */
export function cassetteProblems(c: unknown, lists: readonly EntityShape[] = [], limit = Infinity): string[] {
  if (!isObject(c)) return ['it is not a JSON object'];
  const out: string[] = [];
  if (!Array.isArray(c['interactions'])) out.push('"interactions" is not a list');
  if (!isObject(c['meta'])) out.push('"meta" is missing');
  if (c['entities'] === undefined || c['entities'] === null) out.push('"entities" is missing');
  else harvestProblems(c['entities'], lists, out, limit);
  // $wgLanguageCode: a code of the form MediaWiki's languages have (LanguageNameUtils::isValidBuiltInCode).
  const language = isObject(c['meta']) && isObject(c['meta']['profile']) ? c['meta']['profile']['language'] : undefined;
  if (language !== undefined && (typeof language !== 'string' || !/^[a-z0-9-]{2,}$/.test(language))) {
    out.push(`"meta.profile.language" is ${JSON.stringify(language)}: not a language code (ru, de, zh-hans …)`);
  }
  if (c['summaries'] !== undefined) {
    const problem = summariesProblem(c['summaries'], interactionProblem);
    if (problem) out.push(problem);
  }
  const interactions = Array.isArray(c['interactions']) ? (c['interactions'] as unknown[]) : [];
  for (let n = 0; n < interactions.length && out.length < limit; n++) {
    const problem = interactionProblem(interactions[n]);
    if (problem) out.push(`interaction ${n}: ${problem}`);
  }
  return out.slice(0, limit);
}
