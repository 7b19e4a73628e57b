// What the paraminfo generators (paraminfo.mjs, paraminfo-trace.mjs) share: the modules whose help
// texts and debuginfo traces are captured, and how a live wiki is asked.

/**
 * The modules wikitape serves (src/modules/index.ts), the write modules it checks, `main`, `query`,
 * paraminfo itself, list=allpages and the format modules it prints: their help texts (every
 * helpformat, ru and en) are captured. Every other module is captured in helpformat=none only.
 * `pageset` stands for ApiPageSet (paraminfo's `pagesetmodule`).
 */
export const SERVED = [
  'main', 'query', 'paraminfo',
  'query+logevents', 'query+blocks', 'query+protectedtitles', 'query+extlinks', 'query+siteinfo', 'query+userinfo', 'query+tokens', 'query+allpages',
  'parse', 'spamblacklist', 'login', 'clientlogin', 'logout',
  'edit', 'move', 'delete', 'undelete', 'protect', 'block', 'unblock', 'upload', 'rollback',
  'json', 'jsonfm', 'none',
];

/** The helpformats ApiParamInfo knows, `none` (its default) first. */
export const HELPFORMATS = ['none', 'raw', 'wikitext', 'html'];

/** The user languages whose help texts are captured. */
export const LANGS = ['ru', 'en'];

/** The request that describes one captured module (`pageset` is asked with pagesetmodule=1). */
export function moduleQuery(path) {
  return path === 'pageset' ? { pagesetmodule: '1' } : { modules: path };
}

/** GET api.php?<params>&format=json&formatversion=2 on a live wiki, parsed (warnings refused unless `warnings`). */
export async function ask(api, params, agent = 'wikitape-generate-paraminfo', warnings = false) {
  const url = `${api}?${new URLSearchParams({ action: 'paraminfo', ...params, format: 'json', formatversion: '2' })}`;
  const r = await fetch(url, { headers: { 'User-Agent': agent } });
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  const j = await r.json();
  if (j.error) throw new Error(`${url}: ${j.error.code}: ${j.error.info}`);
  // pagesetmodule is deprecated: its warning is the only one expected
  const unexpected = Object.entries(j.warnings ?? {}).filter(([m, w]) => !(m === 'main' || (m === 'paraminfo' && /pagesetmodule/.test(w.warnings) && !w.warnings.includes('\n'))));
  if (unexpected.length > 0 && !warnings) throw new Error(`${url}: warnings ${JSON.stringify(j.warnings)}`);
  return j;
}

/** The module infos of an answer by path (`pageset` for pagesetmodule), without debuginfo. */
export function infos(answer) {
  const out = new Map();
  for (const m of answer.paraminfo.modules ?? []) out.set(m.path, m);
  if (answer.paraminfo.pagesetmodule) out.set('pageset', answer.paraminfo.pagesetmodule);
  return out;
}

/** wfUrlencode: urlencode, with `;@$!*(),/~:` kept. */
export function wfUrlencode(s) {
  return encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

/** Writes `[\n<line>,\n<line>\n]`-style JSON: each top-level member of `o` on lines of its own, each list entry on one line. */
export function compactJson(o) {
  const member = ([k, v]) => {
    if (Array.isArray(v)) return `${JSON.stringify(k)}: [\n${v.map((x) => `  ${JSON.stringify(x)}`).join(',\n')}\n]`;
    if (v && typeof v === 'object') return `${JSON.stringify(k)}: {\n${Object.entries(v).map(([k2, x]) => `  ${JSON.stringify(k2)}: ${JSON.stringify(x)}`).join(',\n')}\n}`;
    return `${JSON.stringify(k)}: ${JSON.stringify(v)}`;
  };
  return `{\n${Object.entries(o).map(member).join(',\n')}\n}\n`;
}
