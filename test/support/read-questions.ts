/**
 * Read questions bots ask, in the spellings and with the extra parameters real clients add, for
 * test/live/reads-differential.test.ts: what a bot's walk records (RECORDED, some of it asked in
 * another spelling or with parameters wikitape prints), then questions in four areas asked of the
 * live wiki and of replay of that walk. The live wikis hold the data of
 * /work/shared/livewiki/populate.mjs: `Zeta` was moved to `Зета`, so `Zeta` is a redirect.
 */

/** One question: a GET query string, or a POST form with its own query string. */
export type ReadQuestion = string | { query: string; form: string };

const q = (p: Record<string, string>) => new URLSearchParams({ action: 'query', format: 'json', ...p }).toString();
const fv2 = (p: Record<string, string>) => q({ ...p, formatversion: '2' });

/** What the walk asks through `wikitape record` (formatversion=2 JSON, as mwn does). */
export const RECORDED: readonly Record<string, string>[] = [
  { meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases|specialpagealiases|interwikimap' },
  { list: 'allpages', apnamespace: '0', aplimit: 'max' },
  { list: 'allpages', apnamespace: '0', aplimit: 'max', apfilterredir: 'redirects' },
  { titles: 'Zeta', redirects: '1' },
  { prop: 'info', titles: 'Москва' },
  { prop: 'info', titles: 'Alpha|Москва|Zeta|Nope' },
  { prop: 'info|revisions', titles: 'Alpha' },
  { prop: 'info', titles: 'Zeta', redirects: '1' },
  { prop: 'extlinks', titles: 'Москва', ellimit: 'max' },
  { list: 'logevents', letitle: 'Москва' },
  { list: 'backlinks', bltitle: 'Москва' },
  // in another spelling than the questions ask
  { prop: 'info', titles: 'beta' },
  { prop: 'info|revisions', titles: 'Gamma_|delta' },
  // with parameters wikitape prints itself, and parameters the wiki does not know
  { prop: 'info', titles: 'Theta', requestid: 'r1', curtimestamp: '1', responselanginfo: '1', maxage: '30', smaxage: '30' },
  { prop: 'info', titles: 'Epsilon', zz: '1', aa: '1' },
  { prop: 'info', titles: 'Epsilon', zz: '1', aa: '1', errorformat: 'raw' },
];

const MOSKVA = ['Москва', 'москва', 'Москва_', '  Москва  ', ':Москва', 'Москва#Раздел', 'Москва|москва', 'Москва\u00a0', '::Москва', 'М%D0%BEсква'];
const ALPHA = ['alpha', 'Alpha_', 'alpha|Alpha', 'Alpha|Москва|Zeta|Nope', 'alpha|москва|zeta|nope', 'Nope|Alpha|Москва|Zeta'];

function titleForms(): ReadQuestion[] {
  const out: ReadQuestion[] = [];
  for (const t of [...MOSKVA, ...ALPHA]) out.push(fv2({ prop: 'info', titles: t }), q({ prop: 'info', titles: t }), fv2({ prop: 'info|revisions', titles: t }));
  for (const t of MOSKVA) out.push(fv2({ prop: 'extlinks', titles: t, ellimit: 'max' }), fv2({ list: 'logevents', letitle: t }), fv2({ list: 'backlinks', bltitle: t }));
  for (const t of ['Beta', 'beta', 'Beta_', 'Gamma|Delta', 'gamma|delta']) out.push(fv2({ prop: t.includes('|') ? 'info|revisions' : 'info', titles: t }));
  out.push(fv2({ prop: 'info', pageids: '2|8|2' }), fv2({ prop: 'info', pageids: '2|8|99999' }), fv2({ prop: 'info', revids: '99999' }), fv2({ prop: 'info', titles: 'Тестовая вики:О проекте' }));
  return out;
}

function redirects(): ReadQuestion[] {
  const out: ReadQuestion[] = [];
  const variants: Record<string, string>[] = [{}, { formatversion: '2' }, { converttitles: '1', formatversion: '2' }];
  for (const extra of variants) {
    out.push(
      q({ titles: 'Zeta', redirects: '1', prop: 'info', ...extra }), q({ titles: 'zeta', redirects: '1', prop: 'info', ...extra }), q({ titles: 'Zeta|Зета', redirects: '1', prop: 'info', ...extra }),
      q({ pageids: '28', redirects: '1', prop: 'info', ...extra }), q({ titles: 'Zeta#frag', redirects: '1', ...extra }), q({ titles: 'zeta', redirects: '1', ...extra }),
      q({ titles: 'Alpha|Москва|Zeta|Nope', prop: 'info', redirects: '1', ...extra }), q({ titles: 'Zeta', redirects: '', ...extra }),
    );
  }
  return out;
}

function languages(): ReadQuestion[] {
  const out: ReadQuestion[] = [];
  type P = Record<string, string>;
  const bases: P[] = [{ prop: 'info', titles: 'Москва' }, { titles: 'Zeta', redirects: '1' }, { prop: 'info', titles: 'a[b' }, { prop: 'info', titles: 'Москва', foo: '1' }, { list: 'backlinks', bltitle: 'Москва' }];
  const langs: P[] = [{ uselang: 'en' }, { uselang: 'qqx' }, { uselang: 'content' }, { errorformat: 'plaintext', uselang: 'de' }, { errorformat: 'html', errorlang: 'en' }, { errorformat: 'raw' }, { errorformat: 'wikitext', uselang: 'ru' }, { errorformat: 'none' }];
  for (const b of bases) for (const l of langs) out.push(fv2({ ...b, ...l }));
  return out;
}

/** What clients add to a question (ApiSandbox's wrappedhtml page carries per-request timings inside its HTML: left to test/live/html-page.test.ts). */
function clientParams(): ReadQuestion[] {
  const out: ReadQuestion[] = [];
  const extras: Record<string, string>[] = [{ maxlag: '5' }, { assert: 'anon' }, { assert: 'user' }, { assertuser: 'Admin' }, { maxage: '60', smaxage: '60' }, { curtimestamp: '1' }, { responselanginfo: '1' }, { requestid: 'x' },
    { servedby: '1' }, { origin: '*' }, { utf8: '1' }, { ascii: '1' }, { continue: '' }, { rawcontinue: '1' }, { bogus: '1' }, { _: '1764236400000' }, { _: '1', callback: 'cb' }, { wrappedhtml: '1' },
    { crossorigin: '1' }, { format: 'jsonfm' }, { format: 'jsonfm', _: '1', callback: 'cb' }, { callback: 'cb' }];
  const bases: Record<string, string>[] = [{ prop: 'info', titles: 'Москва' }, { prop: 'info', titles: 'Theta' }, { list: 'backlinks', bltitle: 'Москва' }];
  for (const b of bases) {
    for (const x of extras) out.push(fv2({ ...b, ...x }));
    out.push({ query: 'format=json', form: new URLSearchParams({ action: 'query', formatversion: '2', ...b }).toString() });
  }
  const forms: Record<string, string>[] = [{ formatversion: '2' }, {}, { errorformat: 'raw', formatversion: '2' }, { errorformat: 'raw' }, { errorformat: 'plaintext', formatversion: '2' }];
  for (const f of forms) {
    out.push(q({ prop: 'info', titles: 'Epsilon', zz: '1', aa: '1', ...f }), q({ prop: 'info', titles: 'Epsilon', aa: '1', zz: '1', ...f }), `aa=1&${q({ prop: 'info', titles: 'Epsilon', zz: '1', ...f })}`);
    out.push({ query: 'aa=1&format=json', form: new URLSearchParams({ action: 'query', prop: 'info', titles: 'Epsilon', zz: '1', ...f }).toString() });
  }
  return out;
}

/** The questions of each area. */
export function readQuestions(): Record<string, ReadQuestion[]> {
  return { 'title forms': titleForms(), redirects: redirects(), languages: languages(), "clients' own parameters": clientParams() };
}
