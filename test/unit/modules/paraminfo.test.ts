import { describe, expect, it } from 'vitest';
import { dataVersionOf, versionData } from '../../../src/modules/paraminfo/data.js';
import { licenseLink, noneInfo, withHelp } from '../../../src/modules/paraminfo/info.js';
import { planOf } from '../../../src/modules/paraminfo/plan.js';
import { paramInfoTrace } from '../../../src/modules/paraminfo/trace.js';
import { ModuleTree } from '../../../src/modules/paraminfo/tree.js';
import { makeProfile } from '../../../src/wiki/profile.js';

const data = versionData('1.43');
const tree = new ModuleTree(data);

describe('the data a version is answered from', () => {
  it('is its own branch for 1.39 and 1.43, else the nearest, not exact', () => {
    expect(dataVersionOf({ version: '1.39.17' })).toEqual({ version: '1.39', exact: true });
    expect(dataVersionOf({ version: '1.43.0' })).toEqual({ version: '1.43', exact: true });
    expect(dataVersionOf({ version: '1.44.0' })).toEqual({ version: '1.43', exact: false });
    expect(dataVersionOf({ version: '1.41.2' })).toEqual({ version: '1.39', exact: false });
    expect(dataVersionOf({ version: '1.35.14' })).toEqual({ version: '1.39', exact: false });
  });
});

describe('module paths (ApiBase::getModuleFromPath, ApiParamInfo::listAllSubmodules)', () => {
  it('finds main, actions, formats and query submodules, `+` or a space between parts', () => {
    expect(tree.resolve('main')).toEqual({ path: 'main' });
    expect(tree.resolve('edit')).toEqual({ path: 'edit' });
    expect(tree.resolve('jsonfm')).toEqual({ path: 'jsonfm' });
    expect(tree.resolve('query+tokens')).toEqual({ path: 'query+tokens' });
    expect(tree.resolve('query tokens')).toEqual({ path: 'query+tokens' });
  });

  it('fails as MediaWiki does: the parent named, the part escaped', () => {
    expect(tree.resolve('Edit')).toEqual({ error: { code: 'badmodule', key: 'apierror-badmodule-badsubmodule', params: ['main', 'Edit'] } });
    expect(tree.resolve('query+[[x]]')).toEqual({ error: { code: 'badmodule', key: 'apierror-badmodule-badsubmodule', params: ['query', '&#91;&#91;x&#93;&#93;'] } });
    expect(tree.resolve('main+edit')).toEqual({ error: { code: 'badmodule', key: 'apierror-badmodule-badsubmodule', params: ['main', 'main'] } });
    expect(tree.resolve('edit+token')).toEqual({ error: { code: 'badmodule', key: 'apierror-badmodule-nosubmodules', params: ['edit'] } });
  });

  it('lists submodules by name, recursively with `**`', () => {
    const q = tree.submodules('query', false);
    expect(q.slice(0, 3)).toEqual(['query+allcategories', 'query+alldeletedrevisions', 'query+allfileusages']);
    expect(q).toContain('query+tokens');
    const all = tree.submodules('main', true);
    expect(all.indexOf('query+allcategories')).toBe(all.indexOf('query') + 1);
    expect(all).toHaveLength(Object.keys(data.modules).length - 1);
  });
});

describe('what a request describes (ApiParamInfo::execute)', () => {
  it('expands wildcards, adds querymodules and formatmodules, drops repeated paths, warns in the order the wiki does', () => {
    const plan = planOf(tree, { modules: ['foo+*', 'edit', 'query+tokens', 'edit+*', 'bogus'], querymodules: ['tokens', 'allpages'], formatmodules: ['json'], mainmodule: '0', pagesetmodule: '1' });
    expect(plan.warnings.map((w) => [w.key, ...w.params])).toEqual([
      ['apierror-badmodule-badsubmodule', 'main', 'foo'],
      ['apierror-badmodule-nosubmodules', 'edit'],
      ['apierror-badmodule-badsubmodule', 'main', 'bogus'],
    ]);
    expect(plan.described).toEqual([
      { path: 'edit', key: 'modules', bcQuery: false },
      { path: 'query+tokens', key: 'querymodules', bcQuery: true },
      { path: 'query+allpages', key: 'querymodules', bcQuery: true },
      { path: 'json', key: 'formatmodules', bcQuery: false },
    ]);
    // mainmodule=0 is false to PHP's `if`, pagesetmodule=1 true
    expect([plan.mainmodule, plan.pagesetmodule]).toEqual([false, true]);
    expect(plan.steps).toEqual([{ warning: 'plain' }, { warning: 'plain' }, 'edit', 'query+tokens', { warning: 'plain' }, 'query+allpages', 'json', 'pageset']);
  });
});

