// Regenerates the tables and test oracles that come from the real PHP / MediaWiki of
// scripts/live-wiki.sh, and says for each whether the result is identical to the checked-in file.
//
//   node scripts/generate/run.mjs            check every generated file (writes nothing)
//   node scripts/generate/run.mjs --write ip write the regenerated file(s) named
//
// Needs php (and, for those that read MediaWiki, the live wikis: `bash scripts/live-wiki.sh start`,
// and `WIKITAPE_LIVE_MW=1.43 bash scripts/live-wiki.sh start` for the 1.43 ones). See README.md here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { htmlPage143, parseSummaries, titles } from './live-captures.mjs';
import { l10nData, l10nLayout } from './l10n.mjs';

const LIVE139 = process.env.WIKITAPE_LIVE_DIR ?? '/tmp/wikitape-live';
const PHP_ENV = { ...process.env, MW_CONFIG_FILE: `${LIVE139}/LocalSettings.php` };
/** The 1.43 wiki of `WIKITAPE_LIVE_MW=1.43 scripts/live-wiki.sh` (its code unpacked by scripts/livewiki/get-mw143.sh). */
const PHP_ENV_143 = { ...process.env, MW_INSTALL_PATH: '/tmp/wikitape-mw143/mediawiki', MW_CONFIG_FILE: '/tmp/wikitape-live143/LocalSettings.php' };

