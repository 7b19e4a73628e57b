#!/usr/bin/env node
// Crawls a live wiki's api.php into a wikitape fixture file (every prop, formatversion=2):
// log events, blocks, protected titles, pages with their external links, redirects and the
// interwiki table, and what list=allpages filters on (redirect, length, protections, language links), and each page's content model.
// Usage: node scripts/crawl-fixture.mjs API_URL OUT.json [spam-blacklist.txt]
// With WIKITAPE_CRAWL_LOGIN=<file> (JSON {"user", "password"}), it crawls logged in: a bot
// password (`Name@bot`) with action=login, a main account with action=clientlogin, as bots log
// in. A caller with the rights sees what readers do not (hidden log entry parts with their
// hidden bits, the suppression log, hidden blocks): the fixture then holds it, and names the
// session's rights (`seenWithRights`). The password is read from the file and sent to the wiki only.
import { readFileSync, writeFileSync } from 'node:fs';

const [api, out, spamFile] = process.argv.slice(2);
if (!api || !out) {
  process.stderr.write('usage: node scripts/crawl-fixture.mjs API_URL OUT.json [spam-blacklist.txt]\n');
  process.exit(2);
}

/** The session's cookies (a logged-in crawl's): sent with every question. */
const jar = new Map();
function remember(headers) {
  for (const c of headers.getSetCookie()) {
    const [pair] = c.split(';');
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
}

async function get(params, method = 'GET') {
  const q = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
  const headers = jar.size > 0 ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  const r = method === 'POST' ? await fetch(api, { method, body: q, headers }) : await fetch(`${api}?${q}`, { headers });
  remember(r.headers);
  const j = await r.json();
  // (never the parameters of a login: they hold the password)
  if (j.error) throw new Error(`${params.action === 'query' ? JSON.stringify(params) : params.action}: ${j.error.code}`);
  return j;
}

/** Logs the crawl in as a bot does: a bot password with action=login, a main account with action=clientlogin. */
async function login(file) {
  const { user, password } = JSON.parse(readFileSync(file, 'utf8'));
  const token = (await get({ action: 'query', meta: 'tokens', type: 'login' })).query.tokens.logintoken;
  const result = user.includes('@')
    ? (await get({ action: 'login', lgname: user, lgpassword: password, lgtoken: token }, 'POST')).login.result
    : (await get({ action: 'clientlogin', username: user, password, logintoken: token, loginreturnurl: 'http://127.0.0.1/' }, 'POST')).clientlogin.status;
  if (result !== 'Success' && result !== 'PASS') throw new Error(`crawl-fixture: the login as ${user} failed (${result})`);
}

if (process.env.WIKITAPE_CRAWL_LOGIN) await login(process.env.WIKITAPE_CRAWL_LOGIN);
// The rights the lists are read with: the fixture says so (`seenWithRights`), so that callers
// with no more rights are answered from it; a reader's crawl declares none.
const seenWithRights = process.env.WIKITAPE_CRAWL_LOGIN ? (await get({ action: 'query', meta: 'userinfo', uiprop: 'rights' })).query.userinfo.rights : null;

async function walk(params, pick) {
  const items = [];
  let cont = {};
  for (;;) {
    const j = await get({ action: 'query', ...params, ...cont });
    items.push(...pick(j));
    if (!j.continue) return items;
    cont = j.continue;
  }
}

const logevents = await walk({ list: 'logevents', leprop: 'ids|title|type|user|userid|timestamp|comment|parsedcomment|details|tags', lelimit: 'max' }, (j) => j.query.logevents);
const blocks = await walk({ list: 'blocks', bkprop: 'id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions', bklimit: 'max' }, (j) => j.query.blocks);
const protectedtitles = await walk({ list: 'protectedtitles', ptprop: 'timestamp|user|userid|comment|parsedcomment|expiry|level', ptlimit: 'max' }, (j) => j.query.protectedtitles);
const pageIndex = new Map();
for (let ns = 0; ns <= 15; ns++) {
  const found = await walk({ list: 'allpages', apnamespace: String(ns), aplimit: 'max' }, (j) => j.query.allpages);
  for (const p of found) pageIndex.set(p.pageid, { pageid: p.pageid, ns: p.ns, title: p.title, extlinks: [] });
}
// Redirects: which pages are (list=allpages&apfilterredir=redirects), and where each leads
// (query.redirects of titles=…&redirects=1, fifty titles a question).
const redirectPages = [];
for (let ns = 0; ns <= 15; ns++) redirectPages.push(...(await walk({ list: 'allpages', apnamespace: String(ns), aplimit: 'max', apfilterredir: 'redirects' }, (j) => j.query.allpages)));
const redirects = [];
for (let i = 0; i < redirectPages.length; i += 50) {
  const j = await get({ action: 'query', titles: redirectPages.slice(i, i + 50).map((p) => p.title).join('|'), redirects: '1' });
  redirects.push(...(j.query.redirects ?? []));
}
for (const p of redirectPages) pageIndex.get(p.pageid).redirect = true;
// What prop=info and prop=langlinks show of each page: list=allpages filters on it.
const byId = [...pageIndex.values()];
for (let i = 0; i < byId.length; i += 50) {
  const batch = byId.slice(i, i + 50);
  const info = await walk({ prop: 'info|langlinks', inprop: 'protection', lllimit: 'max', pageids: batch.map((p) => p.pageid).join('|') }, (j) => j.query.pages);
  for (const p of info) {
    const page = pageIndex.get(p.pageid);
    page.redirect = p.redirect === true;
    page.length = p.length;
    page.contentmodel = p.contentmodel;
    page.protection = (p.protection ?? []).map((r) => ({ type: r.type, level: r.level, expiry: r.expiry, ...(r.cascade ? { cascade: true } : {}) }));
    page.langlinks = [...(page.langlinks ?? []), ...(p.langlinks ?? []).map((l) => ({ lang: l.lang, title: l.title }))];
  }
}
// External links with their el_id: the API shows ids only in `elcontinue`, so each page is walked
// one link at a time (the continue value names the next link's id); a page's first id comes from
// a two-page query whose limit stops right before it. The very first page's first id is a guess.
const lastId = (j) => Number(j.continue?.elcontinue?.split('|').pop());
let previous = null;
const withLinks = [...pageIndex.values()].sort((a, b) => a.pageid - b.pageid);
for (const page of withLinks) {
  const links = await walk({ prop: 'extlinks', pageids: String(page.pageid), ellimit: 'max' }, (j) => j.query.pages[0]?.extlinks ?? []);
  if (links.length === 0) continue;
  const ids = [];
  if (previous) {
    const j = await get({ action: 'query', prop: 'extlinks', pageids: `${previous.pageid}|${page.pageid}`, ellimit: String(previous.extlinks.length) });
    ids.push(lastId(j));
  }
  let cont = {};
  for (let k = 0; k < links.length - 1; k++) {
    const j = await get({ action: 'query', prop: 'extlinks', pageids: String(page.pageid), ellimit: '1', ...cont });
    ids.push(lastId(j));
    cont = j.continue;
  }
  if (!previous) ids.unshift((ids[0] ?? 2) - 1);
  page.extlinks = links.map((l, k) => ({ id: ids[k], url: l.url }));
  previous = page;
}
const siAnswer = await get({ action: 'query', meta: 'siteinfo', siprop: 'general|interwikimap' });
const si = siAnswer.query.general;
// Where the wiki is installed and what its DB server is called, as its debuginfo shows them.
const debug = siAnswer.debuginfo;
const installPath = debug?.includes?.[0]?.name?.replace(/\/api\.php$/, '');
const dbServer = debug?.queries?.[0]?.sql?.split(': ')[0];
const url = new URL(api);
const doc = {
  profile: {
    version: si.generator.replace(/^MediaWiki /, ''),
    language: si.lang,
    siteName: si.sitename,
    server: si.server,
    scriptPath: si.scriptpath,
    runtimeVersion: si.phpversion,
    ...(installPath ? { installPath } : {}),
    ...(dbServer ? { dbServer } : {}),
  },
  logevents: logevents.map((e) => ({ ...e, tags: e.tags ?? [] })),
  blocks,
  protectedtitles,
  pages: [...pageIndex.values()],
  redirects,
  interwikimap: siAnswer.query.interwikimap.map(({ prefix, url }) => ({ prefix, url })),
  spamBlacklist: spamFile ? readFileSync(spamFile, 'utf8').split('\n').filter(Boolean) : [],
  spamWhitelist: [],
  ...(spamFile ? { spamBlacklistFile: spamFile } : {}),
  ...(seenWithRights ? { seenWithRights } : {}),
};
writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
process.stderr.write(`crawled ${url.host}: ${logevents.length} log events, ${blocks.length} blocks, ${protectedtitles.length} protected titles, ${pageIndex.size} pages\n`);
