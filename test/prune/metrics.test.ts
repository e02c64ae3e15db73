import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { find, parseSamples, startPushgateway, type Sample } from '../helpers/pushgateway.js';
import { csvOf, fraudRow, genericMapping, runBin } from '../import/e2e-fixtures.js';
import { ageJobFolder } from './age-job-folder.js';
import { filesUnder } from './planted-search.js';

/**
 * What a real prune run tells Prometheus (docs/monitoring.md, "The metrics"): the built CLI prunes
 * three jobs made by real imports into the embedded sandbox (one due, one not yet, one with a case
 * no track journal saw closed) and its metrics file, and a real Pushgateway, hold the jobs by
 * action, the bytes deleted and the policy's period that BulkDisputesPruneOverdue compares with.
 */

const day = 86_400;

interface Jobs {
  top: string;
  /** An import 100 days ago with no case at the service: its personal data is due under 90d. */
  due: string;
  /** The same import, today: kept. */
  recent: string;
  /** An import that filed a case no track journal saw closed: left alone. */
  filed: string;
}

let jobs: Jobs | undefined;
const made = () => {
  if (jobs === undefined) throw new Error('test: the jobs were not made');
  return jobs;
};

/** `bulk-disputes import` of `rows` in `dir` into its own embedded sandbox, as the night runs it. */
async function importIn(dir: string, rows: ReturnType<typeof fraudRow>[], evidenceDir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'night.csv'), csvOf(rows));
  const run = await runBin(
    ['import', 'night.csv', '--mapping', genericMapping, '--evidence-dir', evidenceDir, '--log-level', 'warn'],
    {},
    { cwd: dir },
  );
  // Exit 1: rows not ok, on purpose (an unknown reason code is `invalid`, nothing sent for it).
  expect(run.exitCode, run.stderr).toBe(1);
}

beforeAll(async () => {
  const top = await mkdtemp(join(tmpdir(), 'bulk-disputes-prune-metrics-'));
  const evidenceDir = join(top, 'evidence');
  await mkdir(evidenceDir);
  const made: Jobs = { top, due: join(top, 'due'), recent: join(top, 'recent'), filed: join(top, 'filed') };
  const invalid = [fraudRow('A', 'T1', { reason_code: 'ZZ' }), fraudRow('B', 'T1', { reason_code: 'ZZ' })];
  await importIn(made.due, invalid, evidenceDir);
  await cp(made.due, made.recent, { recursive: true });
  await ageJobFolder({ dir: made.due }, 100);
  await importIn(made.filed, [fraudRow('C', 'T1'), fraudRow('D', 'T1', { reason_code: 'ZZ' })], evidenceDir);
  jobs = made;
}, 60_000);

afterAll(async () => {
  if (jobs !== undefined) await rm(jobs.top, { recursive: true, force: true });
});

/** Every file under the folders, with its size. */
async function sizes(folders: readonly string[]): Promise<Map<string, number>> {
  const files = (await Promise.all(folders.map(async (folder) => filesUnder(folder)))).flat();
  return new Map(await Promise.all(files.map(async (file) => [file, (await stat(file)).size] as const)));
}

const byAction = (samples: readonly Sample[]): Record<string, number> =>
  Object.fromEntries(
    find(samples, 'bulk_disputes_prune_jobs').map(({ labels, value }): [string, number] => [
      labels.action ?? '',
      value,
    ]),
  );
const valuesOf = (samples: readonly Sample[], name: string) => find(samples, name).map((sample) => sample.value);

