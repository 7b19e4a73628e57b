import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect } from 'vitest';

/**
 * vitest setupFiles of every project: each test file writes its temporary files (mkdtemp(tmpdir()),
 * and those of the servers and CLIs it starts) to a folder of its own, named after the file, in the
 * run's folder (test/support/scratch-tmp.ts), removed once the file's own afterAll hooks have run,
 * whether its tests passed or not. WIKITAPE_KEEP_TMP=1 keeps it, for a failed test's evidence.
 * Runs before the test file is imported, so a folder made at a module's top level is in it too.
 */
const run = process.env['WIKITAPE_RUN_TMPDIR'];
if (run !== undefined) {
  const dir = mkdtempSync(join(tmpdir(), `${basename(expect.getState().testPath ?? 'test')}-`));
  process.env['TMPDIR'] = dir;
  afterAll(() => {
    process.env['TMPDIR'] = run;
    if (process.env['WIKITAPE_KEEP_TMP'] !== '1') rmSync(dir, { recursive: true, force: true });
  });
}
