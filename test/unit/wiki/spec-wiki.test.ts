import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, replaySources } from '../../../src/options.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

describe("the spec's wiki (fixtures/spec-wiki.json)", () => {
  it('is what scripts/spec-wiki.mjs makes of the bundled wiki (fixtures/default-wiki.json)', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'wikitape-spec-wiki-')), 'spec-wiki.json');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'spec-wiki.mjs'), out], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(ROOT, 'fixtures', 'spec-wiki.json'), 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('is MediaWiki 1.44 in Russian, with the names the spec prints, and no log event missing a field the spec requires', () => {
    const wiki = JSON.parse(readFileSync(DEFAULTS.wiki.fixtures[0], 'utf8')) as { profile: Record<string, unknown>; logevents: Record<string, unknown>[] };
    expect(wiki.profile).toMatchObject({ version: '1.44.0', language: 'ru', versionKey: 'wikiVersion', restrictedLogTypes: ['spamblacklist', 'titleblacklist', 'suppress'] });
    expect(wiki.logevents.filter((e) => !('ns' in e && 'title' in e && 'params' in e))).toEqual([]);
  });
});

describe('what replay reads (replaySources)', () => {
  it('given nothing: the spec wiki, as of its own time, and no cassettes folder', () => {
    expect(replaySources({})).toEqual({ cassettes: null, fixtures: DEFAULTS.wiki.fixtures, clock: DEFAULTS.wiki.clock, defaultWiki: true });
    expect(replaySources({ clock: 'real', port: 0 })).toMatchObject({ clock: 'real', defaultWiki: true });
  });

  it('given anything to serve: only that (fixtures alone read no ./cassettes)', () => {
    expect(replaySources({ fixtures: ['a.json'] })).toEqual({ cassettes: null, fixtures: ['a.json'], clock: undefined, defaultWiki: false });
    expect(replaySources({ cassettes: 'c' })).toEqual({ cassettes: 'c', fixtures: [], clock: undefined, defaultWiki: false });
    expect(replaySources({ model: { logevents: [], blocks: [], protectedtitles: [], pages: [], spamBlacklist: [], spamWhitelist: [] } })).toMatchObject({ cassettes: null, fixtures: [], defaultWiki: false });
    expect(replaySources({ cassetteNames: ['a'] })).toMatchObject({ cassettes: DEFAULTS.cassettes, defaultWiki: false });
    expect(replaySources({ suites: { s: ['a'] } })).toMatchObject({ cassettes: DEFAULTS.cassettes, defaultWiki: false });
  });
});
