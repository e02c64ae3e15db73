import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { countIn, importArgs, makeWorkspace, readResults, runCli } from './e2e-fixtures.js';
import { expectedClaimId, oneToThreeRows, plannedRows, writeDisputesCsv } from './generate.js';

/**
 * An import sends its first claims while later rows are still staged (docs/import.md, "What
 * happens, in order"), each claim once its rows are in: the results say every row once, in
 * order, the service holds each claim once, and the summary says how much of sending overlapped.
 */

interface LogLine {
  msg?: string;
  time?: number;
  phasesOverlapMs?: Record<string, number>;
  outcomes?: Record<string, number>;
}

describe('import: sending while staging', () => {
  it('creates the first claims before the last rows are staged, and every claim once', async () => {
    const { sandbox } = await startTestSandbox();
    const workspace = await makeWorkspace();
    const input = `${workspace.dir}/night.csv`;
    // The rows of a claim up to 4 rows apart, as a report interleaving its disputes writes them.
    const specs = [...plannedRows({ rows: 6_000, sizeOf: oneToThreeRows, block: 4 })];
    await writeDisputesCsv(input, specs);
    const claims = new Set(specs.map((spec) => spec.claim));

    const run = await runCli(
      [
        '--log-format',
        'json',
        '--log-level',
        'debug',
        ...importArgs(workspace, input, ['--base-url', sandbox.url, '--file-mode', 'none', '--concurrency', '16']),
      ],
      { CLAIMS_API_KEY: sandboxKey },
    );

    expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
    const lines = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
    const staged = lines.find((line) => line.msg === 'input staged');
    const firstRequest = lines.find((line) => line.msg === 'claims request');
    expect(firstRequest?.time).toBeLessThan(staged?.time ?? 0);
    const finished = lines.find((line) => line.msg === 'import finished');
    expect(finished?.phasesOverlapMs?.sending).toBeGreaterThan(0);
    expect(finished?.outcomes).toEqual({ created: specs.length });

    const results = await readResults(workspace.results);
    expect(results.rows.map((row) => Number(row.line))).toEqual(specs.map((_, place) => place + 2));
    expect(countIn(sandbox, 'claims')).toBe(claims.size);
    expect(new Set(results.rows.map((row) => row.claim_id))).toEqual(
      new Set([...claims].map((claim) => expectedClaimId(claim))),
    );
  });
});
