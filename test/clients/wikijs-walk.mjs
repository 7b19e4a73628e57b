// wikijs 6.4.1 walk: log events, blocks, protected titles (all with continuation), extlinks of a
// few titles, and a summary rendered through action=parse. Prints one JSON document on stdout.
//
//   npm install --prefix /tmp/clients-npm wikijs@6.4.1
//   API_URL=http://127.0.0.1:8088/wiki/api.php node wikijs-walk.mjs
//
// wikijs is a read-only, Wikipedia-oriented client: no helpers for logevents/blocks/protectedtitles,
// so those use its raw `api()` (every request gets format=json, action=query, redirects=1 and
// origin=* unless overridden; always GET via cross-fetch/node-fetch; formatversion 1).
// Env: API_URL (required), CLIENTS_DIR (default /tmp/clients-npm), LIMIT (default 5), TITLES,
//      LOGIN_USER and LOGIN_PASSWORD: wikijs cannot log in, so the bot logs in with plain fetch
//      (meta=tokens&type=login, action=login) and hands the session cookies to wikijs's
//      `headers`; wikijs adds origin=* to every request, so the wiki answers it anonymously anyway.
import { createRequire } from 'node:module';

const require = createRequire(process.env.CLIENTS_DIR ? process.env.CLIENTS_DIR + '/package.json' : import.meta.url);
const wiki = require('wikijs').default;

const apiUrl = process.env.API_URL;
if (!apiUrl) throw new Error('set API_URL to an api.php URL');
const LIMIT = process.env.LIMIT ?? '5';
const TITLES = (process.env.TITLES ?? 'Москва|Список ссылок|Alpha|Несуществующая').split('|');

const headers = { 'User-Agent': 'wikitape-client-check/0.1 (wikijs 6.4.1)' };
let loggedIn;
if (process.env.LOGIN_USER) {
  const jar = new Map();
  const keep = (r) => { for (const c of r.headers.getSetCookie()) { const [pair] = c.split(';'); const eq = pair.indexOf('='); jar.set(pair.slice(0, eq), pair.slice(eq + 1)); } return r.json(); };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const t = await keep(await fetch(`${apiUrl}?action=query&meta=tokens&type=login&format=json`));
  const body = new URLSearchParams({ action: 'login', lgname: process.env.LOGIN_USER, lgpassword: process.env.LOGIN_PASSWORD, lgtoken: t.query.tokens.logintoken, format: 'json' });
  loggedIn = (await keep(await fetch(apiUrl, { method: 'POST', body, headers: { cookie: cookie() } }))).login.result;
  headers.Cookie = cookie();
}
const w = wiki({ apiUrl, headers });

let requests = 0;
const api = (params) => { requests += 1; return w.api(params); };

// New-style continuation by hand: merge the whole `continue` object into the next request.
// (wikijs's own aggregate() in dist/*/util.js only copies one <prefix>continue key and also sets
// <prefix>from to the same value; it is used by allPages/allCategories/pagesInCategory only.)
async function walk(params, key) {
  const items = [];
  const before = requests;
  let cont = { continue: '' };
  for (;;) {
    const res = await api({ ...params, ...cont });
    items.push(...(res.query?.[key] ?? []));
    if (!res.continue) break;
    cont = res.continue;
  }
  return { requests: requests - before, count: items.length, items };
}

const out = { client: 'wikijs 6.4.1', apiUrl };
if (loggedIn !== undefined) {
  out.login = loggedIn;
  // With origin=* (wikijs's default), MediaWiki strips the credentials: the caller is anonymous.
  out.userinfo = (await api({ meta: 'userinfo', uiprop: 'rights' })).query.userinfo;
}
out.logevents = await walk({ list: 'logevents', lelimit: LIMIT,
  leprop: 'ids|title|type|user|userid|timestamp|comment|parsedcomment|details|tags' }, 'logevents');
out.blocks = await walk({ list: 'blocks', bklimit: LIMIT,
  bkprop: 'id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions' }, 'blocks');
out.protectedtitles = await walk({ list: 'protectedtitles', ptlimit: LIMIT,
  ptprop: 'timestamp|user|userid|comment|parsedcomment|expiry|level' }, 'protectedtitles');

// Several titles with continuation (fv1: pages keyed by id, extlinks items are {"*": url}).
{
  const pages = new Map();
  const before = requests;
  let cont = { continue: '' };
  for (;;) {
    const res = await api({ prop: 'extlinks', titles: TITLES.join('|'), ellimit: LIMIT, ...cont });
    for (const p of Object.values(res.query?.pages ?? {})) {
      const prev = pages.get(p.title) ?? { ...p, extlinks: [] };
      prev.extlinks.push(...(p.extlinks ?? []).map((e) => e['*']));
      pages.set(p.title, prev);
    }
    if (!res.continue) break;
    cont = res.continue;
  }
  out.extlinks = { requests: requests - before, pages: [...pages.values()] };
}

// Helpers: wiki.page(title) (prop=info|pageprops&inprop=url&ppprop=disambiguation&redirects=1;
// throws 'No article found' for a missing page), then page.externalLinks()
// (pageids=<id>&prop=extlinks&ellimit=max; no continuation).
out.externalLinks = {};
for (const t of TITLES) {
  try {
    const page = await w.page(t);
    out.externalLinks[t] = await page.externalLinks();
  } catch (e) {
    out.externalLinks[t] = { error: String(e.message ?? e) };
  }
}

// Summary through action=parse (GET). redirects: undefined drops wikijs's default redirects=1.
const parsed = await api({ action: 'parse', summary: '[[Foo]] bar', prop: '', redirects: undefined });
out.parse = parsed.parse;
out.parsedsummary = parsed.parse?.parsedsummary;

console.log(JSON.stringify(out, null, 2));
