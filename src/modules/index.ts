import { queryAction } from '../api/query.js';
import type { ModuleRegistry } from '../api/registry.js';
import { allpages } from './allpages.js';
import { blocks } from './blocks.js';
import { extlinks } from './extlinks.js';
import { logevents } from './logevents.js';
import { parse } from './parse.js';
import { protectedtitles } from './protectedtitles.js';
import { siteinfo } from './siteinfo.js';
import { spamblacklist } from './spamblacklist.js';
import { userinfo } from './userinfo.js';
import { tokens } from './tokens.js';
import { clientlogin, login, logout } from './login.js';
import { WRITES } from './writes.js';
import { keyRules } from '../api/key-facts.js';
import { ownKinds, type ListEntity } from '../api/list-module.js';
import { paraminfo } from './paraminfo.js';

/**
 * The modules wikitape implements: a module is one file in this folder (its parameters, execution,
 * cache mode and debuginfo trace; see api/query-module.ts and api/action-module.ts) plus its line here.
 */
const QUERY = {
  prop: [extlinks],
  list: [logevents, blocks, protectedtitles, allpages],
  meta: [userinfo, siteinfo, tokens],
};

export const MODULES: ModuleRegistry = {
  query: QUERY,
  actions: [queryAction(QUERY), parse, spamblacklist, login, clientlogin, logout, paraminfo, ...WRITES],
};

/** The cassette key's rules for these modules (request/canonical.ts): what every key function is given. */
export const KEY_RULES = keyRules(MODULES);

/** The kinds of entity the lists keep of their own (with their fields' types), in the order every cassette lists them (`entities.<kind>`). */
export const LIST_ENTITIES = ownKinds(MODULES.query.list);

/** Every list's entity, in the lists' order (pages too): what replay's knowledge prepares, and a database cassette's writer with it (SqliteCassette.prepare). */
export const KNOWLEDGE_ENTITIES = MODULES.query.list.map((l) => l.entity as ListEntity<object>);

/** Their names. */
export const ENTITY_KINDS: readonly string[] = LIST_ENTITIES.map((e) => e.kind);
