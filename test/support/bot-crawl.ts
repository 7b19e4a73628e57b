import type { WikiFacts } from './bot-facts.js';
import { BLOCK_PROPS, LOG_PROPS, PT_PROPS, at, mwbot, mwclient, mwn, plain, walk, wikijs, type Item } from './bot-styles.js';

/**
 * The crawl a bot's suite records through `wikitape record` (issue 21): anonymously at the default
 * limits, and logged in as a bot at `max`, each list walked to its end with every prop, the links
 * of every page, siteinfo and userinfo, two summaries and spam checks, each the way a client
 * library asks (mwn's formatversion 2 and maxlag, mwclient's `continue=` and `meta=userinfo` on
 * every query, wikijs's `redirects=1&origin=*`, POST bodies where clients POST). The held-out
 * questions (bot-questions.ts, bot-forms.ts) are none of these.
 */
export function crawl(f: WikiFacts): Item[] {
  return [...anonymous(f), ...loggedIn(f)];
}

const SITEINFO = 'general|namespaces|namespacealiases|specialpagealiases|interwikimap';

/**
 * Anonymous, at default limits (no limit given), as mwn, wikijs and mwbot ask: the log with every
 * prop (as test/clients/mwn-walk.mjs), blocks and protected titles with their default props (a
 * later, smaller recording than the snapshot's: issue 21, item 9).
 */
function anonymous(f: WikiFacts): Item[] {
  const items: Item[] = [
    walk(mwn('walks', 'anon', { action: 'query', list: 'logevents', leprop: LOG_PROPS }), 20),
    walk(mwn('walks', 'anon', { action: 'query', list: 'blocks' }), 20),
    walk(mwn('walks', 'anon', { action: 'query', list: 'protectedtitles' }), 20),
    mwn('walks', 'anon', { action: 'query', meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases' }),
    plain('walks', 'anon', { meta: 'siteinfo', siprop: SITEINFO }),
    mwclient('walks', 'anon', { meta: 'siteinfo', siprop: 'general|namespaces', uiprop: 'groups|rights' }),
    plain('walks', 'anon', { meta: 'userinfo', uiprop: 'blockinfo|hasmsg|groups|rights' }),
    mwn('walks', 'anon', { action: 'parse', summary: `/* ${at(f.linked, 0)} */ [[${at(f.linked, 1)}]] и [[Alpha|альфа]]`, prop: '' }),
    mwbot('walks', 'anon', { action: 'spamblacklist', url: `http://${at(f.blacklistHosts, 0)}/page` }),
    plain('walks', 'anon', { list: 'allpages', apnamespace: '0', aplimit: 'max', apfilterredir: 'redirects' }),
  ];
  for (let ns = 0; ns <= 15; ns++) items.push(walk(plain('walks', 'anon', { list: 'allpages', apnamespace: String(ns), aplimit: 'max' })));
  for (const p of f.pages) items.push(walk(mwn('walks', 'anon', { action: 'query', prop: 'extlinks', titles: p.title }), 30));
  // wikijs's page.externalLinks(): by page id, ellimit=max, no continuation.
  for (const t of f.linked.slice(0, 3)) items.push(wikijs('walks', { pageids: String(f.pages.find((p) => p.title === t)!.pageid), prop: 'extlinks', ellimit: 'max' }));
  return items;
}

/** Logged in with the bot password, at `max` with every prop, as mwclient asks (lists GET, the rest POST). */
function loggedIn(f: WikiFacts): Item[] {
  const items: Item[] = [
    walk(mwclient('walks', 'bot', { list: 'logevents', leprop: LOG_PROPS, lelimit: 'max' }), 20),
    walk(mwclient('walks', 'bot', { list: 'blocks', bkprop: BLOCK_PROPS, bklimit: 'max' }), 20),
    walk(mwclient('walks', 'bot', { list: 'protectedtitles', ptprop: PT_PROPS, ptlimit: 'max' }), 20),
    mwclient('walks', 'bot', { meta: 'siteinfo', siprop: 'general|namespaces', uiprop: 'groups|rights' }),
    plain('walks', 'bot', { meta: 'siteinfo', siprop: SITEINFO }),
    plain('walks', 'bot', { meta: 'userinfo', uiprop: 'blockinfo|hasmsg|groups|rights|editcount' }),
    mwclient('walks', 'bot', { action: 'parse', summary: `правка [[${at(f.linked, 2)}]] и [[Несуществующая]]`, prop: '' }, 'POST'),
    mwclient('walks', 'bot', { action: 'spamblacklist', url: `https://${at(f.blacklistHosts, -1)}/x|https://example.org/` }, 'POST'),
  ];
  for (let ns = 0; ns <= 15; ns++) items.push(walk(mwclient('walks', 'bot', { list: 'allpages', apnamespace: String(ns), aplimit: 'max' })));
  for (const p of f.pages) items.push(walk(mwclient('walks', 'bot', { titles: p.title, prop: 'extlinks', ellimit: 'max' }), 30));
  return items;
}
