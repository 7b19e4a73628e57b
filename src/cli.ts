#!/usr/bin/env node
// First: V8's settings, before any other module runs (util/v8-flags.ts).
import './util/v8-flags.js';
import { isAbsolute, relative } from 'node:path';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { convertCassette } from './cassette/convert.js';
import { prepareDatabaseFile } from './replay/prepare-database.js';
import { listCassettes, listKeys, pruneCassettes, readUsage, redactInteraction, showInteraction, verifyCassettes } from './cassette/commands.js';
import { FileCassetteStore } from './cassette/store.js';
import { snapshot } from './record/snapshot.js';
import { DIFF_EXIT, diffCassettes, diffReport } from './record/diff.js';
import { CREDENTIAL_VARIABLES, diffCredentials } from './record/diff-login.js';
import { parseFault } from './faults/spec.js';
import { redactQuery } from './util/secrets.js';
import { startServer } from './server.js';
import { checkSharing, isWorker, serveAsWorker, startSharing, type Sharing, type Started } from './workers.js';
import { loadEngine } from './app.js';
import { KEY_RULES, KNOWLEDGE_ENTITIES, LIST_ENTITIES, MODULES } from './modules/index.js';
import { DEFAULTS, RECORD_MODES, replaySources, type LoadedSources, type WikitapeOptions } from './options.js';
import { shortList } from './util/short-list.js';
import type { WikiProfile } from './wiki/profile.js';

// Output piped into a reader that stops early (`| head`): the rest is not wanted, and no stack trace is.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

/** A file as the start line shows it: relative to the working folder when it lies inside it. */
function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/**
 * What replay serves, said at start when it was given nothing (the spec's wiki, DEFAULTS.wiki),
 * with the cassettes of ./cassettes it does not read and the option that would.
 */
async function defaultWikiLines(options: WikitapeOptions, profile: Pick<WikiProfile, 'version' | 'language'> | undefined): Promise<string[]> {
  const sources = replaySources(options);
  if (!sources.defaultWiki || !profile) return [];
  const when = sources.clock === 'real' ? 'on the real clock' : `as of ${sources.clock}`;
  const lines = [`serving the wiki the spec describes: MediaWiki ${profile.version} (${profile.language}), ${sources.fixtures.map(shown).join(', ')}, ${when}`];
  const unread = await new FileCassetteStore(DEFAULTS.cassettes).list();
  const names = unread.length > 5 ? [...unread.slice(0, 5), '…'] : unread;
  if (unread.length > 0) lines.push(`not read: ${unread.length} cassette(s) in ${DEFAULTS.cassettes} (${names.join(', ')}); --cassettes ${DEFAULTS.cassettes} replays them`);
  return lines;
}

/**
 * What replay loaded, said on stderr at start (one line: each file with its count, and the clock),
 * so that nobody takes another suite's recordings, or none, for theirs.
 */
function loadedLine(sources: LoadedSources): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const files = [
    ...sources.cassettes.map((c) => `${shown(c.file)} (${count(c.interactions, 'interaction', 'interactions')})`),
    ...sources.fixtures.map((f) => `${shown(f.file)} (fixture, ${count(f.entries, 'entry', 'entries')})`),
    ...(sources.model ? ['the model option'] : []),
  ];
  const clock = sources.clock === 'recorded' ? 'recorded (each recording as of its own time)' : sources.clock;
  return `wikitape: loaded ${files.length > 0 ? files.join(', ') : 'no cassettes or fixtures (the built-in wiki alone)'}; clock ${clock}`;
}

