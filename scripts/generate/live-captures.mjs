// Oracles captured from the live MediaWiki 1.39 of scripts/live-wiki.sh through its API, one
// question per case (run by scripts/generate/run.mjs titles, parse-summary).
const API = process.env.WIKITAPE_LIVE_API ?? `http://127.0.0.1:${process.env.WIKITAPE_LIVE_PORT ?? 8088}/wiki/api.php`;

async function ask(params) {
  const r = await fetch(`${API}?${new URLSearchParams({ ...params, format: 'json', formatversion: '2' })}`);
  if (r.status !== 200) throw new Error(`${API}: HTTP ${r.status} for ${JSON.stringify(params)}`);
  return r.json();
}

/**
 * How the wiki reads each title (MediaWikiTitleCodec): action=query&titles=X, errorformat=plaintext,
 * in ru and en: [input, {ns, title} | {interwiki, title} | {invalid: code, ru: text, en: text}].
 */
export async function titles(inputs) {
  const out = [];
  for (const input of inputs) {
    const [ru, en] = await Promise.all(['ru', 'en'].map((uselang) => ask({ action: 'query', titles: input, errorformat: 'plaintext', uselang })));
    const interwiki = ru.query?.interwiki?.[0];
    if (interwiki) {
      out.push([input, { interwiki: interwiki.iw, title: interwiki.title }]);
      continue;
    }
    const page = ru.query.pages[0];
    if (page.invalid) out.push([input, { invalid: page.invalidreason.code, ru: page.invalidreason.text, en: en.query.pages[0].invalidreason.text }]);
    else out.push([input, { ns: page.ns, title: page.title }]);
  }
  return out;
}

/**
 * action=parse's parsedsummary of each summary, attributed to a title, in three modes: plain
 * (`summary=`), samePage (`section=new&sectiontitle=T`: the summary as given, links to the same
 * page), newSection (`section=new` alone: the summary becomes newsectionsummary).
 */
export async function parseSummaries(groups) {
  const out = [];
  for (const g of groups) {
    const extra = g.mode === 'samePage' ? { section: 'new', sectiontitle: 'T' } : g.mode === 'newSection' ? { section: 'new' } : {};
    const cases = [];
    for (const [summary] of g.cases) {
      const j = await ask({ action: 'parse', title: g.title, summary, prop: '', ...extra });
      cases.push([summary, j.parse.parsedsummary]);
    }
    out.push({ title: g.title, mode: g.mode, cases });
  }
  return out;
}

/**
 * The HTML "API result" page of MediaWiki 1.43 (format=jsonfm) in the parts the test compares: the
 * head up to the result, the foot up to the RL script, and the end from `mw.log.warn`, with the
 * page's request id. `api` is the 1.43 wiki's api.php.
 */
export async function htmlPage143(api = process.env.WIKITAPE_LIVE143_API ?? 'http://127.0.0.1:8089/wiki/api.php') {
  const query = 'action=query&list=protectedtitles&ptlimit=1&format=jsonfm';
  const page = await (await fetch(`${api}?${query}`)).text();
  const requestId = /"wgRequestId":"([0-9a-f]+)"/.exec(page)?.[1] ?? '';
  const end = page.slice(page.indexOf('</pre>'));
  return {
    head: page.slice(0, page.indexOf('<pre class="api-pretty-content">')),
    foot: end.slice(0, end.indexOf('<script>(RLQ')),
    // the time the page took varies: the test renders it with 100 ms
    last: end.slice(end.indexOf('mw.log.warn')).replace(/"wgBackendResponseTime":\d+/, '"wgBackendResponseTime":100'),
    requestId,
  };
}
