// npm run mutate [-- --only id,id]: does npm test notice small changes to the source?
// Copies the repository (its files as they are in the working tree, as git lists them) to a
// temporary folder once, checks that the entries' tests pass there unchanged, then for each entry
// of scripts/mutations.mjs: applies it there (never in the working tree), builds dist/ (for the
// tests that start the CLI), runs its tests (vitest run --bail=1), puts the file back. A mutation
// the tests fail on is killed; one they pass survived; one whose text is not found once no longer
// applies (the code moved: update the entry). Exit 1 when any survived, 2 when the copy's tests
// fail without any change (a kill would mean nothing).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTATIONS } from './mutations.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** A mutant whose tests run longer than this counts as killed (a hang is noticed too). */
const RUN_LIMIT_MS = 10 * 60_000;

function parseOnly(argv) {
  const i = argv.indexOf('--only');
  return i < 0 ? null : new Set(argv[i + 1].split(','));
}

/** The repository's files (tracked, and new ones git does not ignore) copied; node_modules linked, dist/ built there. */
function scratchCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'wikitape-mutate-'));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const f of listed.stdout.split('\0')) {
    if (f === '' || !existsSync(join(ROOT, f))) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The entry's edits, each with the file's text and where `search` is (or why it is not usable). */
function locate(dir, m) {
  const edits = m.edits ?? [{ file: m.file, search: m.search, replace: m.replace }];
  return edits.map((e) => {
    const path = join(dir, e.file);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
    const count = text === null ? 0 : text.split(e.search).length - 1;
    const problem = text === null ? `${e.file} is gone` : count === 0 ? `not found in ${e.file}` : count > 1 ? `found ${count} times in ${e.file}` : null;
    return { ...e, path, text, problem };
  });
}

function run(dir, args) {
  const started = Date.now();
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: RUN_LIMIT_MS, env: { ...process.env, CI: 'true' } });
  return { status: r.status, timedOut: r.error?.code === 'ETIMEDOUT', output: `${r.stdout}${r.stderr}`, seconds: Math.round((Date.now() - started) / 1000) };
}

/**
 * dist/ for the tests that start the CLI. tsc emits even when a mutant does not type-check (an
 * unused variable left behind): vitest does not type-check either, so that is not a kill.
 * Incremental: after the first build only the changed file is checked again.
 */
const build = (dir) => run(dir, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--incremental', '--tsBuildInfoFile', join(dir, '.tsbuildinfo')]);

/** The failing test's name, from vitest's output (for the report line). */
function firstFailure(output) {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  return /FAIL\s+\S+\s+(\S+\.test\.ts) > (.*)/.exec(plain)?.slice(1).join(' > ').slice(0, 140) ?? '';
}

function mutate(dir, m) {
  const edits = locate(dir, m);
  const problems = edits.filter((e) => e.problem).map((e) => e.problem);
  if (problems.length > 0) return { result: 'no longer applies', detail: problems.join('; ') };
  for (const e of edits) writeFileSync(e.path, e.text.replace(e.search, () => e.replace));
  try {
    build(dir);
    const files = [...new Set(edits.map((e) => e.file))];
    const vitest = join(dir, 'node_modules', 'vitest', 'vitest.mjs');
    const args = m.tests ? [vitest, 'run', '--project', 'unit', '--bail=1', ...m.tests] : [vitest, 'related', '--run', '--project', 'unit', '--bail=1', ...files];
    const t = run(dir, args);
    if (t.timedOut) return { result: 'killed', detail: `the tests ran past ${RUN_LIMIT_MS / 60_000} min` };
    if (/No test files found/.test(t.output)) return { result: 'no longer applies', detail: 'no test file to run' };
    return t.status === 0 ? { result: 'survived', detail: `${t.seconds} s` } : { result: 'killed', detail: `${firstFailure(t.output)} (${t.seconds} s)` };
  } finally {
    for (const e of edits) writeFileSync(e.path, e.text);
  }
}

const only = parseOnly(process.argv.slice(2));
const chosen = MUTATIONS.filter((m) => !only || only.has(m.id));
const dir = scratchCopy();
process.stdout.write(`mutation check: ${chosen.length} mutations, in a copy at ${dir}\n`);
const results = [];
try {
  if (build(dir).status !== 0 || !existsSync(join(dir, 'dist', 'cli.js'))) throw new Error('the source as it is does not build: fix that first');
  const listed = [...new Set(chosen.flatMap((m) => m.tests ?? []))];
  if (listed.length > 0) {
    const base = run(dir, [join(dir, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', 'unit', ...listed]);
    if (base.status !== 0) {
      process.stderr.write(`mutation check: the tests fail in the copy without any change (${firstFailure(base.output)}): fix that first\n`);
      process.exitCode = 2;
      chosen.length = 0;
    } else process.stdout.write(`the entries' tests pass unchanged (${base.seconds} s)\n`);
  }
  for (const m of chosen) {
    const r = mutate(dir, m);
    results.push({ ...m, ...r });
    process.stdout.write(`${r.result.padEnd(17)} ${m.id}: ${m.what}\n${' '.repeat(18)}${r.detail}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const count = (k) => results.filter((r) => r.result === k).length;
const applied = count('killed') + count('survived');
process.stdout.write(`\nscore: ${count('killed')} of ${applied} killed${applied ? ` (${Math.round((100 * count('killed')) / applied)}%)` : ''}; ${count('survived')} survived; ${count('no longer applies')} no longer apply\n`);
process.exit(process.exitCode ?? (count('survived') > 0 ? 1 : 0));
