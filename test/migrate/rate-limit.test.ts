import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFaultInjector } from '../../src/sandbox/faults/seeded-faults.js';
import { runCli } from '../helpers/cli.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { claimsWithCases, inPool, v1Case } from './fixtures.js';

/**
 * migrate-v1 against a rate-limited service (docs/rate-limits.md): it sends with concurrency like the
 * import, so it follows the service the same way (fewer claims in flight on 429, Retry-After
 * pausing every request) and says so in its summary and its JSON log; `--max-rps` keeps it under
 * the limit altogether.
 */

interface MigrateThrottling {
  requests: number;
  answered429: number;
  concurrency: { max: number; lowest: number; current: number; settled: number; cuts: number };
  rate: { throttles: number };
}

const caseIds = Array.from({ length: 60 }, (_, index) => `rl${index + 1}`);

async function rateLimitedSandboxWithV1Cases(perSecond: number) {
  const testSandbox = await startTestSandbox();
  await inPool(caseIds, 8, async (id) => testSandbox.client.v1.cases.create(v1Case(id)));
  // Limited once the cases are there: the migration alone meets the limit.
  testSandbox.sandbox.core.faults = createFaultInjector({ rateLimitPerSecond: perSecond });
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-migrate-rate-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const args = [
    'migrate-v1',
    '--base-url',
    testSandbox.sandbox.url,
    '--journal',
    join(dir, 'j.sqlite'),
    '--results',
    join(dir, 'r.csv'),
    '--concurrency',
    '16',
    '--log-level',
    'info',
  ];
  return { ...testSandbox, args };
}

function loggedThrottling(stderr: string): MigrateThrottling {
  const line = stderr.split('\n').find((text) => text.includes('"msg":"migrate-v1 finished"'));
  if (line === undefined) throw new Error(`expected a "migrate-v1 finished" log line, got:\n${stderr.slice(-3000)}`);
  return (JSON.parse(line) as { throttling: MigrateThrottling }).throttling;
}

describe('migrate-v1 against a rate limit', () => {
  it(
    "--concurrency 16 against 20 requests a second: paced to the service's rate, every case migrated once, the summary and log say how often it was throttled",
    { timeout: 60_000 },
    async () => {
      const { sandbox, client, args } = await rateLimitedSandboxWithV1Cases(20);

      const run = await runCli(args, { CLAIMS_API_KEY: sandboxKey });

      expect(run.exitCode, run.stderr.slice(-3000)).toBe(0);
      expect(run.stderr).toContain('60 v1 cases = 60 migrated + 0 skipped + 0 failed + 0 rejected (60 claims)');
      const throttling = loggedThrottling(run.stderr);
      expect(throttling.answered429).toBeGreaterThan(0);
      expect(throttling.concurrency).toMatchObject({ max: 16, cuts: 0 });
      expect(throttling.rate.throttles).toBeGreaterThan(0);
      expect(run.stderr).toMatch(
        new RegExp(
          `^rate limited \\(429\\): ${throttling.answered429} \\([\\d.]+%\\); paced to the service's rate, last measured at [\\d.]+ a second`,
          'm',
        ),
      );
      expect(run.stderr).toMatch(/^the pace was set by: the service's rate limit for [\d.]+ s/m);
      sandbox.core.faults = createFaultInjector({});
      const claims = await claimsWithCases(client);
      expect([...claims.values()].flat().sort()).toEqual([...caseIds].sort());
    },
  );

  it('--max-rps 15 against 20 requests a second: never throttled', { timeout: 60_000 }, async () => {
    const { args } = await rateLimitedSandboxWithV1Cases(20);

    const run = await runCli([...args, '--max-rps', '15'], { CLAIMS_API_KEY: sandboxKey });

    expect(run.exitCode, run.stderr.slice(-3000)).toBe(0);
    expect(run.stderr).toContain('60 v1 cases = 60 migrated');
    expect(loggedThrottling(run.stderr)).toMatchObject({ answered429: 0, concurrency: { lowest: 16, current: 16 } });
    expect(run.stderr).toContain('throttled: never (claims in flight stayed at 16)');
    expect(run.stderr).toMatch(/^--max-rps 15: \d+ waited for their turn$/m);
  });
});
