import { describe, expect, it } from 'vitest';
import type { ParamSpec } from '../../../src/api/param-spec.js';
import { MODULES } from '../../../src/modules/index.js';
import { makeProfile } from '../../../src/wiki/profile.js';
import { api, data } from '../../support/app.js';

/**
 * action=paraminfo is what the real wikis answered (scripts/generate/paraminfo.mjs); each built-in
 * query module declares the parameters it reads (its getAllowedParams). The two must agree, or a
 * client that discovers a module through paraminfo (pywikibot, mwn) sends what replay refuses, or
 * replay accepts what the wiki warns about. Enumerations are compared as sets (paraminfo sorts them).
 */

interface Described {
  name: string;
  type: string | string[];
  multi: boolean;
  default?: unknown;
  max?: number;
  highmax?: number;
}

/** The facts of our declaration that paraminfo shows too. */
function facts(name: string, spec: ParamSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { name, type: spec.type, multi: 'multi' in spec ? spec.multi === true : false };
  if (spec.type === 'enum') out['values'] = [...spec.values].sort();
  if ('default' in spec && spec.default !== undefined) out['default'] = String(spec.default);
  if (spec.type === 'limit') Object.assign(out, { max: spec.max, highmax: spec.highMax });
  return out;
}

/** The same facts of paraminfo's description; a type our declaration reads as a plain string (a title, a log action) is compared by name only. */
function describedFacts(p: Described, ours: Record<string, unknown> | undefined): Record<string, unknown> {
  const enumType = Array.isArray(p.type);
  const out: Record<string, unknown> = { name: p.name, type: enumType ? 'enum' : p.type, multi: p.multi };
  if (ours?.['type'] === 'string' && out['type'] !== 'string') out['type'] = 'string';
  else if (enumType) out['values'] = [...(p.type as string[])].sort();
  if (ours && 'default' in ours && p.default !== undefined) out['default'] = String(p.default);
  if (p.type === 'limit') Object.assign(out, { max: p.max, highmax: p.highmax });
  return out;
}

const QUERY_MODULES = [...MODULES.query.list, ...MODULES.query.meta, ...MODULES.query.prop];

describe.each(['1.39.17', '1.43.9'])('paraminfo on MediaWiki %s and the built-in query modules', (version) => {
  it.each(QUERY_MODULES.map((m) => [m.name, m] as const))('describes the parameters query+%s reads, in its order', async (name, mod) => {
    const res = await api({ action: 'paraminfo', modules: `query+${name}`, formatversion: '2' }, { version });
    expect(res.headers['x-wikitape-unknown']).toBeUndefined();
    const [info] = (data(res)['paraminfo'] as { modules: { parameters: Described[] }[] }).modules;
    const specs = typeof mod.params === 'function' ? mod.params(makeProfile({ version })) : mod.params;
    const ours = Object.entries(specs).map(([n, s]) => facts(n, s));
    const theirs = info!.parameters.map((p) => describedFacts(p, ours.find((o) => o['name'] === p.name)));
    expect(ours).toEqual(theirs);
  });
});

/** The answer without debuginfo, and what it flags. */
async function answer(version: string, params: Record<string, string>): Promise<{ body: Record<string, unknown>; unknown: string | undefined }> {
  const res = await api({ ...params, formatversion: '2' }, { version });
  return { body: data(res), unknown: res.headers['x-wikitape-unknown'] };
}

// The values paraminfo lists are the ones each version takes; the answers below are the live wikis' (curl, both versions).
describe('what a version takes that the other does not', () => {
  it('siprop: 1.39 warns about autocreatetempuser; 1.43 takes it, clientlibraries and autopromote, flagged when nothing holds them', async () => {
    expect(await answer('1.39.17', { action: 'query', meta: 'siteinfo', siprop: 'autocreatetempuser' })).toEqual({
      body: { batchcomplete: true, warnings: { siteinfo: { warnings: 'Unrecognized value for parameter "siprop": autocreatetempuser' } } },
      unknown: undefined,
    });
    const modern = await answer('1.43.9', { action: 'query', meta: 'siteinfo', siprop: 'autopromote|clientlibraries' });
    expect(modern.body['warnings']).toBeUndefined();
    expect(modern.unknown).toBe('siteinfo.autopromote, siteinfo.clientlibraries');
  });

  it('a siteinfo part not built in is flagged on a wiki of fixtures, never answered with nothing', async () => {
    expect((await answer('1.39.17', { action: 'query', meta: 'siteinfo', siprop: 'general|statistics' })).unknown).toBe('siteinfo.statistics');
  });

  it('uiprop=cancreateaccount: 1.39 warns about it and `*` leaves it out', async () => {
    const one = await answer('1.39.17', { action: 'query', meta: 'userinfo', uiprop: 'cancreateaccount' });
    expect(one).toEqual({
      body: { batchcomplete: true, warnings: { userinfo: { warnings: 'Unrecognized value for parameter "uiprop": cancreateaccount' } }, query: { userinfo: { id: 0, name: '127.0.0.1', anon: true } } },
      unknown: undefined,
    });
    expect((await answer('1.39.17', { action: 'query', meta: 'userinfo', uiprop: '*' })).unknown).not.toContain('cancreateaccount');
    expect((await answer('1.43.9', { action: 'query', meta: 'userinfo', uiprop: '*' })).unknown).toContain('userinfo.cancreateaccount');
  });

  it('the renameuser log: 1.43 lists it (empty here), 1.39 refuses its type and action', async () => {
    for (const q of [{ letype: 'renameuser' }, { leaction: 'renameuser/renameuser' }] as Record<string, string>[]) {
      expect((await answer('1.43.9', { action: 'query', list: 'logevents', lelimit: '1', ...q })).body).toEqual({ batchcomplete: true, query: { logevents: [] } });
    }
    expect(((await answer('1.39.17', { action: 'query', list: 'logevents', letype: 'renameuser' })).body['error'] as { code: string }).code).toBe('badvalue');
    expect(((await answer('1.39.17', { action: 'query', list: 'logevents', leaction: 'renameuser/renameuser' })).body['error'] as { code: string }).code).toBe('unknown_leaction');
  });
});
