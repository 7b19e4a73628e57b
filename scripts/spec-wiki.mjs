#!/usr/bin/env node
// Writes fixtures/spec-wiki.json, the wiki `npm start` serves: the wiki the spec describes
// (docs/spec/wiki-query-api.md), MediaWiki 1.44 in Russian. Its data is the bundled wiki's
// (fixtures/default-wiki.json, crawled from a real MediaWiki 1.43) under a 1.44 profile:
// - version 1.44.0, so output follows 1.44 where it differs (blocks' duration-l10n, …);
// - debuginfo's first field named `wikiVersion`, the brand-neutral name the spec prints;
// - TitleBlacklist installed beside SpamBlacklist: the spec's log list leaves out spamblacklist,
//   titleblacklist and suppress (in that order);
// - otherwise a default install (its address is where `npm start` listens, port 8080);
// - without the one log event whose action is hidden (a suppressed account creation): the spec
//   says every log event shows ns, title, pageid, logpage and params.
// Usage: node scripts/spec-wiki.mjs [OUT.json]   (run again after fixtures/default-wiki.json changes;
// test/unit/wiki/spec-wiki.test.ts checks that the file is what this makes)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = join(fileURLToPath(import.meta.url), '..', '..', 'fixtures');

/** The profile of the spec's wiki; the rest is a default install's (src/wiki/profile.ts, DEFAULT_PROFILE). */
const SPEC_PROFILE = {
  version: '1.44.0',
  versionKey: 'wikiVersion',
  language: 'ru',
  siteName: 'Тестовая вики',
  restrictedLogTypes: ['spamblacklist', 'titleblacklist', 'suppress'],
};

/** The spec's wiki made from the bundled wiki's fixture data. */
function specWiki(bundled) {
  return { ...bundled, profile: SPEC_PROFILE, logevents: bundled.logevents.filter((e) => e.actionhidden !== true) };
}

const bundled = JSON.parse(readFileSync(join(FIXTURES, 'default-wiki.json'), 'utf8'));
writeFileSync(process.argv[2] ?? join(FIXTURES, 'spec-wiki.json'), `${JSON.stringify(specWiki(bundled), null, 2)}\n`);
