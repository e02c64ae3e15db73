import { once } from 'node:events';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { freePort, gatewayUser } from '../helpers/pushgateway.js';
import { disputesWorkspace, find, importIn, parseSamples, resultsOf, startPushgateway } from './metrics-fixtures.js';

/**
 * A push that fails never changes the run (docs/nightly-job.md): the same exit code and results as
 * without --metrics-push, one warning line naming the gateway without its credentials, and the
 * push given up within its 10 s.
 */

/** A TCP server that takes connections and never answers: a gateway that hangs. */
async function silentServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

const warningsIn = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('metrics push to '));

describe('a push that fails', () => {
  it(
    'the gateway down, refusing, or silent: exit code and results as without --metrics-push; one warning; given up within 10 s',
    { timeout: 120_000 },
    async () => {
      const baseline = await disputesWorkspace();
      const without = await importIn(baseline, []);
      expect(without.exitCode, without.stderr).toBe(0);
      const expected = await resultsOf(baseline);
      const input = await readFile(join(baseline.dir, 'disputes.csv'), 'utf8');

      const closed = `http://127.0.0.1:${await freePort()}`;
      const guarded = await startPushgateway({ basicAuth: true });
      const silent = await silentServer();
      const cases = [
        { push: closed, url: closed, reason: /ECONNREFUSED/ },
        // The password given is not the gateway's: 401, and the URL told without it.
        { push: guarded.url.replace('//', '//metrics:not-the-password@'), url: guarded.url, reason: /answered 401/ },
        { push: silent, url: silent, reason: /no answer within 10 s/ },
      ];
      for (const { push, url, reason } of cases) {
        const workspace = await disputesWorkspace(input);
        const run = await importIn(workspace, ['--metrics-push', push]);
        expect(run.exitCode, run.stderr).toBe(without.exitCode);
        expect(await resultsOf(workspace)).toBe(expected);
        const warnings = warningsIn(run.stderr);
        expect(warnings, run.stderr).toHaveLength(1);
        expect(warnings[0]).toMatch(new RegExp(`^metrics push to ${url} failed: `));
        expect(warnings[0]).toMatch(reason);
        expect(run.stderr).not.toContain('not-the-password');
        // The import itself takes a second or two; the push never more than its 10 s.
        expect(run.ms).toBeLessThan(without.ms + 10_000 + 5_000);
      }
      expect(await guarded.samples()).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ name: 'bulk_disputes_last_exit_code' })]),
      );
    },
  );

  it(
    'credentials from the URL or the environment open a gateway that asks for them, and are never told',
    { timeout: 60_000 },
    async () => {
      const gateway = await startPushgateway({ basicAuth: true });
      const fromUrl = await importIn(await disputesWorkspace(), [
        ...['--metrics-push', gateway.url.replace('//', `//${gatewayUser.user}:${gatewayUser.password}@`)],
        ...['--metrics-job', 'from-url'],
      ]);
      const fromEnv = await importIn(
        await disputesWorkspace(),
        ['--metrics-push', gateway.url, '--metrics-job', 'from-env'],
        {
          CLAIMS_METRICS_PUSH_USER: gatewayUser.user,
          CLAIMS_METRICS_PUSH_PASSWORD: gatewayUser.password,
        },
      );
      for (const run of [fromUrl, fromEnv]) {
        expect(run.exitCode, run.stderr).toBe(0);
        expect(warningsIn(run.stderr)).toEqual([]);
        expect(run.stderr).not.toContain(gatewayUser.password);
      }
      const samples = await gateway.samples();
      expect(
        find(samples, 'bulk_disputes_last_exit_code')
          .map((sample) => sample.labels.job)
          .sort(),
      ).toEqual(['from-env', 'from-url']);
    },
  );
});

describe('--metrics-file', () => {
  it('the same metrics as Prometheus text, written whole, readable by a collector', { timeout: 60_000 }, async () => {
    const workspace = await disputesWorkspace();
    const file = join(workspace.dir, 'textfile', 'bulk-disputes.prom');
    const run = await importIn(workspace, ['--metrics-file', file, '--metrics-job', 'nightly']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    const samples = parseSamples(await readFile(file, 'utf8'));
    const group = { job: 'nightly', environment: 'test' };
    for (const sample of samples) expect(sample.labels).toMatchObject(group);
    expect(find(samples, 'bulk_disputes_last_exit_code').map((sample) => sample.value)).toEqual([0]);
    const [ended] = find(samples, 'bulk_disputes_last_run_timestamp_seconds');
    expect(find(samples, 'bulk_disputes_last_success_timestamp_seconds').map((sample) => sample.value)).toEqual([
      ended?.value,
    ]);
    expect(Math.abs((ended?.value ?? 0) - Date.now() / 1000)).toBeLessThan(60);
    expect(find(samples, 'bulk_disputes_rows').map(({ labels, value }) => [labels.outcome, labels.ok, value])).toEqual([
      ['filed', 'true', 6],
    ]);
    const phases = find(samples, 'bulk_disputes_run_duration_seconds');
    const total = phases.find((sample) => sample.labels.phase === 'total')?.value ?? Number.NaN;
    const parts = phases
      .filter((sample) => sample.labels.phase !== 'total')
      .reduce((sum, sample) => sum + sample.value, 0);
    expect(total).toBeCloseTo(parts, 6);
    expect(
      find(samples, 'bulk_disputes_refusals')
        .map((sample) => sample.labels.kind)
        .sort(),
    ).toEqual(['429', '503', 'no_answer']);
    expect(find(samples, 'bulk_disputes_worklist_cases')).toEqual([]);

    // A failed run after it: its own exit code and end, and the earlier success kept, as the gateway keeps it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const failed = await importIn(workspace, [
      '--metrics-file',
      file,
      '--metrics-job',
      'nightly',
      '--mapping',
      'missing.yaml',
    ]);
    expect(failed.exitCode, failed.stderr).toBe(2);
    const after = parseSamples(await readFile(file, 'utf8'));
    expect(find(after, 'bulk_disputes_last_exit_code').map((sample) => sample.value)).toEqual([2]);
    const [failedEnded] = find(after, 'bulk_disputes_last_run_timestamp_seconds');
    expect(failedEnded?.value ?? 0).toBeGreaterThan(ended?.value ?? 0);
    expect(find(after, 'bulk_disputes_last_success_timestamp_seconds').map((sample) => sample.value)).toEqual([
      ended?.value,
    ]);
  });
});
