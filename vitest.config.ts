import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Every test file's temporary files go to a folder of its own, removed when it ends; the run fails
// if anything is left in the run's folder (WIKITAPE_KEEP_TMP=1 keeps them all).
const SCRATCH_RUN = 'test/support/scratch-tmp.ts';
const SCRATCH_FILE = 'test/support/scratch-file.ts';
// The live tests ask the live wikis (and write to them): only a run that names their project
// (`npm run test:live`, whose scripts/test-live.mjs runs `vitest run --project live`) has it, so a
// bare `npx vitest run` runs the unit and example tiers, as `npm test` does.
const argv = process.argv;
const LIVE = argv.includes('--project=live') || argv.some((a, i) => a === 'live' && argv[i - 1] === '--project');

export default defineConfig({
  test: {
    // One test file per core (vitest's default leaves one core out): most integration files wait on
    // the servers and CLIs they start, and on two cores `npm test` took 170 s where it takes 105 s.
    maxWorkers: availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          // The integration tests run servers and sockets in this process: a test of half a second
          // takes 10 s on a busy machine (npm test beside other work on two cores, 10-20 times
          // slower), past vitest's 5 s. Tests that start the CLI or run a workload say their own
          // time (test/support/cli.ts cliTest, the fuzz and cost tests).
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: [SCRATCH_RUN],
          setupFiles: [SCRATCH_FILE],
          // Every cassette the tests replay checks that its walks' summaries teach what its answers teach (docs/decisions/0020).
          env: { WIKITAPE_CHECK_SUMMARIES: '1' },
        },
      },
      {
        test: {
          name: 'example',
          include: ['test/example/**/*.test.ts'],
          globalSetup: [SCRATCH_RUN, 'test/example/global-setup.ts'],
          setupFiles: [SCRATCH_FILE],
        },
      },
      ...(LIVE ? [liveProject()] : []),
    ],
  },
});

function liveProject() {
  return {
    test: {
      name: 'live',
      include: ['test/live/**/*.test.ts'],
      testTimeout: 120_000,
      hookTimeout: 300_000,
      fileParallelism: false,
      globalSetup: [SCRATCH_RUN],
      setupFiles: [SCRATCH_FILE],
    },
  };
}
