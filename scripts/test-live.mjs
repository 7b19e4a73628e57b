// npm run test:live (after scripts/live-wiki.sh has started the wikis): the live test files, one
// lane per MediaWiki version, the lanes at the same time. Each lane is a vitest run of the live
// project with WIKITAPE_LIVE_VERSIONS set to its version, so it only asks its own wiki; within a
// lane the files run one after another, as they must (some write to their wiki, and a differential
// compares what it recorded from the wiki with what the wiki says next). The two wikis are separate
// installs (their own databases, caches and PHP servers), so one lane's writes never reach the
// other's answers. A file that does not name its versions (LIVE_VERSIONS, test/support/live-wiki.ts)
// asks no wiki and runs once: in a lane of its own (it mostly waits on npm and the network), or,
// when arguments choose the files, in the last lane; so do a versioned file's questions that need
// no wiki (LIVE_ONCE: WIKITAPE_LIVE_ONCE=0 in the other lanes).
//
// Arguments are passed to every lane's vitest (a file filter, -t …). WIKITAPE_LIVE_VERSIONS picks
// the versions (default both); with one version there is one lane, and its output is not prefixed.
// WIKITAPE_LIVE_LANES=1 runs the versions in one lane, one after the other, as before.
// Exits with the first failing lane's code, after every lane has finished.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const versions = (process.env.WIKITAPE_LIVE_VERSIONS ?? '1.39,1.43').split(',').map((v) => v.trim()).filter(Boolean);
const oneLane = versions.length < 2 || process.env.WIKITAPE_LIVE_LANES === '1';
const args = process.argv.slice(2);

/** The live files that do not name their versions: run once. */
const LIVE_DIR = join(ROOT, 'test', 'live');
const unversioned = readdirSync(LIVE_DIR)
  .filter((f) => f.endsWith('.test.ts') && !readFileSync(join(LIVE_DIR, f), 'utf8').includes('LIVE_VERSIONS'))
  .map((f) => `test/live/${f}`);

/**
 * Each lane: its name (the output's prefix), the versions it asks, the files it leaves out (they
 * run in another lane) or runs alone, and whether it asks the questions that need no wiki inside
 * versioned files (one lane does).
 */
const last = versions.length - 1;
const ownLane = !oneLane && args.length === 0 && unversioned.length > 0;
const lanes = oneLane
  ? [{ name: '', versions, exclude: [], only: [], once: true }]
  : [
      ...versions.map((v, i) => ({ name: v, versions: [v], exclude: i === last && !ownLane ? [] : unversioned, only: [], once: i === last })),
      ...(ownLane ? [{ name: 'no wiki', versions, exclude: [], only: unversioned, once: false }] : []),
    ];

const children = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const c of children) c.kill(signal);
  });
}

/** Copies a stream to ours line by line, each line prefixed with its lane (whole lines, so lanes never mix within a line). */
function relay(stream, to, prefix) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (d) => {
    const lines = (rest + d).split('\n');
    rest = lines.pop();
    if (lines.length > 0) to.write(lines.map((l) => prefix + l).join('\n') + '\n');
  });
  stream.on('end', () => rest && to.write(prefix + rest + '\n'));
}

function runLane(lane) {
  // A lane that leaves files out passes when the arguments chose only those (another lane runs them).
  const excluded = lane.exclude.length > 0 ? ['--passWithNoTests', ...lane.exclude.flatMap((f) => ['--exclude', f])] : [];
  const argv = [VITEST, 'run', '--project', 'live', ...excluded, ...lane.only, ...args];
  // The questions that need no wiki (LIVE_ONCE, test/support/live-wiki.ts) in one version's lane only.
  const env = { ...process.env, WIKITAPE_LIVE_VERSIONS: lane.versions.join(','), ...(lane.once ? {} : { WIKITAPE_LIVE_ONCE: '0' }) };
  const prefix = lane.name ? `[${lane.name}] ` : '';
  const child = spawn(process.execPath, argv, { cwd: ROOT, env, stdio: ['ignore', prefix ? 'pipe' : 'inherit', prefix ? 'pipe' : 'inherit'] });
  children.add(child);
  if (prefix) {
    relay(child.stdout, process.stdout, prefix);
    relay(child.stderr, process.stderr, prefix);
  }
  const started = Date.now();
  return new Promise((resolve) => {
    child.on('error', (e) => {
      process.stderr.write(`test:live: ${prefix}could not start vitest: ${e.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      children.delete(child);
      const status = code ?? 1;
      if (prefix) process.stderr.write(`test:live: lane ${lane.name} ${status === 0 ? 'passed' : `failed (${signal ?? code})`} in ${Math.round((Date.now() - started) / 1000)} s\n`);
      resolve(status);
    });
  });
}

const codes = await Promise.all(lanes.map(runLane));
process.exitCode = codes.find((c) => c !== 0) ?? 0;
