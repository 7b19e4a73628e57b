import type { ActionModule } from '../api/action-module.js';
import type { ApiContext } from '../api/context.js';
import type { DebugFacts, DebugInput } from '../api/debug.js';
import { requestErrorFormatter } from '../api/main.js';
import { pageExists } from '../api/pageset.js';
import { readParams } from '../api/param-reader.js';
import { pv, type ParamValues } from '../api/param-spec.js';
import type { Json, JsonObject } from '../api/result.js';
import { parseTitle } from '../wiki/title.js';
import { dataVersionOf, helpData, helpLinks, versionData, type DataVersion, type Slots, type VersionData } from './paraminfo/data.js';
import { licenseLink, licenseNamesKnown, noneInfo, resolveSlots, withHelp, type HelpFormat } from './paraminfo/info.js';
import { bcNames, paramInfoParams, planOf } from './paraminfo/plan.js';
import { paramInfoTrace, type TraceStepOf } from './paraminfo/trace.js';
import { ModuleTree } from './paraminfo/tree.js';

/**
 * action=paraminfo as the wiki's version answers it (ApiParamInfo), from what the real wikis
 * answered (scripts/generate/paraminfo.mjs): every module of the wiki in helpformat=none; the help
 * texts (raw, and wikitext and html in ru and en) of the modules wikitape serves, the write
 * modules it checks, main, query, paraminfo, list=allpages and the json formats. What the data
 * cannot know is flagged: `paraminfo.version` (a branch not captured: 1.44 answers from 1.43's),
 * `paraminfo.help` (a help text not captured: another language or module; or one the captured
 * content language shaped: example titles, links), `paraminfo.licenselink`.
 * The wiki described is the captured one (MediaWiki with SpamBlacklist, as api/main-params.ts).
 */

const trees = new Map<DataVersion, ModuleTree>();

function treeOf(v: DataVersion): ModuleTree {
  let t = trees.get(v);
  if (!t) trees.set(v, (t = new ModuleTree(versionData(v))));
  return t;
}

const MODULE = { path: 'paraminfo', prefix: '', name: 'paraminfo' };

/** The help slots of a module in a helpformat, or null when the data has none (flagged by the caller). */
type HelpSource = (path: string) => Slots<Json> | null;

/**
 * Where help texts come from. The context language (ApiParamInfo uses main's: the user language)
 * must be one captured (ru, en; any other code, even one English underneath, is flagged).
 * Examples and links name the content language's pages: the profile's must be the captured one.
 */
function helpSource(ctx: ApiContext, data: VersionData, version: DataVersion, format: HelpFormat): HelpSource {
  if (data.capture.language !== ctx.profile.language) ctx.unknown('paraminfo.help');
  if (format === 'raw') return (path) => data.raw[path] ?? null;
  const lang = ctx.userLang.code;
  const help = helpData(lang);
  if (!help) {
    ctx.unknown('paraminfo.help');
    return () => null;
  }
  const table = help[`${version}/${format === 'html' ? 'html' : 'wikitext'}`];
  const from = `href="${data.capture.scriptPath}/index.php`;
  const to = `href="${ctx.profile.scriptPath}/index.php`;
  const fix = (t: string) => (from === to ? t : t.split(from).join(to));
  return (path) => {
    const slots = table[path];
    if (!slots) return null;
    if (format === 'html') checkLinks(ctx, helpLinks(lang as 'ru' | 'en', version)[path] ?? []);
    return resolveSlots(slots, help.strings, fix);
  };
}

/** An html help text links local pages: red when the page is missing, as it was on the captured wiki. */
function checkLinks(ctx: ApiContext, links: readonly [string, boolean][]): void {
  for (const [title, existed] of links) {
    const t = parseTitle(title, ctx.titles);
    if (!t.ok || pageExists(ctx, t.title) !== existed) ctx.unknown('paraminfo.help');
  }
}

