import type { WikiFacts } from './bot-facts.js';
import { spamChecks, summaries, titles } from './bot-forms.js';
import { at, BLOCK_PROPS, LOG_PROPS, mwbot, mwclient, mwn, nodemw, plain, PT_PROPS, pywikibot, walk, wikijs, type Identity, type Item } from './bot-styles.js';

/**
 * The held-out questions of the bots' differential (issue 21): what bots ask a wiki, as their
 * client libraries put it on the wire, of kinds wikitape's own differential does not ask. Every
 * generator is a pure function of the live wiki's own data (`WikiFacts`), so the questions are the
 * same on every run and follow whatever the wiki holds. To add a question, add it to its kind's
 * generator; to add a kind, name it in KINDS (bot-styles.ts) and add its generator to `heldOut`.
 * Title forms, summaries, spam checks and the wire sample are in bot-forms.ts.
 */

/** Multi-module walks with their own limits, directions, windows and prop subsets. */
function walks(f: WikiFacts): Item[] {
  const ts = f.logTimestamps;
  const linked = f.linked;
  const anon: Record<string, string>[] = [
    { list: 'logevents|blocks', lelimit: '7', bklimit: '4', leprop: 'ids|title|type|user|timestamp', bkprop: 'id|user|expiry|flags' },
    { list: 'protectedtitles|logevents', ptlimit: '3', lelimit: '11', letype: 'protect', ptprop: 'level|expiry|timestamp' },
    { list: 'blocks|protectedtitles|logevents', bklimit: '5', ptlimit: '6', lelimit: '9', ledir: 'newer', bkdir: 'newer' },
    { prop: 'extlinks', titles: linked.slice(0, 4).join('|'), ellimit: '6', list: 'blocks', bklimit: '3' },
    { list: 'logevents', lelimit: '13', lestart: at(ts, 10), leend: at(ts, -15), meta: 'siteinfo', siprop: 'general' },
    { list: 'logevents|protectedtitles', letype: 'create', lelimit: '8', ptlimit: '5', ptdir: 'newer', formatversion: '2' },
    { prop: 'extlinks', titles: linked.join('|'), ellimit: '23', elprotocol: 'http' },
    { list: 'blocks|logevents', bkshow: '!temp', bklimit: '2', letype: 'block', lelimit: '6', leprop: 'title|timestamp|details' },
  ];
  const bot: Record<string, string>[] = [
    { list: 'logevents|blocks', lelimit: '30', bklimit: '6', leprop: LOG_PROPS, bkprop: BLOCK_PROPS },
    { list: 'protectedtitles|logevents', ptlimit: '600', lelimit: '600', ptprop: PT_PROPS, leprop: LOG_PROPS },
    { prop: 'extlinks', titles: linked.join('|'), ellimit: '40', list: 'protectedtitles', ptlimit: '4' },
    { list: 'logevents', lelimit: '20', ledir: 'newer', leprop: 'ids|userid|user|title|timestamp', formatversion: '2' },
  ];
  return [...anon.map((w) => walk(plain('walks', 'anon', w))), ...bot.map((w) => walk(plain('walks', 'bot', w)))];
}

/** Each client library's way of asking, at the limits it uses: anonymously and logged in, then the clients that never log in. */
function clients(f: WikiFacts): Item[] {
  return [...clientsAs(f, 'anon'), ...clientsAs(f, 'bot'), ...anonymousClients(f)];
}

