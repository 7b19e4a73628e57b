import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { DEFAULTS } from '../../src/options.js';
import { ownKinds } from '../../src/api/list-module.js';
import { MODULES } from '../../src/modules/index.js';
import { MINI_WIKI, TEST_CLOCK } from '../support/app.js';
import { cliTest, startCli } from '../support/cli.js';

/**
 * Replay says at start what it loaded (docs/decisions/0011-what-replay-reads.md): the library on
 * the running server (`server.sources`), the CLI in a line on stderr, each file with its count.
 * This repository has a ./cassettes folder, where the tests run: a fixture-only server reads none of it.
 */
const bundled = join(process.cwd(), 'cassettes', 'bundled-wiki.json');
let dir: string;
let fixtureEntries: number;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-sources-'));
  await writeFile(join(dir, 'suite.json'), await readFile(bundled));
  const mini = JSON.parse(await readFile(MINI_WIKI, 'utf8')) as Record<string, unknown>;
  // its pages and the entries of each list's kind (logevents, blocks …)
  const kinds = [...ownKinds(MODULES.query.list).map((k) => String(k.kind)), 'pages'];
  fixtureEntries = kinds.reduce((n, k) => n + ((mini[k] as unknown[] | undefined)?.length ?? 0), 0);
  expect(fixtureEntries).toBeGreaterThan(10);
});

describe('what replay says it loaded', () => {
  it('the library: a fixture-only server names its fixture alone, though ./cassettes exists', async () => {
    const s = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK });
    try {
      expect(s.sources).toEqual({ cassettes: [], fixtures: [{ file: MINI_WIKI, entries: fixtureEntries }], model: false, defaultWiki: false, clock: TEST_CLOCK });
    } finally {
      await s.close();
    }
  });

  it('the library: cassettes with their interactions, and the clock', async () => {
    const interactions = (JSON.parse(await readFile(bundled, 'utf8')) as { interactions: unknown[] }).interactions.length;
    const s = await startServer({ cassettes: dir, model: { pages: [] } });
    try {
      expect(s.sources).toEqual({ cassettes: [{ file: join(dir, 'suite.json'), interactions }], fixtures: [], model: true, defaultWiki: false, clock: 'recorded' });
    } finally {
      await s.close();
    }
  });

  it('the library: given nothing, the spec\'s wiki', async () => {
    const s = await startServer({});
    try {
      expect(s.sources).toMatchObject({ cassettes: [], fixtures: [{ file: DEFAULTS.wiki.fixtures[0] }], defaultWiki: true, clock: DEFAULTS.wiki.clock });
    } finally {
      await s.close();
    }
  });

  it('the CLI: one line on stderr naming each file with its count, and the clock', cliTest(1), async () => {
    const cli = await startCli(['replay', '--cassettes', dir, '--fixtures', MINI_WIKI, '--quiet']);
    try {
      await cli.printed('wikitape: loaded');
      await cli.printed('(each recording as of its own time)\n');
      const line = cli.stderr().split('\n')[0];
      expect(line).toMatch(new RegExp(`^wikitape: loaded ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/suite\\.json \\(\\d+ interactions\\), test/fixtures/mini-wiki\\.json \\(fixture, ${fixtureEntries} entries\\); clock recorded \\(each recording as of its own time\\)$`));
    } finally {
      await cli.stop();
    }
  });
});
