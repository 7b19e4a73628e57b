// The wikis of the scale benchmark (bench/scale.mjs), written streaming (one entity or interaction
// at a time: no file is ever one JS string):
// - a cassette of N log events as `wikitape snapshot` records one: the walk of list=logevents at
//   lelimit=max with every prop (500 rows an answer, each answer an interaction with its
//   continuation), the empty walks of the other lists, and the harvested entities;
// - a fixture of N log events, P pages with L external links each and B blocks.
// Entries are copies of the bundled fixture's (fixtures/default-wiki.json: every log type with its
// params, a user block) with new ids, times, titles and users, so each is one a real wiki shows.
// Keys, stored requests and entities come from dist (canonicalKey, canonicalParams, harvest).
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const ROOT = new URL('..', import.meta.url);
const bundled = JSON.parse(readFileSync(new URL('fixtures/default-wiki.json', ROOT), 'utf8'));
const LOG_TEMPLATES = [...new Map(bundled.logevents.map((e) => [`${e.type}/${e.action}`, e])).values()];
const BLOCK_TEMPLATE = bundled.blocks.find((b) => b.userid > 0 && b.partial === false) ?? bundled.blocks.find((b) => b.userid > 0);
/** The first log event's time; each later id one second later (ids and times rise together, as on a wiki). */
const T0 = Date.parse('2020-01-01T00:00:00Z');
export const USERS = 200;
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const ts14 = (t) => t.replace(/\D/g, '');

/** Log event `id` (1 … n) as the API shows it with every prop (formatversion=2). */
export function logEvent(id, pages) {
  const t = LOG_TEMPLATES[id % LOG_TEMPLATES.length];
  const p = 1 + (id % pages);
  const user = `User${id % USERS}`;
  return { ...t, logid: id, title: `Page ${p}`, pageid: t.pageid === 0 ? 0 : p, logpage: p, user, userid: 100 + (id % USERS), timestamp: iso(T0 + id * 1000) };
}

/** The continuation value of log event `id` (`<timestamp>|<logid>`, ApiQueryLogEvents). */
export const logContinue = (id) => `${ts14(iso(T0 + id * 1000))}|${id}`;

/** A file written in pieces, each a string. */
class Out {
  constructor(file) {
    mkdirSync(dirname(file), { recursive: true });
    // Written under another name, renamed when whole: an interrupted run leaves no half file that the next one takes.
    this.file = file;
    this.fd = openSync(`${file}.part`, 'w');
    this.parts = [];
    this.size = 0;
  }
  write(s) {
    this.parts.push(s);
    this.size += s.length;
    if (this.size > 1 << 20) this.flush();
  }
  flush() {
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
    renameSync(`${this.file}.part`, this.file);
  }
}

/** `value` pretty-printed (2 spaces) as an element at `depth` levels of a pretty-printed document. */
const indented = (stringify, value, depth) => {
  const pad = '  '.repeat(depth);
  return pad + stringify(value, 2).replaceAll('\n', `\n${pad}`);
};

/** Writes `[ … ]` of `items` (an iterable) as member `name` of an object at depth 1. */
function writeArray(out, stringify, name, items, last) {
  out.write(`  ${JSON.stringify(name)}: [`);
  let first = true;
  for (const x of items) {
    out.write(`${first ? '' : ','}\n${indented(stringify, x, 2)}`);
    first = false;
  }
  out.write(first ? `]${last ? '' : ','}\n` : `\n  ]${last ? '' : ','}\n`);
}

/**
 * A snapshot cassette of n log events (file `file`), in wikitape's own layout (cassette/scan.ts).
 * `dist` is the build whose key rules and harvest make it. Answers are made when written (twice:
 * as interactions, then harvested as entities), so memory holds one answer at a time.
 */