/** mwclient, mwn, mwbot and pywikibot, anonymously or logged in (a bot asks for more at once). */
function clientsAs(f: WikiFacts, as: Identity): Item[] {
  const [a, b] = [at(f.linked, 0), at(f.linked, 1)];
  const limit = as === 'bot' ? '500' : '6';
  return [
    walk(mwclient('clients', as, { list: 'logevents', leprop: 'title|type|user|timestamp|comment|details', ledir: 'older', lelimit: limit })),
    walk(mwclient('clients', as, { list: 'blocks', bkdir: 'older', bkprop: 'id|user|by|timestamp|expiry|reason|flags', bklimit: limit })),
    walk(mwclient('clients', as, { list: 'protectedtitles', ptlimit: as === 'bot' ? '500' : '4' })),
    walk(mwclient('clients', as, { titles: b, prop: 'extlinks', ellimit: '500' })),
    mwclient('clients', as, { prop: 'info', inprop: 'protection', titles: a }),
    mwclient('clients', as, { action: 'parse', summary: `/* ${a} */ обновление [[${b}]]`, prop: '' }, 'POST'),
    walk(mwn('clients', as, { action: 'query', list: 'logevents', lelimit: as === 'bot' ? '50' : '12', leprop: LOG_PROPS })),
    walk(mwn('clients', as, { action: 'query', list: 'protectedtitles', ptlimit: as === 'bot' ? 'max' : '7', ptprop: PT_PROPS })),
    mwn('clients', as, { action: 'query', titles: a, prop: 'extlinks', ellimit: 'max' }),
    mwn('clients', as, { action: 'query', list: 'logevents', leuser: at(f.logUsers, 0), lelimit: 'max', leprop: 'title|type|user|timestamp|comment' }),
    mwn('clients', as, { action: 'query', list: 'logevents', letitle: a, leprop: 'title|type|user|timestamp|comment' }),
    // massQuery: many titles POSTed at once
    mwn('clients', as, { action: 'query', titles: f.pages.slice(0, 12).map((p) => p.title).join('|'), prop: 'extlinks', ellimit: 'max' }, true),
    mwbot('clients', as, { action: 'query', meta: 'siteinfo', siprop: 'general' }),
    mwbot('clients', as, { action: 'query', list: 'blocks', bklimit: as === 'bot' ? '40' : '9' }),
    mwbot('clients', as, { action: 'spamblacklist', url: `https://${f.blacklistHosts[0] ?? 'spam.example'}/promo|https://example.org/` }),
    walk(pywikibot('clients', as, { action: 'query', list: 'logevents', lelimit: as === 'bot' ? '5000' : '50', letype: 'newusers' })),
    pywikibot('clients', as, { action: 'query', prop: 'extlinks', titles: `${a}|${b}`, ellimit: '500' }),
  ];
}

/** wikijs (no login: `origin=*`) and nodemw, and mwn's multipart POST of a long summary. */
function anonymousClients(f: WikiFacts): Item[] {
  const b = at(f.linked, 1);
  return [
    // A summary longer than 8000 characters: mwn sends it as multipart/form-data.
    mwn('clients', 'anon', { action: 'parse', summary: `${'[[Alpha]] '.repeat(820)}конец`, prop: '' }, true),
    walk(wikijs('clients', { list: 'logevents', lelimit: '20', leprop: LOG_PROPS })),
    walk(wikijs('clients', { list: 'blocks', bklimit: '5' })),
    wikijs('clients', { pageids: String(f.pages.find((p) => p.title === at(f.linked, 3))?.pageid ?? 1), prop: 'extlinks', ellimit: 'max' }),
    wikijs('clients', { prop: 'info|pageprops', inprop: 'url', ppprop: 'disambiguation', titles: at(f.moves, 0).from }),
    wikijs('clients', { titles: at(f.moves, 0).from, prop: 'extlinks' }),
    nodemw('clients', { action: 'query', list: 'logevents', letype: 'block', lestart: '', lelimit: '5000' }),
    nodemw('clients', { action: 'query', prop: 'extlinks', titles: b, ellimit: '5000' }),
    nodemw('clients', { action: 'query', meta: 'siteinfo', siprop: 'general' }),
    walk(nodemw('clients', { action: 'query', list: 'blocks', bklimit: '4', continue: '' })),
  ];
}

