import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The built CLI (`npm test` builds it first). */
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');
const ROOT = join(import.meta.dirname, '..', '..');

/** Runs a CLI command to its end: exit code and what it printed. */
export function runCli(args: string[], cwd = ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A serving CLI command (replay, record) on a free port; `stop` sends SIGTERM and gives the exit code. */
export interface CliServer {
  url: string;
  stdout(): string;
  stderr(): string;
  stop(): Promise<number | null>;
}

export function startCli(args: string[], cwd = ROOT): Promise<CliServer> {
  const child = spawn(process.execPath, [CLI, ...args, '--port', '0'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = () => {
      const m = /: (http\S+)\n/.exec(stdout);
      if (!m) return;
      child.stdout.off('data', onData);
      resolve({
        url: m[1]!,
        stdout: () => stdout,
        stderr: () => stderr,
        stop: async () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then((code) => reject(new Error(`wikitape ${args.join(' ')} exited with ${code} before serving: ${stderr}`)));
  });
}
