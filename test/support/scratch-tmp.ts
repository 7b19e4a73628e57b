import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set to 1 to keep every temporary folder of a run (for a failed test's evidence); the run says where it is. */
const KEEP = process.env['WIKITAPE_KEEP_TMP'] === '1';

/**
 * vitest globalSetup of every project: the run's temporary files go to one folder of its own
 * (TMPDIR: os.tmpdir() reads it, the processes tests start inherit it), and each test file's to a
 * folder of its own in it (test/support/scratch-file.ts, which removes it when the file ends). The
 * run's folder must then be empty when the run ends: what is left was written outside a test file's
 * time (a server or child process a test did not stop, a global setup), and the run fails naming
 * it. Without this, every run left a few thousand folders in the system's temporary folder. The
 * live wikis' PHP servers outlive the run: test/support/live-wiki.ts starts them with the system's
 * folder (WIKITAPE_OUTER_TMPDIR). Projects of one run share the first one's folder.
 */
export default function setup(): () => void {
  if (process.env['WIKITAPE_RUN_TMPDIR'] !== undefined) return () => {};
  const before = process.env['TMPDIR'];
  const dir = mkdtempSync(join(tmpdir(), 'wikitape-test-run-'));
  process.env['WIKITAPE_RUN_TMPDIR'] = dir;
  process.env['WIKITAPE_OUTER_TMPDIR'] = before ?? '';
  process.env['TMPDIR'] = dir;
  return () => {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
    delete process.env['WIKITAPE_RUN_TMPDIR'];
    delete process.env['WIKITAPE_OUTER_TMPDIR'];
    if (KEEP) {
      console.error(`wikitape tests: the run's temporary files are kept in ${dir} (WIKITAPE_KEEP_TMP=1)`);
      return;
    }
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    if (left.length > 0) {
      console.error(`wikitape tests: something wrote ${left.join(', ')} to the run's temporary folder ${dir} outside a test file's time (a process a test did not stop?); removed`);
      process.exitCode = 1;
    }
  };
}
