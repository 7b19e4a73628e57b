import type { Json, JsonObject } from '../api/result.js';
import { isObject } from '../api/result.js';
import { frozenJson, holdsFrozen, isFrozenJson, withFrozenMembers } from '../api/frozen.js';
import { OrderedObject } from './ordered.js';
import { goodPagesInOrder, type PageOrderContext } from './page-order.js';

/**
 * formatversion=1 from the formatversion=2 data the project keeps (ApiResult's BC transform):
 * booleans become "" or vanish, content values move to `*` at the end of their object,
 * BC sub-elements become `{"*": value}`, `query.pages` becomes an object keyed by page id in
 * ApiPageSet's order, kvp objects become lists. `assocLists`: the lists whose entries MediaWiki
 * types `assoc` (ListModule.assocEntries): an entry with only false flags prints `{}`, as do a log
 * event's `params` (LogFormatter::formatParametersForApi).
 */
export function toFormatVersion1(data: JsonObject, assocLists: ReadonlySet<string>, order?: PageOrderContext): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(data)) {
    switch (k) {
      case 'query':
        if (isObject(v)) out[k] = queryToV1(v, assocLists, order);
        else setBc(out, k, v);
        break;
      case 'parse':
        if (isObject(v)) out[k] = parseToV1(v);
        else setBc(out, k, v);
        break;
      case 'expandtemplates':
        // Without `prop` (the old way) the expanded text is the content value `wikitext`.
        if (isObject(v)) out[k] = expandToV1(v, order?.params.get('prop') === undefined);
        else setBc(out, k, v);
        break;
      case 'parsetree':
        // expandtemplates' `generatexml` without `prop` (the old way): a BC sub-element on top.
        if (typeof v === 'string' && isObject(data['expandtemplates'])) out[k] = { '*': v };
        else setBc(out, k, v);
        break;
      case 'compare':
        // ApiComparePages sets the diff as the content value `body`.
        if (isObject(v)) out[k] = contentLast(bc(v) as JsonObject, ['body']);
        else setBc(out, k, v);
        break;
      case 'warnings':
        out[k] = Array.isArray(v) ? v.map((w) => messageToV1(w)) : isObject(v) ? bcWarningsToV1(v) : v;
        break;
      case 'errors':
        out[k] = Array.isArray(v) ? v.map((w) => messageToV1(w)) : v;
        break;
      case 'error':
        out[k] = isObject(v) ? contentLast(bc(v) as JsonObject, ['docref', 'trace']) : v;
        break;
      case 'docref':
        break; // moved to `*` below
      default:
        setBc(out, k, v);
    }
  }
  if (typeof data['docref'] === 'string') out['*'] = data['docref'];
  return out;
}

/**
 * The modules wikitape does not implement whose formatversion=1 form it prints from a recording
 * (always stored in formatversion=2) as the wiki prints it: each asked of MediaWiki 1.39 and 1.43
 * in both forms and compared with replay's (test/live/formatversion1-differential.test.ts). The
 * form of any other such module is not known (ApiResult's content values, BC sub-elements and kvp
 * lists are not in the formatversion=2 data): a recording of it asked in formatversion=1 is
 * flagged `formatversion.<module>` (render-recorded.ts), a miss by default.
 *
 * The live wikis have pages in categories (hidden ones too), templates in use, page properties,
 * language and interwiki links (scripts/livewiki/populate-links.mjs), so categories, templates,
 * pageprops, categorymembers, langlinks and iwlinks are compared with answers that hold them.
 * Language and interwiki links' titles are content values (`*` in formatversion=1, pageToV1).
 */
export const FV1_CHECKED: ReadonlySet<string> = new Set([
  'compare',
  'expandtemplates',
  ...[
    'allcategories', 'alllinks', 'allimages', 'allmessages', 'allredirects', 'allusers', 'backlinks', 'categories', 'categoryinfo', 'categorymembers',
    'contributors', 'exturlusage', 'filerepoinfo', 'imageinfo', 'info', 'iwlinks', 'langlinks', 'links', 'linkshere', 'pageprops', 'random',
    'redirects', 'revisions', 'search', 'tags', 'templates', 'usercontribs', 'users',
  ].map((m) => `query+${m}`),
]);

/** The lists of each siteinfo user group that ApiQuerySiteinfo::appendUserGroups makes with array_intersect. */
const INTERSECTED_GROUP_LISTS = ['add', 'remove', 'add-self', 'remove-self'] as const;