describe('a module described', () => {
  it('comes back from the parameter table with indexes, the templated ones apart, its license link for this wiki', () => {
    const profile = makeProfile({ version: '1.43.9', language: 'en', server: 'https://wiki.example', scriptPath: '/w' });
    const edit = noneInfo(data, data.modules['edit']!, (s) => licenseLink(profile, data.capture, s));
    expect(edit['licenselink']).toBe('https://wiki.example/w/index.php/Special:Version/License/MediaWiki');
    const params = edit['parameters'] as { index: number; name: string }[];
    expect(params.map((p) => p.index)).toEqual(params.map((_, i) => i + 1));
    expect(params.find((p) => p.name === 'token')).toMatchObject({ type: 'string', required: true, sensitive: true, tokentype: 'csrf' });
    const revisions = noneInfo(data, data.modules['query+revisions']!, () => 'x');
    expect((revisions['templatedparameters'] as { index: number; name: string }[]).map((p) => [p.index, p.name])).toEqual([[3, 'contentformat-{slot}']]);
    expect((revisions['parameters'] as { index: number }[]).slice(1, 3).map((p) => p.index)).toEqual([2, 4]);
  });

  it('takes its help back where getModuleInfo writes it', () => {
    const none = { name: 'm', classname: 'C', path: 'm', prefix: '', source: 'S', licenselink: 'L', readrights: true, helpurls: [], parameters: [{ index: 1, name: 'a', type: 'string' }, { index: 2, name: 'b', type: 'string' }], templatedparameters: [{ index: 3, name: 'c-{x}', templatevars: { x: 'a' }, type: 'string' }], dynamicparameters: true };
    const out = withHelp(none, { d: 'D', x: ['X1'], p: ['PA', null, 'PC'], y: 'Y' }, ['action=m']);
    expect(JSON.stringify(out)).toBe(
      JSON.stringify({ name: 'm', classname: 'C', path: 'm', prefix: '', source: 'S', licenselink: 'L', description: 'D', readrights: true, helpurls: [], examples: [{ query: 'action=m', description: 'X1' }], parameters: [{ index: 1, name: 'a', description: 'PA', type: 'string' }, { index: 2, name: 'b', type: 'string' }], templatedparameters: [{ index: 3, name: 'c-{x}', templatevars: { x: 'a' }, description: 'PC', type: 'string' }], dynamicparameters: 'Y' }),
    );
  });
});

describe('its debuginfo trace', () => {
  const profile = makeProfile({ version: '1.43.9', cookiePrefix: 'mywiki' });
  const lines = (steps: (string | { warning: 'plain' | 'list' })[]) => paramInfoTrace({ profile, version: '1.43', steps, format: 'none', lang: 'ru', warningLang: 'en' }).entries;

  it('runs each unit once: the change tags are looked up once, then a process cache hit; the connection opens once', () => {
    const e = lines(['edit', 'move', 'delete']);
    const queries = e.filter((x) => typeof x === 'object' && 'query' in x);
    expect(queries).toEqual([{ query: { function: 'MediaWiki\\ChangeTags\\ChangeTagsStore::listExplicitlyDefinedTags', sql: 'SELECT  ctd_name AS "value"  FROM "change_tag_def"    WHERE ctd_user_defined = 1  ' } }]);
    expect(e.filter((x) => x === '[objectcache] getWithSetCallback(mywiki:valid-tags-db): process cache hit')).toHaveLength(2);
    expect(e.filter((x) => typeof x === 'object' && 'connect' in x)).toHaveLength(1);
    expect(e.filter((x) => x === '[SQLBagOStuff] MainObjectStash using store SqlBagOStuff')).toHaveLength(1);
  });

  it('starts MessageCache where a warning is formatted, and loads English for one that lists values', () => {
    expect(lines([{ warning: 'plain' }])).toEqual(['[MessageCache] MessageCache using store SqlBagOStuff', 'MediaWiki\\Parser\\ParserFactory: using default preprocessor']);
    const list = lines([{ warning: 'plain' }, { warning: 'list' }]);
    expect(list.at(-1)).toBe('[localisation] LocalisationCache::loadCoreData: got localisation for en from source');
    expect(list).toContainEqual({ query: expect.objectContaining({ function: 'MessageCache::loadFromDB(en)-big' }) });
  });

  it('lists the included files of every module described, each once', () => {
    const facts = paramInfoTrace({ profile, version: '1.43', steps: ['edit', 'move'], format: 'none', lang: 'ru', warningLang: 'en' });
    const files = facts.includeFiles!().map(([p]) => p);
    expect(new Set(files).size).toBe(files.length);
    expect(files).toContain('includes/api/ApiEditPage.php');
    expect(files).toContain('includes/api/ApiMove.php');
  });
});
