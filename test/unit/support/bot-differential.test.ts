import { describe, expect, it } from 'vitest';
import type { Answer } from '../../support/bot-ask.js';
import { crawl } from '../../support/bot-crawl.js';
import type { WikiFacts } from '../../support/bot-facts.js';
import { wireSample } from '../../support/bot-forms.js';
import { heldOut } from '../../support/bot-questions.js';
import { HOWS, isWalk, KINDS, label, type Item, type Question } from '../../support/bot-styles.js';
import { covers, judge } from '../../support/bot-verdict.js';
import { HEADERS } from '../../support/questions.js';

/** The bots' differential's own parts, without a wiki: its verdicts can fail, its questions are held out. */

const answer = (body: unknown, headers: Record<string, string> = {}, status = 200): Answer => ({
  status,
  headers: new Headers({ 'content-type': 'application/json; charset=utf-8', ...headers }),
  text: typeof body === 'string' ? body : JSON.stringify(body),
});
const page = (json: string, script = '') =>
  `<!DOCTYPE html>\n<html><head><script>RLCONF={"wgRequestId":"${Math.random()}"};</script></head><body><pre class="api-pretty-content">${json}</pre>${script}</body></html>`;

describe('a verdict', () => {
  const live = answer({ batchcomplete: '', query: { pages: { '13': { pageid: 13, title: 'Зета' } }, redirects: [{ from: 'Zeta', to: 'Зета' }] }, debuginfo: { time: 1 }, curtimestamp: '2026-01-01T00:00:00Z' });

  it('is equal when only per-request values differ', () => {
    const ours = answer({ batchcomplete: '', query: { pages: { '13': { pageid: 13, title: 'Зета' } }, redirects: [{ from: 'Zeta', to: 'Зета' }] }, debuginfo: { time: 2 }, curtimestamp: '2027-01-01T00:00:00Z' });
    expect(judge(live, ours, HEADERS).verdict).toBe('equal');
  });

  it('is silently wrong when the body differs and nothing says so', () => {
    const j = judge(live, answer({ batchcomplete: '', query: { pages: { '28': { pageid: 28, title: 'Zeta' } } } }), HEADERS);
    expect(j.verdict).toBe('silent');
    expect(j.uncovered).toEqual(['query.pages.13', 'query.pages.28', 'query.redirects']);
  });

  it('is flagged only when the flag names every part that differs (issue 21, item 6)', () => {
    const wrong = { batchcomplete: '', query: { pages: { '28': { pageid: 28, title: 'Zeta' } } } };
    expect(judge(live, answer(wrong, { 'x-wikitape-unknown': 'pages.redirect' }), HEADERS).verdict).toBe('flagged');
    const hidden = judge(live, answer(wrong, { 'x-wikitape-unknown': 'extlinks.id' }), HEADERS);
    expect(hidden.verdict).toBe('silent');
    expect(hidden.uncovered).toContain('query.redirects');
  });

  it('is refused when replay answered the wikitape-miss error', () => {
    const miss = answer({ error: { code: 'wikitape-miss', info: '…' } }, { 'x-wikitape-source': 'miss', 'x-wikitape-unknown': 'pages.redirect' });
    expect(judge(live, miss, HEADERS).verdict).toBe('refused');
  });

  it('reads a header clients read, the members order, and the status', () => {
    const body = JSON.parse(live.text) as Record<string, unknown>;
    expect(judge(live, answer(body, { 'content-type': 'text/html' }), HEADERS).uncovered).toEqual(['header.content-type']);
    const { batchcomplete, ...rest } = body;
    expect(judge(live, answer({ ...rest, batchcomplete }), HEADERS).uncovered).toEqual(['(member order)']);
    expect(judge(live, answer(body, {}, 500), HEADERS).uncovered).toEqual(['status']);
  });

  it('reads the HTML page without its request id and debuginfo, but with the rest of the page', () => {
    const json = (t: number) => `{\n    "batchcomplete": "",\n    "debuginfo": {\n        "time": ${t}\n    }\n}`;
    expect(judge(answer(page(json(1))), answer(page(json(2))), HEADERS).verdict).toBe('equal');
    const j = judge(answer(page(json(1), '<script>mw.config.set({"debugInfo":{"time":1}});</script>')), answer(page(json(2))), HEADERS);
    expect(j.verdict).toBe('silent');
    expect(j.uncovered).toEqual(['(outside the JSON, or its spelling)']);
  });

  it('reads the HTML page whose last member is curtimestamp (once debuginfo is gone), and a JSONP callback with a dot', () => {
    const pretty = (query: string) => `{\n    "batchcomplete": "",${query}\n    "curtimestamp": "2026-01-0${Math.floor(Math.random() * 9) + 1}T00:00:00Z",\n    "debuginfo": {\n        "time": 1\n    }\n}`;
    const flagged = { 'x-wikitape-unknown': 'siteinfo.protocols' };
    const j = judge(answer(page(pretty('\n    "query": {\n        "protocols": []\n    },'))), answer(page(pretty('')), flagged), HEADERS);
    expect([j.verdict, j.parts]).toEqual(['flagged', ['query']]);
    const jsonp = judge(answer('/**/x.y({"query":{"protocols":[]}})'), answer('/**/x.y({})', flagged), HEADERS);
    expect([jsonp.verdict, jsonp.parts]).toEqual(['flagged', ['query']]);
  });

  it('reads Expires as time after Date, and a fixed past date as it is', () => {
    const at = (date: string, expires: string) => answer({}, { date, expires });
    const wire = [...HEADERS, 'expires'];
    expect(judge(at('Thu, 26 Nov 2026 00:00:00 GMT', 'Thu, 26 Nov 2026 00:01:00 GMT'), at('Thu, 26 Nov 2026 01:00:00 GMT', 'Thu, 26 Nov 2026 01:01:00 GMT'), wire).verdict).toBe('equal');
    expect(judge(at('Thu, 26 Nov 2026 00:00:00 GMT', 'Thu, 26 Nov 2026 00:01:00 GMT'), at('Thu, 26 Nov 2026 01:00:00 GMT', 'Thu, 26 Nov 2026 00:01:00 GMT'), wire).uncovered).toEqual(['header.expires']);
    expect(judge(at('Thu, 26 Nov 2026 00:00:00 GMT', 'Thu, 01 Jan 1970 00:00:00 GMT'), at('Thu, 26 Nov 2026 01:00:00 GMT', 'Thu, 01 Jan 1970 00:00:00 GMT'), wire).verdict).toBe('equal');
  });

  it('takes a module wikitape does not implement, or the session, as the whole answer', () => {
    expect(covers('prop=info', ['query', 'pages'])).toBe(true);
    expect(covers('session.rights', ['limits'])).toBe(true);
    expect(covers('siteinfo.interwikimap', ['query', 'interwikimap', '0'])).toBe(true);
    expect(covers('siteinfo.interwikimap', ['query', 'namespaces'])).toBe(false);
    expect(covers('logevents.entries', ['continue', 'lecontinue'])).toBe(true);
    expect(covers('logevents.userid', ['continue', 'lecontinue'])).toBe(false);
  });
});