/**
 * What formatversion=1 of `data` (formatversion=2) prints that the data does not show, for
 * X-Wikitape-Unknown: the keys of a PHP list MediaWiki types `BCarray` (a list in formatversion=2;
 * in 1, a list when its keys are 0…n-1, else an object keyed by them). ApiQuerySiteinfo's user
 * groups' add, remove, add-self and remove-self lists are `array_intersect( $wgAddGroups[$group] …,
 * $allGroups )`, which keeps the keys of what it keeps: a group the setting names that the wiki
 * does not define leaves a gap, and the wiki prints `{"1": "sysop"}` where the data holds
 * `["sysop"]`. Any such list not empty is `formatversion.usergroups` (its keys are not known). The
 * other BCarray lists are 0…n-1 (query.pages aside, whose keys are the page ids: pagesToV1), or
 * taken from settings as they are: restrictions' (checked against the live wikis, their defaults).
 */
export function formatVersion1Unknown(data: JsonObject): string[] {
  const query = data['query'];
  const groups = isObject(query) ? query['usergroups'] : undefined;
  if (!Array.isArray(groups)) return [];
  const intersected = groups.some((g) => isObject(g) && INTERSECTED_GROUP_LISTS.some((k) => Array.isArray(g[k]) && g[k].length > 0));
  return intersected ? ['formatversion.usergroups'] : [];
}

/**
 * Plain BC transform: true → "", false → removed, recursively. A PHP array the transform empties
 * prints as a list (siteinfo's magiclinks: all false → `[]`) unless MediaWiki typed it `assoc`
 * (ApiResult::META_TYPE), which prints as an object however empty: `assoc` says so.
 */
function bc(v: Json, assoc = false): Json | undefined {
  if (v === true) return '';
  if (v === false) return undefined;
  if (Array.isArray(v)) return bcList(v);
  if (isObject(v)) {
    // for…in, not Object.entries: this runs for every row of a formatversion=1 list answer, and a
    // [key, value] array per member was most of its garbage (the objects are plain JSON data).
    const o: JsonObject = {};
    let kept = 0;
    let seen = 0;
    for (const k in v) {
      seen++;
      const t = bc(v[k]!);
      if (t === undefined) continue;
      o[k] = t;
      kept++;
    }
    return kept === 0 && seen > 0 && !assoc ? [] : o;
  }
  return v;
}

/** bc() of each element, the removed ones (false) left out. */
function bcList(v: readonly Json[]): Json[] {
  const out: Json[] = [];
  for (const x of v) {
    const t = bc(x);
    if (t !== undefined) out.push(t);
  }
  return out;
}

function assocEntryToV1(entry: Json): Json | undefined {
  if (!isObject(entry)) return bc(entry);
  const o: JsonObject = {};
  for (const k in entry) {
    const x = entry[k]!;
    const t = k === 'params' && isObject(x) ? bc(x, true) : bc(x);
    if (t !== undefined) o[k] = t;
  }
  return o;
}

/** bc() for an object that marks some of its booleans META_BC_BOOLS: those stay booleans (ApiResult::applyTransformations). */
function bcKeeping(v: JsonObject, bools: readonly string[]): JsonObject {
  const o: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    if (bools.includes(k) && typeof x === 'boolean') o[k] = x;
    else setBc(o, k, x);
  }
  return o;
}

function setBc(o: JsonObject, k: string, v: Json): void {
  const t = bc(v);
  if (t !== undefined) o[k] = t;
}

/** Renames the first present content key to `*` and moves it last. */
function contentLast(o: JsonObject, keys: readonly string[]): JsonObject {
  const key = keys.find((k) => k in o);
  if (key === undefined) return o;
  const { [key]: content, ...rest } = o;
  return { ...rest, '*': content as Json };
}

function messageToV1(m: Json): Json {
  return isObject(m) ? contentLast(bc(m) as JsonObject, ['text', 'html']) : m;
}

function bcWarningsToV1(w: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [module, v] of Object.entries(w)) out[module] = isObject(v) ? contentLast(v, ['warnings']) : v;
  return out;
}

