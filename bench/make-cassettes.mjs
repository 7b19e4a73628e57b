// `node bench/make-cassettes.mjs N DIR [--no-debuginfo]`: writes DIR/bench.json, a cassette with N distinct
// recorded interactions in wikitape's own format, and DIR/urls.txt, one query string per line
// (format=json added) that hits each of them, for the benchmark's load mix. Needs `npm run build`.
//
// The answers are derived from the bundled cassette (cassettes/bundled-wiki.json, recorded from
// MediaWiki 1.39): pages of list=logevents, list=blocks and list=protectedtitles with other
// limits, directions, filters, props and continuation values (slices of the recorded full lists,
// props left out as the wiki leaves them out); prop=extlinks of one to three titles (the recorded
// answer of each title); action=parse summaries (links, red links and section links, rendered as
// the wiki renders them). Checked against the live wiki (scripts/live-wiki.sh) on a sample of
// 400: the same answers, apart from that wiki's own timestamps (it was filled at another time,
// so protected titles whose times tie there come in another order). Keys and stored requests come from dist (canonicalKey, canonicalParams) applied to
// the query string a client would send; the file is written as wikitape writes it.
// (urls.txt is not a .json file: wikitape reads every .json file in the cassettes folder.)
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { canonicalKey, canonicalParams } from '../dist/request/canonical.js';
import { KEY_RULES } from '../dist/modules/index.js';
import { parseUrlEncoded } from '../dist/request/params.js';
import { parseKeepingKeyOrder, stringifyKeepingKeyOrder } from '../dist/util/ordered-json.js';

const bundled = parseKeepingKeyOrder(readFileSync(new URL('../cassettes/bundled-wiki.json', import.meta.url), 'utf8'));
/** The recorded interaction whose key satisfies `test`. */
const recorded = (test) => {
  const i = bundled.interactions.find((x) => test(x.key));
  if (!i) throw new Error('make-cassettes: the bundled cassette lacks an interaction it needs');
  return i;
};

