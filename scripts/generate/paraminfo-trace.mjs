// Captures what an action=paraminfo request writes into debuginfo ($wgDebugToolbar) on a live
// MediaWiki, per module described, helpformat and user language, into the compact form
// src/modules/paraminfo/trace.ts composes requests from:
//
//   node scripts/generate/paraminfo-trace.mjs API OUT.json
//
// A module's trace is the part of the debug log between the session lines and the gitinfo lines,
// cut into units: a plain line; or a run of database work ending in the line that closes it (a
// WAN cache fill `fetchOrRegenerate(<key>): miss`, MessageCache's `Loading <lang>...`). In a unit,
// `{"c":1}` is where the connection is first asked for (the wiki opens it there, or reuses it when
// it is open), `{"r":1}` a later reuse, `{"q":[function, sql]}` a query (timings dropped; the
// implied BEGIN and the connection's own lines are the envelope's). A request describing several
// modules runs their units in order, each at most once (services, caches and messages load once
// per request); a WAN cache fill asked again is a process cache hit. Every trace is asked until
// two answers agree, and at least five times for the includes (answers with the lines of a
// localisation cache rebuild or of a lock another request holds are asked again; the shortest kept).
// Run it on one wiki at a time: the live 1.39 and 1.43 share one localisation cache
// (/var/cache/mediawiki), and a question to the other wiki meanwhile rebuilds it.
//
// `includes`: the PHP files each request included (debuginfo `includes`), as in includes.mjs:
// `paths` (relative to the install root where under it), `sizes`, per key runs of [first, count].
import { statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { HELPFORMATS, LANGS, SERVED, ask, compactJson, infos, moduleQuery } from './paraminfo-common.mjs';

const [api, out] = process.argv.slice(2);
if (!api || !out) {
  process.stderr.write('usage: node scripts/generate/paraminfo-trace.mjs API OUT.json\n');
  process.exit(2);
}

const CONNECT = [/PRAGMA temp_store = MEMORY$/, /^\[DBReplication\] /, /^\[DBConnection\] .*(lazyLoadReplicationPositions|opened new connection)/, /^\[rdbms\] .*reallyOpenConnection: opened new connection/, /^\[objectcache\] fetchOrRegenerate\(global:rdbms-server-readonly:/];
const QUERY = /^\[(?:DBQuery|rdbms)\] (\S+(?: \([^)]*\))?) \[[\d.e-]+m?s\] [^:]+: /;
const REUSE = /getLocalConnection: reused a connection for|reuseOrOpenConnectionForNewRef: reusing connection for/;
const CLOSER = /^\[objectcache\] fetchOrRegenerate\(|^\[MessageCache\] MessageCache::loadUnguarded: Loading /;

/** The module part of a debug log, as tokens (lines, connection asks, reuses, queries with their SQL from `queries`). */
function tokens(info) {
  const log = info.debugLog;
  const from = log.findLastIndex((l) => /^\[(session|cookie)\] /.test(l)) + 1;
  const to = log.findIndex((l, i) => i >= from && l.startsWith('[gitinfo] Candidate'));
  let q = 0;
  const out = [];
  const lines = log.slice(from, to < 0 ? log.length : to);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (/DatabaseSqlite::open .*PRAGMA case_sensitive_like/.test(l)) {
      q += 2;
      while (i + 1 < lines.length && CONNECT.some((re) => re.test(lines[i + 1]))) i++;
      out.push({ c: 1 });
    } else if (REUSE.test(l)) out.push({ r: 1 });
    else if (/Database::beginIfImplied/.test(l)) q++;
    else if (QUERY.test(l)) {
      const sql = info.queries[q++].sql.replace(/^[^:]+: /, '');
      out.push({ q: [QUERY.exec(l)[1], sql] });
    } else out.push(l);
  }
  return out;
}

/** Tokens cut into units: database work runs to the line that closes it. */
function unitsOf(toks) {
  const out = [];
  let open = [];
  for (const t of toks) {
    const db = typeof t !== 'string' || /fetchBlobs: retrieved/.test(t);
    if (db) open.push(t);
    else if (CLOSER.test(t)) {
      out.push([...open, t]);
      open = [];
    } else {
      if (open.length > 0) out.push(open);
      open = [];
      out.push([t]);
    }
  }
  if (open.length > 0) out.push(open);
  return out;
}

const root = (names) => names[0].replace(/\/api\.php$/, '');

/** Lines a real wiki adds now and then, not the request's own: a localisation cache rebuild, a lock another request holds. */
const NOISE = /LocalisationCache::isExpired|failed to acquire lock|could not acquire main lock/;

/**
 * One request's trace units and includes. Units: asked until two answers without noise agree (the
 * shortest kept). Includes: the shortest list of five answers without noise, as includes.mjs keeps
 * them (a cache the request warms loads a few files more now and then).
 */
async function capture(params) {
  let units = null;
  let agreed = false;
  let includes = null;
  let clean = 0;
  let last = null;
  // a busy wiki can be noisy for minutes: wait longer each time, for up to ten minutes
  const until = Date.now() + 600_000;
  for (let i = 0; Date.now() < until && !(agreed && clean >= 5); i++) {
    const j = await ask(api, params, 'wikitape-generate-paraminfo-trace', true);
    if (j.debuginfo.debugLog.some((l) => NOISE.test(l))) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * (i + 1), 10_000)));
      continue;
    }
    clean++;
    const got = unitsOf(tokens(j.debuginfo));
    const key = JSON.stringify(got);
    if (!units || key.length < JSON.stringify(units).length) units = got;
    agreed ||= last === key;
    last = key;
    const files = j.debuginfo.includes.map((f) => f.name);
    if (!includes || files.length < includes.length) includes = files;
  }
  if (!units) throw new Error(`${JSON.stringify(params)}: every answer had lines of a cache rebuild or a lock (is something else using the wiki?)`);
  return { units, includes };
}