/** Flags shared by the serving commands. */
const serveFlags = {
  port: { type: 'number', default: 8080, describe: 'Port to listen on (0 picks a free one)' },
  host: { type: 'string', default: '127.0.0.1', describe: 'Address to bind' },
  cassettes: { type: 'string', default: './cassettes', describe: 'Folder of cassette files' },
  quiet: { type: 'boolean', default: false, describe: 'No line per request' },
  'log-format': { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Request log lines as text or JSON' },
} as const;

function withLogger(argv: { quiet: boolean; 'log-format': 'text' | 'json' }): Pick<WikitapeOptions, 'onRequest'> {
  const log = requestLogger(argv);
  return log ? { onRequest: log } : {};
}

/** The per-request log line: method, status, source, time, canonical question. */
function requestLogger(argv: { quiet: boolean; 'log-format': 'text' | 'json' }): WikitapeOptions['onRequest'] {
  if (argv.quiet) return undefined;
  if (argv['log-format'] === 'json') return (e) => process.stdout.write(`${JSON.stringify({ ...e, ms: Math.round(e.ms * 1000) / 1000 })}\n`);
  return (e) => {
    const near = (e.nearMisses ?? []).map((n) => `  closest: ${n.key} (${n.differences.join('; ')})\n`).join('');
    process.stdout.write(`${e.method} ${e.status} ${e.source} ${e.ms.toFixed(1)}ms ${e.key}${e.note ? ` (${e.note})` : ''}\n${near}`);
  };
}

async function serve(options: WikitapeOptions, sharing: Sharing = { workers: 1 }): Promise<void> {
  // A worker of --workers serves quietly; its primary says where (docs/decisions/0019-many-processes.md).
  if (isWorker()) return serveAsWorker(options, sharing);
  // A recording that could not be stored is said at once (stderr) and decides the exit code.
  let failed = false;
  const onError = (line: string) => {
    failed = true;
    process.stderr.write(`${line}\n`);
  };
  checkSharing(options, sharing);
  const shared = sharing.workers > 1 || sharing.join !== undefined || sharing.stateSocket !== undefined;
  let server: Started;
  try {
    server = shared ? await startSharing(options, sharing) : await startServer({ ...options, onError });
  } catch (e) {
    if ((e as { code?: string }).code === 'EADDRINUSE') {
      throw new Error(`port ${options.port} on ${options.host ?? DEFAULTS.host} is in use by another program: give another one with --port, or --port 0 for a free one`, { cause: e });
    }
    throw e;
  }
  // What is served goes out with the address, in one write: a reader that waits for the address has both.
  const served = options.mode !== 'record' ? await defaultWikiLines(options, server.profile) : [];
  // A cassette is a suite of its own at its path prefix (README "Many suites on one server").
  const many = server.suites ?? [];
  if (many.length > 1) served.push(`suites: ${shortList(many)}`);
  process.stdout.write([`wikitape ${options.mode ?? 'replay'}: ${server.url}`, ...served].map((l) => `${l}\n`).join(''));
  if (server.sources) process.stderr.write(`${loadedLine(server.sources)}\n`);
  if (options.mode === 'record' && options.recordMode !== 'none') {
    // (`--store sqlite` makes a database when no cassette of the name is there yet)
    const file = new FileCassetteStore(options.cassettes ?? DEFAULTS.cassettes, options.store ? { format: options.store } : {}).locate(options.cassette ?? 'default');
    process.stdout.write(`recording into ${file} (--mode ${options.recordMode ?? 'new'})\n`);
  }
  for (const f of options.faults ?? []) process.stdout.write(`serving fault ${parseFault(f).text}\n`);
  const stop = () => {
    void server.close().then(
      () => process.exit(failed ? 1 : 0),
      (e: unknown) => {
        process.stderr.write(`${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await yargs(hideBin(process.argv))
  .scriptName('wikitape')
  .usage('$0 <command> [options]')
  .command(
    ['replay', '$0'],
    'Answer api.php offline from cassettes, fixtures and the built-in modules',
    (y) =>
      y
        .options(serveFlags)
        .option('cassettes', { type: 'string', default: undefined, describe: 'Folder of cassette files to replay (it must exist)' })
        .option('fixtures', { type: 'string', array: true, describe: 'Fixture files with wiki data (JSON)' })
        .option('clock', { type: 'string', describe: '"now": real, recorded, or an ISO time (default: recorded when there are recordings, the time of its data for the spec\'s wiki, else real)' })
        .option('on-miss', { choices: ['builtin', 'error'] as const, default: 'error' as const, describe: 'What answers a question that needs what no recording shows: the wikitape-miss error, or the built-in answer flagged with X-Wikitape-Unknown' })
        .option('track-usage', { type: 'string', describe: 'Collect which recordings answered into this file (for cassettes prune)' })
        .option('workers', { type: 'number', default: 1, describe: 'Processes serving the port (node:cluster); sessions and the write log are shared between them' })
        .option('state-socket', { type: 'string', describe: 'Hold the shared sessions key and write log for other servers (a fleet behind a load balancer) at this Unix socket' })
        .option('join', { type: 'string', describe: 'Share the sessions key and write log a server started with --state-socket holds at this Unix socket' })
        .option('fault', { type: 'string', array: true, describe: 'Serve a fault, NAME[:KEY=VALUE,…] (repeatable): maxlag, readonly, ratelimited, badtoken, assertuserfailed, assertbotfailed, internal_api_error, 503, 429, latency, reset, cutoff; when: first=N, rate=R,seed=S, match=PARAM=VALUE' })
        .example('$0 replay', "Given nothing, serve the spec's wiki (MediaWiki 1.44, Russian) on http://127.0.0.1:8080/wiki/api.php")
        .example('$0 replay --cassettes cassettes', 'Replay the recordings in ./cassettes')
        .example('$0 replay --fault maxlag:lag=7 --fault 503:first=2', 'Lagged for every request that sends maxlag; the first two requests get a 503 page')
        .example('$0 replay --fixtures my-wiki.json --port 0', 'Serve your own fixture data on a free port')
        .example('$0 replay --cassettes cassettes --workers 2', 'Serve from two processes on one port: a login made through one works through the other'),
    async (argv) =>
      serve({
        mode: 'replay',
        port: argv.port,
        host: argv.host,
        ...(argv.cassettes !== undefined ? { cassettes: argv.cassettes } : {}),
        clock: argv.clock,
        onMiss: argv['on-miss'],
        ...(argv['track-usage'] ? { trackUsage: argv['track-usage'] } : {}),
        ...(argv.fault ? { faults: argv.fault } : {}),
        ...withLogger(argv),
        ...(argv.fixtures ? { fixtures: argv.fixtures } : {}),
      }, { workers: argv.workers, ...(argv['state-socket'] !== undefined ? { stateSocket: argv['state-socket'] } : {}), ...(argv.join !== undefined ? { join: argv.join } : {}) }),
  )
  .command(
    'record',
    'Forward api.php requests to a live wiki and store normalized cassettes',
    (y) =>
      y
        .options(serveFlags)
        .option('upstream', { type: 'string', demandOption: 'record needs --upstream, the api.php URL of the wiki to record', describe: "The live wiki's api.php URL" })
        .option('cassette', { type: 'string', default: 'default', describe: 'Cassette name: <cassettes>/<name>.json' })
        .option('mode', { choices: RECORD_MODES, default: 'new' as const, describe: 'new: answer what the cassette holds, ask the wiki and record only the rest; all: ask and store everything again; none: only replay' })
        .option('re-record', { type: 'boolean', default: false, describe: 'The same as --mode all' })
        .option('store', { choices: ['json', 'sqlite'] as const, default: 'json' as const, describe: 'The format of a cassette made new: <name>.json (small, kept in git) or <name>.sqlite (a database, for big wikis); one already there keeps its own' })
        .example('$0 record --upstream https://wiki.example/w/api.php', 'Record through http://127.0.0.1:8080/w/api.php'),
    (argv) =>
      serve({
        mode: 'record',
        port: argv.port,
        host: argv.host,
        cassettes: argv.cassettes,
        upstream: argv.upstream,
        cassette: argv.cassette,
        recordMode: argv['re-record'] ? 'all' : argv.mode,
        store: argv.store,
        ...withLogger(argv),
      }),
  )
  .command(
    'snapshot',
    'Record a complete cassette of a live wiki: every list, every page, every external link',
    (y) =>
      y
        .option('upstream', { type: 'string', demandOption: 'snapshot needs --upstream, the api.php URL of the wiki', describe: "The live wiki's api.php URL" })
        .option('cassettes', serveFlags.cassettes)
        .option('cassette', { type: 'string', default: 'snapshot', describe: 'Cassette name: <cassettes>/<name>.json' })
        .option('store', { choices: ['json', 'sqlite'] as const, default: 'json' as const, describe: 'The format of a cassette made new: <name>.json (small, kept in git) or <name>.sqlite (a database, for big wikis); one already there keeps its own' })
        .example('$0 snapshot --upstream https://wiki.example/w/api.php', 'Crawl the wiki into cassettes/snapshot.json (run again to resume)'),
    async (argv) => {
      const tty = process.stderr.isTTY === true;
      let last = 0;
      const done = await snapshot({
        upstream: argv.upstream,
        cassettes: argv.cassettes,
        cassette: argv.cassette,
        store: argv.store,
        onProgress: (p) => {
          const line = `${p.step}: ${p.requests} requests (${p.reused} already recorded), ${p.entries} entries`;
          if (tty) process.stderr.write(`\r\x1b[K${line}`);
          else if (Date.now() - last > 1000) {
            process.stderr.write(`${line}\n`);
            last = Date.now();
          }
        },
      });
      if (tty) process.stderr.write('\n');
      // The file it is kept in: one already there kept its own format, whatever --store said.
      const file = shown(new FileCassetteStore(argv.cassettes).locate(argv.cassette));
      process.stdout.write(`snapshot ${argv.cassette}: ${done.requests} requests (${done.reused} from an earlier run), ${done.entries} entries recorded in ${file}\n`);
      // What no crawl can learn, so that nobody takes replay's flags for a fault of the snapshot.
      const unknown = [
        ...(done.unknownLinkIds > 0 ? [`extlinks.id: the el_id of ${done.unknownLinkIds} link(s) (continuation tokens naming them are flagged)`] : []),
        'spamblacklist.patterns: the blacklist itself (the API never shows it; give it as fixtures, or record each spam check)',
      ];
      process.stdout.write(`still unknown to replay:\n${unknown.map((u) => `  ${u}\n`).join('')}`);
    },
  )
  .command(
    'cassettes <command> [name] [which]',
    'Inspect recorded cassettes: list [NAME], show NAME KEY|INDEX, verify, prune --usage FILE, explain QUERY, diff --upstream URL, convert FROM TO',
    (y) =>
      y
        .positional('command', { choices: ['list', 'show', 'verify', 'prune', 'explain', 'diff', 'convert'] as const, describe: 'What to do' })
        .option('upstream', { type: 'string', describe: "diff: the live wiki's api.php URL, asked every recorded walk again" })
        .option('cassette', { type: 'string', describe: 'diff: only this cassette' })
        .option('update', { type: 'boolean', default: false, describe: 'diff: record the changed and gone walks again, each from its first page to its last' })
        .option('concurrency', { type: 'number', default: 2, describe: 'diff: walks in flight at once' })
        .option('credentials', { type: 'string', describe: `diff: a JSON file of {"user": "Admin@mybot", "password": "…"} (or a list) to log in as, to check what was recorded logged in (or ${CREDENTIAL_VARIABLES.user} and ${CREDENTIAL_VARIABLES.password}); never stored or shown` })
        .option('usage', { type: 'string', describe: 'prune: the file replay --track-usage wrote' })
        .option('dry-run', { type: 'boolean', default: false, describe: 'prune: only say what would go' })
        .positional('name', { type: 'string', describe: 'Cassette name (show; list: its interactions with their index and key); explain: the query string' })
        .option('fixtures', { type: 'string', array: true, describe: 'explain: fixture files, as replay takes them' })
        .option('as', { type: 'string', describe: 'explain: ask as this logged-in account (User, or User@bot for a bot password), as the logs print it after " @"' })
        .positional('which', { type: 'string', describe: 'Interaction key or index (show); convert: the file to make' })
        .option('cassettes', serveFlags.cassettes)
        .example('$0 cassettes list', 'What is recorded, per cassette and module')
        .example('$0 cassettes convert cassettes/big.json cassettes/big.sqlite', 'A JSON cassette as a database cassette (or back: .sqlite to .json), then remove the old file')
        .example('$0 cassettes verify', 'Check that every file loads and every key is canonical (exit 1 if not)')
        .example('$0 cassettes prune --usage usage.json', 'Remove interactions no test run used (replay --track-usage usage.json)')
        .example('$0 cassettes diff --upstream https://wiki.example/w/api.php', `Ask the live wiki every recorded walk again: equal, changed, gone or unchecked (exit ${DIFF_EXIT.changed} if any changed or is gone, else ${DIFF_EXIT.unchecked} if any was not checked)`)
        .example('$0 cassettes explain "action=query&list=logevents&lelimit=7"', 'How replay would answer it, and the closest recordings (exit 1 unless recordings answer it exactly)')
        .example('$0 cassettes explain "action=query&meta=userinfo" --as Admin@bot', 'The same, asked in a session logged in as Admin@bot (or paste the log line: "action=query&meta=userinfo @Admin%40bot")'),
    async (argv) => {
      const dir = argv.cassettes;
      if (argv.command === 'convert') {
        if (!argv.name || !argv.which) throw new Error('convert needs the cassette file and the file to make of it: wikitape cassettes convert cassettes/big.json cassettes/big.sqlite');
        const done = await convertCassette(argv.name, argv.which, LIST_ENTITIES);
        // What replay's knowledge works out of the entities alone, worked out now (replay then reads no kind whole).
        if (done.to.endsWith('.sqlite')) prepareDatabaseFile(done.to, LIST_ENTITIES, KNOWLEDGE_ENTITIES);
        process.stdout.write(`converted ${argv.name} to ${done.to} (${done.interactions} interactions); replay reads either, but not both in one folder: remove one\n`);
      } else if (argv.command === 'list' && argv.name) {
        // One cassette's interactions: the index and key `show` takes.
        for (const [n, key] of (await listKeys(dir, argv.name)).entries()) process.stdout.write(`${n}\t${redactQuery(key)}\n`);
      } else if (argv.command === 'list') {
        for (const c of await listCassettes(dir)) {
          process.stdout.write(`${c.name}: ${c.interactions} interactions, MediaWiki ${c.version} (${c.language}), from ${c.upstream}, recorded ${c.recordedAt}\n`);
          for (const [m, n] of Object.entries(c.modules).sort()) process.stdout.write(`  ${m}: ${n}\n`);
        }
      } else if (argv.command === 'diff') {
        if (!argv.upstream) throw new Error('diff needs --upstream, the api.php URL of the live wiki to ask again');
        const credentials = await diffCredentials(process.env, argv.credentials);
        const tty = process.stderr.isTTY;
        let last = 0;
        const entries = await diffCassettes({
          upstream: argv.upstream,
          cassettes: dir,
          ...(argv.cassette ? { cassette: argv.cassette } : {}),
          update: argv.update,
          concurrency: argv.concurrency,
          credentials,
          onProgress: (done, total) => {
            if (tty) process.stderr.write(`\r\x1b[Kwalks asked again: ${done} of ${total}`);
            else if (Date.now() - last > 1000 || done === total) {
              process.stderr.write(`walks asked again: ${done} of ${total}\n`);
              last = Date.now();
            }
          },
        });
        if (tty) process.stderr.write('\n');
        const report = diffReport(entries, argv.update);
        process.stdout.write(report.text);
        process.exitCode = report.exit;
      } else if (argv.command === 'explain') {
        if (!argv.name) throw new Error('explain needs a question, as a query string: wikitape cassettes explain "action=query&list=logevents&lelimit=7"');
        const engine = await loadEngine({ cassettes: dir, ...(argv.fixtures ? { fixtures: argv.fixtures } : {}) });
        let e: ReturnType<typeof engine.explain>;
        try {
          e = engine.explain(argv.name, argv.as !== undefined ? { identity: argv.as } : {});
        } finally {
          engine.close();
        }
        const lines = [
          `question: ${e.key}`,
          `answer: ${e.source}, HTTP ${e.status}${e.error ? `, error ${e.error}` : ''}`,
          `from: ${e.used}`,
          `unknown: ${e.unknown.length > 0 ? e.unknown.join(', ') : 'nothing'}`,
          ...(e.nearMisses.length > 0 ? ['closest recordings (+: only the recording has it, -: only the question):', ...e.nearMisses.map((n) => `  ${n.key}\n    ${n.differences.join('; ')}`)] : []),
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
        process.exitCode = (e.source === 'cassette' || e.source === 'synthesized') && e.unknown.length === 0 ? 0 : 1;
      } else if (argv.command === 'verify') {
        const problems = await verifyCassettes(dir, KEY_RULES, LIST_ENTITIES);
        for (const p of problems) process.stderr.write(`${p}\n`);
        process.stdout.write(problems.length === 0 ? 'all cassettes are sound\n' : `${problems.length} problems\n`);
        process.exitCode = problems.length === 0 ? 0 : 1;
      } else if (argv.command === 'prune') {
        if (!argv.usage) throw new Error('prune needs --usage FILE, written by "wikitape replay --track-usage FILE"');
        const usage = await readUsage(argv.usage);
        if (usage.size === 0) throw new Error(`${argv.usage} names no used recordings: run your tests against "wikitape replay --cassettes ${argv.cassettes} --track-usage ${argv.usage}" first`);
        for (const r of await pruneCassettes(dir, usage, MODULES.query.list, argv['dry-run'], KNOWLEDGE_ENTITIES)) {
          process.stdout.write(`${r.name}: ${argv['dry-run'] ? 'would remove' : 'removed'} ${r.removed}, kept ${r.kept}\n`);
          for (const key of r.removedKeys) process.stdout.write(`  - ${redactQuery(key)}\n`);
        }
      } else {
        if (!argv.name || argv.which === undefined) throw new Error('show needs a cassette name and an interaction key or index');
        const i = await showInteraction(dir, argv.name, argv.which);
        if (!i) throw new Error(`no interaction "${argv.which}" in cassette ${argv.name}; "wikitape cassettes list" shows what is recorded`);
        process.stdout.write(`${JSON.stringify(redactInteraction(i), null, 2)}\n`);
      }
    },
  )
  .strict()
  .help()
  .fail((msg, err) => {
    const text = (err ? err.message : msg).replace(/^wikitape: /, '');
    process.stderr.write(`wikitape: ${text}\nRun "wikitape --help" for the commands and their options.\n`);
    process.exit(2);
  })
  .parseAsync();