/** `2026-11-22T12:12:51Z` as continuation values write it: `20261122121251`. */
const ts14 = (t) => t.replace(/\D/g, '');
/** MediaWiki's wfUrlencode: rawurlencode, then ;@$!*(),/~: left as they are. */
const wfUrlencode = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/g, (m) => decodeURIComponent(m));
/** A query string as a client writes it (values percent-encoded, `|` included). */
const query = (pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');

/** Keeps the fields that the asked props give, in the order the full answer has them. */
function project(item, props, fields, always) {
  const keep = new Set(always);
  for (const p of props.split('|')) for (const f of fields[p] ?? [p]) keep.add(f);
  return Object.fromEntries(Object.entries(item).filter(([k]) => keep.has(k)));
}

/**
 * Pages of one list module: every limit, filter, direction, prop set and continuation point.
 * `list` is the recorded full list (newest first); a page starting at item s carries the
 * continuation value of item s, and the answer says where the next page starts.
 */
function* listPages({ module, prefix, full, filters, propSets, fields, always, cont, headers }) {
  const LIMITS = [10, 1, 5, 20, 2, 3, 4, 6, 7, 8, 9, 11, 12, 15, 25, 50];
  const projected = new Map(); // props → projected items (shared by every answer that shows them)
  const view = (props) => {
    if (!projected.has(props)) projected.set(props, new Map(full.map((x) => [x, project(x, props, fields, always)])));
    return projected.get(props);
  };
  for (const limit of LIMITS) {
    for (const [param, value, keep] of filters) {
      const older = full.filter(keep);
      for (const dir of ['older', 'newer']) {
        const items = dir === 'older' ? older : [...older].reverse();
        for (const [i, props] of propSets.entries()) {
          for (let s = 0; s < items.length; s++) {
            const pairs = [['action', 'query'], ['list', module]];
            if (param) pairs.push([param, value]);
            if (i > 0) pairs.push([`${prefix}prop`, props]); // the first set is the default: sent without
            if (dir === 'newer') pairs.push([`${prefix}dir`, 'newer']);
            if (limit !== 10) pairs.push([`${prefix}limit`, String(limit)]);
            if (s > 0) pairs.push([`${prefix}continue`, cont(items[s])], ['continue', '-||']);
            const shown = items.slice(s, s + limit).map((x) => view(props).get(x));
            const next = items[s + limit];
            const body = next
              ? { batchcomplete: true, continue: { [`${prefix}continue`]: cont(next), continue: '-||' }, query: { [module]: shown } }
              : { batchcomplete: true, query: { [module]: shown } };
            yield { query: query(pairs), headers, body };
          }
        }
      }
    }
  }
}

function* logevents() {
  const full = recorded((k) => k.includes('list=logevents') && k.includes('lelimit=max')).body.query.logevents;
  const types = [...new Set(full.map((e) => e.type))];
  const actions = [...new Set(full.map((e) => `${e.type}/${e.action}`))];
  const namespaces = [...new Set(full.map((e) => e.ns).filter((ns) => ns !== undefined))];
  const titles = [...new Set(full.map((e) => e.title).filter((t) => t !== undefined))];
  yield* listPages({
    module: 'logevents',
    prefix: 'le',
    full,
    filters: [
      [null, null, () => true],
      ...types.map((t) => ['letype', t, (e) => e.type === t]),
      ...actions.map((a) => ['leaction', a, (e) => `${e.type}/${e.action}` === a]),
      ...namespaces.map((ns) => ['lenamespace', String(ns), (e) => e.ns === ns]),
      ...titles.map((t) => ['letitle', t, (e) => e.title === t]),
    ],
    propSets: ['comment|details|ids|timestamp|title|type|user', 'ids|timestamp|title|type|user', 'comment|parsedcomment|tags|timestamp|title|user|userid', 'ids|title|type'],
    fields: { ids: ['logid', 'pageid', 'logpage'], title: ['ns', 'title'], type: ['type', 'action'], details: ['params'] },
    always: ['actionhidden', 'commenthidden', 'userhidden', 'suppressed'], // revision-deletion marks show whatever was asked
    cont: (e) => `${ts14(e.timestamp)}|${e.logid}`,
    headers: recorded((k) => k.includes('list=logevents') && k.includes('lelimit=10')).headers,
  });
}

function* blocks() {
  const full = recorded((k) => k.includes('list=blocks') && k.includes('bklimit=max')).body.query.blocks;
  const accounts = full.map((b) => b.user).filter((u) => !/^[\d.]+(\/\d+)?$|:/.test(u)); // bkusers takes accounts
  yield* listPages({
    module: 'blocks',
    prefix: 'bk',
    full,
    filters: [[null, null, () => true], ...accounts.map((u) => ['bkusers', u, (b) => b.user === u])],
    propSets: ['by|expiry|flags|id|reason|timestamp|user', 'by|byid|expiry|flags|id|range|reason|restrictions|timestamp|user|userid', 'id|timestamp|user'],
    fields: { range: ['rangestart', 'rangeend'], flags: ['automatic', 'anononly', 'nocreate', 'autoblock', 'noemail', 'hidden', 'allowusertalk', 'partial'] },
    always: [],
    cont: (b) => `${ts14(b.timestamp)}|${b.id}`,
    headers: recorded((k) => k.includes('list=blocks') && k.includes('bklimit=10')).headers,
  });
}

function* protectedtitles() {
  const full = recorded((k) => k.includes('list=protectedtitles') && k.includes('ptlimit=max')).body.query.protectedtitles;
  const namespaces = [...new Set(full.map((p) => p.ns))];
  yield* listPages({
    module: 'protectedtitles',
    prefix: 'pt',
    full,
    filters: [[null, null, () => true], ...namespaces.map((ns) => ['ptnamespace', String(ns), (p) => p.ns === ns]), ...['sysop', 'autoconfirmed'].map((l) => ['ptlevel', l, (p) => p.level === l])],
    propSets: ['level|timestamp', 'comment|expiry|level|parsedcomment|timestamp|user|userid', 'expiry|level|timestamp|user'],
    fields: { user: ['user', 'userid'] }, // (1.39 gives the user's id with the name)
    always: ['ns', 'title'],
    // timestamp|namespace|title as a database key (no namespace prefix, underscores)
    cont: (p) => `${ts14(p.timestamp)}|${p.ns}|${(p.ns === 0 ? p.title : p.title.slice(p.title.indexOf(':') + 1)).replace(/ /g, '_')}`,
    headers: recorded((k) => k.includes('list=protectedtitles') && k.includes('ptlimit=10')).headers,
  });
}

/** prop=extlinks of one, two or three titles (missing ones first, then by page id, as the wiki orders them). */
function* extlinks() {
  const single = bundled.interactions.filter((i) => i.key.includes('prop=extlinks') && i.key.includes('ellimit=max'));
  const pages = single.map((i) => i.body.query.pages[0]);
  const titles = [...pages.map((p) => p.title), ...bundled.entities.missing.map((m) => m.title)];
  const byTitle = new Map([...pages.map((p) => [p.title, p]), ...bundled.entities.missing.map((m) => [m.title, { ns: m.ns, title: m.title, missing: true }])]);
  const headers = single[0].headers;
  function* answers(chosen) {
    const shown = chosen.map((t) => byTitle.get(t));
    const ordered = [...shown.filter((p) => p.missing), ...shown.filter((p) => !p.missing).sort((a, b) => a.pageid - b.pageid)];
    for (const limit of ['max', '500']) {
      const body = { batchcomplete: true, query: { pages: ordered } };
      if (limit === 'max') body.limits = { extlinks: 500 };
      yield { query: query([['action', 'query'], ['prop', 'extlinks'], ['titles', chosen.join('|')], ['ellimit', limit]]), headers, body };
    }
  }
  for (const a of titles) yield* answers([a]);
  for (const a of titles) for (const b of titles) if (b !== a) yield* answers([a, b]);
  for (const a of titles) for (const b of titles) for (const c of titles) if (a !== b && b !== c && a !== c) yield* answers([a, b, c]);
}

/** action=parse&summary=…: links to articles, red links and section links, numbered (never runs out). */
function* parseSummaries() {
  const template = recorded((k) => k === 'action=parse&summary=%5B%5BFoo%5D%5D%20bar');
  const articles = bundled.entities.pages.filter((p) => p.ns === 0).map((p) => p.title);
  const redirects = new Set(['Zeta']); // a redirect on the recorded wiki: its links get class mw-redirect
  const link = (t) => `<a href="/wiki/index.php/${wfUrlencode(t.replace(/ /g, '_'))}"${redirects.has(t) ? ' class="mw-redirect"' : ''} title="${t}">${t}</a>`;
  const redlink = (t) => `<a href="/wiki/index.php?title=${wfUrlencode(t.replace(/ /g, '_'))}&amp;action=edit&amp;redlink=1" class="new" title="${t} (страница не существует)">${t}</a>`;
  for (let n = 1; ; n++) {
    const t = articles[n % articles.length];
    const variants = [
      [`[[${t}]] правка ${n}`, `${link(t)} правка ${n}`],
      [`/* Раздел ${n} */ текст`, `<span dir="auto"><span class="autocomment"><a href="/wiki/index.php/API#Раздел_${n}" title="API">→\u200eРаздел ${n}</a>: </span> текст</span>`],
      [`[[Страница ${n}]] см. [[${t}]]`, `${redlink(`Страница ${n}`)} см. ${link(t)}`],
    ];
    for (const [summary, parsed] of variants) {
      yield { query: query([['action', 'parse'], ['summary', summary]]), headers: template.headers, body: { parse: { ...template.body.parse, parsedsummary: parsed } } };
    }
  }
}

/**
 * N interactions, the families interleaved by weight (a family that runs out leaves the others):
 * the cassette, and for each interaction the query string (format=json) that hits it.
 */
export function makeCassette(n, { debugInfo = true } = {}) {
  // One generator per family, listed as often as its weight (of 10: 4 log pages, 2 extlinks,
  // 2 parse summaries, 1 blocks page, 1 protected titles page), spread over the round.
  const [le, el, ps] = [logevents(), extlinks(), parseSummaries()];
  const families = [le, el, ps, le, blocks(), le, el, ps, le, protectedtitles()];
  const at = bundled.meta.recordedAt;
  const interactions = [];
  const hits = []; // { query, interaction } in the order made
  const seen = new Set();
  for (let f = 0; interactions.length < n && families.length > 0; f = (f + 1) % families.length) {
    const next = families[f].next();
    if (next.done) {
      const done = families[f];
      for (let i = families.length - 1; i >= 0; i--) if (families[i] === done) families.splice(i, 1);
      f = -1;
      continue;
    }
    const { query: q, headers, body } = next.value;
    const params = parseUrlEncoded(q);
    const key = canonicalKey(params, KEY_RULES);
    if (seen.has(key)) continue;
    seen.add(key);
    const interaction = { key, request: Object.fromEntries(canonicalParams(params, KEY_RULES)), status: 200, headers: { ...headers }, body, recordedAt: at };
    interactions.push(interaction);
    hits.push({ query: `${q}&format=json`, interaction });
  }
  if (interactions.length < n) throw new Error(`make-cassettes: only ${interactions.length} distinct interactions can be made`);
  // The recorder keeps a cassette sorted by key; so does this.
  interactions.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const cassette = { meta: { ...bundled.meta, profile: { ...bundled.meta.profile, debugInfo } }, interactions, entities: bundled.entities };
  return { cassette, hits };
}

/**
 * Writes the file FileCassetteStore writes (`stringifyKeepingKeyOrder(cassette, 2)` and a newline)
 * in parts, one interaction at a time, byte for byte the same: the whole text of 100,000
 * interactions would be one string of a few hundred MB. Returns the bytes written.
 */
export function writeCassette(file, cassette) {
  // A value pretty-printed at depth d is the same text with d levels of indent after each newline
  // (JSON.stringify escapes newlines inside strings, so every raw newline is between tokens).
  const at = (value, pad) => stringifyKeepingKeyOrder(value, 2).replace(/\n/g, `\n${pad}`);
  const fd = openSync(file, 'w');
  let bytes = 0;
  let chunk = '';
  const put = (text, flush = false) => {
    chunk += text;
    if (chunk.length < 1 << 20 && !flush) return;
    bytes += writeSync(fd, chunk);
    chunk = '';
  };
  put(`{\n  "meta": ${at(cassette.meta, '  ')},\n  "interactions": [`);
  cassette.interactions.forEach((i, k) => put(`${k > 0 ? ',' : ''}\n    ${at(i, '    ')}`));
  put(`${cassette.interactions.length > 0 ? '\n  ' : ''}],\n  "entities": ${at(cassette.entities, '  ')}\n}\n`, true);
  closeSync(fd);
  return bytes;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [count, dir, flag] = process.argv.slice(2);
  const n = Number(count);
  if (!Number.isInteger(n) || n < 1 || !dir || (flag && flag !== '--no-debuginfo')) {
    process.stderr.write('usage: node bench/make-cassettes.mjs N DIR [--no-debuginfo]   (N ≥ 1; writes DIR/bench.json and DIR/urls.txt)\n');
    process.exit(2);
  }
  const started = performance.now();
  const { cassette, hits } = makeCassette(n, { debugInfo: flag !== '--no-debuginfo' });
  mkdirSync(dir, { recursive: true });
  const bytes = writeCassette(join(dir, 'bench.json'), cassette);
  writeFileSync(join(dir, 'urls.txt'), `${hits.map((h) => h.query).join('\n')}\n`);
  process.stdout.write(`${n} interactions, ${(bytes / 1048576).toFixed(1)} MB, written to ${join(dir, 'bench.json')} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