const all = [...infos(await ask(api, { modules: 'main+**' })).keys()];
const wanted = [];
for (const path of [...SERVED, 'pageset']) for (const f of HELPFORMATS) for (const lang of LANGS) wanted.push([path, f, lang]);
for (const path of all) if (!SERVED.includes(path)) wanted.push([path, 'none', 'ru']);
// `!list`: a warning whose text lists values (querymodules=bogus: English messages loaded for the list)
wanted.push(['!list', 'none', 'ru']);

/** The key a trace falls back to when it is the same: en → ru, a helpformat → none. */
const fallback = (path, format, lang) => (lang !== 'ru' ? `${path}|${format}|ru` : format !== 'none' ? `${path}|none|ru` : null);

const unitIds = new Map();
const unitList = [];
const traces = {};
const paths = [];
const pathIds = new Map();
const includes = {};
const lists = new Map();
let base;
for (const [path, format, lang] of wanted) {
  const got = await capture(path === '!list' ? { querymodules: 'bogus' } : { ...moduleQuery(path), helpformat: format, uselang: lang });
  const key = `${path}|${format}|${lang}`;
  const ids = got.units.map((u) => {
    const k = JSON.stringify(u);
    if (!unitIds.has(k)) unitIds.set(k, unitList.push(u) - 1);
    return unitIds.get(k);
  });
  const back = fallback(path, format, lang);
  if (back === null || JSON.stringify(traces[back] ?? resolved(back)) !== JSON.stringify(ids)) traces[key] = ids;
  base ??= root(got.includes);
  const files = got.includes.map((f) => (f.startsWith(`${base}/`) ? f.slice(base.length + 1) : f));
  lists.set(key, files);
  // a helpformat's or language's list: only the files it adds to the module's none list
  const none = format === 'none' && lang === 'ru' ? null : new Set(lists.get(`${path}|none|ru`));
  const runs = [];
  for (const rel of none ? files.filter((f) => !none.has(f)) : files) {
    let i = pathIds.get(rel);
    if (i === undefined) pathIds.set(rel, (i = paths.push(rel) - 1));
    const last = runs.length - 2;
    if (last >= 0 && runs[last] + runs[last + 1] === i) runs[last + 1]++;
    else runs.push(i, 1);
  }
  if (runs.length > 0 || !none) includes[key] = runs;
  process.stderr.write(`${key}: ${got.units.length} units, ${got.includes.length} files\n`);
}

/** The units a key stands for, through its fallbacks. */
function resolved(key) {
  for (let k = key; k !== null; ) {
    if (traces[k]) return traces[k];
    const [p, f, l] = k.split('|');
    k = fallback(p, f, l);
  }
  return [];
}
const probe = await (await fetch(`${api}?action=query&meta=siteinfo&format=json&formatversion=2`)).json();
const version = probe.query.general.generator.replace(/^MediaWiki /, '');
const sizes = paths.map((p) => statSync(isAbsolute(p) ? p : join(base, p)).size);
const comment =
  `debuginfo of action=paraminfo on MediaWiki ${version}, generated by scripts/generate/paraminfo-trace.mjs from the live wiki of ` +
  `scripts/live-wiki.sh: per "<module path>|<helpformat>|<uselang>" (every module in none|ru, the served ones in every helpformat ` +
  'and in ru and en; !list: a warning that lists values, querymodules=bogus) the units of its debug log (see the generator; a key left out is the same as its fallback: en as ru, a ' +
  'helpformat as none) and the files it included (runs into paths, relative to the install root ' +
  `${base}; other keys than none|ru: only the files they add to the module's none|ru list); cookiePrefix: the wiki's, in the units' cache keys.`;
writeFileSync(out, compactJson({ comment, version, cookiePrefix: 'wikidb', root: base, units: unitList, traces, paths, sizes, includes }));
