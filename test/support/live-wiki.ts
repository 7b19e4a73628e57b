import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'live-wiki.sh');

/** The real MediaWiki 1.39 that `scripts/live-wiki.sh` installs, starts and fills. */
export interface LiveWiki {
  /** Its api.php, e.g. `http://127.0.0.1:8088/wiki/api.php`. */
  apiUrl: string;
  /** Its directory (`WIKITAPE_LIVE_DIR`, default `/tmp/wikitape-live`): settings, database, logs. */
  dir: string;
  /** The bot password (grants basic, highvolume) the script made for tests that log in. */
  credentials(): Promise<{ user: string; password: string }>;
}

let started: Promise<LiveWiki> | undefined;

/**
 * Starts the live wiki once per process (a no-op of a few milliseconds when it already runs) and
 * returns where it is. The script's progress lines go to its stderr, which is kept out of the test
 * output and shown only in the error if it fails.
 */
export async function liveWiki(): Promise<LiveWiki> {
  started ??= start();
  return started;
}

async function start(): Promise<LiveWiki> {
  const { stdout } = await run('bash', [SCRIPT, 'start'], { maxBuffer: 16 << 20, env: process.env });
  const apiUrl = stdout.trim().split('\n').pop() ?? '';
  if (!/^http:\/\/127\.0\.0\.1:\d+\/wiki\/api\.php$/.test(apiUrl)) {
    throw new Error(`live-wiki: scripts/live-wiki.sh start printed no api.php URL (got ${JSON.stringify(apiUrl)})`);
  }
  const dir = (process.env['WIKITAPE_LIVE_DIR'] ?? '/tmp/wikitape-live').replace(/\/+$/, '');
  return {
    apiUrl,
    dir,
    credentials: async () => JSON.parse(await readFile(join(dir, 'bot-credentials.json'), 'utf8')) as { user: string; password: string },
  };
}
