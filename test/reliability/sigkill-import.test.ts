import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { statusColumns } from '../../src/job-files/import/columns.js';
import { readResults } from '../import/e2e-fixtures.js';
import { startImportProcess } from '../helpers/import-process.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { expectedCaseId, expectedClaimId, oneToThreeRows, plannedRows, type RowSpec } from '../import/generate.js';
import { chaosFaults, faultyJob } from './faulty-sandbox.js';
import { misreported, type HeldCase } from './misreported.js';
import { seededRandom, seedFrom, sized } from './size.js';

/**
 * Ten SIGKILLs at random moments of one import against a faulty sandbox process (503s,
 * connections dropped after the commit), then the same command run to the end. The sandbox must
 * then hold every claim exactly once with exactly its cases, each case with the transaction of
 * the row reported on it (nothing adopted that is not ours), and the results CSV every input row
 * exactly once, in order (no claim is ever created twice: docs/import.md, "No duplicates").
 *
 * The kill moments come from a seeded generator; the seed is printed, and BULK_DISPUTES_SEED=N
 * replays the same plan (the sandbox's faults use the same seed).
 */

const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const kills = 10;

interface Setting {
  readonly faults: readonly string[];
  readonly label: string;
  readonly claims: number;
  /** The import's --concurrency. */
  readonly concurrency: number;
}

/**
 * The chaos suite's faults, and a service at its capacity (4 requests at once, the next refused at
 * once with Retry-After 1 s, 5% of answers dropped after the commit), both against --concurrency 16;
 * and the storm (docs/rate-limits.md): a rate limit of 100 a second, 5% sporadic 503s and a capacity
 * of 16 at once, together, against --concurrency 32, 2% of answers dropped after the commit. The rate
 * limit caps the storm at 100 requests a second, so it has fewer claims: about 40 s at full size.
 */
const settings: readonly Setting[] = [
  {
    faults: chaosFaults,
    label: '--fail-rate 0.2 --drop-after-commit-rate 0.05',
    claims: sized(2000, 200),
    concurrency: 16,
  },
  {
    faults: [
      '--capacity',
      '4',
      '--drop-after-commit-rate',
      '0.05',
      '--latency-ms',
      '0-10',
      '--retry-after-seconds',
      '1',
    ],
    label: '--capacity 4 --drop-after-commit-rate 0.05',
    claims: sized(600, 100),
    concurrency: 16,
  },
  {
    faults: [
      '--rate-limit',
      '100',
      '--fail-rate',
      '0.05',
      '--capacity',
      '16',
      '--drop-after-commit-rate',
      '0.02',
      '--latency-ms',
      '50',
      '--retry-after-seconds',
      '1',
    ],
    label: 'the storm: --rate-limit 100 --fail-rate 0.05 --capacity 16 --drop-after-commit-rate 0.02 --latency-ms 50',
    claims: sized(1000, 200),
    concurrency: 32,
  },
];

/** Claims of 1 to 3 rows, the rows of a claim up to 10 rows apart, and the cases each claim must end with. */
function planFor(claims: number): { rowSpecs: RowSpec[]; expectedCases: Map<string, string[]> } {
  const rowSpecs = [...plannedRows({ claims, sizeOf: oneToThreeRows, block: 10 })];
  const expectedCases = new Map<string, string[]>();
  for (const spec of rowSpecs) {
    const claimId = expectedClaimId(spec.claim);
    expectedCases.set(claimId, [...(expectedCases.get(claimId) ?? []), expectedCaseId(spec)]);
  }
  return { rowSpecs, expectedCases };
}
/** One run never legitimately takes this long here; past it the run is stuck. */
const runDeadlineMs = sized(240_000, 60_000);

/** What the sandbox's data file holds, read directly (WAL: a reader beside the running sandbox). */
function sandboxCounts(db: string): { claims: number; cases: number } {
  const database = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const claims = (database.prepare('SELECT count(*) AS n FROM claims').get() as { n: number }).n;
    const cases = (database.prepare('SELECT count(*) AS n FROM cases').get() as { n: number }).n;
    return { claims, cases };
  } finally {
    database.close();
  }
}