function queryToV1(q: JsonObject, assocLists: ReadonlySet<string>, order: PageOrderContext | undefined): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(q)) {
    if (k === 'pages' && Array.isArray(v)) out[k] = pagesToV1(v, q, order) as unknown as Json;
    // ApiQuerySiteinfo marks variantarticlepath as a BC bool (false stays false), and its
    // thumblimits/imagelimits are BCassoc: lists in formatversion=1.
    else if (k === 'general' && isObject(v)) out[k] = bcKeeping(mapValues(v, (x) => (isObject(x) && isSequential(x) ? Object.values(x) : x)), ['variantarticlepath']);
    else if (k === 'namespaces' && isObject(v)) out[k] = mapValues(v, (ns) => (isObject(ns) ? contentLast(bc(ns) as JsonObject, ['name']) : ns));
    else if (k === 'namespacealiases' && Array.isArray(v)) out[k] = v.map((a) => (isObject(a) ? contentLast(bc(a) as JsonObject, ['alias']) : a));
    // ApiQuerySiteinfo::appendLanguages and appendSkins: the name is each entry's content value.
    else if ((k === 'languages' || k === 'skins') && Array.isArray(v)) out[k] = v.map((x) => (isObject(x) ? contentLast(bc(x) as JsonObject, ['name']) : x));
    // appendDefaultOptions names every option a BC bool: true and false print as they are.
    else if (k === 'defaultoptions' && isObject(v)) out[k] = v;
    else if (k === 'userinfo' && isObject(v)) out[k] = userinfoToV1(v);
    // Content values of modules only a recording shows: each message's text, each category's name.
    else if (LIST_CONTENT.has(k) && Array.isArray(v) && !holdsFrozen(v)) out[k] = contentEntries(v, LIST_CONTENT.get(k)!);
    else if (k === 'allimages' && Array.isArray(v) && !holdsFrozen(v)) out[k] = v.map(imageInfoToV1);
    else if (Array.isArray(v) && holdsFrozen(v)) {
      // A list's rows shown again (modules/list-support.ts showRows): each converted once.
      out[k] = rowsToV1(v, assocLists.has(k) ? V1_ASSOC : V1_PLAIN);
      withFrozenMembers(out);
    } else if (assocLists.has(k) && Array.isArray(v)) out[k] = v.map(assocEntryToV1).filter((e): e is Json => e !== undefined);
    else setBc(out, k, v);
  }
  return out;
}

/** The formatversion=1 forms of frozen rows (json.ts frozenJson), by the transform that made them. */
interface RowTransform {
  readonly toV1: (row: Json) => Json | undefined;
  readonly made: WeakMap<object, Json | undefined>;
}
const V1_ASSOC: RowTransform = { toV1: assocEntryToV1, made: new WeakMap() };
const V1_PLAIN: RowTransform = { toV1: (row) => bc(row), made: new WeakMap() };

/**
 * A list's rows in formatversion=1: a frozen row's form is made once (and frozen, so that its
 * encodings are cached too), other rows' each time; rows the transform removes are left out.
 */
function rowsToV1(rows: readonly Json[], transform: RowTransform): Json[] {
  const out: Json[] = [];
  for (const row of rows) {
    let t: Json | undefined;
    if (typeof row === 'object' && row !== null && isFrozenJson(row)) {
      if (transform.made.has(row)) t = transform.made.get(row);
      else {
        t = transform.toV1(row);
        if (typeof t === 'object' && t !== null) frozenJson(Object.freeze(t));
        transform.made.set(row, t);
      }
    } else t = transform.toV1(row);
    if (t !== undefined) out.push(t);
  }
  return withFrozenMembers(out);
}

/**
 * ApiQueryUserInfo's BC shapes: each `acceptlang` entry's code is its content value (`*`, last),
 * `centralids`/`attachedlocal` are typed `assoc` (all-false `attachedlocal` prints `{}`), and the
 * options keep their booleans.
 */
function userinfoToV1(u: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(u)) {
    if (k === 'acceptlang' && Array.isArray(v)) out[k] = v.map((l) => (isObject(l) ? contentLast(bc(l) as JsonObject, ['code']) : l));
    else if ((k === 'centralids' || k === 'attachedlocal') && isObject(v)) out[k] = bc(v, true)!;
    // ApiQueryUserInfo marks every option a BC bool (META_BC_BOOLS): a boolean option stays a boolean.
    else if (k === 'options' && isObject(v)) out[k] = v;
    else setBc(out, k, v);
  }
  return out;
}

/** Keys "0" … "n-1" in order (possibly with the key-order mark of util/ordered-json.ts). */
function isSequential(o: JsonObject): boolean {
  const keys = Object.keys(o);
  return keys.length > 0 && keys.every((k, i) => k.replace(/^\u0001/, '') === String(i));
}

function mapValues(o: JsonObject, f: (v: Json) => Json): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) out[k] = f(v);
  return out;
}