/** One JSON row per line, as most oracles are laid out. */
const rows = (list) => `[\n${list.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
/** An object of row lists: each list's rows one per line, indented by two. */
const groups = (o) => `{\n${Object.entries(o).map(([k, list]) => `${JSON.stringify(k)}: [\n${list.map((r) => `  ${JSON.stringify(r)}`).join(',\n')}\n]`).join(',\n')}\n}\n`;
/** PHP's JSON_PRETTY_PRINT (four spaces). */
const pretty4 = (v) => `${JSON.stringify(v, null, 4)}\n`;

/** A PHP generator: the inputs of the checked-in oracle on its stdin, the oracle on its stdout. */
function php(script, inputs, env = PHP_ENV) {
  const out = execFileSync('php', [script], { input: JSON.stringify(inputs), env, maxBuffer: 64 << 20, encoding: 'utf8' });
  return JSON.parse(out.slice(out.indexOf(out.trimStart()[0])));
}

/** A Node generator that writes a whole file: run into a temporary file, its text returned. */
function node(script, ...args) {
  const dir = mkdtempSync(join(tmpdir(), 'wikitape-generate-'));
  const out = join(dir, 'out');
  try {
    execFileSync('node', [script, ...args, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** name → the file, how to get its inputs, how to compute it, how it is laid out. */
export const GENERATED = {
  'link-index': {
    file: 'test/unit/modules/link-index-php.json',
    make: (old) => php('scripts/generate/php/link-index.php', Object.keys(old)),
    format: pretty4,
  },
  ip: {
    file: 'test/unit/util/ip-php.json',
    make: (old) => php('scripts/generate/php/ip.php', old.map((r) => r[0])),
    format: rows,
  },
  timestamps: {
    file: 'test/unit/util/timestamps-php.json',
    make: (old) => php('scripts/generate/php/timestamps.php', old.map((r) => r[0])),
    format: rows,
  },
  'strip-markup': {
    file: 'test/unit/i18n/strip-markup-php.json',
    make: (old) => php('scripts/generate/php/strip-markup.php', old.map((r) => r[0])),
    format: rows,
  },
  messages: {
    file: 'test/unit/i18n/messages-php.json',
    make: (old) => php('scripts/generate/php/messages.php', old.map((r) => r.slice(0, 3))),
    format: rows,
  },
  numbers: {
    file: 'test/unit/i18n/numbers-php.json',
    make: (old) => php('scripts/generate/php/numbers.php', Object.fromEntries(Object.entries(old).map(([fn, list]) => [fn, list.map((r) => r.slice(0, 2))]))),
    format: groups,
  },
  titles: {
    file: 'test/unit/wiki/titles-real.json',
    make: async (old) => ({ source: old.source, cases: await titles(old.cases.map((c) => c[0])) }),
    format: (v) => JSON.stringify(v, null, 1),
  },
  'parse-summary': {
    file: 'test/unit/modules/parse-summary-real.json',
    make: async (old) => ({ source: old.source, groups: await parseSummaries(old.groups) }),
    format: (v) => JSON.stringify(v, null, 1),
  },
  spamblacklist: {
    file: 'test/unit/modules/spamblacklist-php.json',
    make: (old) => ({ source: old.source, cases: php('scripts/generate/php/spamblacklist.php', old.cases.map(({ urls, black, white }) => ({ urls, black, white }))) }),
    format: (v) => JSON.stringify(v),
  },
  'html-page-143': {
    file: 'test/unit/output/html-page-143.json',
    // the request id is the page's own: kept from the capture when the rest is the same
    make: async (old) => {
      const fresh = await htmlPage143();
      const page = (id) => ({ source: old.source, requestId: id, head: fresh.head.replaceAll(fresh.requestId, id), foot: fresh.foot, last: fresh.last });
      return page(old.requestId);
    },
    format: (v) => `${JSON.stringify(v, null, 1)}\n`,
  },
  durations: {
    file: 'test/unit/i18n/durations-php.json',
    make: (old) => php('scripts/generate/php/durations.php', old.map((r) => r.slice(0, 2)), PHP_ENV_143),
    format: rows,
  },
  pcre: {
    file: 'test/unit/pcre/pcre-php.json',
    make: () => JSON.parse(execFileSync('php', ['scripts/generate/pcre-php.php'], { encoding: 'utf8' })),
    format: pretty4,
  },
  'php-url': {
    file: 'test/unit/util/php-url-php.json',
    make: () => JSON.parse(execFileSync('php', ['scripts/generate/php-url.php'], { encoding: 'utf8' })),
    format: pretty4,
  },
  'html-entities': {
    file: 'src/util/html-entities.ts',
    text: true,
    make: () => node('scripts/generate/html-entities.mjs', '/usr/share/mediawiki'),
  },
  'includes-1.39': {
    file: 'src/output/includes-1.39.json',
    text: true,
    make: () => node('scripts/generate/includes.mjs', 'http://127.0.0.1:8088/wiki/api.php'),
  },
  'includes-1.43': {
    file: 'src/output/includes-1.43.json',
    text: true,
    make: () => node('scripts/generate/includes.mjs', 'http://127.0.0.1:8089/wiki/api.php'),
  },
  interwiki: {
    file: 'src/wiki/interwiki-lists.ts',
    text: true,
    make: () => node('scripts/generate/interwiki.mjs'),
  },
  'php-case': {
    file: 'src/util/php-case.ts',
    text: true,
    make: () => node('scripts/generate/php-case.mjs'),
  },
  l10n: {
    file: 'l10n/languages.json',
    make: (old) => l10nData(old),
    format: l10nLayout,
  },
  'paraminfo-1.39': {
    file: 'src/modules/paraminfo/1.39.json',
    text: true,
    make: () => node('scripts/generate/paraminfo.mjs', 'data', 'http://127.0.0.1:8088/wiki/api.php'),
  },
  'paraminfo-1.43': {
    file: 'src/modules/paraminfo/1.43.json',
    text: true,
    make: () => node('scripts/generate/paraminfo.mjs', 'data', 'http://127.0.0.1:8089/wiki/api.php'),
  },
  'paraminfo-help-ru': {
    file: 'src/modules/paraminfo/help-ru.json',
    text: true,
    make: () => node('scripts/generate/paraminfo.mjs', 'help', 'ru', 'http://127.0.0.1:8088/wiki/api.php', 'http://127.0.0.1:8089/wiki/api.php'),
  },
  'paraminfo-help-en': {
    file: 'src/modules/paraminfo/help-en.json',
    text: true,
    make: () => node('scripts/generate/paraminfo.mjs', 'help', 'en', 'http://127.0.0.1:8088/wiki/api.php', 'http://127.0.0.1:8089/wiki/api.php'),
  },
  'paraminfo-trace-1.39': {
    file: 'src/modules/paraminfo/trace-1.39.json',
    text: true,
    make: () => node('scripts/generate/paraminfo-trace.mjs', 'http://127.0.0.1:8088/wiki/api.php'),
  },
  'paraminfo-trace-1.43': {
    file: 'src/modules/paraminfo/trace-1.43.json',
    text: true,
    make: () => node('scripts/generate/paraminfo-trace.mjs', 'http://127.0.0.1:8089/wiki/api.php'),
  },
  wikitext: {
    file: 'test/unit/i18n/wikitext-php.json',
    make: (old) => php('scripts/generate/php/wikitext.php', old.map((r) => r[0])),
    format: rows,
  },
};

const args = process.argv.slice(2);
const write = args.includes('--write');
const names = args.filter((a) => !a.startsWith('--'));
let differs = 0;
for (const [name, g] of Object.entries(GENERATED)) {
  if (names.length > 0 && !names.includes(name)) continue;
  const text = readFileSync(g.file, 'utf8');
  // Generators of whole files (text: true) write the file's text; the others compute its data.
  const old = g.text ? text : JSON.parse(text);
  const started = Date.now();
  const fresh = await g.make(old);
  const out = g.text ? fresh : g.format(fresh);
  const same = out === text ? 'identical' : !g.text && isDeepStrictEqual(JSON.parse(out), old) ? 'same data, laid out anew' : 'DIFFERS';
  if (same === 'DIFFERS') differs++;
  if (write) writeFileSync(g.file, out);
  process.stdout.write(`${name.padEnd(16)} ${g.file}: ${same}${write ? ' (written)' : ''} (${Date.now() - started} ms)\n`);
}
process.exitCode = differs > 0 && !write ? 1 : 0;