describe('bulk-disputes prune --metrics-file and --metrics-push', () => {
  it(
    'write the jobs by action, the bytes deleted and the 90d policy in seconds, beside the last run, success and exit code',
    { timeout: 60_000 },
    async () => {
      const { top, due, recent, filed } = made();
      const gateway = await startPushgateway();
      const metricsFile = join(top, 'metrics/prune.prom');
      const before = await sizes([due, recent, filed]);
      const started = Date.now() / 1000;
      const run = await runBin(
        [
          'prune',
          due,
          recent,
          filed,
          '--keep-personal-data',
          '90d',
          '--record',
          join(top, 'prune-record.jsonl'),
          '--metrics-file',
          metricsFile,
          '--metrics-push',
          gateway.url,
          '--log-level',
          'warn',
        ],
        {},
        { cwd: top },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain('3 jobs: 1 thinned, 0 removed, 1 kept, 1 left alone');

      // The bytes deleted, measured on the disk: the files there before and gone after (the due job's results).
      const after = await sizes([due, recent, filed]);
      const gone = [...before].filter(([file]) => !after.has(file));
      expect(gone.map(([file]) => file)).toEqual([join(due, 'night.sandbox.results.csv')]);
      const deleted = gone.reduce((sum, [, bytes]) => sum + bytes, 0);
      expect(deleted).toBeGreaterThan(0);

      const fromFile = parseSamples(await readFile(metricsFile, 'utf8'));
      const atGateway = await gateway.samples();
      for (const samples of [fromFile, atGateway]) {
        expect(byAction(samples)).toEqual({ thin: 1, remove: 0, finish: 0, keep: 1, leave: 1 });
        expect(valuesOf(samples, 'bulk_disputes_prune_deleted_bytes')).toEqual([deleted]);
        expect(valuesOf(samples, 'bulk_disputes_prune_keep_personal_data_seconds')).toEqual([90 * day]);
        expect(valuesOf(samples, 'bulk_disputes_last_exit_code')).toEqual([0]);
        const [success] = valuesOf(samples, 'bulk_disputes_last_success_timestamp_seconds');
        expect(success).toBeGreaterThanOrEqual(started);
        expect(success).toBeLessThanOrEqual(Date.now() / 1000);
        expect(valuesOf(samples, 'bulk_disputes_last_run_timestamp_seconds')).toEqual([success]);
        // The group the alert rules read: the command's name, and `test` (no service named).
        for (const sample of find(samples, 'bulk_disputes_prune_keep_personal_data_seconds'))
          expect([sample.labels.job, sample.labels.environment, sample.labels.shard]).toEqual([
            'prune',
            'test',
            undefined,
          ]);
      }
    },
  );

  it(
    'a prune that stops (a bad period: exit 2) keeps the last success and the policy in the file, and says exit 2',
    { timeout: 60_000 },
    async () => {
      const { top, recent } = made();
      const metricsFile = join(top, 'stopped/prune.prom');
      const good = await runBin(
        [
          'prune',
          recent,
          '--keep-personal-data',
          '2w',
          '--record',
          join(top, 'stopped-record.jsonl'),
          '--metrics-file',
          metricsFile,
        ],
        {},
        { cwd: top },
      );
      expect(good.exitCode, good.stderr).toBe(0);
      const first = parseSamples(await readFile(metricsFile, 'utf8'));
      const [success] = valuesOf(first, 'bulk_disputes_last_success_timestamp_seconds');
      expect(valuesOf(first, 'bulk_disputes_prune_keep_personal_data_seconds')).toEqual([14 * day]);

      const bad = await runBin(
        ['prune', recent, '--keep-personal-data', '90 days', '--metrics-file', metricsFile],
        {},
        { cwd: top },
      );
      expect(bad.exitCode, bad.stderr).toBe(2);
      expect(bad.stderr).toContain('expected a whole number and a unit');
      const stopped = parseSamples(await readFile(metricsFile, 'utf8'));
      expect(valuesOf(stopped, 'bulk_disputes_last_exit_code')).toEqual([2]);
      expect(valuesOf(stopped, 'bulk_disputes_last_run_timestamp_seconds')[0]).toBeGreaterThan(success ?? Infinity);
      expect(valuesOf(stopped, 'bulk_disputes_last_success_timestamp_seconds')).toEqual([success]);
      // Still a prune group for the alert rules: BulkDisputesPruneOverdue watches it, not BulkDisputesNoSuccess.
      expect(valuesOf(stopped, 'bulk_disputes_prune_keep_personal_data_seconds')).toEqual([14 * day]);
      // What this run did not do, it does not say.
      expect(find(stopped, 'bulk_disputes_prune_jobs')).toEqual([]);
    },
  );

  it(
    'the policy from BULK_DISPUTES_KEEP_PERSONAL_DATA, months as 30.44 days; a dry run is a run too, with what it would do',
    { timeout: 60_000 },
    async () => {
      const { top, recent, filed } = made();
      const metricsFile = join(top, 'dry-run/prune.prom');
      const run = await runBin(
        [
          'prune',
          recent,
          filed,
          '--dry-run',
          '--as-of',
          new Date(Date.now() + 200 * day * 1000).toISOString(),
          '--metrics-file',
          metricsFile,
          '--metrics-job',
          'prune-dry-run',
        ],
        { BULK_DISPUTES_KEEP_PERSONAL_DATA: '6m' },
        { cwd: top },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      const samples = parseSamples(await readFile(metricsFile, 'utf8'));
      expect(valuesOf(samples, 'bulk_disputes_prune_keep_personal_data_seconds')).toEqual([
        Math.round(6 * 30.44 * day),
      ]);
      // 200 days on, under 6m (about 183 days), today's job would be thinned; the filed one stays left alone.
      expect(byAction(samples)).toEqual({ thin: 1, remove: 0, finish: 0, keep: 0, leave: 1 });
      expect(valuesOf(samples, 'bulk_disputes_prune_deleted_bytes')).toEqual([0]);
      expect(find(samples, 'bulk_disputes_last_success_timestamp_seconds')[0]?.labels.job).toBe('prune-dry-run');
    },
  );
});
