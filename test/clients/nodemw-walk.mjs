// nodemw 0.27.0 walk: log events, blocks, protected titles (all with continuation), extlinks of a
// few titles, and a summary rendered through action=parse. Prints one JSON document on stdout.
//
//   npm install --prefix /tmp/clients-npm nodemw@0.27.0
//   API_URL=http://127.0.0.1:8088/wiki/api.php node nodemw-walk.mjs
//
// Env: LOGIN_USER, LOGIN_PASSWORD (a bot password: logIn() first, then everything as that user, a
//      spam blacklist check and one edit of EDIT_TITLE with EDIT_TEXT),
//      API_URL (required; nodemw wants protocol/server/port/path separately and always appends
//      "/api.php"), CLIENTS_DIR (default /tmp/clients-npm), LIMIT (default 5), TITLES (|-separated).
// nodemw's winston console transport writes *errors* to stdout: on failure stdout is not pure JSON.
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const require = createRequire(process.env.CLIENTS_DIR ? process.env.CLIENTS_DIR + '/package.json' : import.meta.url);
const Bot = require('nodemw');

const apiUrl = process.env.API_URL;
if (!apiUrl) throw new Error('set API_URL to an api.php URL');
const u = new URL(apiUrl);
if (!u.pathname.endsWith('/api.php')) throw new Error('API_URL must end in /api.php');
const LIMIT = process.env.LIMIT ?? '5';
const TITLES = (process.env.TITLES ?? 'Москва|Список ссылок|Alpha|Несуществующая').split('|');

const client = new Bot({
  protocol: u.protocol.replace(':', ''),
  server: u.hostname,
  port: u.port ? Number(u.port) : undefined,
  path: u.pathname.slice(0, -'/api.php'.length), // e.g. "/wiki"
  userAgent: 'wikitape-client-check/0.1 (nodemw 0.27.0)', // default: nodemw/0.27.0 (node.js vX; linux x64)
  concurrency: 1, // default 3 parallel requests from its async.queue
  debug: false,
});

// getAll(params, key, cb): starts with continue='' and merges the whole response `continue`
// object (or legacy query-continue[list||prop]) into params until none comes back.
const getAll = (params, key) => new Promise((resolve, reject) =>
  client.getAll(params, key, (err, res) => (err ? reject(err) : resolve(res))));
// api.call(params, cb(err, data[action], next, rawData), method='GET')
const call = (params, method) => new Promise((resolve, reject) =>
  client.api.call(params, (err, info, next, raw) => (err ? reject(err) : resolve({ info, next, raw })), method));

const LOGIN_USER = process.env.LOGIN_USER;
if (LOGIN_USER) {
  // logIn(username, password, cb): meta=tokens&type=login, then action=login.
  await new Promise((resolve, reject) => client.logIn(LOGIN_USER, process.env.LOGIN_PASSWORD, (err, data) => (err ? reject(err) : resolve(data))));
}

const out = { client: 'nodemw 0.27.0', apiUrl };
out.siteVersion = await promisify(client.getMediaWikiVersion.bind(client))(); // meta=siteinfo&siprop=general

out.logevents = await getAll({ action: 'query', list: 'logevents', lelimit: LIMIT,
  leprop: 'ids|title|type|user|userid|timestamp|comment|parsedcomment|details|tags' }, 'logevents');
out.blocks = await getAll({ action: 'query', list: 'blocks', bklimit: LIMIT,
  bkprop: 'id|user|userid|by|byid|timestamp|expiry|reason|range|flags|restrictions' }, 'blocks');
out.protectedtitles = await getAll({ action: 'query', list: 'protectedtitles', ptlimit: LIMIT,
  ptprop: 'timestamp|user|userid|comment|parsedcomment|expiry|level' }, 'protectedtitles');

// Helper getLog(type, start, cb): one page (lelimit=5000, clamped by MediaWiki with a warning);
// its "next" is only the timestamp part of lecontinue, to be passed back as lestart.
out.getLogFirstPage = await new Promise((resolve, reject) =>
  client.getLog('create', undefined, (err, events, next) => (err ? reject(err) : resolve({ count: events.length, next }))));

// Several titles with continuation (fv1: query.pages is keyed by page id; one entry per round).
// getAll concatenates the page entries of every round; merge them by title here.
{
  const rounds = await getAll({ action: 'query', prop: 'extlinks', titles: TITLES.join('|'), ellimit: LIMIT },
    (q) => Object.values(q.pages));
  const pages = new Map();
  for (const p of rounds) {
    const prev = pages.get(p.title) ?? { ...p, extlinks: [] };
    prev.extlinks.push(...(p.extlinks ?? []).map((e) => e['*']));
    pages.set(p.title, prev);
  }
  out.extlinks = [...pages.values()];
}
// Helper getExternalLinks(title, cb): one title, ellimit=5000, no continuation, fv1 items {"*": url}.
out.getExternalLinks = {};
for (const t of TITLES) {
  out.getExternalLinks[t] = await promisify(client.getExternalLinks.bind(client))(t);
}

// Summary through action=parse (GET; api.call defaults to GET).
const { info: parsed } = await call({ action: 'parse', summary: '[[Foo]] bar', prop: '' });
out.parse = parsed;
out.parsedsummary = parsed.parsedsummary;
// Helper parse(text, title, cb): POST, generatexml=1, returns parse.text['*'] (fv1).
out.parseHelper = await new Promise((resolve, reject) =>
  client.parse('[[Foo]] bar', 'API', (err, html) => (err ? reject(err) : resolve(html))));

if (LOGIN_USER) {
  out.userinfo = (await call({ action: 'query', meta: 'userinfo', uiprop: 'groups|rights' })).info.userinfo;
  out.spamblacklist = (await call({ action: 'spamblacklist', url: 'http://spam.example.com/x|https://www.mediawiki.org/' })).info;
  // One edit: edit(title, content, summary, minor, cb) (action=edit with the CSRF token, POST).
  out.edit = await new Promise((resolve) =>
    client.edit(process.env.EDIT_TITLE, process.env.EDIT_TEXT, 'wikitape client check', false, (err, data) =>
      resolve(err ? { error: String(err.message ?? err).replace(/^Error: /, '') } : { result: data.result, title: data.title })));
}

console.log(JSON.stringify(out, null, 2));
