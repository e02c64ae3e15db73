import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { csvOf, fraudRow, importArgs, makeWorkspace, runCli } from './e2e-fixtures.js';

/**
 * The JSON line `import finished` carries how long each phase took, as the summary's `took` line
 * says it (docs/import.md, "Progress and logs"): what a night's monitoring reads of where the
 * time went.
 */

describe('import: the finished record times its phases', () => {
  it('gives staging, sending and results in whole milliseconds, in the order they ran', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = await workspace.write('disputes.csv', csvOf([fraudRow('A', 'T1'), fraudRow('B', 'T1')]));

    const startedMs = Date.now();
    const run = await runCli(['--log-format', 'json', ...importArgs(workspace, input, ['--base-url', sandbox.url])], {
      CLAIMS_API_KEY: sandboxKey,
    });
    const wallMs = Date.now() - startedMs;

    expect(run.exitCode, run.stderr).toBe(0);
    const finished = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(
        (line) =>
          JSON.parse(line) as {
            msg: string;
            phasesMs?: Record<string, number>;
            phasesOverlapMs?: Record<string, number>;
          },
      )
      .find((line) => line.msg === 'import finished');
    const phasesMs = finished?.phasesMs ?? {};
    expect(Object.keys(phasesMs)).toEqual(['staging', 'sending', 'results']);
    for (const ms of Object.values(phasesMs)) {
      expect(Number.isInteger(ms)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(0);
    }
    // Sending may start while staging goes on: that time is in both.
    const overlapMs = finished?.phasesOverlapMs ?? {};
    expect(Object.keys(overlapMs).every((phase) => phase === 'sending')).toBe(true);
    const summed = Object.values(phasesMs).reduce((sum, ms) => sum + ms, 0) - (overlapMs.sending ?? 0);
    expect(summed).toBeLessThanOrEqual(wallMs);
  });
});