/** General parameters over a few bases, each parameter with three bases in turn. */
function general(f: WikiFacts): Item[] {
  const move = at(f.moves, 0);
  const bases: Record<string, string>[] = [
    { prop: 'extlinks', titles: `${at(f.linked, 2)}|${move.from}|Несуществующая страница бота` },
    { list: 'logevents', lelimit: '4', leprop: 'ids|title|timestamp' },
    { list: 'blocks', bklimit: '3', bkprop: 'id|user|expiry', formatversion: '2' },
    { meta: 'siteinfo', siprop: 'general|namespaces' },
    { prop: 'extlinks', pageids: f.pages.slice(0, 3).map((p) => p.pageid).join('|'), ellimit: '5' },
  ];
  const general: Record<string, string>[] = [
    { indexpageids: '1' }, { redirects: '1' }, { converttitles: '1' }, { rawcontinue: '1' }, { curtimestamp: '1' },
    { responselanginfo: '1' }, { requestid: 'bot-42' }, { servedby: '1' }, { errorsuselocal: '1' }, { assert: 'user' },
    { assert: 'anon' }, { assertuser: at(f.logUsers, 0) }, { maxage: '30', smaxage: '60' }, { continue: '' },
    { indexpageids: '1', redirects: '1', formatversion: '2' }, { redirects: '', converttitles: '1', indexpageids: '' },
  ];
  const items: Item[] = [];
  general.forEach((g, i) => {
    for (let k = 0; k < 3; k++) items.push(plain('general', 'anon', { ...at(bases, i + k), ...g }));
  });
  const asBot: Record<string, string>[] = [{ assert: 'user' }, { assert: 'bot' }, { assert: 'anon' }, { assertuser: 'Кто-то другой' }, { indexpageids: '1', redirects: '1' }];
  for (const g of asBot) {
    items.push(plain('general', 'bot', { ...bases[0]!, ...g }));
  }
  // Continue timestamps the database rolls over (a month 13, an hour 25): 1.39 reads the later date, 1.43 says badcontinue.
  const mw = at(f.logTimestamps, 3).replace(/\D/g, '');
  const [month13, hour25] = [`${mw.slice(0, 4)}13${mw.slice(6)}`, `${mw.slice(0, 8)}25${mw.slice(10)}`];
  items.push(
    plain('general', 'anon', { list: 'logevents', lecontinue: `${month13}|1`, lelimit: '3', leprop: 'ids|timestamp' }),
    plain('general', 'anon', { list: 'blocks', bkcontinue: `${hour25}|1`, bklimit: '2', bkprop: 'id|timestamp' }),
    plain('general', 'anon', { list: 'protectedtitles', ptcontinue: `${month13}|0|X`, ptlimit: '2' }),
  );
  // formatversion=1's shapes: siteinfo's names as content (`*`), the default options' booleans kept; userinfo's acceptlang and attachedlocal.
  items.push(plain('general', 'anon', { meta: 'siteinfo', siprop: 'languages|skins|defaultoptions' }));
  items.push(plain('general', 'anon', { meta: 'userinfo', uiprop: 'acceptlang|centralids' }));
  // A filtered interwiki map (none of this wiki's interwikis is local).
  for (const filter of ['local', '!local']) items.push(plain('general', 'anon', { meta: 'siteinfo', siprop: 'interwikimap', sifilteriw: filter }));
  items.push(walk(plain('general', 'anon', { list: 'logevents|blocks', lelimit: '15', bklimit: '6', rawcontinue: '1' })));
  items.push(walk(plain('general', 'anon', { prop: 'extlinks', titles: f.linked.join('|'), ellimit: '30', rawcontinue: '1' })));
  return items;
}

