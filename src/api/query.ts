import type { ApiContext, CacheMode } from './context.js';
import { ApiUsageError, apiMessage } from './errors.js';
import { readParams } from './param-reader.js';
import { pv, type ParamSpec } from './param-spec.js';
import { buildPageSet } from './pageset.js';
import { writePageInfo } from './page-info.js';
import type { QueryModule } from './query-module.js';
import type { ListModule } from './list-module.js';
import type { JsonObject } from './result.js';
import type { ActionModule, RanModule } from './action-module.js';
import { apiClass, mainDbKey, sqlQuote, type DebugFacts, type DebugInput } from './debug.js';
import { cleanUp } from './unicode.js';
import { ARRAY_VALUE } from '../request/params.js';

/** Names of real MediaWiki query submodules: known names are not "unrecognized" even when not built in. */
const KNOWN = {
  prop: ['categories', 'categoryinfo', 'contributors', 'deletedrevisions', 'duplicatefiles', 'extlinks', 'fileusage', 'imageinfo', 'images', 'info', 'iwlinks', 'langlinks', 'links', 'linkshere', 'pageprops', 'redirects', 'revisions', 'stashimageinfo', 'templates', 'transcludedin'],
  list: ['allcategories', 'alldeletedrevisions', 'allfileusages', 'allimages', 'alllinks', 'allpages', 'allredirects', 'allrevisions', 'alltransclusions', 'allusers', 'backlinks', 'blocks', 'categorymembers', 'deletedrevs', 'embeddedin', 'exturlusage', 'filearchive', 'imageusage', 'iwbacklinks', 'langbacklinks', 'logevents', 'mystashedfiles', 'pagepropnames', 'pageswithprop', 'prefixsearch', 'protectedtitles', 'querypage', 'random', 'recentchanges', 'search', 'tags', 'usercontribs', 'users', 'watchlist', 'watchlistraw'],
  meta: ['allmessages', 'authmanagerinfo', 'filerepoinfo', 'languageinfo', 'siteinfo', 'tokens', 'userinfo'],
} as const;

/** The modules wikitape implements, by group. */
export interface QueryModules {
  prop: readonly QueryModule[];
  /** Lists describe themselves in full (api/list-module.ts). */
  list: readonly ListModule[];
  meta: readonly QueryModule[];
}

const STRICTNESS: Record<CacheMode, number> = { public: 0, 'anon-public-user-private': 1, private: 2 };

/** ApiQuery::execute with ApiContinuationManager: runs the requested modules and writes continuation. */
function runQuery(ctx: ApiContext, modules: QueryModules): void {
  const spec: Record<string, ParamSpec> = {
    prop: { type: 'enum', multi: true, values: KNOWN.prop },
    list: { type: 'enum', multi: true, values: KNOWN.list },
    meta: { type: 'enum', multi: true, values: KNOWN.meta },
    indexpageids: { type: 'boolean' },
    export: { type: 'boolean' },
    exportnowrap: { type: 'boolean' },
    exportschema: { type: 'string' },
    iwurl: { type: 'boolean' },
    continue: { type: 'string' },
    rawcontinue: { type: 'boolean' },
  };
  const v = readParams(ctx, { path: 'query', prefix: '', name: 'query' }, spec, { setup: true });
  // An XML export of the pages' content: what wikitape never has. `exportnowrap` without `export`
  // changes nothing (ApiQuery reads it only when exporting), as both live wikis answer.
  if (v['export'] === true) {
    throw new ApiUsageError(apiMessage('wikitape-notimplemented', 'wikitape-notimplemented', ['export=']), 'query');
  }
  const requested: QueryModule[] = [];
  const propNames = new Set<string>();
  for (const group of ['prop', 'list', 'meta'] as const) {
    for (const name of pv.list(v[group])) {
      const mod = modules[group].find((m) => m.name === name);
      if (!mod) {
        throw new ApiUsageError(apiMessage('wikitape-notimplemented', 'wikitape-notimplemented', [`${group}=${name}`]), 'query');
      }
      if (!requested.includes(mod)) requested.push(mod);
      if (group === 'prop') propNames.add(name);
    }
  }

  // ApiContinuationManager: `continue` is "<generator part>||<finished modules>".
  const rawContinue = ctx.request.get('continue') ?? '';
  let skip = new Set<string>();
  let generatorDone = false;
  let generatorParams: JsonObject = {};
  if (rawContinue !== '') {
    const parts = rawContinue.split('||');
    if (parts.length !== 2) throw new ApiUsageError(apiMessage('badcontinue', 'apierror-badcontinue'));
    generatorDone = parts[0] === '-';
    skip = new Set(parts[1]!.split('|'));
    if (generatorDone) for (const p of propNames) skip.add(p);
    else generatorParams = namedValues(ctx, parts[0]!.split('|'));
  }

  // ApiContinuationManager's constructor reads the parameters of the modules it skips (to spare
  // them "unused parameter" warnings), before the page set and any module runs: their bad values
  // fail the request, their warnings are written, and a limit of `max` is printed under `limits`.
  const specsOf = (mod: QueryModule) => (typeof mod.params === 'function' ? mod.params(ctx.profile) : mod.params);
  const infoOf = (mod: QueryModule) => ({ path: `query+${mod.name}`, prefix: mod.prefix, name: mod.name, group: mod.group });
  for (const mod of requested) if (skip.has(mod.name)) readParams(ctx, infoOf(mod), specsOf(mod));

  const pages = inModule('query', () => buildPageSet(ctx));
  if (!generatorDone) writePageInfo(ctx, pages, { iwurl: v['iwurl'] === true, indexpageids: v['indexpageids'] === true });
  let cacheMode: CacheMode = pages.state.cacheMode;
  const continuation: JsonObject = {};
  const unfinished = new Set<string>();
  for (const mod of requested) {
    if (skip.has(mod.name)) continue;
    const info = infoOf(mod);
    const values = readParams(ctx, info, specsOf(mod));
    const ran: RanModule = { path: info.path, values, debug: mod.debug };
    ctx.ran(ran);
    const mode = typeof mod.cacheMode === 'function' ? mod.cacheMode(values, ctx.session.caller) : mod.cacheMode;
    if (STRICTNESS[mode] > STRICTNESS[cacheMode]) cacheMode = mode;
    const outcome = inModule(info.path, () => mod.execute(ctx, values, pages));
    if (outcome.fetched) ran.fetched = outcome.fetched;
    if (outcome.continueValue !== undefined) {
      continuation[`${mod.prefix}continue`] = outcome.continueValue;
      unfinished.add(mod.name);
    }
  }
  ctx.setCacheMode(cacheMode);
  writeContinuation(ctx, requested, propNames, continuation, unfinished, v['rawcontinue'] === true, generatorParams);
}

