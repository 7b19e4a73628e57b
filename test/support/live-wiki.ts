import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface LiveWiki {
  apiUrl: string;
  dir: string;
  /** The bot password the live-wiki script made for tests. */
  credentials(): Promise<{ user: string; password: string }>;
}

let started: Promise<LiveWiki> | null = null;

/** Starts (once per process) the real MediaWiki of `scripts/live-wiki.sh` and returns its api.php URL. */
export function liveWiki(): Promise<LiveWiki> {
  started ??= (async () => {
    const { stdout } = await run('bash', [join(ROOT, 'scripts', 'live-wiki.sh'), 'start'], { maxBuffer: 16 << 20 });
    const apiUrl = stdout.trim().split('\n').pop()!;
    const dir = process.env['WIKITAPE_LIVE_DIR'] ?? '/tmp/wikitape-live';
    return {
      apiUrl,
      dir,
      credentials: async () => JSON.parse(await readFile(join(dir, 'bot-credentials.json'), 'utf8')) as { user: string; password: string },
    };
  })();
  return started;
}
