import { describe, expect, it } from 'vitest';
import { genericMapping, runBin } from '../import/e2e-fixtures.js';
import { disputesWorkspace, find, importIn, startPushgateway } from './metrics-fixtures.js';

/**
 * The jobs' metrics at a real Pushgateway (docs/nightly-job.md): the built CLI imports into the
 * embedded sandbox with --metrics-push, and the gateway's own /metrics says what it holds.
 */

describe('import --metrics-push: what the gateway holds', () => {
  it(
    'a failed night keeps the last success; its exit code and push time replace the earlier ones',
    { timeout: 90_000 },
    async () => {
      const gateway = await startPushgateway();
      const workspace = await disputesWorkspace();
      const group = { job: 'import', environment: 'test' };

      const good = await importIn(workspace, ['--metrics-push', gateway.url]);
      expect(good.exitCode, good.stderr).toBe(0);
      const afterGood = await gateway.samples();
      const [success] = find(afterGood, 'bulk_disputes_last_success_timestamp_seconds', group);
      const [pushedFirst] = find(afterGood, 'push_time_seconds', group);
      expect(success?.value).toBeGreaterThan(Date.now() / 1000 - 120);
      expect(find(afterGood, 'bulk_disputes_last_exit_code', group).map((sample) => sample.value)).toEqual([0]);
      expect(find(afterGood, 'bulk_disputes_rows', { ...group, outcome: 'filed', ok: 'true' })[0]?.value).toBe(6);
      expect(find(afterGood, 'bulk_disputes_claims', { ...group, outcome: 'filed' })[0]?.value).toBe(4);
      expect(
        find(afterGood, 'bulk_disputes_requests', {
          ...group,
          route: 'POST /v2/issuer/new_claim',
          answer: 'accepted',
        })[0]?.value,
      ).toBe(4);
      expect(
        find(afterGood, 'bulk_disputes_requests', { ...group, route: 'POST /v2/issuer/claims/{id}/file' }),
      ).toHaveLength(1);

      // Exit 2 from the command (a mapping that is not there), then from commander (no --mapping at all).
      const bad = await importIn(workspace, ['--metrics-push', gateway.url, '--mapping', 'missing.yaml']);
      expect(bad.exitCode, bad.stderr).toBe(2);
      const afterBad = await gateway.samples();
      expect(find(afterBad, 'bulk_disputes_last_success_timestamp_seconds', group)).toEqual([success]);
      expect(find(afterBad, 'bulk_disputes_last_exit_code', group).map((sample) => sample.value)).toEqual([2]);
      expect(find(afterBad, 'push_time_seconds', group)[0]?.value).toBeGreaterThan(pushedFirst?.value ?? Infinity);
      expect(find(afterBad, 'bulk_disputes_last_run_timestamp_seconds', group)[0]?.value).toBeGreaterThan(
        success?.value ?? Infinity,
      );

      const unparsed = await runBin(
        ['import', 'disputes.csv', '--metrics-push', gateway.url, '--metrics-job', 'unparsed'],
        {},
        { cwd: workspace.dir },
      );
      expect(unparsed.exitCode, unparsed.stderr).toBe(2);
      const afterUnparsed = await gateway.samples();
      expect(
        find(afterUnparsed, 'bulk_disputes_last_exit_code', { job: 'unparsed' }).map((sample) => sample.value),
      ).toEqual([2]);
      expect(find(afterUnparsed, 'bulk_disputes_last_success_timestamp_seconds', { job: 'unparsed' })).toEqual([]);
    },
  );

  it(
    'four shards make four groups; merge-results is the night’s totals, a group without shard',
    { timeout: 120_000 },
    async () => {
      const gateway = await startPushgateway();
      const workspace = await disputesWorkspace();
      for (const index of [1, 2, 3, 4]) {
        const shard = await importIn(workspace, [
          ...[
            '--shard',
            `${index}/4`,
            '--journal',
            `shard-${index}.journal.sqlite`,
            '--results',
            `shard-${index}.results.csv`,
          ],
          ...['--metrics-push', gateway.url, '--metrics-job', 'nightly-import'],
        ]);
        expect(shard.exitCode, shard.stderr).toBe(0);
      }
      const merged = await runBin(
        [
          'merge-results',
          '--out',
          'night.results.csv',
          ...[1, 2, 3, 4].map((index) => `shard-${index}.journal.sqlite`),
        ],
        // The Indexed Job's pod of the last shard merges: its index is no label of the night's totals.
        { CLAIMS_METRICS_PUSH_URL: gateway.url, JOB_COMPLETION_INDEX: '3' },
        { cwd: workspace.dir },
      );
      expect(merged.exitCode, merged.stderr).toBe(0);

      const samples = await gateway.samples();
      const pushes = find(samples, 'push_time_seconds', { job: 'nightly-import' });
      expect(pushes.map((sample) => sample.labels.shard).sort()).toEqual(['1', '2', '3', '4']);
      const shardRows = find(samples, 'bulk_disputes_rows', { job: 'nightly-import' });
      expect(shardRows.reduce((total, sample) => total + sample.value, 0)).toBe(6);
      const night = find(samples, 'bulk_disputes_rows', { job: 'merge-results', environment: 'test' });
      expect(night.map(({ labels, value }) => [labels.outcome, labels.ok, labels.shard ?? '', value])).toEqual([
        ['filed', 'true', '', 6],
      ]);
      expect(
        find(samples, 'bulk_disputes_last_exit_code', { job: 'merge-results' }).map((sample) => sample.value),
      ).toEqual([0]);
    },
  );

  it('the environment label is the API key’s', { timeout: 60_000 }, async () => {
    const gateway = await startPushgateway();
    const workspace = await disputesWorkspace();
    // A live key without a base URL: refused (exit 2) before anything is sent, and pushed as live.
    const run = await runBin(
      ['import', 'disputes.csv', '--mapping', genericMapping, '--metrics-push', gateway.url],
      { CLAIMS_API_KEY: 'live_key_0001' },
      { cwd: workspace.dir },
    );
    expect(run.exitCode, run.stderr).toBe(2);
    const samples = await gateway.samples();
    expect(
      find(samples, 'bulk_disputes_last_exit_code', { job: 'import' }).map((sample) => sample.labels.environment),
    ).toEqual(['live']);
  });
});
