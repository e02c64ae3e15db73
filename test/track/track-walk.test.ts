import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { fraudClaim, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { makeWorkspace, runCli } from '../import/e2e-fixtures.js';

/**
 * Many cases: the first run walks the case list (a page holds 100) instead of retrieving each,
 * in parts at once, and the requests stay near the fewest the list allows. Other cases in the
 * environment, created before and after the job's, are never read one by one.
 */
describe('track, the first read of many cases', () => {
  it('walks the list in parts and reads each case once, near one request per page', async () => {
    const workspace = await makeWorkspace();
    const testSandbox = await startTestSandbox();
    const create = async (prefix: string, count: number) => {
      const ids: string[] = [];
      for (let start = 0; start < count; start += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, count - start) }, async (_, offset) => {
            const claimId = `${prefix}-${String(start + offset).padStart(5, '0')}`;
            await testSandbox.client.claims.createWithCases(fraudClaim(claimId));
          }),
        );
        for (let offset = 0; offset < Math.min(50, count - start); offset++)
          ids.push(`${prefix}-${String(start + offset).padStart(5, '0')}-case-1`);
      }
      return ids;
    };
    await create('BEFORE', 150);
    const ours = await create('NIGHT', 1200);
    await create('AFTER', 150);
    await writeFile(join(workspace.dir, 'night.csv'), `case_id\n${ours.join('\n')}\n`);
    const run = await runCli(
      [
        'track',
        join(workspace.dir, 'night.csv'),
        '--results',
        join(workspace.dir, 'night.track.csv'),
        '--concurrency',
        '4',
        '--base-url',
        testSandbox.sandbox.url,
        '--log-format',
        'json',
      ],
      { CLAIMS_API_KEY: sandboxKey },
    );
    // Created and never filed: every case is on the worklist, so the run exits 1.
    expect(run.exitCode, run.stderr).toBe(1);
    const record = JSON.parse(
      run.stderr.split('\n').find((line) => line.includes('"msg":"track finished"')) ?? '{}',
    ) as { requests: Record<string, number> };
    const status = parse<Record<string, string>>(await readFile(join(workspace.dir, 'night.track.csv'), 'utf8'), {
      columns: true,
    });
    expect(status).toHaveLength(1200);
    expect(status.every((line) => line.status === 'created' && line.changed === 'new')).toBe(true);
    // 1,200 cases are 12 pages at best; the newest walk's start and any case a walk missed
    // (created out of the sources' order, 50 at once) are retrieved.
    const { casePages = 0, caseReads = 0, requests = 0 } = record.requests;
    expect(casePages).toBeGreaterThanOrEqual(12);
    expect(casePages).toBeLessThanOrEqual(13);
    expect(caseReads).toBeLessThanOrEqual(5);
    // Within 1.2 times the fewest: 12 pages and the events cursor.
    expect(requests).toBeLessThanOrEqual(1.2 * 13);
  });
});