const FACTS: WikiFacts = {
  pages: [
    { title: 'Alpha', pageid: 8, ns: 0 }, { title: 'Zeta', pageid: 28, ns: 0 }, { title: 'Зета', pageid: 13, ns: 0 }, { title: 'Нижний Новгород', pageid: 7, ns: 0 },
    { title: 'Москва', pageid: 2, ns: 0 }, { title: 'Список ссылок', pageid: 21, ns: 0 }, { title: 'Файл:Образец 1.png', pageid: 30, ns: 6 },
  ],
  linked: ['Alpha', 'Зета', 'Москва', 'Список ссылок'],
  urls: ['http://wiki.example.net/page/Alpha/0?q=0'],
  moves: [{ from: 'Zeta', to: 'Зета' }],
  logTimestamps: ['2026-11-26T00:26:57Z', '2026-11-26T00:26:50Z', '2026-11-26T00:26:44Z'],
  logUsers: ['Admin'],
  blocks: [{ id: 1, user: 'Вандал 1', timestamp: '2026-11-26T00:26:44Z' }],
  namespaces: [{ id: 0, name: '' }, { id: 6, name: 'Файл', canonical: 'File' }],
  aliases: [{ id: 6, alias: 'Изображение' }],
  interwiki: ['acronym', 'mw', 'wikipedia'],
  blacklistHosts: ['casino-spam.example', 'free-money.example'],
};

/** A question as replay's cassette key would hold it, roughly: who asks and the parameters as a set. */
const asKey = (q: Question) => `${q.as} ${[...q.params].map(([k, v]) => `${k}=${v}`).sort().join('&')}`;
const firsts = (items: Item[]) => items.map((i) => (isWalk(i) ? i.first : i));

describe('the questions', () => {
  it('are the same on every run over the same data', () => {
    expect(firsts(heldOut(FACTS)).map(label)).toEqual(firsts(heldOut(structuredClone(FACTS))).map(label));
  });

  it('are none of the questions the crawl records', () => {
    const recorded = new Set(firsts(crawl(FACTS)).map(asKey));
    expect(firsts(heldOut(FACTS)).filter((q) => recorded.has(asKey(q))).map(label)).toEqual([]);
  });

  it('ask every kind, as each client library asks', () => {
    const qs = firsts(heldOut(FACTS));
    expect(new Set(qs.map((q) => q.kind))).toEqual(new Set(KINDS.filter((k) => k !== 'wire')));
    expect(new Set(qs.map((q) => q.how))).toEqual(new Set(HOWS));
    expect(qs.filter((q) => q.as === 'bot').length).toBeGreaterThan(30);
    expect(new Set(wireSample(FACTS).map((q) => q.params.find(([k]) => k === 'format')?.[1] ?? 'html'))).toEqual(new Set(['json', 'jsonfm', 'html', 'none']));
  });

  it('show what a reader cannot see', () => {
    expect(label({ kind: 'titles', as: 'anon', how: 'GET', params: [['titles', 'Ёлка'.normalize('NFD')]] })).toBe('GET [anon] titles=Е\\u0308лка');
  });
});
