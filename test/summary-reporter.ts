import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends a run with one plain line, `N passed, N failed, N skipped`, that any CI can read beside
 * vitest's own summary. Failed modules (a file that did not load) count as failures.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed++;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