/**
 * Lists of `query` whose entries carry a content value (ApiResult::setContentValue), which
 * formatversion=1 prints as `*`, last: ApiQueryAllMessages' `content`, ApiQueryAllCategories' `category`.
 */
const LIST_CONTENT: ReadonlyMap<string, string> = new Map([['allmessages', 'content'], ['allcategories', 'category']]);

/** bc() of each entry of a list, each entry's content value `key` moved to `*`, last. */
function contentEntries(v: readonly Json[], key: string): Json[] {
  return bcList(v).map((e) => (isObject(e) ? contentLast(e, [key]) : e));
}

/**
 * ApiParse's lists whose entries carry a content value: the title of each link, template,
 * language and interwiki link (formatLinks, formatLangLinks, formatIWLinks), the name of each
 * category (formatCategoryLinks).
 */
const PARSE_LIST_CONTENT: ReadonlyMap<string, string> = new Map([['links', 'title'], ['templates', 'title'], ['langlinks', 'title'], ['iwlinks', 'title'], ['categories', 'category']]);

/**
 * A revision in formatversion=1 (ApiQueryRevisionsBase::extractRevisionInfo): its content, the
 * legacy one or each slot's, is the content value `content`, printed as `*`, last.
 */
function revisionToV1(r: Json): Json | undefined {
  const t = bc(r);
  if (!isObject(t)) return t;
  const slots = t['slots'];
  const withSlots = isObject(slots) ? { ...t, slots: mapValues(slots, (x) => (isObject(x) ? contentLast(x, ['content']) : x)) } : t;
  return contentLast(withSlots, ['content']);
}

/**
 * A file's revision in formatversion=1 (ApiQueryImageInfo::getInfo, for prop=imageinfo and
 * list=allimages): typed `assoc` (with only false flags it prints `{}`), and its metadata lists
 * (processMetaData) mark each entry's `value` a BC bool, which keeps `true` and `false` (a GIF's
 * `looped`) where the plain transform prints "" or drops it.
 */
function imageInfoToV1(info: Json): Json {
  if (!isObject(info)) return bc(info) ?? '';
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(info)) {
    if ((k === 'metadata' || k === 'commonmetadata') && Array.isArray(v)) out[k] = metadataToV1(v);
    else setBc(out, k, v);
  }
  return out;
}

function metadataToV1(entries: readonly Json[]): Json[] {
  return entries.map((e) => {
    if (!isObject(e)) return bc(e) ?? '';
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(e)) {
      if (k === 'value' && typeof v === 'boolean') out[k] = v;
      else if (k === 'value' && Array.isArray(v)) out[k] = metadataToV1(v);
      else setBc(out, k, v);
    }
    return out;
  });
}

/** ApiParse's META_BC_SUBELEMENTS: strings that formatversion=1 wraps as `{"*": …}`. */
const BC_SUBELEMENTS: ReadonlySet<string> = new Set(['text', 'parsedsummary', 'categorieshtml', 'headhtml', 'wikitext', 'psttext', 'limitreporthtml', 'parsetree']);

/**
 * ApiExpandTemplates' answer in formatversion=1: each category's name is its content value, the
 * page properties a `BCkvp` list of `{name, *}`, and the old way's text (`legacy`: no `prop`) the
 * content value `wikitext`.
 */
function expandToV1(e: JsonObject, legacy: boolean): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(e)) {
    if (k === 'categories' && Array.isArray(v)) out[k] = contentEntries(v, 'category');
    else if (k === 'properties' && isObject(v)) out[k] = Object.entries(v).map(([name, x]) => ({ name, '*': bc(x) ?? '' }));
    else setBc(out, k, v);
  }
  return legacy ? contentLast(out, ['wikitext']) : out;
}

function parseToV1(p: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(p)) {
    if (BC_SUBELEMENTS.has(k) && typeof v === 'string') out[k] = { '*': v };
    else if ((k === 'properties' || k === 'indicators') && isObject(v)) out[k] = Object.entries(v).map(([name, x]) => ({ name, '*': bc(x) ?? '' }));
    else if (PARSE_LIST_CONTENT.has(k) && Array.isArray(v)) out[k] = contentEntries(v, PARSE_LIST_CONTENT.get(k)!);
    else setBc(out, k, v);
  }
  return out;
}

type Kind = 'missing' | 'invalid' | 'missingid' | 'special' | 'good';

function kindOf(p: JsonObject): Kind {
  if (p['invalid'] === true) return 'invalid';
  if (p['special'] === true) return 'special';
  if (p['pageid'] === undefined) return 'missing';
  if (p['missing'] === true) return 'missingid';
  return 'good';
}

