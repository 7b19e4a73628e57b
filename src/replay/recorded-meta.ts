import type { Interaction } from '../cassette/format.js';
import { isObject, type JsonObject } from '../api/result.js';
import { splitMulti } from '../request/canonical.js';
import { SAID_IN_FORM, USERINFO_FIELD_PROP, siteinfoPartKey, userInfoFormKey } from '../modules/recorded-meta-answer.js';

/**
 * `meta=userinfo` and `meta=siteinfo` answers as recorded, taken apart by prop, so that a question
 * combining them with other modules (mwclient adds `meta=userinfo&uiprop=blockinfo|hasmsg` to
 * every query) is answered from what the wiki said rather than from a default install's values.
 *
 * userinfo: each prop's fields (`hasmsg` → `messages`; `blockinfo` → the block fields, none when
 * the caller is not blocked), plus the base fields (`id`, `name`, `anon`) under ''.
 * siteinfo: each prop's part of `query` (`general` → `query.general` …), under siteinfoPartKey.
 */
export function recordedMeta(interactions: Iterable<Interaction>): Map<string, Map<string, Record<string, unknown>>> {
  const out = new Map<string, Map<string, Record<string, unknown>>>([['userinfo', new Map()], ['siteinfo', new Map()]]);
  for (const i of interactions) {
    const r = i.request;
    if (r['action'] !== 'query' || i.status !== 200 || i.headers['mediawiki-api-error'] || !r['meta']) continue;
    const q = i.body['query'];
    if (!isObject(q)) continue;
    const metas = splitMulti(r['meta']);
    // A logged-in user's userinfo is theirs alone: never an anonymous caller's.
    if (metas.includes('userinfo') && isObject(q['userinfo']) && i.user === undefined) takeUserInfo(out.get('userinfo')!, q['userinfo'], splitMulti(r['uiprop'] ?? ''), r);
    if (metas.includes('siteinfo')) {
      const site = out.get('siteinfo')!;
      // A part the question's modifiers changed (a filtered interwiki map …) is kept apart.
      const m = { filteriw: r['sifilteriw'] ?? null, showalldb: 'sishowalldb' in r, numberingroup: 'sinumberingroup' in r, inlanguagecode: r['siinlanguagecode'] ?? null };
      for (const p of splitMulti(r['siprop'] ?? 'general')) {
        if (q[p] !== undefined) site.set(siteinfoPartKey(p, m), { [p]: q[p] });
      }
    }
  }
  return out;
}

const BASE = new Set(['id', 'name', 'anon', 'temp']);
/** Props whose fields are secrets (options carries `watchlisttoken`): never kept. */
const SECRET_PROPS = new Set(['options']);

/**
 * Takes a recorded userinfo apart by prop. A prop whose fields are said in the request's language
 * or error format (`cancreateaccounterror`, 1.43's formatted block times) is kept under
 * userInfoFormKey, for questions asked in the same form only.
 */
export function takeUserInfo(into: Map<string, Record<string, unknown>>, info: JsonObject, props: string[], request: Readonly<Record<string, string>>): void {
  const base: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(info)) if (BASE.has(k)) base[k] = v;
  into.set('', base);
  for (const p of props) {
    if (SECRET_PROPS.has(p)) continue;
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(info)) if (USERINFO_FIELD_PROP[k] === p) fields[k] = v;
    into.set(Object.keys(fields).some((f) => SAID_IN_FORM.has(f)) ? userInfoFormKey(p, (name) => request[name]) : p, fields);
  }
}
