// mwbot 2.1.3 walk (the newest mwbot, 2.3.3, does not install: it needs semlog@^0.7.0, which the
// registry does not have). Log events, blocks, protected titles (with continuation), extlinks of a
// few titles, and a summary rendered through action=parse. Prints one JSON document on stdout.
//
//   npm install --prefix /tmp/clients-npm mwbot@2.1.3
//   API_URL=http://127.0.0.1:8088/wiki/api.php node mwbot-walk.mjs
//
// mwbot sends every call as POST: format=json in the query string, all other params in an
// application/x-www-form-urlencoded body; formatversion 1; no continuation helper (done by hand).
// Env: API_URL (required), CLIENTS_DIR (where node_modules/mwbot is; default this project's),
//      LIMIT (default 5), TITLES, LOGIN_USER and LOGIN_PASSWORD (a bot password: login() first
//      (action=login for NeedToken, then again with the token), then everything as that user, a
//      spam blacklist check and one edit of EDIT_TITLE with EDIT_TEXT).
import { createRequire } from 'node:module';

const require = createRequire(process.env.CLIENTS_DIR ? process.env.CLIENTS_DIR + '/package.json' : import.meta.url);
const MWBot = require('mwbot');

const apiUrl = process.env.API_URL;
if (!apiUrl) throw new Error('set API_URL to an api.php URL');
const LIMIT = process.env.LIMIT ?? '5';
const TITLES = (process.env.TITLES ?? 'Москва|Список ссылок|Alpha|Несуществующая').split('|');

const bot = new MWBot({ apiUrl, silent: true },
  { headers: { 'User-Agent': 'wikitape-client-check/0.1 (mwbot 2.1.3)' } }); // default UA: mwbot/2.1.3

async function walk(params, key) {
  const items = [];
  let requests = 0;
  let cont = { continue: '' };
  for (;;) {
    const res = await bot.request({ ...params, ...cont }); // rejects on response.error
    requests += 1;
    items.push(...(res.query?.[key] ?? []));
    if (!res.continue) break;
    cont = res.continue; // merge the whole continue object
  }
  return { requests, count: items.length, items };
}

const LOGIN_USER = process.env.LOGIN_USER;
if (LOGIN_USER) await bot.login({ username: LOGIN_USER, password: process.env.LOGIN_PASSWORD });

const out = { client: 'mwbot 2.1.3', apiUrl };
out.siteinfo = (await bot.getSiteinfo()).generator; // action=query&meta=siteinfo&siprop=general

out.logevents = await walk({ action: 'query', list: 'logevents', lelimit: LIMIT,
  leprop: 'ids|title|type|user|userid|timestamp|comment|parsedcomment|details|tags' }, 'logevents');
out.blocks = await walk({ action: 'query', list: 'blocks', bklimit: LIMIT,
  bkprop: 'id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions' }, 'blocks');
out.protectedtitles = await walk({ action: 'query', list: 'protectedtitles', ptlimit: LIMIT,
  ptprop: 'timestamp|user|userid|comment|parsedcomment|expiry|level' }, 'protectedtitles');

{
  const pages = new Map();
  let requests = 0;
  let cont = { continue: '' };
  for (;;) {
    const res = await bot.request({ action: 'query', prop: 'extlinks', titles: TITLES.join('|'), ellimit: LIMIT, ...cont });
    requests += 1;
    for (const p of Object.values(res.query?.pages ?? {})) { // fv1: keyed by page id
      const prev = pages.get(p.title) ?? { ...p, extlinks: [] };
      prev.extlinks.push(...(p.extlinks ?? []).map((e) => e['*']));
      pages.set(p.title, prev);
    }
    if (!res.continue) break;
    cont = res.continue;
  }
  out.extlinks = { requests, pages: [...pages.values()] };
}

const parsed = await bot.request({ action: 'parse', summary: '[[Foo]] bar', prop: '' });
out.parse = parsed.parse;
out.parsedsummary = parsed.parse?.parsedsummary;

if (LOGIN_USER) {
  out.userinfo = (await bot.request({ action: 'query', meta: 'userinfo', uiprop: 'groups|rights' })).query.userinfo;
  out.spamblacklist = (await bot.request({ action: 'spamblacklist', url: 'http://spam.example.com/x|https://www.mediawiki.org/' })).spamblacklist;
  // One edit: getEditToken() (meta=tokens&type=csrf), then edit() (action=edit, POST, bot=1).
  try {
    await bot.getEditToken();
    const r = await bot.edit(process.env.EDIT_TITLE, process.env.EDIT_TEXT, 'wikitape client check');
    out.edit = { result: r.edit?.result, title: r.edit?.title };
  } catch (e) {
    out.edit = { error: e.code ?? e.response?.error?.code ?? String(e) };
  }
}

console.log(JSON.stringify(out, null, 2));