/** Errors and warnings in every errorformat × uselang (qqx, German, English, none). */
function languages(f: WikiFacts): Item[] {
  const questions: Record<string, string>[] = [
    { list: 'blocks', bkdir: 'sideways' },
    { list: 'logevents', lelimit: '600', foo: '1' },
    { prop: 'extlinks', titles: `a[b|${at(f.linked, 0)}|Несуществующая` },
    { action: 'parse', summary: '[[Несуществующая]] и [[Alpha]]', prop: '' },
    { list: 'logevents', lestart: '', letype: 'move' },
    { list: 'protectedtitles', ptlevel: 'nobody', ptlimit: 'x' },
  ];
  const formats: Record<string, string>[] = [{}, { errorformat: 'plaintext' }, { errorformat: 'wikitext' }, { errorformat: 'html' }, { errorformat: 'raw' }, { errorformat: 'none' }];
  const langs: Record<string, string>[] = [{ uselang: 'qqx' }, { uselang: 'de' }, { uselang: 'en' }, {}];
  const items: Item[] = [];
  formats.forEach((ef, i) =>
    langs.forEach((ul, j) => {
      for (let k = 0; k < 2; k++) items.push(plain('languages', 'anon', { action: 'query', ...at(questions, i * 4 + j * 2 + k), ...ef, ...ul }));
    }),
  );
  const extra: Record<string, string>[] = [
    { errorformat: 'plaintext', uselang: 'de', errorlang: 'qqx' },
    { errorformat: 'wikitext', errorlang: 'uselang', uselang: 'qqx' },
    { errorformat: 'html', errorlang: 'content', uselang: 'de' },
    { errorformat: 'plaintext', errorlang: 'de', errorsuselocal: '1' },
    { uselang: 'qqx', responselanginfo: '1' },
    { uselang: 'de', responselanginfo: '1', formatversion: '2' },
    { uselang: 'en', responselanginfo: '1', errorformat: 'plaintext' },
    { errorformat: 'plaintext', errorlang: 'fr', formatversion: '2' },
  ];
  extra.forEach((e, i) => items.push(plain('languages', 'anon', { action: 'query', ...at(questions, i), ...e })));
  items.push(plain('languages', 'bot', { ...questions[1]!, errorformat: 'plaintext', uselang: 'qqx' }));
  items.push(plain('languages', 'bot', { ...questions[0]!, uselang: 'de' }));
  // A browser's Accept-Language: userinfo shows it (lower-cased, by q), and it is no uselang.
  for (const fv of ['1', '2']) items.push({ ...plain('languages', 'anon', { meta: 'userinfo', uiprop: 'acceptlang', formatversion: fv }), headers: { 'Accept-Language': 'de-DE, fr;q=0, en;q=0.5,de;q=0.9, RU' } });
  return items;
}

/** The same questions asked anonymously and logged in: other limits, props, hidden entries, rights. */
function loggedIn(f: WikiFacts): Item[] {
  const pairs: Record<string, string>[] = [
    { list: 'logevents', lelimit: 'max' },
    { list: 'logevents', lelimit: '700', leprop: 'ids|user|userid|title|type' },
    { list: 'logevents', leuser: at(f.logUsers, 0), leprop: 'userid|user|timestamp', lelimit: '25' },
    { list: 'logevents', letype: 'suppress' },
    { list: 'logevents', letype: 'newusers', leprop: LOG_PROPS, lelimit: '40', formatversion: '2' },
    { list: 'blocks', bklimit: 'max', bkprop: BLOCK_PROPS },
    { list: 'blocks', bklimit: '501', bkshow: 'account' },
    { list: 'blocks', bkusers: f.blocks.slice(0, 3).map((b) => b.user).join('|'), bkprop: 'id|user|userid|by|byid' },
    { list: 'protectedtitles', ptlimit: 'max', ptprop: 'user|userid|comment' },
    { list: 'protectedtitles', ptlimit: '7', ptprop: 'user|comment' },
    { list: 'blocks', bklimit: '6', bkprop: 'restrictions|byid|by|reason' },
    { prop: 'extlinks', titles: f.linked.join('|'), ellimit: 'max' },
    { meta: 'userinfo', uiprop: 'groups|rights|editcount|blockinfo|hasmsg' },
    { meta: 'userinfo', uiprop: 'ratelimits|theoreticalratelimits|implicitgroups|registrationdate', formatversion: '2' },
    { meta: 'siteinfo|userinfo', siprop: 'general|namespacealiases', uiprop: 'rights' },
    { list: 'logevents|blocks', lelimit: '1000', bklimit: '1000', continue: '' },
    { list: 'protectedtitles', ptlimit: '5001' },
    // The caller's own Accept-Language (fetch sends `*`), whatever the recorder's client sent.
    { meta: 'userinfo', uiprop: 'acceptlang' },
  ];
  return pairs.flatMap((p) => [plain('logged-in', 'anon', p), plain('logged-in', 'bot', p)]);
}

/** Every held-out question of the kinds issue 21 lists (the wire sample is apart: `wireSample`). */
export function heldOut(f: WikiFacts): Item[] {
  return [...walks(f), ...clients(f), ...general(f), ...languages(f), ...loggedIn(f), ...titles(f), ...summaries(f), ...spamChecks(f)];
}
