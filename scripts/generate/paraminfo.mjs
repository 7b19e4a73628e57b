// Captures action=paraminfo from a live MediaWiki into the compact files src/modules/paraminfo/ reads:
//
//   node scripts/generate/paraminfo.mjs data API OUT.json          every module in helpformat=none, and the
//                                                                  language-independent help (raw) of the served ones
//   node scripts/generate/paraminfo.mjs help LANG API139 API143 OUT.json
//                                                                  the wikitext and html help of the served
//                                                                  modules in user language LANG, both versions
//
// helpformat=none is pure data: one copy of each distinct parameter (`params`), each module as its
// answer with the parameter list as indexes into it (parameters and templatedparameters together,
// in declaration order: their `index`). `licenselink` is stored as null: it is the content
// language's Special:Version/License/<source> on the profile's server, computed per request.
// Help texts are stored as slots (see slotsOf) to be put back into the none form in the order
// ApiParamInfo::getModuleInfo writes them; `merge` below is the same walk, and every captured module
// is checked to come out byte for byte.
import { writeFileSync } from 'node:fs';
import { SERVED, ask, compactJson, infos, wfUrlencode } from './paraminfo-common.mjs';

/** getModuleInfo's keys before the description (those a module has, in this order). */
const HEAD = ['name', 'classname', 'path', 'group', 'prefix', 'source', 'sourcename', 'licensetag', 'licenselink'];

/** Inserts `key: value` into `o` after the last of `after` it has (else first), keeping the rest in order. */
function insertAfter(o, after, key, value) {
  const keys = Object.keys(o);
  let at = -1;
  keys.forEach((k, i) => {
    if (after.includes(k)) at = i;
  });
  const out = {};
  if (at === -1) out[key] = value;
  keys.forEach((k, i) => {
    out[k] = o[k];
    if (i === at) out[key] = value;
  });
  return out;
}

/** A module's help in one helpformat as slots: d (description), x (examples), p (parameters, by index), i (their info texts), y (dynamic parameters). */
function slotsOf(help, none) {
  const params = [...help.parameters, ...help.templatedparameters].sort((a, b) => a.index - b.index);
  const s = { d: help.description, x: (help.examples ?? []).map((e) => e.description), p: params.map((p) => p.description ?? null) };
  if (params.some((p) => p.info)) s.i = params.map((p) => (p.info ? p.info.map((i) => i.text) : null));
  if (none.dynamicparameters === true) s.y = help.dynamicparameters;
  return s;
}

/** The none form with help slots put back (ApiParamInfo::getModuleInfo's order). */
function merge(none, slots, queries) {
  let m = insertAfter(none, HEAD, 'description', slots.d);
  m = insertAfter(m, ['helpurls'], 'examples', queries.map((query, i) => ({ query, description: slots.x[i] })));
  const put = (list) =>
    list.map((p) => {
      const at = p.index - 1;
      let q = slots.p[at] === null ? p : insertAfter(p, p.templatevars ? ['templatevars'] : ['name'], 'description', slots.p[at]);
      if (slots.i?.[at]) q = { ...q, info: q.info.map((x, k) => ({ ...x, text: slots.i[at][k] })) };
      return q;
    });
  m.parameters = put(m.parameters);
  m.templatedparameters = put(m.templatedparameters);
  if (slots.y !== undefined) m.dynamicparameters = slots.y;
  return m;
}

/** Where the wiki is, as its answers show it (server, script path, content language, Special:Version's local name). */
async function captureOf(api) {
  const url = new URL(api);
  const r = await fetch(`${api}?action=query&meta=siteinfo&siprop=general|namespaces|specialpagealiases&format=json&formatversion=2`);
  const si = (await r.json()).query;
  const version = si.specialpagealiases.find((a) => a.realname === 'Version').aliases[0];
  return {
    generator: si.general.generator,
    capture: { server: url.origin, scriptPath: url.pathname.replace(/\/api\.php$/, ''), language: si.general.lang, specialNs: si.namespaces['-1'].name, version },
  };
}

/** Each module's none form, with its license link checked against the formula and left out. */
function stored(m, capture) {
  if ('licenselink' in m) {
    const want = `${capture.server}${capture.scriptPath}/index.php/${wfUrlencode(`${capture.specialNs}:${capture.version}/License/${m.source}`)}`;
    if (m.licenselink !== want) throw new Error(`${m.path}: licenselink ${m.licenselink} is not ${want}`);
  }
  return 'licenselink' in m ? { ...m, licenselink: null } : m;
}

