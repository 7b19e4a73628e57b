import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/api/result.js';
import { toFormatVersion1 } from '../../../src/output/formatversion.js';
import { frozenJson, withFrozenMembers } from '../../../src/api/frozen.js';
import { encodeJson } from '../../../src/output/json.js';
import { MODULES } from '../../../src/modules/index.js';

/** The lists whose entries are assoc-typed, as the registry says (ListModule.assocEntries). */
const ASSOC: ReadonlySet<string> = new Set(MODULES.query.list.filter((l) => l.assocEntries).map((l) => l.name));
import { encodeWithOrder, OrderedObject } from '../../../src/output/ordered.js';

describe('toFormatVersion1', () => {
  it('turns true into "" and drops false, recursively', () => {
    const v1 = toFormatVersion1({
      batchcomplete: true,
      query: { blocks: [{ id: 7, nocreate: true, anononly: false, hidden: false }] },
    }, ASSOC);
    expect(v1).toEqual({ batchcomplete: '', query: { blocks: [{ id: 7, nocreate: '' }] } });
  });

  it("keeps userinfo's options as they are: MediaWiki marks each a BC bool (1.39 and 1.43: search-match-redirect stays true)", () => {
    const v1 = toFormatVersion1({ query: { userinfo: { id: 0, anon: true, options: { 'search-match-redirect': true, nickname: '', minordefault: false, rclimit: 50 } } } }, ASSOC);
    expect(v1).toEqual({ query: { userinfo: { id: 0, anon: '', options: { 'search-match-redirect': true, nickname: '', minordefault: false, rclimit: 50 } } } });
  });

  it('prints a block or log event the transform empties as {} (MediaWiki types them assoc), other emptied arrays as []', () => {
    const v1 = toFormatVersion1({
      query: {
        blocks: [{ automatic: false, anononly: false }, { nocreate: true }],
        logevents: [{ actionhidden: false, params: { suppressredirect: false } }],
        general: { magiclinks: { ISBN: false, PMID: false } },
      },
    }, ASSOC);
    expect(JSON.stringify(v1)).toBe('{"query":{"blocks":[{},{"nocreate":""}],"logevents":[{"params":{}}],"general":{"magiclinks":[]}}}');
  });

  // As both live wikis print formatversion=1 (ApiQuerySiteinfo: setContentValue 'name', META_BC_BOOLS of every option).
  it("prints siteinfo's language and skin names as content and keeps the default options' booleans", () => {
    const v1 = toFormatVersion1({
      query: {
        languages: [{ code: 'aa', bcp47: 'aa', name: 'Qafár af' }],
        skins: [{ code: 'vector-2022', name: 'Vector 2022', default: true }, { code: 'fallback', name: 'Fallback', unusable: true }],
        defaultoptions: { 'search-match-redirect': true, minordefault: false, rclimit: 50 },
      },
    }, ASSOC);
    expect(JSON.stringify(v1)).toBe(
      '{"query":{"languages":[{"code":"aa","bcp47":"aa","*":"Qafár af"}],"skins":[{"code":"vector-2022","default":"","*":"Vector 2022"},{"code":"fallback","unusable":"","*":"Fallback"}],"defaultoptions":{"search-match-redirect":true,"minordefault":false,"rclimit":50}}}',
    );
  });

  it('keys query.pages by id in ApiPageSet order: missing, invalid, then existing pages in DB order', () => {
    // formatversion=2 order: fake ids -3 … -1 first (sorted by id), then page ids ascending.
    const v2: JsonObject = {
      batchcomplete: true,
      query: {
        normalized: [{ fromencoded: false, from: 'nonexistent', to: 'Nonexistent' }],
        pages: [
          { ns: 0, title: 'Nonexistent', missing: true },
          { title: 'a[b', invalidreason: 'bad', invalid: true },
          { pageid: 5, ns: 0, title: 'Foo', extlinks: [{ url: 'https://example.com/' }] },
          { pageid: 9, ns: 0, title: 'Bar' },
        ],
      },
    };
    const v1 = toFormatVersion1(v2, ASSOC);
    const pages = (v1['query'] as Record<string, unknown>)['pages'] as OrderedObject;
    expect(pages.entries.map(([k]) => k)).toEqual(['-2', '-1', '9', '5']);
    expect(pages.entries[0]![1]).toEqual({ ns: 0, title: 'Nonexistent', missing: '' });
    expect(pages.entries[3]![1]).toEqual({ pageid: 5, ns: 0, title: 'Foo', extlinks: [{ '*': 'https://example.com/' }] });
    expect((v1['query'] as Record<string, unknown>)['normalized']).toEqual([{ from: 'nonexistent', to: 'Nonexistent' }]);
  });

  it("converts a list's frozen rows as it converts plain ones, each once", () => {
    const logRows = (): JsonObject[] => [
      { logid: 2, actionhidden: true, suppressed: true, params: { cascade: false }, tags: [] },
      { logid: 1, title: 'A', anon: true, params: {} },
    ];
    const blockRows = (): JsonObject[] => [{ id: 5, automatic: false, anononly: true, nocreate: false }];
    const data = (frozen: boolean): JsonObject => {
      const mark = (list: JsonObject[]) => (frozen ? withFrozenMembers(list.map((r) => frozenJson(Object.freeze(r)))) : list);
      const query = { logevents: mark(logRows()), blocks: mark(blockRows()), protectedtitles: mark([{ ns: 0, title: 'B' }]) };
      return { batchcomplete: true, query: frozen ? withFrozenMembers(query) : query };
    };
    const marked = data(true);
    const v1 = toFormatVersion1(marked, ASSOC);
    expect(v1).toEqual(toFormatVersion1(data(false), ASSOC));
    expect((v1['query'] as JsonObject)['logevents']).toEqual([{ logid: 2, actionhidden: '', suppressed: '', params: {}, tags: [] }, { logid: 1, title: 'A', anon: '', params: {} }]);
    for (const opts of [{ ascii: true, pretty: false }, { ascii: false, pretty: true }]) expect(encodeJson(v1, opts)).toBe(encodeJson(toFormatVersion1(data(false), ASSOC), opts));
    // the same rows again: the same converted rows
    const again = toFormatVersion1(marked, ASSOC);
    expect(((again['query'] as JsonObject)['logevents'] as JsonObject[])[0]).toBe(((v1['query'] as JsonObject)['logevents'] as JsonObject[])[0]);
  });

  it('moves content values to "*" at the end: BC error docref and warnings', () => {
    const v1 = toFormatVersion1({
      error: { code: 'badvalue', info: 'x', docref: 'See …' },
      warnings: { main: { warnings: 'Unrecognized parameter: foo.' } },
    }, ASSOC);
    expect(JSON.stringify(v1)).toBe(
      '{"error":{"code":"badvalue","info":"x","*":"See …"},"warnings":{"main":{"*":"Unrecognized parameter: foo."}}}',
    );
  });

  it('renames text and the top-level docref of non-BC errors', () => {
    const v1 = toFormatVersion1({ errors: [{ code: 'badvalue', text: 'Нераспознанное', module: 'main' }], docref: 'См.' }, ASSOC);
    expect(JSON.stringify(v1)).toBe('{"errors":[{"code":"badvalue","module":"main","*":"Нераспознанное"}],"*":"См."}');
  });

  it('wraps parse text and parsedsummary and lists properties as name/* pairs', () => {
    const v1 = toFormatVersion1({ parse: { title: 'API', pageid: 0, text: '<div></div>', parsedsummary: 'x', showtoc: false, properties: {} } }, ASSOC);
    expect(v1).toEqual({ parse: { title: 'API', pageid: 0, text: { '*': '<div></div>' }, parsedsummary: { '*': 'x' }, properties: [] } });
  });
});

describe('encodeWithOrder', () => {
  const data = { query: { pages: new OrderedObject([['9', { pageid: 9 }], ['-1', { missing: '' }], ['5', { pageid: 5 }]]) } };

  it('keeps the order of integer-like keys in compact JSON', () => {
    expect(encodeWithOrder(data, (v) => JSON.stringify(v), false)).toBe('{"query":{"pages":{"9":{"pageid":9},"-1":{"missing":""},"5":{"pageid":5}}}}');
  });

  it('keeps it in pretty JSON, indented like the rest', () => {
    const pretty = encodeWithOrder(data, (v) => JSON.stringify(v, null, 4), true);
    expect(pretty).toBe(
      '{\n    "query": {\n        "pages": {\n            "9": {\n                "pageid": 9\n            },\n' +
        '            "-1": {\n                "missing": ""\n            },\n            "5": {\n                "pageid": 5\n            }\n        }\n    }\n}',
    );
    expect(JSON.parse(pretty)).toEqual({ query: { pages: { 9: { pageid: 9 }, '-1': { missing: '' }, 5: { pageid: 5 } } } });
  });
});
