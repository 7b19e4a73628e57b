import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { MINI_WIKI, TEST_CLOCK } from '../support/app.js';
import { cliTest, startCli } from '../support/cli.js';

/**
 * A multi-suite server names its suites' paths: on the running server and the CLI's start line,
 * and in the 404 of a path it does not serve (a mistyped prefix is seen at once). A server given
 * no cassettes folder has no suites: it does not answer a prefix from ./cassettes (which exists
 * where the tests run), as replay reads only what it is given.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-suite-paths-'));
  const bundled = await readFile(join(process.cwd(), 'cassettes', 'bundled-wiki.json'));
  for (const name of ['alpha', 'beta']) await writeFile(join(dir, `${name}.json`), bundled);
});

describe("the suites' paths", () => {
  it('the library: server.suites, and the 404 of an unknown path lists them', async () => {
    const s = await startServer({ cassettes: dir, suites: { both: ['beta', 'alpha'] } });
    try {
      const origin = new URL(s.url).origin;
      expect(s.suites).toEqual([`${origin}/both/wiki/api.php`, `${origin}/alpha/wiki/api.php`, `${origin}/beta/wiki/api.php`]);
      const r = await fetch(`${origin}/alpah/wiki/api.php?action=query&format=json`);
      expect(r.status).toBe(404);
      expect(await r.text()).toBe("wikitape: no such path /alpah/wiki/api.php; the API is at /wiki/api.php, and the suites' at /both/wiki/api.php, /alpha/wiki/api.php, /beta/wiki/api.php\n");
      expect((await fetch(`${origin}/alpha/wiki/api.php?action=query&meta=siteinfo&format=json`)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a server given no cassettes folder has no suites: ./cassettes is not read by prefix or header', async () => {
    const s = await startServer({ fixtures: [MINI_WIKI], clock: TEST_CLOCK });
    try {
      const origin = new URL(s.url).origin;
      expect(s.suites).toEqual([]);
      const prefixed = await fetch(`${origin}/bundled-wiki/wiki/api.php?action=query&meta=siteinfo&format=json`);
      expect(prefixed.status).toBe(404);
      expect(await prefixed.text()).toBe('wikitape: no such path /bundled-wiki/wiki/api.php; the API is at /wiki/api.php\n');
      const named = await fetch(`${s.url}?action=query&meta=siteinfo&format=json`, { headers: { 'x-wikitape-cassette': 'bundled-wiki' } });
      expect(named.status).toBe(404);
      expect(named.headers.get('mediawiki-api-error')).toBe('wikitape-nosuchcassette');
    } finally {
      await s.close();
    }
  });

  it("the CLI's start line lists them", cliTest(1), async () => {
    const cli = await startCli(['replay', '--cassettes', dir, '--quiet']);
    try {
      const origin = new URL(cli.url).origin;
      expect(cli.stdout()).toContain(`\nsuites: ${origin}/alpha/wiki/api.php, ${origin}/beta/wiki/api.php\n`);
    } finally {
      await cli.stop();
    }
  });
});