const ORDER: Kind[] = ['missing', 'invalid', 'missingid', 'special', 'good'];

/**
 * formatversion=2 sorts pages by id, fake ids (-n … -1) first; ApiPageSet hands fake ids out
 * in the order invalid, special, missing, and formatversion=1 lists missing, invalid, missing
 * ids (in the order asked), special, then existing pages in the order the page set found them
 * (output/page-order.ts; without the request, by namespace and DB key).
 */
function pagesToV1(pages: Json[], query: JsonObject, order: PageOrderContext | undefined): OrderedObject | Json[] {
  const objs = pages.filter(isObject);
  const fake = objs.filter((p) => p['pageid'] === undefined || kindOf(p) === 'invalid' || kindOf(p) === 'special');
  const ids = new Map<JsonObject, number>();
  fake.forEach((p, i) => ids.set(p, -(fake.length - i)));
  const byKind = (k: Kind) => objs.filter((p) => kindOf(p) === k);
  const out: [string, Json][] = [];
  for (const k of ORDER) {
    let group = byKind(k);
    if (k === 'missing' || k === 'invalid' || k === 'special') group = [...group].sort((a, b) => ids.get(b)! - ids.get(a)!);
    if (k === 'missingid' && order) group = inAskedOrder(group, order);
    if (k === 'good') group = order ? goodPagesInOrder(objs, group, query, order) : [...group].sort(dbOrder);
    for (const p of group) {
      const id = ids.get(p) ?? (p['pageid'] as number);
      out.push([String(id), pageToV1(p)]);
    }
  }
  // ApiResult::applyTransformations gives `pages` (BCarray: 'default' in BC mode) PHP's default
  // type: integer keys whose greatest (from -1 up) is their count less one make a list, in key
  // order (`-1` and `1`: a missing or invalid page beside page 1).
  const keys = out.map(([k]) => Number(k));
  if (keys.length > 0 && Math.max(-1, ...keys) === keys.length - 1) return out.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, page]) => page);
  return new OrderedObject(out);
}

/** Missing page ids in the order `pageids` gave them (`array_keys( $remaining )`). */
function inAskedOrder(group: JsonObject[], order: PageOrderContext): JsonObject[] {
  const asked = (order.params.get('pageids') ?? '').split(/[|\u001f]/).map((id) => Math.trunc(Number(id)));
  return [...group].sort((a, b) => asked.indexOf(a['pageid'] as number) - asked.indexOf(b['pageid'] as number));
}

function dbOrder(a: JsonObject, b: JsonObject): number {
  const na = a['ns'] as number;
  const nb = b['ns'] as number;
  if (na !== nb) return na - nb;
  const ka = mainKey(a);
  const kb = mainKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function mainKey(p: JsonObject): string {
  const t = String(p['title'] ?? '');
  return (p['ns'] === 0 ? t : t.slice(t.indexOf(':') + 1)).replace(/ /g, '_');
}

function pageToV1(p: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(p)) {
    if (k === 'extlinks' && Array.isArray(v)) out[k] = v.map((l) => (isObject(l) ? contentLast(l, ['url']) : l));
    // ApiQueryLangLinks and ApiQueryIWLinks: each link's title is its content value.
    else if ((k === 'langlinks' || k === 'iwlinks') && Array.isArray(v)) out[k] = contentEntries(v, 'title');
    else if ((k === 'revisions' || k === 'deletedrevisions') && Array.isArray(v)) out[k] = v.map(revisionToV1).filter((r): r is Json => r !== undefined);
    else if (k === 'imageinfo' && Array.isArray(v)) out[k] = v.map(imageInfoToV1);
    // An invalid title's reason in a non-BC error format: its text is the content (`*`).
    else if (k === 'invalidreason' && isObject(v)) out[k] = messageToV1(v);
    // ApiQueryInfo: the preloaded text is the content value `content` (as a revision slot's), and
    // each reason `intestactionsdetail` gives is a message (its text or html the content value;
    // without the detail each action is a boolean, the plain transform's).
    else if (k === 'preloadcontent' && isObject(v)) out[k] = contentLast(bc(v) as JsonObject, ['content']);
    else if (k === 'actions' && isObject(v) && Object.values(v).every(Array.isArray)) out[k] = mapValues(v, (reasons) => (reasons as Json[]).map(messageToV1));
    else setBc(out, k, v);
  }
  return out;
}
