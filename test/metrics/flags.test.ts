import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { genericMapping, runCli } from '../import/e2e-fixtures.js';
import { disputesWorkspace, find, startPushgateway } from './metrics-fixtures.js';

describe('the metrics flags: bad values stop the run before anything is sent (exit 2)', () => {
  it.each([
    {
      args: ['--metrics-push', 'ftp://gateway:9091'],
      env: {},
      says: '--metrics-push: expected an http(s) URL, got ftp://gateway:9091',
    },
    {
      args: ['--metrics-push', 'gateway:9091'],
      env: {},
      says: '--metrics-push: expected an http(s) URL, got gateway://',
    },
    { args: ['--metrics-push', 'http://'], env: {}, says: '--metrics-push: expected an http(s) URL, got http://' },
    {
      args: [],
      env: { CLAIMS_METRICS_PUSH_URL: 'not a url' },
      says: 'CLAIMS_METRICS_PUSH_URL: expected an http(s) URL, got not a url',
    },
    {
      args: ['--metrics-push', 'http://127.0.0.1:9', '--metrics-job', ''],
      env: {},
      says: '--metrics-job: expected a name, got an empty one',
    },
    {
      args: ['--metrics-file', 'm.prom', '--metrics-job', ' '],
      env: {},
      says: '--metrics-job: expected a name, got an empty one',
    },
  ])('$args $env', async ({ args, env, says }) => {
    const workspace = await disputesWorkspace();
    const sandboxDb = join(workspace.dir, 'sandbox.db');
    const results = join(workspace.dir, 'out.results.csv');
    const run = await runCli(
      [
        ...[
          'import',
          join(workspace.dir, 'disputes.csv'),
          '--mapping',
          genericMapping,
          '--evidence-dir',
          workspace.evidenceDir,
        ],
        ...['--sandbox-db', sandboxDb, '--results', results, ...args],
      ],
      env,
    );
    expect(run.exitCode, run.stderr).toBe(2);
    expect(run.stderr).toContain(says);
    expect(existsSync(sandboxDb)).toBe(false);
    expect(existsSync(results)).toBe(false);
  });

  it('a password in a bad URL is never echoed', async () => {
    const run = await runCli(['export', 'cases', '--out', '-', '--metrics-push', 'gopher://user:s3cret@gateway']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--metrics-push: expected an http(s) URL, got gopher://gateway');
    expect(run.stderr).not.toContain('s3cret');
  });

  it.each(['import', 'migrate-v1', 'withdraw', 'export', 'track', 'merge-results'])(
    '%s --help names the metrics flags',
    async (command) => {
      const run = await runCli([command, '--help']);
      expect(run.exitCode).toBe(0);
      for (const flag of ['--metrics-push <url>', '--metrics-job <name>', '--metrics-file <path>'])
        expect(run.stdout).toContain(flag);
    },
  );

  it('--help sends nothing, even with a gateway named', async () => {
    const gateway = await startPushgateway();
    const run = await runCli(['import', '--help'], { CLAIMS_METRICS_PUSH_URL: gateway.url });
    expect(run.exitCode).toBe(0);
    expect(find(await gateway.samples(), 'push_time_seconds')).toEqual([]);
  });
});