export async function writeCassette(file, n, pages, dist) {
  const { canonicalKey, canonicalParams } = await import(`${dist}/request/canonical.js`);
  const { KEY_RULES, MODULES, LIST_ENTITIES } = await import(`${dist}/modules/index.js`);
  const { harvest } = await import(`${dist}/record/harvest.js`);
  const { emptyHarvest } = await import(`${dist}/cassette/format.js`);
  const { stringifyKeepingKeyOrder: stringify } = await import(`${dist}/util/ordered-json.js`);
  const answers = []; // { key, request, body() }, in the order a snapshot asks them
  const ask = (params, body) => {
    const map = new Map(Object.entries({ format: 'json', formatversion: '2', ...params }));
    answers.push({ key: canonicalKey(map, KEY_RULES), request: Object.fromEntries(canonicalParams(map, KEY_RULES)), body });
  };
  for (const list of MODULES.query.list) {
    for (const params of list.snapshot) {
      if (list.name !== 'logevents') {
        ask({ action: 'query', list: list.name, ...params }, () => ({ batchcomplete: true, query: { [list.name]: [] } }));
        continue;
      }
      // Newest first: ids n … 1, 500 an answer.
      for (let top = n; top >= 1; top -= 500) {
        const cont = top === n ? {} : { lecontinue: logContinue(top), continue: '-||' };
        ask({ action: 'query', list: 'logevents', ...params, ...cont }, () => logPage(top, pages));
      }
    }
  }
  const out = new Out(file);
  const meta = { format: 1, profile: { ...bundled.profile, debugInfo: false }, recordedAt: '2026-11-26T00:00:00.000Z', upstream: 'http://127.0.0.1:1/wiki/api.php' };
  out.write(`{\n  "meta": ${indented(stringify, meta, 1).trimStart()},\n`);
  const sorted = [...answers].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const interaction = ({ key, request, body }) => ({ key, request, status: 200, headers: {}, body: body(), recordedAt: '2026-11-26T00:00:00.000Z' });
  writeArray(out, stringify, 'interactions', (function* () {
    for (const a of sorted) yield interaction(a);
  })(), false);
  // The entities harvested from each answer in the order asked (no two answers show one entity).
  const kinds = Object.keys(emptyHarvest(LIST_ENTITIES.map((e) => e.kind)));
  out.write('  "entities": {\n');
  for (const [i, kind] of kinds.entries()) {
    out.write(`    ${JSON.stringify(kind)}: [`);
    let first = true;
    for (const a of answers) {
      const h = emptyHarvest([]);
      harvest(h, a.body(), a.request);
      for (const x of h[kind] ?? []) {
        out.write(`${first ? '' : ','}\n${indented(stringify, x, 3)}`);
        first = false;
      }
    }
    out.write(`${first ? ']' : '\n    ]'}${i < kinds.length - 1 ? ',' : ''}\n`);
  }
  // The walks' summaries, as the file store writes them (a build without them: none).
  const summary = await import(`${dist}/cassette/walk-summary.js`).catch(() => null);
  if (!summary) return void (out.write('  }\n}\n'), out.close());
  out.write('  },\n');
  writeArray(out, stringify, 'summaries', (function* () {
    for (const a of sorted) {
      const i = interaction(a);
      const s = summary.summarize(i, summary.storedBytes(i));
      if (s) yield s;
    }
  })(), true);
  out.write('}\n');
  out.close();
}

/**
 * A database cassette (`file`, `.sqlite`) of the wiki the issue names: n log events and their
 * snapshot walk (as writeCassette), `pages` pages with `links` external links each, `blocks`
 * blocks and `titles` protected titles, written with the build's store (`dist`) kind by kind,
 * never held whole. `walk: false` leaves the interactions out (entities only: no knowledge to
 * work out, every list read through the database's indexes).
 */