/** getModuleInfo for a path (`pageset`: ApiPageSet) in the request's helpformat. */
function describe(ctx: ApiContext, data: VersionData, path: string, format: HelpFormat, help: HelpSource): JsonObject {
  const stored = path === 'pageset' ? data.pageset : data.modules[path]!;
  const none = noneInfo(data, stored, (source) => licenseLink(ctx.profile, data.capture, source), ctx.highLimits);
  if (format === 'none') return none;
  const slots = help(path);
  if (!slots) {
    ctx.unknown('paraminfo.help');
    return none;
  }
  return withHelp(none, slots, data.examples[path] ?? []);
}

function execute(ctx: ApiContext): ParamValues {
  const { version, exact } = dataVersionOf(ctx.profile);
  if (!exact) ctx.unknown('paraminfo.version');
  const data = versionData(version);
  const v = readParams(ctx, MODULE, paramInfoParams(treeOf(version)), { setup: true });
  const plan = planOf(treeOf(version), v);
  for (const w of plan.warnings) ctx.addWarning('paraminfo', w);
  const format = (pv.str(v['helpformat']) ?? 'none') as HelpFormat;
  if (!licenseNamesKnown(ctx.profile, data.capture)) ctx.unknown('paraminfo.licenselink');
  const help = format === 'none' ? () => null : helpSource(ctx, data, version, format);
  const res: Record<string, Json> = { helpformat: format };
  for (const d of plan.described) {
    const item = describe(ctx, data, d.path, format, help);
    if (d.bcQuery) item['querytype'] = item['group']!;
    ((res[d.key] ??= []) as Json[]).push(item);
  }
  if (plan.mainmodule) res['mainmodule'] = describe(ctx, data, 'main', format, help);
  if (plan.pagesetmodule) res['pagesetmodule'] = describe(ctx, data, 'pageset', format, help);
  ctx.result.add('paraminfo', res);
  return v;
}

/** Parameters whose value, given, warns while the parameters are read (before any module is described). */
const DEPRECATED = ['querymodules', 'mainmodule', 'pagesetmodule', 'formatmodules'];

/**
 * The warnings given while the parameters are read, in order: a deprecated parameter's, and
 * querymodules' or formatmodules' values that are not modules (their text lists them).
 */
function paramWarnings(tree: ModuleTree, params: Readonly<Record<string, string>>): TraceStepOf[] {
  const out: TraceStepOf[] = [];
  const known = bcNames(tree);
  for (const p of DEPRECATED) {
    const raw = params[p];
    if (raw === undefined) continue;
    out.push({ warning: 'plain' });
    const names = p === 'querymodules' || p === 'formatmodules' ? known[p] : null;
    const values = raw.startsWith('\u001f') ? raw.slice(1).split('\u001f') : raw === '' ? [] : raw.split('|');
    if (names && values.some((x) => !names.includes(x))) out.push({ warning: 'list' });
  }
  return out;
}

/**
 * ApiParamInfo's debuginfo: the modules described, in the order the wiki describes them, and
 * where it formats a warning (while reading parameters; a path not found, where it is met).
 */
function paramInfoDebug(input: DebugInput): DebugFacts {
  const values = input.values ?? {};
  const { version } = dataVersionOf(input.profile);
  const plan = planOf(treeOf(version), values);
  const formatter = requestErrorFormatter(new Map(Object.entries(input.params)), input.profile, input.userLang);
  const all = [...paramWarnings(treeOf(version), input.params), ...plan.steps];
  // errorformat=raw and none write no text: formatting a warning starts nothing
  const steps = formatter.format === 'raw' || formatter.format === 'none' ? all.filter((s) => typeof s === 'string') : all;
  return paramInfoTrace({ profile: input.profile, version, steps, warningLang: formatter.lang.code, format: pv.str(values['helpformat']) ?? 'none', lang: input.userLang.code });
}

/** action=paraminfo (ApiParamInfo). */
export const paraminfo: ActionModule = {
  name: 'paraminfo',
  params: (profile) => paramInfoParams(treeOf(dataVersionOf(profile).version)),
  execute,
  // ApiParamInfo sets no cache mode: the answer stays private, and nothing is logged.
  cacheMode: () => null,
  debug: paramInfoDebug,
};
