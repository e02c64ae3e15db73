import { describe, expect, it } from 'vitest';
import { createFaultInjector } from '../../src/sandbox/faults/seeded-faults.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { csvOf, fraudRow, importArgs, makeWorkspace, readResults, runCli } from './e2e-fixtures.js';

/**
 * `--breaker-threshold N` (docs/rate-limits.md, "The breaker"): a service failing every claim
 * stops the run once N claims have failed on its side, exit 3; by default at 5. The claims not
 * reached stay for the next run.
 */

const env = { CLAIMS_API_KEY: sandboxKey };

/** The run's exit code, and its rows failed on the service's side (one claim a row). */
async function failingRun(flags: readonly string[]): Promise<{ exitCode: number; failed: number; stderr: string }> {
  const { sandbox } = await startTestSandbox({ faults: createFaultInjector({ failRate: 1, retryAfterSeconds: 0 }) });
  const workspace = await makeWorkspace();
  const rows = Array.from({ length: 12 }, (_, index) => fraudRow(`D${index}`, `T${index}`));
  const input = await workspace.write('disputes.csv', csvOf(rows));
  const run = await runCli(
    [
      ...importArgs(workspace, input, ['--base-url', sandbox.url, '--concurrency', '1', ...flags]),
      '--log-format',
      'pretty',
    ],
    env,
  );
  const { rows: results } = await readResults(workspace.results);
  return {
    exitCode: run.exitCode,
    failed: results.filter((row) => row.error_code === 'CLAIMS_UNAVAILABLE').length,
    stderr: run.stderr,
  };
}

describe('import --breaker-threshold', () => {
  it('stops a run against a failing service after that many failed claims, and after 5 without it', async () => {
    const two = await failingRun(['--breaker-threshold', '2']);
    expect(two.exitCode, two.stderr).toBe(3);
    // The claims failed before the breaker opened (one more may have been in flight as it did).
    expect(two.failed).toBeGreaterThanOrEqual(2);
    expect(two.failed).toBeLessThanOrEqual(3);

    const byDefault = await failingRun([]);
    expect(byDefault.exitCode, byDefault.stderr).toBe(3);
    expect(byDefault.failed).toBeGreaterThanOrEqual(5);
    expect(byDefault.failed).toBeLessThanOrEqual(6);
  });

  it('refuses a threshold that is not a whole number from 1, before anything is read', async () => {
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('D', 'T')]));
    const run = await runCli(importArgs(workspace, input, ['--breaker-threshold', '0']), env);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--breaker-threshold');
  });
});
