import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { migratedClaimId } from '../../src/job-files/migrate/group.js';
import { migrateJournalFormat } from '../../src/job-files/migrate/journal.js';
import { resolveMigratePlan, type MigrateRequest } from '../../src/migrate/plan.js';
import { formatMigrateSummary } from '../../src/migrate/results.js';
import { runMigrate } from '../../src/migrate/run-migrate.js';
import type { FaultInjector } from '../../src/sandbox/faults/fault-injector.js';
import { fraudClaim, sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { claimsWithCases, v1Case } from './fixtures.js';

/**
 * migrate-v1's plan: the dry run a mode decided once (nothing sent, every group valid), and each
 * claim's log lines carrying its group key from one child logger, their fields as before.
 */

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-migrate-plan-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A logger whose JSON lines are kept, to read what the run said. */
function recordingLogger(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level: 'info', base: undefined, timestamp: false }, stream), lines };
}

/** Counts the creates that reach the sandbox; `fail` makes each of them a 503 (Retry-After 0). */
function countedCreates(fail: boolean) {
  const creates = { count: 0 };
  const faults: FaultInjector = {
    decide: (route) => {
      if (route.method !== 'POST' || route.pattern !== '/v2/issuer/claims') return { latencyMs: 0, action: 'none' };
      creates.count++;
      return { latencyMs: 0, action: fail ? 'fail' : 'none', retryAfterSeconds: 0 };
    },
  };
  return { faults, creates };
}

const aloneKey = (caseId: string) => `case=${JSON.stringify(caseId)}`;

async function requestFor(url: string, extra: Partial<MigrateRequest> = {}) {
  const dir = await tempDir();
  const { logger, lines } = recordingLogger();
  const request: MigrateRequest = {
    service: { baseUrl: url, apiKey: sandboxKey },
    journalFile: join(dir, 'j.sqlite'),
    resultsFile: join(dir, 'r.csv'),
    concurrency: 1,
    logger,
    ...extra,
  };
  return { request, lines };
}

describe('resolveMigratePlan', () => {
  it('by default: one claim per case, sent, its breaker at 10, no stop', () => {
    const plan = resolveMigratePlan({
      service: { baseUrl: 'http://127.0.0.1:1', apiKey: sandboxKey },
      journalFile: 'j.sqlite',
      resultsFile: 'r.csv',
      concurrency: 4,
      logger: pino({ level: 'silent' }),
    });
    expect(plan.mode).toEqual({ kind: 'send' });
    expect(plan.groupBy).toEqual([]);
    expect(plan.restart).toBe(false);
    expect(plan.settings).toEqual({ format: migrateJournalFormat, groupBy: [], dryRun: false });
    expect(plan.pacing).toMatchObject({ concurrency: 4, maxRps: undefined, breakerThreshold: 10 });
    expect(plan.pacing.stopRequested()).toBe(false);
  });

  it('a dry run is the check mode, and the journal records it as such', () => {
    const plan = resolveMigratePlan({
      service: { baseUrl: 'http://127.0.0.1:1', apiKey: sandboxKey },
      journalFile: ':memory:',
      resultsFile: 'r.csv',
      groupBy: ['custom_fields.dispute_ref'],
      dryRun: true,
      restart: true,
      concurrency: 2,
      breakerThreshold: 3,
      logger: pino({ level: 'silent' }),
    });
    expect(plan.mode).toEqual({ kind: 'check' });
    expect(plan.restart).toBe(true);
    expect(plan.settings).toEqual({
      format: migrateJournalFormat,
      groupBy: ['custom_fields.dispute_ref'],
      dryRun: true,
    });
    expect(plan.pacing.breakerThreshold).toBe(3);
  });
});

describe('runMigrate by its plan', () => {
  it('a dry run sends no create: every group valid, the summary says so', { timeout: 60_000 }, async () => {
    const { faults, creates } = countedCreates(false);
    const { sandbox, client } = await startTestSandbox({ faults });
    for (const id of ['p1', 'p2', 'p3']) await client.v1.cases.create(v1Case(id));
    const { request } = await requestFor(sandbox.url, { dryRun: true });
    const report = await runMigrate(request);
    expect(report.mode).toEqual({ kind: 'check' });
    expect(report.summary.byOutcome).toMatchObject({ valid: 3, migrated: 0, failed: 0 });
    expect(report.claimsCreated).toBe(0);
    expect(creates.count).toBe(0);
    expect((await claimsWithCases(client)).size).toBe(0);
    expect(formatMigrateSummary(report.summary, report.mode)).toBe(
      'migrate-v1 finished: 3 v1 cases = 3 valid + 0 skipped + 0 failed + 0 rejected (3 claims)\n',
    );
  });

  it(
    "a group whose claim id another claim holds: one line with its group key and that claim's id",
    { timeout: 60_000 },
    async () => {
      const { faults, creates } = countedCreates(false);
      const { sandbox, client } = await startTestSandbox({ faults });
      for (const id of ['k1', 'k2']) await client.v1.cases.create(v1Case(id));
      const takenId = migratedClaimId(aloneKey('k1'));
      await client.claims.createWithCases(fraudClaim(takenId, 1));
      const before = creates.count;
      const { request, lines } = await requestFor(sandbox.url);
      const report = await runMigrate(request);
      expect(report.mode).toEqual({ kind: 'send' });
      expect(report.summary.byOutcome).toMatchObject({ migrated: 1, rejected: 1 });
      expect(formatMigrateSummary(report.summary, report.mode)).toContain('2 v1 cases = 1 migrated + 0 skipped');
      expect(creates.count - before).toBe(2);
      const refused = lines.filter(
        (line) => line.msg === "another claim holds this group's claim id: refused, left as it is",
      );
      expect(refused).toEqual([{ level: 40, groupKey: aloneKey('k1'), claimId: takenId, msg: refused[0]?.msg }]);
      expect(Object.keys(refused[0] ?? {})).toEqual(['level', 'groupKey', 'claimId', 'msg']);
    },
  );

  it(
    'a claim the service keeps failing: one line per group, its group key, code and error',
    { timeout: 60_000 },
    async () => {
      const { faults } = countedCreates(true);
      const { sandbox, client } = await startTestSandbox({ faults });
      for (const id of ['f1', 'f2']) await client.v1.cases.create(v1Case(id));
      const { request, lines } = await requestFor(sandbox.url);
      const report = await runMigrate(request);
      expect(report.summary.byOutcome).toMatchObject({ failed: 2, migrated: 0 });
      const failed = lines.filter((line) => line.msg === 'claim failed; the next run tries it again');
      // In whichever order their retries ended.
      expect(failed.map((line) => String(line.groupKey)).sort()).toEqual([aloneKey('f1'), aloneKey('f2')]);
      for (const line of failed) {
        expect(Object.keys(line)).toEqual(['level', 'groupKey', 'code', 'error', 'msg']);
        expect(line.level).toBe(40);
        expect(typeof line.code === 'string' && line.code !== '').toBe(true);
      }
    },
  );
});
