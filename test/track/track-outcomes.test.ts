import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { csvOf, fraudRow, genericMapping, makeWorkspace, runCli } from '../import/e2e-fixtures.js';

type Line = Record<string, string>;

/**
 * A night imported into a sandbox that plays the networks' side (`--outcomes`), its clock moved
 * 90 days in steps, `track` run at every step: every status, closed reason, review status and due
 * date in the status file is the service's; a step in which nothing moved reads no case; the
 * cases read are exactly the ones that moved.
 */
describe('track against a sandbox with --outcomes, 90 days in steps', () => {
  it('follows every move, reads only what moved, and ends with the outcomes the service holds', async () => {
    const workspace = await makeWorkspace();
    const testSandbox = await startTestSandbox({ control: true, outcomes: { seed: 11 } });
    const rows = Array.from({ length: 60 }, (_, index) => fraudRow(`N${String(index).padStart(3, '0')}`, 'T1'));
    await workspace.write('night.csv', csvOf(rows));
    const journal = join(workspace.dir, 'night.journal.sqlite');
    const env = { CLAIMS_API_KEY: sandboxKey };
    const imported = await runCli(
      [
        'import',
        join(workspace.dir, 'night.csv'),
        '--mapping',
        genericMapping,
        '--evidence-dir',
        workspace.evidenceDir,
        '--base-url',
        testSandbox.sandbox.url,
        '--journal',
        journal,
        '--results',
        join(workspace.dir, 'night.results.csv'),
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(imported.exitCode, imported.stderr).toBe(0);
    const statusFile = join(workspace.dir, 'night.track.csv');
    const clock = async () => ((await testSandbox.request('GET', '/_sandbox/clock')).body as { now: string }).now;
    const track = async () => {
      const run = await runCli(
        [
          'track',
          journal,
          '--results',
          statusFile,
          '--base-url',
          testSandbox.sandbox.url,
          '--log-format',
          'json',
          '--as-of',
          await clock(),
        ],
        env,
      );
      expect([0, 1], run.stderr).toContain(run.exitCode);
      const record = JSON.parse(
        run.stderr.split('\n').find((line) => line.includes('"msg":"track finished"')) ?? '{}',
      ) as { requests: { caseReads: number; casePages: number } };
      return { record, lines: parse<Line>(await readFile(statusFile, 'utf8'), { columns: true }) };
    };
    const held = async () =>
      new Map(
        await Promise.all(
          rows.map(async (_, index) => {
            const caseId = `N${String(index).padStart(3, '0')}-T1`;
            return [caseId, (await testSandbox.client.cases.retrieve(caseId)).data] as const;
          }),
        ),
      );
    const expectSame = (lines: readonly Line[], service: ReadonlyMap<string, Record<string, unknown>>) => {
      for (const line of lines) {
        const found = service.get(line.case_id ?? '');
        expect(found, line.case_id).toBeDefined();
        expect([line.case_id, line.status, line.closed_reason, line.review_status, line.resolution_due_date]).toEqual([
          line.case_id,
          found?.status,
          found?.closed_reason ?? '',
          found?.review_status ?? '',
          found?.resolution_due_date ?? '',
        ]);
      }
    };

    let before = await held();
    let { lines } = await track();
    expectSame(lines, before);
    for (let day = 10; day <= 90; day += 10) {
      await testSandbox.request('POST', '/_sandbox/clock', { advance_days: 10 });
      const now = await held();
      const moved = [...now]
        .filter(([caseId, found]) => JSON.stringify(found) !== JSON.stringify(before.get(caseId)))
        .map(([caseId]) => caseId);
      const step = await track();
      lines = step.lines;
      expectSame(lines, now);
      // Exactly the cases that moved are read again, and marked changed.
      expect(step.record.requests.caseReads, `day ${day}`).toBe(moved.length);
      expect(
        lines
          .filter((line) => line.changed === 'yes')
          .map((line) => line.case_id)
          .sort(),
      ).toEqual(moved.sort());
      before = now;
    }
    // Nothing moved since the last step: nothing read.
    const quiet = await track();
    expect(quiet.record.requests.caseReads).toBe(0);
    // After 90 days most cases are decided, with the reasons the sandbox documents.
    const decided = lines.filter((line) => ['won', 'lost'].includes(line.status ?? ''));
    expect(decided.length).toBeGreaterThan(30);
    expect(new Set(decided.map((line) => line.closed_reason)).size).toBeGreaterThan(1);
  }, 120_000);
});
