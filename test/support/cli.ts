import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** The built CLI (`npm test` builds it first). */
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const ROOT = join(import.meta.dirname, '..', '..');

/**
 * How long one CLI process may take in a test, from spawn to exit (or to serving). A start costs
 * about 0.4 s of CPU: 1 s on an idle two-core machine, 4 s beside four CPU-bound processes, more
 * while vitest's other workers run; the rest is headroom for a slower machine. Past it the process
 * is killed and the test fails saying which command hung and what it printed.
 */
export const CLI_RUN_MS = 60_000;

/**
 * Options for a test that starts the CLI `runs` times (in turn): each run may take CLI_RUN_MS,
 * never vitest's 5 s default, which a busy machine passes with one start.
 */
export function cliTest(runs: number): { timeout: number } {
  return { timeout: runs * CLI_RUN_MS + 10_000 };
}

/** Where and how the CLI runs. */
export interface CliOptions {
  /** Working directory. Default the repository. */
  cwd?: string;
  /** Node options before the script, e.g. `['--import', probe]`. Default none. */
  nodeArgs?: string[];
  /** Environment variables set (or, as undefined, unset) for the process, over this one's. */
  env?: Record<string, string | undefined>;
  /** runCli: how long the command may run, for one that does more than start (a snapshot of a live wiki). Default CLI_RUN_MS. */
  runMs?: number;
}

/**
 * The CLI processes still running. A test that times out never reaches its `finally` and stop():
 * they are killed once the test file's tests are over, not left to run on (a server busy in a
 * loop once ran for 80 minutes after its test gave up, taking a core from every later run). The
 * hook is the importing test file's: each file imports this module afresh (vitest isolates files).
 */
const running = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** A CLI process whose output is collected; `closed` resolves once it exited and its output is read to the end. */
function spawnCli(args: string[], options: CliOptions | string) {
  // (a working directory alone, as the helpers once took it)
  const { cwd = ROOT, nodeArgs = [], env = {} } = typeof options === 'string' ? { cwd: options } : options;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [...nodeArgs, CLI, ...args], { cwd, env: { ...process.env, ...env } });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.stdin.end();
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  // 'close', not 'exit': 'exit' can come before the last of stdout is read.
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const hung = (what: string, ms = CLI_RUN_MS) => new Error(`wikitape ${args.join(' ')} ${what} within ${ms} ms; it printed:\n${out.stdout}\n${out.stderr}`);
  return { child, out, closed, hung };
}

/** Runs a CLI command to its end: exit code and what it printed. */
export async function runCli(args: string[], options: CliOptions | string = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { child, out, closed, hung } = spawnCli(args, options);
  const runMs = (typeof options === 'string' ? undefined : options.runMs) ?? CLI_RUN_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(hung('did not exit', runMs));
    }, runMs);
  });
  try {
    const code = await Promise.race([closed, timeout]);
    return { code, ...out };
  } finally {
    clearTimeout(timer);
  }
}

/** A serving CLI command (replay, record) on a free port. */
export interface CliServer {
  url: string;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout or stderr holds `text` (fails when the process ends or CLI_RUN_MS passes first). */
  printed(text: string): Promise<void>;
  /** Sends SIGTERM; the exit code once the process has exited and its output is read. */
  stop(): Promise<number | null>;
}

/** Starts a serving CLI command with `--port 0`; resolves once it prints its address. */
export async function startCli(args: string[], options: CliOptions | string = {}): Promise<CliServer> {
  const { child, out, closed, hung } = spawnCli([...args, '--port', '0'], options);
  const printed = (test: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!test()) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(hung(what));
      }, CLI_RUN_MS);
      const ended = (code: number | null) => {
        done();
        reject(new Error(`wikitape ${args.join(' ')} exited with ${code} before it ${what}: ${out.stderr}`));
      };
      const done = () => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        child.off('close', ended);
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.once('close', ended);
      check();
    });
  await printed(() => /: http\S+\n/.test(out.stdout), 'served');
  return {
    url: /: (http\S+)\n/.exec(out.stdout)![1]!,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    printed: (text) => printed(() => out.stdout.includes(text) || out.stderr.includes(text), `printed ${JSON.stringify(text)}`),
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), CLI_RUN_MS);
      try {
        return await closed;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
