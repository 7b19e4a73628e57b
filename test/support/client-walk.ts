import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs a client library's walk script (test/clients/) and reads the one JSON document it prints,
 * without `apiUrl`. The parser's limit report carries the time of each parse (it differs between
 * any two answers): masked. A client's own warnings (mwn's "[W] Retrying …" after a reset under
 * load) come before the document: shown, not parsed.
 */
export async function walkOutput(client: { name: string; cmd: string; args: string[] }, env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const { stdout } = await run(client.cmd, client.args, { env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
  const steady = stdout.replace(/Cached time: \d+/g, 'Cached time: T').replace(/(CPU|Real) time usage: [\d.]+ seconds?/g, '$1 time usage: S').replace(/100\.00% +[\d.]+ +\d+ -total/g, 'total');
  const start = steady.startsWith('{') ? 0 : steady.indexOf('\n{') + 1;
  if (start > 0) console.log(`${client.name}: ${steady.slice(0, start).trim()}`);
  const out = JSON.parse(steady.slice(start)) as Record<string, unknown>;
  delete out['apiUrl'];
  return out;
}
