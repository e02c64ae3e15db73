import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readWorkbookRows } from '../../src/workbook/read-rows.js';
import { fraudClaim, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { makeWorkspace, runCli } from '../import/e2e-fixtures.js';

/** `--all`: every case of the key's environment, and the cases created since, found by their events. */
describe('track --all', () => {
  it("walks the whole list once, then adds new cases from the events; the other environment's are never seen", async () => {
    const workspace = await makeWorkspace();
    const testSandbox = await startTestSandbox();
    for (const claimId of ['A1', 'A2']) await testSandbox.client.claims.createWithCases(fraudClaim(claimId, 2));
    // A live key's case: another environment, never listed to the test key.
    await testSandbox.live.claims.createWithCases(fraudClaim('LIVE'));
    const status = join(workspace.dir, 'all.track.xlsx');
    const args = [
      'track',
      '--all',
      '--results',
      status,
      '--journal',
      join(workspace.dir, 'all.journal.sqlite'),
      '--base-url',
      testSandbox.sandbox.url,
      '--log-format',
      'json',
      '--due-within',
      '365',
    ];
    const env = { CLAIMS_API_KEY: sandboxKey };
    // Every case is due within a year: all on the worklist (exit 1).
    const first = await runCli(args, env);
    expect(first.exitCode, first.stderr).toBe(1);
    expect(first.stderr).toContain('"casePages":1');
    await testSandbox.client.claims.createWithCases(fraudClaim('A3'));
    const second = await runCli(args, env);
    expect(second.exitCode, second.stderr).toBe(1);
    const record = JSON.parse(
      second.stderr.split('\n').find((line) => line.includes('"msg":"track finished"')) ?? '{}',
    ) as { run: string; cases: number; requests: Record<string, number> };
    expect(record).toMatchObject({ run: 'incremental', cases: 5, requests: { casePages: 0, caseReads: 1 } });
    // The status file is a workbook when its name says so, the worklist its second sheet.
    const statusRows = [];
    for await (const row of readWorkbookRows(status, { sheet: 'status' })) statusRows.push(row);
    expect(statusRows).toHaveLength(5);
    const worklistRows = [];
    for await (const row of readWorkbookRows(status, { sheet: 'worklist' })) worklistRows.push(row);
    expect(worklistRows).toHaveLength(5);
    expect(second.stderr).toContain('(its worklist sheet)');
    const csv = join(workspace.dir, 'all.csv');
    const third = await runCli([...args.slice(0, 3), csv, ...args.slice(4)], env);
    expect(third.exitCode, third.stderr).toBe(1);
    const lines = parse<Record<string, string>>(await readFile(csv, 'utf8'), { columns: true });
    expect(lines.map((line) => line.case_id).sort()).toEqual([
      'A1-case-1',
      'A1-case-2',
      'A2-case-1',
      'A2-case-2',
      'A3-case-1',
    ]);
    expect(lines.every((line) => line.job === 'all')).toBe(true);
  });
});
