// How many requests `wikitape snapshot` asks, per step, of a wikitape fixture server: the bundled
// wiki (fixtures/default-wiki.json, 1.43) or a fixture of P pages with L external links each
// (bench/scale-data.mjs), as 1.43 or as 1.39 (el_id continues differently: modules/extlinks.ts).
// Also checks that every el_id the snapshot learned is the fixture's own (replay's model of the
// snapshot against the fixture).
//   npm run build && node bench/scale-snapshot.mjs [--pages 10000] [--links 3] [--version 1.43.9]
//   node bench/scale-snapshot.mjs --bundled
// Measured 2026-11-26 (2-core machine shared with other work; requests are what matters):
//   bundled wiki (1.43, 20 pages with 95 links): 161 requests before (27 listing, 97 ids), 64 after
//     (1 listing, 26 ids); 95 of 95 ids learned exactly both times.
//   2,000 pages × 3 links, 1.43: 8,396 before (2,000 listing, 6,356 ids; 39 ids learned WRONG: a
//     token issued to another batch's question was taken as exact), 2,201 after, 6,000 exact.
//   10,000 pages × 3 links, 1.43: 10,857 after (200 listing, 10,601 ids), 30,000 of 30,000 exact.
//   1,000 pages × 3 links, 1.39: 7,317 before (1,000 listing, 6,279 ids: every link, then every
//     https row again), 3,509 after (20 listing, 3,451 ids), 3,000 exact.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { snapshot } from '../dist/record/snapshot.js';
import { startServer } from '../dist/server.js';
import { FileCassetteStore } from '../dist/cassette/store.js';
import { LIST_ENTITIES, MODULES } from '../dist/modules/index.js';
import { loadCassettes } from '../dist/replay/cassette-index.js';
import { learnLinkIds } from '../dist/cassette/link-ids.js';
import { idBounds } from '../dist/wiki/link-bounds.js';
import { loadFixtures } from '../dist/wiki/fixtures.js';
import { writeFixture } from './scale-data.mjs';

const { values } = parseArgs({ options: { pages: { type: 'string', default: '10000' }, links: { type: 'string', default: '3' }, version: { type: 'string', default: '1.43.9' }, bundled: { type: 'boolean', default: false } } });
// The snapshot, the fixture and the empty cassettes in one temporary folder, removed however the run ends.
const root = mkdtempSync(join(tmpdir(), 'wikitape-scale-snapshot-'));
process.on('exit', () => rmSync(root, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
const made = (name) => {
  const d = join(root, name);
  mkdirSync(d);
  return d;
};
const dir = made('snapshot');
let fixture = new URL('../fixtures/default-wiki.json', import.meta.url).pathname;
if (!values.bundled) {
  fixture = join(root, 'fixture.json');
  writeFixture(fixture, { n: 10, pages: Number(values.pages), links: Number(values.links), blocks: 2 });
  const f = JSON.parse(readFileSync(fixture, 'utf8'));
  f.profile = { ...f.profile, version: values.version };
  writeFileSync(fixture, JSON.stringify(f));
}
const empty = made('empty');
const wiki = await startServer({ fixtures: [fixture], cassettes: empty, onMiss: 'builtin', log: false });
const steps = new Map();
let last = 0;
const t0 = performance.now();
const done = await snapshot({
  upstream: wiki.url,
  cassettes: dir,
  onProgress: (p) => {
    steps.set(p.step, (steps.get(p.step) ?? 0) + p.requests - last);
    last = p.requests;
  },
});
const seconds = (performance.now() - t0) / 1000;
await wiki.close();

// Every el_id replay learns from the snapshot (cassette/link-ids.ts), against the fixture's own:
// exact where learned (a wrong one is an error), and how many stayed unknown.
const lists = MODULES.query.list;
const index = await loadCassettes(new FileCassetteStore(dir, { entities: LIST_ENTITIES }), lists);
learnLinkIds(index.model, () => [...index.interactions.values()].filter((i) => i.request['prop'] === 'extlinks'));
const truth = (await loadFixtures([fixture], LIST_ENTITIES)).model;
const truthIds = new Map(truth.pages.flatMap((p) => p.extlinks.map((l) => [`${p.pageid} ${l.url}`, l.id])));
let exact = 0;
let unknown = 0;
const wrong = [];
const modern = !(index.profile.version ?? '').startsWith('1.39');
for (const p of index.model.pages) {
  // What replay's answers use: each link's id, or the bounds its page's known ids set on it.
  const bounds = idBounds(p, modern);
  p.extlinks.forEach((l, n) => {
    const { lo, hi } = bounds[n];
    const truth = truthIds.get(`${p.pageid} ${l.url}`);
    if (truth === undefined || truth < lo || truth > hi) wrong.push(`${p.title} ${l.url}: ${lo}…${hi}, not ${truth}`);
    else if (lo === hi) exact++;
    else unknown++;
  });
}
const named = [...steps.values()].reduce((a, b) => a + b, 0);
console.log(JSON.stringify({ fixture: values.bundled ? 'bundled' : `${values.pages} pages × ${values.links} links, ${values.version}`, requests: done.requests, byStep: { ...Object.fromEntries(steps), 'extlinks ids and the rest': done.requests - named }, links: truthIds.size, exact, unknown, wrong: wrong.length, seconds: Math.round(seconds * 10) / 10 }));
if (wrong.length > 0) {
  console.error(wrong.slice(0, 20).join('\n'));
  process.exitCode = 1;
}
