import { readFileSync } from 'node:fs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { entityId, type ListModule } from '../../../src/api/list-module.js';
import type { ParamSpec } from '../../../src/api/param-spec.js';
import type { JsonObject } from '../../../src/api/result.js';
import { createApp } from '../../../src/app.js';
import { compareKeys, parseTimestampContinue } from '../../../src/modules/list-support.js';
import { KEY_RULES, MODULES } from '../../../src/modules/index.js';
import { loadFixtures } from '../../../src/wiki/fixtures.js';
import { PAGES, entitiesOf } from '../../../src/wiki/model.js';
import { makeProfile } from '../../../src/wiki/profile.js';
import { ownKinds } from '../../../src/api/list-module.js';
import { MINI_WIKI, NO_CASSETTES, TEST_CLOCK } from '../../support/app.js';
import { ANONYMOUS } from '../../../src/api/session.js';
import { contentLanguage } from '../../../src/i18n/language.js';

/**
 * Every registered list module answers every part of its descriptor (api/list-module.ts), and the
 * parts agree with its parameters and with real MediaWiki answers: what keys, coverage, knowledge,
 * harvest, snapshot, diff and fixtures ask of it is all there and true.
 */
const LISTS = MODULES.query.list;
const VERSIONS = ['1.39.17', '1.43.9', '1.44.0'];
const specsOf = (list: ListModule, version: string): Record<string, ParamSpec> => (typeof list.params === 'function' ? list.params(makeProfile({ version })) : list.params);

/** The recorded answers of the bundled wiki (a real MediaWiki 1.43's). */
const BUNDLED = JSON.parse(readFileSync(new URL('../../../cassettes/bundled-wiki.json', import.meta.url), 'utf8')) as { interactions: { request: Record<string, string>; body: JsonObject }[] };
const recordedOf = (list: ListModule) => BUNDLED.interactions.filter((i) => i.request['list'] === list.name && !i.request['prop'] && !i.request['meta']);
const rowsOf = (body: JsonObject, list: ListModule) => ((body['query'] as JsonObject | undefined)?.[list.name] ?? []) as JsonObject[];
/** The lists whose continuation was checked against a real answer's next entry. */
const continuationChecked = new Set<string>();

