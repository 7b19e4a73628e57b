import type { Json, JsonObject } from '../../api/result.js';
import { wfUrlencode } from '../../util/php-url.js';
import type { WikiProfile } from '../../wiki/profile.js';
import type { Capture, Slots, VersionData } from './data.js';

/** The helpformats of ApiParamInfo (`none`, its default, is pure data). */
export const HELP_FORMATS = ['html', 'wikitext', 'raw', 'none'] as const;
export type HelpFormat = (typeof HELP_FORMATS)[number];

/** getModuleInfo's keys before the description (those a module has, in this order). */
const HEAD = ['name', 'classname', 'path', 'group', 'prefix', 'source', 'sourcename', 'licensetag', 'licenselink'];

/** The local names of the Special namespace and of Special:Version in content languages other than the captured one. */
const SPECIAL_VERSION: Readonly<Record<string, readonly [string, string]>> = { en: ['Special', 'Version'] };

/** Whether the content language's names of Special:Version are known (else the link is the captured language's, flagged). */
export function licenseNamesKnown(profile: WikiProfile, capture: Capture): boolean {
  return profile.language === capture.language || SPECIAL_VERSION[profile.language] !== undefined;
}

/**
 * ApiParamInfo's `licenselink`: SpecialPage::getTitleFor('Version', 'License/<source>')->getFullURL(),
 * the content language's Special:Version on the profile's server, under its article path
 * (`<scriptPath>/index.php/$1`, see wiki/url.ts).
 */
export function licenseLink(profile: WikiProfile, capture: Capture, source: string): string {
  const names = (profile.language !== capture.language && SPECIAL_VERSION[profile.language]) || ([capture.specialNs, capture.version] as const);
  return `${profile.server}${profile.scriptPath}/index.php/${wfUrlencode(`${names[0]}:${names[1]}/License/${source}`)}`;
}

/** Inserts `key: value` after the last of `after` the object has (else first), the rest in order. */
function insertAfter(o: JsonObject, after: readonly string[], key: string, value: Json): JsonObject {
  const keys = Object.keys(o);
  let at = -1;
  keys.forEach((k, i) => {
    if (after.includes(k)) at = i;
  });
  const out: JsonObject = {};
  if (at === -1) out[key] = value;
  keys.forEach((k, i) => {
    out[k] = o[k]!;
    if (i === at) out[key] = value;
  });
  return out;
}

/**
 * A parameter as the caller is shown it: a multi-value parameter's `limit` is its `highlimit` for a
 * caller with `apihighlimits`, else its `lowlimit` (ApiParamInfo::getModuleInfo, 1.39 and 1.43:
 * `canApiHighLimits() ? highlimit : lowlimit`); the table holds the readers' one.
 */
function asShown(param: JsonObject, highLimits: boolean): JsonObject {
  return highLimits && param['limit'] !== undefined && param['highlimit'] !== undefined ? { ...param, limit: param['highlimit'] } : param;
}

/**
 * A module's answer in helpformat=none from the stored form: its parameters from the table (with
 * their index; the templated ones apart; the limits of values the caller has), its license link
 * for this wiki.
 */
export function noneInfo(data: VersionData, stored: JsonObject, link: (source: string) => string, highLimits = false): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(stored)) {
    if (k === 'licenselink') out[k] = link(String(stored['source']));
    else if (k === 'parameters') {
      const all = (v as number[]).map((id, i): JsonObject => asShown({ index: i + 1, ...data.params[id]! }, highLimits));
      out['parameters'] = all.filter((p) => p['templatevars'] === undefined);
      out['templatedparameters'] = all.filter((p) => p['templatevars'] !== undefined);
    } else out[k] = v;
  }
  return out;
}

/** The none form with help put back, in ApiParamInfo::getModuleInfo's order (the generator checks this walk). */
export function withHelp(none: JsonObject, slots: Slots<Json>, queries: readonly string[]): JsonObject {
  let m = slots.d === undefined ? none : insertAfter(none, HEAD, 'description', slots.d);
  m = insertAfter(m, ['helpurls'], 'examples', queries.map((query, i): JsonObject => ({ query, description: slots.x[i] ?? null })));
  const put = (list: Json | undefined): Json[] =>
    ((list ?? []) as JsonObject[]).map((p) => {
      const at = (p['index'] as number) - 1;
      const text = slots.p[at] ?? null;
      let q = text === null ? p : insertAfter(p, p['templatevars'] !== undefined ? ['templatevars'] : ['name'], 'description', text);
      const info = slots.i?.[at];
      if (info) q = { ...q, info: (q['info'] as JsonObject[]).map((x, k) => ({ ...x, text: info[k] ?? null })) };
      return q;
    });
  m['parameters'] = put(m['parameters']);
  m['templatedparameters'] = put(m['templatedparameters']);
  if (slots.y !== undefined) m['dynamicparameters'] = slots.y;
  return m;
}

/** Help slots of string indexes resolved through a strings table. */
export function resolveSlots(s: Slots<number>, strings: readonly string[], fix: (t: string) => string): Slots<Json> {
  const str = (i: number | null): Json => (i === null ? null : fix(strings[i]!));
  return {
    ...(s.d !== undefined ? { d: str(s.d) } : {}),
    x: s.x.map(str),
    p: s.p.map(str),
    ...(s.i ? { i: s.i.map((l) => l && l.map(str)) } : {}),
    ...(s.y !== undefined ? { y: str(s.y) } : {}),
  } as Slots<Json>;
}
