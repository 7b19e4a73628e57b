// mwn 3.0.3 walk: log events, blocks, protected titles (all with continuation), extlinks of a few
// titles, and a summary rendered through action=parse. Prints one JSON document on stdout.
//
//   npm install --prefix /tmp/clients-npm mwn@3.0.3
//   API_URL=http://127.0.0.1:8088/wiki/api.php node mwn-walk.mjs
//
// Env: API_URL (required), CLIENTS_DIR (where node_modules/mwn is; default /tmp/clients-npm),
//      LOGIN_USER, LOGIN_PASSWORD (a bot password: bot.login() first, then everything as that
//      user, a spam blacklist check and one edit of EDIT_TITLE with EDIT_TEXT),
//      LIMIT (page size for every list; default 5 so continuation really happens),
//      TITLES (|-separated; default the live wiki's pages with external links + one missing page).
import { createRequire } from 'node:module';

const require = createRequire(process.env.CLIENTS_DIR ? process.env.CLIENTS_DIR + '/package.json' : import.meta.url);
const { Mwn } = require('mwn');

const apiUrl = process.env.API_URL;
if (!apiUrl) throw new Error('set API_URL to an api.php URL');
const LIMIT = process.env.LIMIT ?? '5';
const TITLES = (process.env.TITLES ?? 'Москва|Список ссылок|Alpha|Несуществующая').split('|');

// Defaults kept as mwn ships them: format=json, formatversion=2, maxlag=5 on every request,
// GET for action=query, User-Agent from options, Accept-Encoding: gzip, cookie jar (tough-cookie).
const LOGIN = process.env.LOGIN_USER ? { username: process.env.LOGIN_USER, password: process.env.LOGIN_PASSWORD } : {};
const options = {
  apiUrl,
  userAgent: 'wikitape-client-check/0.1 (mwn 3.0.3)',
  silent: true, // no "[+] Got part N" lines on stdout
  maxRetries: 1,
  retryPause: 1000,
};

// Logged in: Mwn.init exactly as the README shows it (action=query&meta=tokens&type=login,
// action=login, then meta=tokens|siteinfo|userinfo: the CSRF token and the namespace data at once).
// Anonymous, read-only: Mwn.init would log in, so the bot is made and asks the namespace data
// (Title.checkData() needs it) itself: action=query&meta=siteinfo&siprop=general|namespaces|namespacealiases.
let bot;
if (LOGIN.username) bot = await Mwn.init({ ...options, ...LOGIN });
else {
  bot = new Mwn(options);
  await bot.getSiteInfo();
}

async function walk(query, key) {
  const items = [];
  let requests = 0;
  // continuedQueryGen merges the whole response.continue object into the next request
  // (new-style continuation: {continue: '-||', lecontinue: '...'}); stops when absent.
  for await (const res of bot.continuedQueryGen(query)) {
    requests += 1;
    items.push(...(res.query?.[key] ?? []));
  }
  return { requests, count: items.length, items };
}

const out = { client: 'mwn 3.0.3', apiUrl };

out.logevents = await walk({
  action: 'query', list: 'logevents', lelimit: LIMIT,
  leprop: 'ids|title|type|user|userid|timestamp|comment|parsedcomment|details|tags',
}, 'logevents');

out.blocks = await walk({
  action: 'query', list: 'blocks', bklimit: LIMIT,
  bkprop: 'id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions',
}, 'blocks');

out.protectedtitles = await walk({
  action: 'query', list: 'protectedtitles', ptlimit: LIMIT,
  ptprop: 'timestamp|user|userid|comment|parsedcomment|expiry|level',
}, 'protectedtitles');

// extlinks for several titles at once; arrays are joined with '|' by mwn.
// fv2: query.pages is an array; prop data is merged page by page across continuation rounds.
{
  const pages = new Map();
  let requests = 0;
  for await (const res of bot.continuedQueryGen({ action: 'query', prop: 'extlinks', titles: TITLES, ellimit: LIMIT })) {
    requests += 1;
    for (const p of res.query?.pages ?? []) {
      const prev = pages.get(p.title) ?? { ...p, extlinks: [] };
      prev.extlinks.push(...(p.extlinks ?? []));
      pages.set(p.title, prev);
    }
  }
  out.extlinks = { requests, pages: [...pages.values()] };
}

// The Page helper (one title, ellimit=max, no continuation, throws on missing pages).
try {
  out.pageExternallinks = { title: TITLES[0], urls: await new bot.Page(TITLES[0]).externallinks() };
} catch (e) {
  out.pageExternallinks = { title: TITLES[0], error: String(e) };
}

// Summary through action=parse. No `text` param, so mwn sends it as GET
// (core.js getMethod: action=parse without text -> GET).
const parsed = await bot.request({ action: 'parse', summary: '[[Foo]] bar', prop: '' });
out.parsedsummary = parsed.parse?.parsedsummary;
out.parse = parsed.parse;

// parseWikitext() is mwn's helper for rendering wikitext (POST: it carries `text`).
out.parseWikitext = await bot.parseWikitext('[[Foo]] bar');

if (LOGIN.username) {
  out.userinfo = (await bot.request({ action: 'query', meta: 'userinfo', uiprop: 'groups|rights' })).query.userinfo;
  // The spam blacklist (SpamBlacklist's action=spamblacklist), one URL listed and one not.
  out.spamblacklist = (await bot.request({ action: 'spamblacklist', url: ['http://spam.example.com/x', 'https://www.mediawiki.org/'] })).spamblacklist;
  // One edit: mwn's save() (action=edit with the CSRF token, POST).
  try {
    const r = await bot.save(process.env.EDIT_TITLE, process.env.EDIT_TEXT, 'wikitape client check');
    out.edit = { result: r.result, title: r.title };
  } catch (e) {
    out.edit = { error: e.code ?? String(e) };
  }
}

console.log(JSON.stringify(out, null, 2));