/**
 * The generator part of `continue` as ApiContinuationManager reads it: the request's values
 * (`$_POST + $_GET`, in that order, Unicode-cleaned as WebRequest::getValues gives them, not marked
 * as used) whose names it lists, whatever parameters they are. While a prop module continues, they
 * are sent back with the continuation, as the live wikis do (`continue=titles||` echoes `titles`).
 */
function namedValues(ctx: ApiContext, names: readonly string[]): JsonObject {
  const wanted = new Set(names);
  const out: JsonObject = {};
  for (const [name, value] of ctx.request.params) {
    if (!wanted.has(name)) continue;
    // WebRequest hands an array (`name[]=…`) over as one: its values are not kept here.
    // A name like `12` would lead the object's keys, where PHP keeps it in request order.
    if (value === ARRAY_VALUE || /^(0|[1-9]\d*)$/.test(name)) ctx.unknown('continue.generator');
    else out[name] = cleanUp(value);
  }
  return out;
}

/** Runs a module's part: what it dies with names it (ApiBase::dieWithError uses the module's path), unless it named another. */
function inModule<T>(path: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof ApiUsageError && e.module === 'main') throw e.withModule(path);
    throw e;
  }
}

/** action=query, over the given submodules. */
export function queryAction(modules: QueryModules): ActionModule {
  return {
    name: 'query',
    params: () => ({}),
    execute: (ctx) => runQuery(ctx, modules),
    debug: pageSetDebug,
  };
}

/**
 * ApiPageSet's trace: with `titles` (main namespace), the page lookup of initFromTitles.
 */
function pageSetDebug(input: DebugInput): DebugFacts {
  const { profile, params } = input;
  const entries: DebugFacts['entries'] = [];
  const titles = (params['titles'] ?? '').split('|').filter((t) => t !== '').map(mainDbKey);
  if (titles.length > 0) {
    const uniq = [...new Set(titles)];
    const where = uniq.length === 1 ? `page_title = ${sqlQuote(uniq[0]!)}` : `page_title IN (${uniq.map(sqlQuote).join(',')}) `;
    entries.push({
      query: {
        sql: `SELECT  page_namespace,page_title,page_id,page_content_model,page_is_redirect,page_is_new,page_latest,page_touched,page_len  FROM "page"    WHERE ((page_namespace = 0 AND ${where}))  `,
        function: `${apiClass(profile, 'ApiPageSet')}::initFromTitles`,
        time: 0.001,
      },
    });
  }
  return { includes: '', entries };
}

function writeContinuation(
  ctx: ApiContext,
  requested: QueryModule[],
  propNames: Set<string>,
  continuation: JsonObject,
  unfinished: Set<string>,
  raw: boolean,
  generatorParams: JsonObject,
): void {
  const finished = requested.map((m) => m.name).filter((n) => !unfinished.has(n));
  const propUnfinished = [...unfinished].some((n) => propNames.has(n));
  if (raw) {
    // Legacy query-continue: one object per unfinished module, no batchcomplete.
    if (unfinished.size === 0) return;
    const qc: JsonObject = {};
    for (const m of requested) {
      const k = `${m.prefix}continue`;
      if (continuation[k] !== undefined) qc[m.name] = { [k]: continuation[k]! };
    }
    ctx.result.addOnTop('query-continue', qc);
    return;
  }
  // Continuation of list and meta modules first, then that of prop modules.
  const data: JsonObject = {};
  for (const m of [...requested.filter((x) => !propNames.has(x.name)), ...requested.filter((x) => propNames.has(x.name))]) {
    const k = `${m.prefix}continue`;
    if (continuation[k] !== undefined) data[k] = continuation[k]!;
  }
  // ApiContinuationManager::getContinuation: unfinished prop modules carry the generator part on.
  if (propUnfinished) for (const [k, v] of Object.entries(generatorParams)) if (!(k in data)) data[k] = v;
  const generatorKeys = propUnfinished ? Object.keys(generatorParams).join('|') : '-';
  if (Object.keys(data).length > 0 || generatorKeys !== '-') {
    data['continue'] = `${generatorKeys}||${finished.join('|')}`;
    ctx.result.addOnTop('continue', data);
  }
  if (!propUnfinished) ctx.result.addOnTop('batchcomplete', true);
}