async function data(api) {
  const { generator, capture } = await captureOf(api);
  const none = infos(await ask(api, { modules: 'main|main+**', pagesetmodule: '1' }));
  const raw = infos(await ask(api, { modules: SERVED.join('|'), pagesetmodule: '1', helpformat: 'raw' }));
  const params = [];
  const index = new Map();
  const modules = {};
  for (const [path, m0] of none) {
    const m = stored(m0, capture);
    if (path === 'pageset') continue;
    const list = [...m.parameters, ...m.templatedparameters].sort((a, b) => a.index - b.index);
    list.forEach((p, i) => {
      if (p.index !== i + 1) throw new Error(`${path}: parameter ${p.name} has index ${p.index}, not ${i + 1}`);
    });
    const ids = list.map(({ index: _, ...p }) => {
      const k = JSON.stringify(p);
      if (!index.has(k)) index.set(k, params.push(p) - 1);
      return index.get(k);
    });
    const { parameters: _p, templatedparameters: _t, ...head } = m;
    const out = {};
    for (const [k, v] of Object.entries(head)) {
      if (k === 'dynamicparameters') out.parameters = ids;
      out[k] = v;
    }
    if (!('parameters' in out)) out.parameters = ids;
    modules[path] = out;
  }
  // ApiPageSet (pagesetmodule): not a module path, kept apart; its parameters go into the same table
  const pageset = stored(none.get('pageset'), capture);
  const pagesetIds = pageset.parameters.map(({ index: _, ...p }) => {
    const k = JSON.stringify(p);
    if (!index.has(k)) index.set(k, params.push(p) - 1);
    return index.get(k);
  });
  const { parameters: _pp, templatedparameters: _pt, ...pagesetHead } = pageset;
  const examples = {};
  const help = {};
  for (const [path, m] of raw) {
    examples[path] = (m.examples ?? []).map((e) => e.query);
    help[path] = slotsOf(m, none.get(path));
    check(path, 'raw', none.get(path), help[path], examples[path], m);
  }
  const comment =
    `action=paraminfo of ${generator} (${capture.server}${capture.scriptPath}/api.php), generated by scripts/generate/paraminfo.mjs: ` +
    'params: each distinct parameter (helpformat=none, without index); modules: every module by path, parameters as indexes into params ' +
    '(with the templated ones, in declaration order), licenselink null (computed); pageset: ApiPageSet (pagesetmodule) alike; examples: the example queries of the served modules; ' +
    'raw: their helpformat=raw help as slots (d description, x examples, p parameters, i info, y dynamic parameters).';
  return compactJson({ comment, version: generator.replace(/^MediaWiki /, ''), capture, params, modules, pageset: { ...pagesetHead, parameters: pagesetIds }, examples, raw: help });
}

/** Throws unless the slots put back into the none form give the captured answer, key order included. */
function check(path, format, none, slots, queries, want) {
  const base = { ...none, parameters: none.parameters, templatedparameters: none.templatedparameters };
  const got = JSON.stringify(merge(base, slots, queries));
  if (got !== JSON.stringify(want)) throw new Error(`${path} (${format}): the slots do not give the answer back:\n${got.slice(0, 400)}\n${JSON.stringify(want).slice(0, 400)}`);
}

/** Local pages an html help text links to (not special pages), with whether each exists (a red link: not). */
function linkedPages(html, capture) {
  const out = [];
  const re = /<a href="([^"]*)"(?: class="([^"]*)")? title="([^"]*)"/g;
  for (const m of html.matchAll(re)) {
    if (!m[1].startsWith(`${capture.scriptPath}/index.php`)) continue;
    const title = m[3].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#039;/g, "'").replace(/ \(страница не существует\)$| \(page does not exist\)$/, '');
    if (title.startsWith(`${capture.specialNs}:`)) continue;
    out.push([title, m[2] !== 'new']);
  }
  return out;
}

/** Every text of a module's slots. */
function textsOf(slots) {
  return [slots.d, ...slots.x, ...slots.p, ...(slots.i ?? []).flat(), slots.y].filter((t) => typeof t === 'string');
}

async function help(lang, apis) {
  const strings = [];
  const ids = new Map();
  const id = (s) => {
    if (s === null || s === undefined) return s ?? null;
    if (!ids.has(s)) ids.set(s, strings.push(s) - 1);
    return ids.get(s);
  };
  const out = {};
  for (const api of apis) {
    const { generator, capture } = await captureOf(api);
    const v = generator.replace(/^MediaWiki (\d+\.\d+).*/, '$1');
    const none = infos(await ask(api, { modules: SERVED.join('|'), pagesetmodule: '1' }));
    const links = {};
    for (const format of ['wikitext', 'html']) {
      const got = infos(await ask(api, { modules: SERVED.join('|'), pagesetmodule: '1', helpformat: format, uselang: lang }));
      const table = {};
      for (const [path, m] of got) {
        const slots = slotsOf(m, none.get(path));
        check(path, format, none.get(path), slots, (m.examples ?? []).map((e) => e.query), m);
        const pages = format === 'html' ? textsOf(slots).flatMap((t) => linkedPages(t, capture)) : [];
        if (pages.length > 0) links[path] = [...new Map(pages.map((p) => [p[0], p])).values()];
        table[path] = { d: id(slots.d), x: slots.x.map(id), p: slots.p.map(id), ...(slots.i ? { i: slots.i.map((l) => l && l.map(id)) } : {}), ...(slots.y !== undefined ? { y: id(slots.y) } : {}) };
      }
      out[`${v}/${format}`] = table;
    }
    out[`${v}/links`] = links;
  }
  const comment =
    `Help texts of action=paraminfo in user language ${lang} (helpformat=wikitext and html) of the modules scripts/generate/paraminfo-common.mjs ` +
    'SERVED names, generated by scripts/generate/paraminfo.mjs from the live wikis of scripts/live-wiki.sh (content language ru): ' +
    '<version>/<format>: per module, slots as in the data files with indexes into strings; <version>/links: the local pages the html links to, ' +
    'and whether each existed (a red link when not).';
  return compactJson({ comment, strings, ...out });
}

const [cmd, ...args] = process.argv.slice(2);
if (cmd === 'data' && args.length === 2) writeFileSync(args[1], await data(args[0]));
else if (cmd === 'help' && args.length === 4) writeFileSync(args[3], await help(args[0], [args[1], args[2]]));
else {
  process.stderr.write('usage: node scripts/generate/paraminfo.mjs data API OUT.json | help LANG API139 API143 OUT.json\n');
  process.exit(2);
}
