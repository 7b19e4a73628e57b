import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileCassetteStore } from '../../src/cassette/store.js';
import { idBounds } from '../../src/wiki/link-bounds.js';
import { LIST_ENTITIES, MODULES } from '../../src/modules/index.js';
import { snapshot } from '../../src/record/snapshot.js';
import { loadCassettes } from '../../src/replay/cassette-index.js';
import { learnLinkIds } from '../../src/cassette/link-ids.js';
import { startServer } from '../../src/server.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * `wikitape snapshot` learns external links' el_ids from continuation tokens (record/snapshot-link-ids.ts)
 * and replay reads them back (cassette/link-ids.ts). Against a fixture server whose ids are laid out
 * as a wiki's can be (a page's links in one run, runs out of page order, a page with a gap, two
 * pages whose links interleave, pages of one link, more than one batch of fifty pages), every id
 * replay takes for known is the fixture's own, and none is guessed.
 */
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

interface FixturePage {
  pageid: number;
  ns: 0;
  title: string;
  extlinks: { id: number; url: string }[];
}

/** 70 pages: most in runs of 1 to 4 ids; page 3's run comes after page 4's; page 5 has a gap; pages 6 and 7 interleave. */
function pages(): FixturePage[] {
  const out: FixturePage[] = [];
  let id = 100;
  const run = (pageid: number, n: number, gapAfter = -1) =>
    Array.from({ length: n }, (_, k) => {
      // Four ids no link has (links removed since): a gap in the page's run.
      if (gapAfter >= 0 && k === gapAfter + 1) id += 4;
      return { id: id++, url: `https://site${k}.example.org/p${pageid}/${k}` };
    });
  for (let p = 1; p <= 70; p++) {
    if (p === 3 || p === 6 || p === 7) {
      out.push({ pageid: p, ns: 0, title: `Page ${p}`, extlinks: [] });
      continue;
    }
    out.push({ pageid: p, ns: 0, title: `Page ${p}`, extlinks: run(p, p === 5 ? 4 : 1 + (p % 4), p === 5 ? 1 : -1) });
    if (p === 4) out[2]!.extlinks = run(3, 3);
  }
  // Pages 6 and 7 take turns: 6, 7, 6, 7.
  out[5]!.extlinks = [0, 2].map((k) => ({ id: 1000 + k, url: `https://a.example.org/p6/${k}` }));
  out[6]!.extlinks = [1, 3].map((k) => ({ id: 1000 + k, url: `https://b.example.org/p7/${k}` }));
  return out;
}

async function crawl(version: string, fixture: FixturePage[]) {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-snapshot-ids-'));
  made.push(dir);
  await writeFile(join(dir, 'fixture.json'), JSON.stringify({ pages: fixture }));
  const wiki = await startServer({ fixtures: [join(dir, 'fixture.json')], cassettes: NO_CASSETTES, clock: TEST_CLOCK, profile: { version }, onMiss: 'builtin' });
  const cassettes = join(dir, 'cassettes');
  let listed = 0;
  try {
    const done = await snapshot({ upstream: wiki.url, cassettes, onProgress: (p) => p.step === 'extlinks' && (listed = p.requests) });
    const index = await loadCassettes(new FileCassetteStore(cassettes, { entities: LIST_ENTITIES }), MODULES.query.list);
    learnLinkIds(index.model, () => [...index.interactions.values()].filter((i) => i.request['prop'] === 'extlinks'));
    const truth = new Map(fixture.flatMap((p) => p.extlinks.map((l) => [`${p.pageid} ${l.url}`, l.id])));
    const learned = index.model.pages.flatMap((p) => idBounds(p, version !== '1.39.17').map((b, n) => ({ link: `${p.pageid} ${p.extlinks[n]!.url}`, ...b })));
    return { done, listed, truth, learned };
  } finally {
    await wiki.close();
  }
}

describe('el_ids learned by wikitape snapshot', () => {
  it('1.43: one request a run of ids instead of one a link; every id learned is the wiki\'s, and every one is learned', { timeout: 60_000 }, async () => {
    const { done, listed, truth, learned } = await crawl('1.43.9', pages());
    expect(learned.length).toBe(truth.size);
    for (const l of learned) expect([l.link, l.lo, l.hi]).toEqual([l.link, truth.get(l.link), truth.get(l.link)]);
    expect(done.unknownLinkIds).toBe(0);
    // The id crawl (the requests after the listing, but for siteinfo and userinfo) against one a link before.
    const idRequests = done.requests - listed - 2;
    expect(truth.size).toBe(173);
    expect(idRequests).toBeLessThan(120);
  });

  it('1.39: one request a link (its tokens name the next row by page, index and id); every id learned is the wiki\'s', { timeout: 60_000 }, async () => {
    const { done, truth, learned } = await crawl('1.39.17', pages());
    for (const l of learned) if (l.lo === l.hi) expect([l.link, l.lo]).toEqual([l.link, truth.get(l.link)]);
    // All but the first link of each batch of fifty pages come from a token (the first from the search).
    expect(learned.filter((l) => l.lo === l.hi).length).toBe(truth.size);
    expect(done.unknownLinkIds).toBe(0);
  });
});
