import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real servers on loopback; keep the two cores from oversubscribing.
    maxWorkers: 2,
    testTimeout: 20_000,
    // Polls wait for background work (workflows, webhooks, child processes): on a loaded 2-core
    // CI machine 1 s (the default) is too short.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default', './test/summary-reporter.ts'],
    // Installs Debian's chromium on CI where it is missing (the HTML report's DOM test).
    globalSetup: ['./test/setup/install-chromium.ts'],
  },
});
