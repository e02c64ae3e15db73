import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../import/e2e-fixtures.js';
import { disputesWorkspace, find, importIn, parseSamples, type Sample } from './metrics-fixtures.js';

/** The other jobs' figures in their metrics file, after an import into the embedded sandbox. */
describe('track, withdraw and export: their figures as metrics', () => {
  it(
    'track: cases by status, the overdue worklist, recovery by currency; withdraw: its claims by outcome; export: its rows',
    { timeout: 90_000 },
    async () => {
      const workspace = await disputesWorkspace();
      const imported = await importIn(workspace, []);
      expect(imported.exitCode, imported.stderr).toBe(0);
      const journal = 'disputes.sandbox.journal.sqlite';
      const metricsOf = async (args: string[]): Promise<Sample[]> => {
        const run = await runBin(
          [...args, '--metrics-file', 'job.prom', '--log-level', 'warn'],
          {},
          { cwd: workspace.dir },
        );
        expect(run.exitCode, run.stderr).toBe(0);
        return parseSamples(await readFile(join(workspace.dir, 'job.prom'), 'utf8'));
      };

      const track = await metricsOf(['track', journal]);
      expect(
        find(track, 'bulk_disputes_cases', { job: 'track' }).map(({ labels, value }) => [labels.status, value]),
      ).toEqual([['chargeback_filed', 6]]);
      expect(find(track, 'bulk_disputes_worklist_overdue_cases').map((sample) => sample.value)).toEqual([0]);
      expect(find(track, 'bulk_disputes_recovery_ratio').map(({ labels, value }) => [labels.currency, value])).toEqual([
        ['USD', 0],
      ]);
      expect(
        find(track, 'bulk_disputes_requests', { route: 'GET /v2/issuer/cases/{id}', answer: 'accepted' })[0]?.value,
      ).toBe(6);

      const withdraw = await metricsOf(['withdraw', journal, '--dry-run']);
      expect(
        find(withdraw, 'bulk_disputes_rows', { job: 'withdraw' }).map(({ labels, value }) => [
          labels.outcome,
          labels.ok,
          value,
        ]),
      ).toEqual([['would_withdraw', 'true', 6]]);

      const exported = await metricsOf(['export', 'claims', '--out', 'claims.csv']);
      expect(
        find(exported, 'bulk_disputes_rows', { job: 'export' }).map(({ labels, value }) => [labels.outcome, value]),
      ).toEqual([['exported', 4]]);
      expect(find(exported, 'bulk_disputes_run_duration_seconds', { phase: 'exporting' })).toHaveLength(1);
    },
  );
});
