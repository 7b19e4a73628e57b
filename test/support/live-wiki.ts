import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'live-wiki.sh');

/** The MediaWiki versions `scripts/live-wiki.sh` runs: 1.39 LTS (bookworm) and 1.43 LTS (trixie's packages). */
export type LiveVersion = '1.39' | '1.43';

/**
 * The versions the live tier tests against: `WIKITAPE_LIVE_VERSIONS` (comma-separated), default both.
 * `npm run test:live` starts both wikis first.
 */
export const LIVE_VERSIONS: LiveVersion[] = (process.env['WIKITAPE_LIVE_VERSIONS'] ?? '1.39,1.43').split(',').map((v) => v.trim()).filter((v): v is LiveVersion => v === '1.39' || v === '1.43');

/**
 * Whether this run asks the live tier's questions that need no wiki (a file's checks of its own
 * tables, wikitape's HTML page in a browser): scripts/test-live.mjs runs the versions in lanes at
 * the same time and sets `WIKITAPE_LIVE_ONCE=0` in all lanes but one, so that they run once.
 */
export const LIVE_ONCE = process.env['WIKITAPE_LIVE_ONCE'] !== '0';

/** A real MediaWiki that `scripts/live-wiki.sh` installs, starts and fills. */
export interface LiveWiki {
  version: LiveVersion;
  /** Its api.php, e.g. `http://127.0.0.1:8088/wiki/api.php` (1.43: port 8089; `WIKITAPE_LIVE_PORT`, `WIKITAPE_LIVE143_PORT`). */
  apiUrl: string;
  /** Its directory (`WIKITAPE_LIVE_DIR`, default `/tmp/wikitape-live`; 1.43: `WIKITAPE_LIVE143_DIR`, default `/tmp/wikitape-live143`): settings, database, logs. */
  dir: string;
  /** The bot password (grants basic, highvolume) the script made for tests that log in. */
  credentials(): Promise<{ user: string; password: string }>;
  /** A bot password that may also edit and create pages (the client tests' one edit). */
  editorCredentials(): Promise<{ user: string; password: string }>;
  /** A bot password that may also block (a change to the wiki under a recorded cassette). */
  adminCredentials(): Promise<{ user: string; password: string }>;
}

const started = new Map<LiveVersion, Promise<LiveWiki>>();

/**
 * Starts a live wiki once per process (a no-op of a few milliseconds when it already runs) and
 * returns where it is. The script's progress lines go to its stderr, which is kept out of the test
 * output and shown only in the error if it fails.
 */
export async function liveWiki(version: LiveVersion = '1.39'): Promise<LiveWiki> {
  let s = started.get(version);
  if (!s) started.set(version, (s = start(version)));
  return s;
}

async function start(version: LiveVersion): Promise<LiveWiki> {
  // WIKITAPE_LIVE_DIR and _PORT name the 1.39 wiki, WIKITAPE_LIVE143_DIR and _PORT the 1.43 one (the script reads them so).
  const env: NodeJS.ProcessEnv = { ...process.env, WIKITAPE_LIVE_MW: version };
  // Its PHP server outlives the run: it keeps the system's temporary folder, not the run's (test/support/scratch-tmp.ts).
  const outer = process.env['WIKITAPE_OUTER_TMPDIR'];
  if (outer === '') delete env['TMPDIR'];
  else if (outer !== undefined) env['TMPDIR'] = outer;
  const { stdout } = await run('bash', [SCRIPT, 'start'], { maxBuffer: 16 << 20, env });
  const apiUrl = stdout.trim().split('\n').pop() ?? '';
  if (!/^http:\/\/127\.0\.0\.1:\d+\/wiki\/api\.php$/.test(apiUrl)) {
    throw new Error(`live-wiki: scripts/live-wiki.sh start (MediaWiki ${version}) printed no api.php URL (got ${JSON.stringify(apiUrl)})`);
  }
  const dir = (version === '1.39' ? (process.env['WIKITAPE_LIVE_DIR'] ?? '/tmp/wikitape-live') : (process.env['WIKITAPE_LIVE143_DIR'] ?? '/tmp/wikitape-live143')).replace(/\/+$/, '');
  return {
    version,
    apiUrl,
    dir,
    credentials: async () => JSON.parse(await readFile(join(dir, 'bot-credentials.json'), 'utf8')) as { user: string; password: string },
    editorCredentials: async () => JSON.parse(await readFile(join(dir, 'editor-credentials.json'), 'utf8')) as { user: string; password: string },
    adminCredentials: async () => JSON.parse(await readFile(join(dir, 'admin-credentials.json'), 'utf8')) as { user: string; password: string },
  };
}