export async function writeDatabase(file, { n, pages, links, blocks, titles, walk = true }, dist) {
  const { canonicalKey, canonicalParams } = await import(`${dist}/request/canonical.js`);
  const { KEY_RULES, KNOWLEDGE_ENTITIES, LIST_ENTITIES, MODULES } = await import(`${dist}/modules/index.js`);
  const { SqliteCassette } = await import(`${dist}/cassette/store-sqlite.js`);
  const { tableShapes } = await import(`${dist}/cassette/sql-table.js`);
  const { emptyHarvest } = await import(`${dist}/cassette/format.js`);
  mkdirSync(dirname(file), { recursive: true });
  const db = new SqliteCassette(`${file}.part`, tableShapes(LIST_ENTITIES), true);
  const params = MODULES.query.list.find((l) => l.name === 'logevents').snapshot[0];
  const interactions = function* () {
    if (!walk) return;
    for (let top = n; top >= 1; top -= 500) {
      const map = new Map(Object.entries({ format: 'json', formatversion: '2', action: 'query', list: 'logevents', ...params, ...(top === n ? {} : { lecontinue: logContinue(top), continue: '-||' }) }));
      yield { key: canonicalKey(map, KEY_RULES), request: Object.fromEntries(canonicalParams(map, KEY_RULES)), status: 200, headers: {}, body: logPage(top, pages), recordedAt: '2026-11-26T00:00:00.000Z' };
    }
  };
  const meta = { format: 1, profile: { ...bundled.profile, debugInfo: false }, recordedAt: '2026-11-26T00:00:00.000Z', upstream: 'http://127.0.0.1:1/wiki/api.php' };
  db.import(['meta', 'interactions', 'entities'], { meta, entities: emptyHarvest(LIST_ENTITIES.map((e) => e.kind)) }, interactions());
  const known = (e) => ({ ...e, known: MODULES.query.list.find((l) => l.name === 'logevents').props.slice().sort() });
  db.appendEntities('logevents', (function* () {
    for (let id = n; id >= 1; id--) yield walk ? known(logEvent(id, pages)) : logEvent(id, pages);
  })());
  db.appendEntities('blocks', (function* () {
    for (let id = blocks; id >= 1; id--) yield { ...BLOCK_TEMPLATE, id, user: `Target ${id}`, userid: 100000 + id, timestamp: iso(T0 + id * 1000) };
  })());
  db.appendEntities('protectedtitles', (function* () {
    for (let i = 1; i <= titles; i++) yield { ns: 0, title: `Protected ${i}`, timestamp: iso(T0 + i * 1000), user: `User${i % USERS}`, userid: 100 + (i % USERS), comment: 'bench', expiry: 'infinity', level: 'sysop' };
  })());
  let linkId = 0;
  db.appendEntities('pages', (function* () {
    for (let p = 1; p <= pages; p++) yield { pageid: p, ns: 0, title: `Page ${p}`, extlinks: Array.from({ length: links }, (_, k) => ({ id: ++linkId, url: `https://site${k}.example.org/page/${p}?k=${k}` })) };
  })());
  db.close();
  // What the entities imply, worked out once as `cassettes convert` does (replay then reads no kind whole).
  const { prepareDatabaseFile } = await import(`${dist}/replay/prepare-database.js`);
  prepareDatabaseFile(`${file}.part`, LIST_ENTITIES, KNOWLEDGE_ENTITIES);
  renameSync(`${file}.part`, file);
}

/** The walk's answer that starts at log event `top` (500 rows, newest first). */
function logPage(top, pages) {
  const rows = [];
  for (let id = top; id > Math.max(0, top - 500); id--) rows.push(logEvent(id, pages));
  const next = top - 500;
  return next >= 1 ? { batchcomplete: true, continue: { lecontinue: logContinue(next), continue: '-||' }, query: { logevents: rows } } : { batchcomplete: true, query: { logevents: rows } };
}

/** A fixture of n log events, `pages` pages with `links` external links each, and `blocks` blocks. */
export function writeFixture(file, { n, pages, links, blocks }) {
  const out = new Out(file);
  const s = (x, _indent) => JSON.stringify(x, null, 2);
  out.write(`{\n  "profile": ${indented(s, bundled.profile, 1).trimStart()},\n`);
  writeArray(out, s, 'logevents', (function* () {
    for (let id = n; id >= 1; id--) yield logEvent(id, Math.max(pages, 1));
  })(), false);
  writeArray(out, s, 'blocks', (function* () {
    for (let id = blocks; id >= 1; id--) yield { ...BLOCK_TEMPLATE, id, user: `Target ${id}`, userid: 100000 + id, timestamp: iso(T0 + id * 1000) };
  })(), false);
  writeArray(out, s, 'pages', (function* () {
    for (let p = 1; p <= pages; p++) yield { pageid: p, ns: 0, title: `Page ${p}`, extlinks: Array.from({ length: links }, (_, k) => `https://site${k}.example.org/page/${p}?k=${k}`) };
  })(), true);
  out.write('}\n');
  out.close();
}
