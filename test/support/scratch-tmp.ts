import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest globalSetup of `npm test`: the run's temporary files go to one folder of its own, removed
 * when the run ends. Tests make cassette folders, fixtures and CLI homes with mkdtemp(tmpdir());
 * without this, every run left a few thousand of them in the system's temporary folder. The test
 * workers start after this runs and take TMPDIR from the environment (os.tmpdir() reads it).
 * Not used by the live tier: the live wikis' PHP servers it may start outlive the run and must not
 * inherit a folder that is removed under them.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'wikitape-test-run-'));
  const before = process.env['TMPDIR'];
  process.env['TMPDIR'] = dir;
  return () => {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