describe.each(LISTS.map((l) => [l.name, l] as const))('the list module %s', (_name, list) => {
  const roles = Object.values(list.roles).filter((r): r is string => r !== null);

  it('names each of its parameters once, on every version: a paging role, a filter, or what picks the part a walk covers', () => {
    for (const version of VERSIONS) {
      const named = [...roles, ...list.filters, ...list.walk.scopeParams];
      expect(new Set(named).size, version).toBe(named.length);
      expect(new Set(named), version).toEqual(new Set(Object.keys(specsOf(list, version))));
      const specs = specsOf(list, version);
      expect(specs[list.roles.limit]?.type).toBe('limit');
      expect(specs[list.roles.continue]?.type).toBe('string');
      if (list.roles.dir) expect(specs[list.roles.dir]?.type).toBe('enum');
      if (list.roles.prop) expect(specs[list.roles.prop]).toMatchObject({ type: 'enum', multi: true });
      for (const bound of [list.roles.start, list.roles.end]) if (bound) expect(specs[bound]?.type).toBe('timestamp');
    }
  });

  it('folds into keys only its own parameters: every multi-value one a set, each default what the parameter defaults to', () => {
    const specs = specsOf(list, '1.43.9');
    const full = (short: string) => `${list.prefix}${short}`;
    const multi = Object.entries(specs).filter(([, s]) => 'multi' in s && s.multi).map(([n]) => full(n));
    expect(new Set(list.key.sets)).toEqual(new Set(multi));
    for (const t of list.key.titles ?? []) expect(specs[t.slice(list.prefix.length)]?.type, t).toBe('string');
    for (const [name, value] of Object.entries(list.key.defaults)) {
      expect(name.startsWith(list.prefix), name).toBe(true);
      const spec = specs[name.slice(list.prefix.length)]!;
      expect(spec, name).toBeDefined();
      const d = String((spec as { default?: unknown }).default);
      expect(value, name).toBe(list.key.sets.includes(name) ? d.split('|').sort().join('|') : d);
    }
    expect(KEY_RULES.sets.has(list.key.sets[0] ?? '') || list.key.sets.length === 0).toBe(true);
  });

  it('asking its defaults or leaving them out is the same answer', async () => {
    const app = createApp({ fixtures: [MINI_WIKI], cassettes: NO_CASSETTES, clock: TEST_CLOCK });
    const ask = async (extra: Record<string, string>) => {
      const res = await request(app).get('/wiki/api.php').query({ action: 'query', list: list.name, format: 'json', formatversion: '2', ...extra });
      const { debuginfo: _d, ...body } = JSON.parse(res.text) as JsonObject;
      return body;
    };
    const plain = await ask({});
    expect(plain['warnings']).toBeUndefined();
    expect(await ask({ ...list.key.defaults })).toEqual(plain);
  });

  it('names for each prop every field its answer prints (what a recording of the prop says of an entity)', async () => {
    expect(Object.keys(list.entity.printedFields).sort()).toEqual(Object.keys(list.entity.propFields).sort());
    for (const [p, f] of Object.entries(list.entity.propFields)) expect(list.entity.printedFields[p], p).toContain(f);
    if (list.roles.prop === null) return;
    const app = createApp({ fixtures: [MINI_WIKI], cassettes: NO_CASSETTES, clock: TEST_CLOCK });
    // (markers of hidden parts and an anonymous user follow from other fields: the hidden bits, the user id)
    const markers = ['anon', 'actionhidden', 'userhidden', 'commenthidden', 'suppressed'];
    for (const p of list.props) {
      const res = await request(app).get('/wiki/api.php').query({ action: 'query', list: list.name, [`${list.prefix}${list.roles.prop}`]: p, [`${list.prefix}${list.roles.limit}`]: 'max', format: 'json', formatversion: '2' });
      const rows = ((JSON.parse(res.text) as { query?: Record<string, JsonObject[]> }).query?.[list.name] ?? []) as JsonObject[];
      expect(rows.length, p).toBeGreaterThan(0);
      const printed = new Set(rows.flatMap((r) => Object.keys(r)));
      for (const f of printed) expect([...(list.entity.printedFields[p] ?? []), ...list.entity.idFields, ...markers], `${p}: ${f}`).toContain(f);
    }
  });

  it('names as props only values of its prop parameter on every version, and as shown by fields only values of some version', () => {
    const any = new Set<string>();
    for (const version of VERSIONS) {
      const prop = list.roles.prop === null ? undefined : specsOf(list, version)[list.roles.prop];
      const values = prop && 'values' in prop ? prop.values : [];
      for (const p of list.props) expect(values, `${version} ${p}`).toContain(p);
      for (const v of values) any.add(v);
    }
    for (const p of Object.keys(list.entity.propFields)) expect(any).toContain(p);
  });

  it('has a snapshot walk that asks only its own parameters, at the highest limit, with every prop', () => {
    expect(list.snapshot.length).toBeGreaterThan(0);
    const specs = specsOf(list, '1.43.9');
    for (const walk of list.snapshot) {
      for (const name of Object.keys(walk)) expect(specs[name.slice(list.prefix.length)], name).toBeDefined();
      expect(walk[`${list.prefix}${list.roles.limit}`]).toBe('max');
      if (list.roles.prop) expect(new Set(walk[`${list.prefix}${list.roles.prop}`]!.split('|'))).toEqual(new Set(list.props));
      expect(list.walk.scope(walk), JSON.stringify(walk)).not.toBeNull();
    }
  });

  it('reads its entities from a real answer, names them by their id fields, and merges one seen again into the same', () => {
    const recorded = recordedOf(list);
    expect(recorded.length).toBeGreaterThan(0);
    for (const i of recorded) {
      for (const row of rowsOf(i.body, list)) {
        const e = list.entity.fromRow(row, [...list.props].sort(), i.request);
        expect(e, JSON.stringify(row)).not.toBeNull();
        expect(entityId(list.entity.idFields, e!)).toBe(entityId(list.entity.idFields, row));
        expect(list.entity.merge(e!, e!)).toEqual(e);
      }
    }
  });

  it('orders a real answer by its key, and its continuation parses to the key of the next entry', () => {
    const descending = (r: Record<string, string>) => (list.roles.dir ? ['older', 'descending'].includes(r[`${list.prefix}${list.roles.dir}`] ?? (list.key.defaults[`${list.prefix}${list.roles.dir}`] ?? '')) : false);
    const keyOf = (row: JsonObject, r: Record<string, string>) => list.order.key(list.entity.fromRow(row, list.props, r)!);
    const profile = makeProfile({ version: '1.43.9' });
    for (const i of recordedOf(list)) {
      const keys = rowsOf(i.body, list).map((row) => keyOf(row, i.request));
      const sorted = [...keys].sort((a, b) => compareKeys(a, b) * (descending(i.request) ? -1 : 1));
      expect(keys.map((k) => k.join('|'))).toEqual(sorted.map((k) => k.join('|')));
      const cont = (i.body['continue'] as Record<string, string> | undefined)?.[`${list.prefix}${list.roles.continue}`];
      if (cont === undefined) continue;
      // The whole list, walked at the highest limit: the entry after this page's last.
      const whole = recordedOf(list).find((w) => w.request[`${list.prefix}${list.roles.limit}`] === 'max' && !w.body['continue'] && descending(w.request) === descending(i.request));
      const rows = rowsOf(whole!.body, list);
      const last = rowsOf(i.body, list).at(-1)!;
      const next = rows[rows.findIndex((r) => entityId(list.entity.idFields, r) === entityId(list.entity.idFields, last)) + 1]!;
      const parsed = parseTimestampContinue(profile, cont, list.order.continueTypes, () => null);
      expect(parsed).toEqual(keyOf(next, i.request).slice(-list.order.continueTypes.length));
      continuationChecked.add(list.name);
    }
  });

  it('reads its fixtures and continues from each of their entries at that entry', async () => {
    const { model } = await loadFixtures([MINI_WIKI], ownKinds(LISTS));
    const entities = entitiesOf(model, list.entity.kind);
    expect(entities.length).toBeGreaterThan(0);
    const profile = makeProfile({ version: '1.43.9' });
    for (const e of entities) {
      const parsed = parseTimestampContinue(profile, list.order.continueValue(e), list.order.continueTypes, () => null);
      expect(parsed).toEqual(list.order.key(e).slice(-list.order.continueTypes.length));
    }
    if (list.entity.kind !== PAGES) expect(list.entity.fromFixture({})).toMatch(/^every entry needs "/);
  });

  it('says its cache mode and its debuginfo trace', () => {
    const profile = makeProfile({ version: '1.43.9' });
    const mode = typeof list.cacheMode === 'function' ? list.cacheMode({}, ANONYMOUS) : list.cacheMode;
    expect(['public', 'private', 'anon-public-user-private']).toContain(mode);
    const facts = list.debug({ profile, params: { action: 'query', list: list.name }, method: 'GET', nowMw: '20240101000000', userLang: contentLanguage(profile), answer: {}, pages: [], model: { entities: new Map(), pages: [], missing: [], spamBlacklist: [], spamWhitelist: [] } });
    expect(facts.includes).toBe(list.name);
    expect(facts.entries.length).toBeGreaterThan(0);
  });
});

describe('the lists of the registry', () => {
  it('had their continuation checked against a real wiki\'s next entry (each list the bundled wiki walked page by page)', () => {
    expect(continuationChecked.size).toBeGreaterThanOrEqual(3);
  });

  it('keep their own kinds of entity in the order cassettes list them', () => {
    expect(ownKinds(LISTS).map((k) => k.kind)).toEqual(['logevents', 'blocks', 'protectedtitles']);
  });
});
