import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
          globalSetup: ['test/support/scratch-tmp.ts'],
          // Every cassette the tests replay checks that its walks' summaries teach what its answers teach (docs/decisions/0020).
          env: { WIKITAPE_CHECK_SUMMARIES: '1' },
        },
      },
      {
        test: {
          name: 'example',
          include: ['test/example/**/*.test.ts'],
          globalSetup: ['test/example/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'live',
          include: ['test/live/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
