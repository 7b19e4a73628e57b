import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngine } from '../../src/app.js';
import type { Cassette } from '../../src/cassette/format.js';
import type { RequestLogEntry } from '../../src/options.js';
import { canonicalKey } from '../../src/request/canonical.js';
import { KEY_RULES } from '../../src/modules/index.js';
import { startServer } from '../../src/server.js';
import { cliTest, runCli, startCli } from '../support/cli.js';

/**
 * A miss says which recordings come closest and how each differs (in the error, on the log, to
 * the library); `cassettes explain` says how replay would answer a question without serving it.
 */
const key = (r: Record<string, string>) => canonicalKey(new Map(Object.entries(r)), KEY_RULES);
const ext = (title: string, pageid: number, url: string) => {
  const request = { action: 'query', prop: 'extlinks', titles: title };
  return { key: key(request), request, status: 200, headers: {}, body: { batchcomplete: true, query: { pages: [{ pageid, ns: 0, title, extlinks: [{ url }] }] } }, recordedAt: '2024-01-05T00:00:00Z' };
};
const cassette: Cassette = {
  meta: { format: 1, upstream: 'http://wiki.test/w/api.php', recordedAt: '2024-01-05T00:00:00Z', profile: { version: '1.43.5', language: 'en', scriptPath: '/w', server: 'http://wiki.test', debugInfo: false } },
  interactions: [ext('Alpha', 1, 'http://a.example/'), ext('Beta', 2, 'http://b.example/')],
  entities: { logevents: [], blocks: [], protectedtitles: [], pages: [], missing: [] },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wikitape-near-'));
  await writeFile(join(dir, 'wiki.json'), JSON.stringify(cassette));
});

const GAMMA = { action: 'query', prop: 'extlinks', titles: 'Gamma', ellimit: '5', format: 'json', formatversion: '2' };
const NEAR = [
  { key: 'action=query&ellimit=10&prop=extlinks&titles=Alpha', differences: ['ellimit 5 ≠ 10', 'titles Gamma ≠ Alpha'] },
  { key: 'action=query&ellimit=10&prop=extlinks&titles=Beta', differences: ['ellimit 5 ≠ 10', 'titles Gamma ≠ Beta'] },
];

describe('near misses', () => {
  it('a miss names the closest recordings in its info and data, and on onRequest (GET twice, and POST)', async () => {
    const log: RequestLogEntry[] = [];
    const s = await startServer({ cassettes: dir, onMiss: 'error', onRequest: (e) => log.push(e) });
    try {
      for (let i = 0; i < 2; i++) {
        const r = (await (await fetch(`${s.url}?${new URLSearchParams(GAMMA)}`)).json()) as { error: { code: string; info: string; nearmisses: unknown } };
        expect(r.error.code).toBe('wikitape-miss');
        expect(r.error.nearmisses).toEqual(NEAR);
        expect(r.error.info).toContain('The closest recordings ("+": only the recording has it, "-": only this request): action=query&ellimit=10&prop=extlinks&titles=Alpha (ellimit 5 ≠ 10; titles Gamma ≠ Alpha) | action=query&ellimit=10&prop=extlinks&titles=Beta (ellimit 5 ≠ 10; titles Gamma ≠ Beta).');
      }
      const p = (await (await fetch(s.url, { method: 'POST', body: new URLSearchParams({ ...GAMMA, errorformat: 'plaintext' }) })).json()) as { errors: { data: unknown }[] };
      // (errorformat is part of the question: a recorded error is kept as the wiki rendered it)
      const nearPlain = NEAR.map((n) => ({ ...n, differences: [n.differences[0], '- errorformat=plaintext', n.differences[1]] }));
      expect(p.errors[0]!.data).toEqual({ nearmisses: nearPlain });
      expect(log.map((e) => [e.source, e.nearMisses])).toEqual([['miss', NEAR], ['miss', NEAR], ['miss', nearPlain]]);
      // a question recorded has none; nor does a miss with nothing near
      const far = (await (await fetch(`${s.url}?action=query&list=protectedtitles&format=json`)).json()) as { error: { code: string; nearmisses?: unknown } };
      expect([far.error.code, far.error.nearmisses]).toEqual(['wikitape-miss', undefined]);
    } finally {
      await s.close();
    }
  });

  it('the CLI log shows them under the miss', cliTest(1), async () => {
    const cli = await startCli(['replay', '--cassettes', dir, '--on-miss', 'error']);
    await fetch(`${cli.url}?${new URLSearchParams(GAMMA)}`);
    await cli.stop();
    expect(cli.stdout()).toContain('GET 200 miss');
    expect(cli.stdout()).toContain('  closest: action=query&ellimit=10&prop=extlinks&titles=Alpha (ellimit 5 ≠ 10; titles Gamma ≠ Alpha)\n  closest: action=query&ellimit=10&prop=extlinks&titles=Beta (ellimit 5 ≠ 10; titles Gamma ≠ Beta)\n');
  });
});

describe('cassettes explain', () => {
  it('says where the answer would come from, what is unknown, the closest recordings; exit 0 only for an exact answer', cliTest(4), async () => {
    const explain = (q: string) => runCli(['cassettes', 'explain', q, '--cassettes', dir]);
    const miss = await explain('action=query&prop=extlinks&titles=Gamma');
    expect(miss.stdout).toBe(
      [
        'question: action=query&ellimit=10&prop=extlinks&titles=Gamma',
        'answer: miss, HTTP 200, error wikitape-miss',
        'from: the built-in modules and fixtures',
        'unknown: pages.existence',
        'closest recordings (+: only the recording has it, -: only the question):',
        '  action=query&ellimit=10&prop=extlinks&titles=Alpha',
        '    titles Gamma ≠ Alpha',
        '  action=query&ellimit=10&prop=extlinks&titles=Beta',
        '    titles Gamma ≠ Beta',
        '',
      ].join('\n'),
    );
    expect(miss.code).toBe(1);
    const hit = await explain('?action=query&prop=extlinks&titles=Alpha&format=json');
    expect(hit.stdout).toBe('question: action=query&ellimit=10&prop=extlinks&titles=Alpha\nanswer: cassette, HTTP 200\nfrom: the recording action=query&ellimit=10&prop=extlinks&titles=Alpha\nunknown: nothing\n');
    expect(hit.code).toBe(0);
    const bad = await explain('action=query&prop=extlinks&titles=Alpha&ellimit=abc');
    expect(bad.stdout).toContain('answer: builtin, HTTP 200, error badinteger');
    expect((await runCli(['cassettes', 'explain', '--cassettes', dir])).stderr).toContain('explain needs a question');
  });

  it('the library: loadEngine(options).explain(query)', async () => {
    const engine = await loadEngine({ cassettes: dir });
    try {
      expect(engine.explain('action=query&prop=extlinks&titles=Gamma&ellimit=5')).toEqual({
        key: 'action=query&ellimit=5&prop=extlinks&titles=Gamma',
        source: 'miss',
        status: 200,
        error: 'wikitape-miss',
        used: 'the built-in modules and fixtures',
        unknown: ['pages.existence'],
        nearMisses: NEAR,
      });
    } finally {
      engine.close();
    }
  });
});
