// Small changes to the source that `npm test` must notice; `npm run mutate` (scripts/mutate.mjs)
// applies each alone to a copy of the repository and runs the tests that cover it.
//
// An entry: `id`, `what` (the behaviour it breaks, one line), and the change: `file`, `search`
// (exact text, found once in the file) and `replace`; or `edits`, a list of those, for a rule
// written in more than one place. `tests` names the test files to run; without it, the tests
// that import the file (vitest related; slower: most integration tests import most files). Keep `search` small and specific: when the code moves,
// `npm run mutate` reports the entry as "no longer applies", and the entry is updated here.

/** @type {ReadonlyArray<{ id: string, what: string, file?: string, search?: string, replace?: string, edits?: { file: string, search: string, replace: string }[], tests?: string[] }>} */
export const MUTATIONS = [
  // The six that passed npm test before (issue 23).
  {
    id: 'continue-order',
    what: 'a mixed prop+list query continues the prop module first (ApiContinuationManager puts non-generator modules first)',
    file: 'src/api/query.ts',
    search: 'for (const m of [...requested.filter((x) => !propNames.has(x.name)), ...requested.filter((x) => propNames.has(x.name))]) {',
    replace: 'for (const m of requested) {',
    tests: ['test/integration/query-continue.test.ts', 'test/integration/builtin-lists.test.ts', 'test/integration/builtin-pages-parse-spam.test.ts'],
  },
  {
    id: 'generator-done-marker',
    what: 'continue says "-||" (generator done) while a prop module is still unfinished',
    file: 'src/api/query.ts',
    search: "const generatorKeys = propUnfinished ? '' : '-';",
    replace: "const generatorKeys = '-';",
    tests: ['test/integration/query-continue.test.ts', 'test/integration/builtin-lists.test.ts', 'test/integration/builtin-pages-parse-spam.test.ts'],
  },
  {
    id: 'leuser-hidden-user',
    what: 'leuser matches log events whose user is hidden (log_deleted & 4)',
    file: 'src/modules/logevents.ts',
    search: 'e.user === user && !((e.deleted ?? 0) & 4)',
    replace: 'e.user === user',
    tests: ['test/integration/hidden-log-fields.test.ts', 'test/integration/builtin-lists.test.ts'],
  },
  {
    id: 'recorded-uselang',
    what: 'a recorded answer is printed in the wiki\'s language whatever uselang says',
    file: 'src/replay/render-recorded.ts',
    search: 'const userLang = userLanguage(uselang, profile);',
    replace: 'const userLang = userLanguage(undefined, profile);',
    tests: ['test/integration/user-language.test.ts', 'test/integration/replay.test.ts', 'test/integration/hot-path.test.ts'],
  },
  {
    id: 'uselang-cache-downgrade',
    what: 'a public answer stays public under uselang=user (ApiMain::setCacheMode downgrades it to anon-public-user-private)',
    file: 'src/api/context.ts',
    search: "return mode === 'public' && (uselang ?? 'user') === 'user' ? 'anon-public-user-private' : mode;",
    replace: 'return mode;',
    tests: ['test/integration/user-language.test.ts', 'test/integration/builtin-output.test.ts', 'test/unit/output'],
  },
  {
    id: 'block-expiry-boundary',
    what: 'a recorded list of blocks is still served at the second its block expires (the wiki asks expiry > now)',
    file: 'src/replay/recorded-lists.ts',
    search: 'recordedExpiries(i).some((at) => Date.parse(at) <= now)',
    replace: 'recordedExpiries(i).some((at) => Date.parse(at) < now)',
    tests: ['test/integration/block-expiry.test.ts', 'test/integration/replay.test.ts', 'test/integration/hot-path.test.ts'],
  },
  // Six more, in core logic.
  {
    id: 'canonical-set-order',
    what: 'the cassette key keeps the order of a set parameter (leprop=user|title and leprop=title|user become two questions)',
    file: 'src/request/canonical.ts',
    search: 'value = joinMulti([...new Set(splitMulti(raw))].sort());',
    replace: 'value = joinMulti([...new Set(splitMulti(raw))]);',
    tests: ['test/unit/request/canonical.test.ts', 'test/integration/replay.test.ts'],
  },
  {
    id: 'coverage-props',
    what: 'a complete walk covers questions asking for props it did not record',
    file: 'src/cassette/coverage.ts',
    search: "return splitMulti(request[param] ?? list.key.defaults[param] ?? '').every((p) => cov.props.has(p));",
    replace: 'return true;',
    tests: ['test/unit/cassette/coverage.test.ts', 'test/integration/replay.test.ts', 'test/integration/knowledge.test.ts'],
  },
  {
    id: 'continue-parsing',
    what: 'a request continuing from "-||…" is read as if the generator were not done (pages and props again)',
    file: 'src/api/query.ts',
    search: "generatorDone = parts[0] === '-';",
    replace: 'generatorDone = false;',
    tests: ['test/integration/query-continue.test.ts', 'test/integration/builtin-lists.test.ts', 'test/integration/builtin-pages-parse-spam.test.ts'],
  },
  {
    id: 'builtin-block-expiry',
    what: 'the built-in list=blocks shows a block at the second it expires',
    file: 'src/modules/blocks.ts',
    search: 'Date.parse(b.expiry) > ctx.now',
    replace: 'Date.parse(b.expiry) >= ctx.now',
    tests: ['test/integration/block-expiry.test.ts', 'test/integration/builtin-lists.test.ts'],
  },
  {
    id: 'secret-tokens',
    what: 'only a parameter named exactly "token" is secret (lgtoken, csrftoken … reach logs and cassettes)',
    file: 'src/util/secrets.ts',
    search: "n.endsWith('token') ||",
    replace: "n === 'token' ||",
    tests: ['test/unit/util/secrets.test.ts', 'test/integration/secrets.test.ts'],
  },
  {
    id: 'cors-anonymous-credentials',
    what: 'origin=* is answered with Access-Control-Allow-Credentials: true',
    file: 'src/output/cors.ts',
    search: "allowCredentials = 'false';",
    replace: "allowCredentials = 'true';",
    tests: ['test/unit/output/headers.test.ts', 'test/integration/builtin-output.test.ts'],
  },
  // list=allpages, the first list added as one file (its own rules, nowhere else).
  {
    id: 'allpages-maxsize-boundary',
    what: 'apmaxsize leaves out a page whose length equals it (ApiQueryAllPages: page_len <= maxsize)',
    file: 'src/modules/allpages.ts',
    search: '(max === null || p.length <= max)',
    replace: '(max === null || p.length < max)',
    tests: ['test/integration/allpages.test.ts'],
  },
  {
    id: 'allpages-walked-redirects',
    what: 'apfilterredir=redirects after a walk of redirects lists every page of the namespace',
    file: 'src/modules/allpages.ts',
    search: '.has(`${ns}|redirects`)) return rows.filter((p) => p.redirect === true);',
    replace: '.has(`${ns}|redirects`)) return rows;',
    tests: ['test/integration/allpages.test.ts', 'test/integration/knowledge.test.ts'],
  },
];
