import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real servers on loopback; keep the two cores from oversubscribing.
    maxWorkers: 2,
    testTimeout: 20_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
