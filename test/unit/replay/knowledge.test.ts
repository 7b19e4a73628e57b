import { describe, expect, it } from 'vitest';
import { MODULES } from '../../../src/modules/index.js';
import type { LogEvent } from '../../../src/modules/logevents.js';
import { buildKnowledge, entitiesPrepared } from '../../../src/replay/knowledge.js';
import { addEntities, emptyModel, entitiesOf, entityKind } from '../../../src/wiki/model.js';

const LOG_EVENTS = entityKind<LogEvent>('logevents');

/** What the entities imply is worked out once per model, and not at all for a model whose store prepared them (docs/decisions/0020). */
describe('preparing entities', () => {
  const LISTS = MODULES.query.list;
  const old = (): LogEvent => ({ logid: 7, ns: 0, title: 'T', type: 'delete', action: 'delete', user: 'Admin', timestamp: '2024-01-01T00:00:00Z', params: {}, tags: [] }) as unknown as LogEvent;

  it('infers `known` of an entity recorded before it was kept, once per model', () => {
    const model = emptyModel();
    addEntities(model, LOG_EVENTS, [old()]);
    buildKnowledge(model, LISTS, () => []);
    const e = entitiesOf(model, LOG_EVENTS)[0]!;
    expect(e.known).toEqual(['tags', 'timestamp', 'title', 'type', 'user', 'details'].sort());
    delete e.known;
    buildKnowledge(model, LISTS, () => []);
    expect(e.known).toBeUndefined();
  });

  it('makes no pass over the entities of a model its store prepared', () => {
    const model = emptyModel();
    addEntities(model, LOG_EVENTS, [old()]);
    entitiesPrepared(model);
    buildKnowledge(model, LISTS, () => []);
    expect(entitiesOf(model, LOG_EVENTS)[0]!.known).toBeUndefined();
  });
});