/** Steps of the journal's claims, e.g. { done: 40, submitting: 3, staged: 107 }; {} before staging. */
function journalSteps(journal: string): Record<string, number> {
  try {
    const database = new Database(journal, { readonly: true, fileMustExist: true });
    try {
      const rows = database
        .prepare('SELECT step, count(*) AS claims FROM claims GROUP BY step ORDER BY step')
        .all() as { step: string; claims: number }[];
      return Object.fromEntries(rows.map((row) => [row.step, row.claims]));
    } finally {
      database.close();
    }
  } catch {
    // Killed before the journal had its tables.
    return {};
  }
}

/** A kill moment: after a delay from the start, or once the sandbox holds this many claims. */
type KillPlan = { after: 'delay'; ms: number } | { after: 'claims'; claims: number };

describe.each(settings)(
  `import SIGKILLed ${kills} times at random moments, then run to the end`,
  ({ faults, label, claims: claimCount, concurrency }) => {
    const { rowSpecs, expectedCases } = planFor(claimCount);
    it(
      `${claimCount} claims (${rowSpecs.length} rows) against ${label}: every claim once, with its cases; every row once, in order`,
      { timeout: sized(540_000, 100_000) },
      async () => {
        const seed = seedFrom(Math.floor(Math.random() * 0xffff_ffff));
        console.log(`sigkill-import: seed ${seed} (replay with BULK_DISPUTES_SEED=${seed})`);
        const random = seededRandom(seed);

        const { dir, db, sandbox, input } = await faultyJob(seed, rowSpecs, faults);
        const journal = join(dir, 'disputes.journal.sqlite');
        const results = join(dir, 'disputes.results.csv');
        const args = [
          cliBin,
          'import',
          input,
          '--mapping',
          mapping,
          '--base-url',
          sandbox.url,
          '--journal',
          journal,
          '--results',
          results,
          '--concurrency',
          String(concurrency),
          '--file-mode',
          'chargeback',
          '--log-level',
          'warn',
        ];

        // The kills: each either after a random delay (start-up, staging or sending) or once the
        // sandbox holds a random number of claims more than it did, so every kill lands mid-run.
        const log: string[] = [];
        let landed = 0;
        for (let attempt = 0; landed < kills; attempt++) {
          expect(attempt, `only ${landed} of ${kills} kills landed:\n${log.join('\n')}`).toBeLessThan(kills * 2);
          const before = sandboxCounts(db).claims;
          const remaining = claimCount - before;
          const plan: KillPlan =
            random() < 0.3
              ? { after: 'delay', ms: Math.floor(100 + random() * 1500) }
              : {
                  after: 'claims',
                  claims: before + 1 + Math.floor(random() * Math.max(1, remaining / (kills - landed + 1))),
                };
          const run = startImportProcess(args, runDeadlineMs);
          const started = Date.now();
          for (;;) {
            if (run.exited() !== undefined) break;
            if (plan.after === 'delay' && Date.now() - started >= plan.ms) break;
            if (plan.after === 'claims' && sandboxCounts(db).claims >= plan.claims) break;
            await sleep(plan.after === 'delay' ? Math.min(10, plan.ms) : 5);
          }
          const early = run.exited();
          if (early !== undefined) {
            // The run ended before its kill moment: a finished run, not a kill. Only a clean end is acceptable.
            expect([0, 1, 3], early.stderr).toContain(early.code);
            log.push(`run ${attempt + 1}: ended by itself (exit ${String(early.code)}) before ${JSON.stringify(plan)}`);
            continue;
          }
          const killed = await run.kill();
          if (killed.signal !== 'SIGKILL') {
            log.push(`run ${attempt + 1}: ended by itself (exit ${String(killed.code)}) at the kill`);
            continue;
          }
          landed++;
          log.push(
            `kill ${landed}: ${JSON.stringify(plan)} after ${Date.now() - started} ms; sandbox ${JSON.stringify(sandboxCounts(db))}, journal ${JSON.stringify(journalSteps(journal))}`,
          );
        }
        console.log(`sigkill-import (seed ${seed}):\n  ${log.join('\n  ')}`);
        // The kills spread over the run: at least one caught the import mid-send (claims created, not all).
        const atLastKill = sandboxCounts(db).claims;
        expect(atLastKill).toBeLessThan(claimCount);

        // The same command to the end: every row of this job can be filed, so exit 1 (a claim whose
        // create or filing failed under the faults) and exit 3 (the breaker) are both resumable.
        const exits: (number | null)[] = [];
        for (let run = 0; run < 10; run++) {
          const exit = await startImportProcess(args, runDeadlineMs).exit;
          expect(exit.signal, exit.stderr).toBeNull();
          expect([0, 1, 3], exit.stderr).toContain(exit.code);
          exits.push(exit.code);
          if (exit.code === 0) break;
        }
        const { rows } = await readResults(results);
        console.log(
          `sigkill-import (seed ${seed}): ${exits.length} run(s) to finish, exit codes ${exits.join(', ')}; journal ${JSON.stringify(journalSteps(journal))}`,
        );
        expect(exits.at(-1), `exit codes ${exits.join(', ')}`).toBe(0);

        // The sandbox's data: exactly the expected claims (a duplicate under any id would be extra),
        // each with exactly its cases, every case filed, nothing outside them.
        const database = new Database(db, { readonly: true, fileMustExist: true });
        onTestFinished(() => {
          database.close();
        });
        const claims = database
          .prepare("SELECT claim_id FROM claims WHERE environment = 'sandbox' ORDER BY claim_id")
          .all() as { claim_id: string }[];
        const claimIds = claims.map((claim) => claim.claim_id);
        expect(new Set(claimIds).size, 'duplicate claim ids').toBe(claimIds.length);
        const expectedIds = [...expectedCases.keys()].sort();
        expect(
          claimIds.filter((id) => !expectedCases.has(id)),
          'unexpected claims',
        ).toEqual([]);
        expect(
          expectedIds.filter((id) => !claimIds.includes(id)),
          'missing claims',
        ).toEqual([]);
        expect(claimIds).toEqual(expectedIds);
        const cases = database
          .prepare("SELECT case_id, claim_id, status, document FROM cases WHERE environment = 'sandbox'")
          .all() as HeldCase[];
        expect(cases.length).toBe(rowSpecs.length);
        const casesByClaim = new Map<string, string[]>();
        for (const item of cases)
          casesByClaim.set(item.claim_id ?? '(none)', [
            ...(casesByClaim.get(item.claim_id ?? '(none)') ?? []),
            item.case_id,
          ]);
        const mismatches: string[] = [];
        for (const [claimId, caseIds] of expectedCases) {
          const got = [...(casesByClaim.get(claimId) ?? [])].sort();
          if (JSON.stringify(got) !== JSON.stringify([...caseIds].sort()))
            mismatches.push(`${claimId}: expected ${caseIds.join(', ')}, got ${got.join(', ')}`);
        }
        expect(mismatches).toEqual([]);
        expect(
          cases.filter((item) => item.status !== 'chargeback_filed').map((item) => `${item.case_id} ${item.status}`),
        ).toEqual([]);

        // The results: every input row once, in input order, with its ids, filed.
        const { header } = await readResults(results);
        expect(header.slice(0, statusColumns.length)).toEqual([...statusColumns]);
        expect(rows.map((row) => row.line)).toEqual(rowSpecs.map((_, index) => String(index + 2)));
        expect(rows.map((row) => `${row.claim_id} ${row.case_id}`)).toEqual(
          rowSpecs.map((spec) => `${expectedClaimId(spec.claim)} ${expectedCaseId(spec)}`),
        );
        expect(
          rows
            .filter((row) => row.outcome !== 'filed' || row.error_code !== '')
            .map((row) => `${row.line} ${row.outcome} ${row.error_code}`),
        ).toEqual([]);
        // No mis-adoption: the case each row was reported on holds that row's transaction.
        expect(misreported(rows, cases)).toEqual([]);
        // ...a check that catches a row reported on another dispute's case under the same ids.
        const [firstRow, otherRow] = rows;
        if (firstRow === undefined || otherRow === undefined) throw new Error('expected at least two results rows');
        expect(
          misreported(
            [
              {
                ...firstRow,
                arn: otherRow.arn,
                transaction_amount: otherRow.transaction_amount,
                card_last4: otherRow.card_last4,
              },
            ],
            cases,
          ),
        ).toHaveLength(1);
        // The faults were in force: some claims took more than one attempt.
        expect(rows.filter((row) => Number(row.attempts) > 1).length).toBeGreaterThan(0);
      },
    );
  },
);
