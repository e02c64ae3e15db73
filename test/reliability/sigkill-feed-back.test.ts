import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startImportProcess } from '../helpers/import-process.js';
import { cliBin } from '../helpers/sandbox-process.js';
import { readResults, resultsCsv } from '../import/e2e-fixtures.js';
import { expectedCaseId, oneToThreeRows, plannedRows, type RowSpec } from '../import/generate.js';
import { faultyJob } from './faulty-sandbox.js';
import { seededRandom, seedFrom, sized } from './size.js';

/**
 * A feed-back that updates, SIGKILLed at random moments among its updates, then run to the end
 * against a faulty sandbox process (503s, connections dropped after the commit). An update
 * interrupted by a kill is either applied or found still to do by the next run's comparison: at the
 * end every case holds the fix, no claim or case was created again, and every row of the results
 * says what was changed. The seed is printed; BULK_DISPUTES_SEED=N replays it.
 */

const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const claimCount = sized(400, 80);
const kills = sized(6, 3);
const rowSpecs: RowSpec[] = [...plannedRows({ claims: claimCount, sizeOf: oneToThreeRows, block: 10 })];
const runDeadlineMs = sized(240_000, 60_000);
const fix = 'Card kept in a safe; reported stolen on the 3rd (fixed by review)';

/** The sandbox's cases, read beside it (WAL): how many, and how many hold the fix. */
function sandboxCases(db: string): { cases: number; claims: number; fixed: number } {
  const database = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const count = (sql: string) => (database.prepare(sql).get(`%${fix}%`) as { n: number }).n;
    return {
      cases: count("SELECT count(*) AS n FROM cases WHERE ? <> ''"),
      claims: count("SELECT count(*) AS n FROM claims WHERE ? <> ''"),
      fixed: count('SELECT count(*) AS n FROM cases WHERE document LIKE ?'),
    };
  } finally {
    database.close();
  }
}

describe('a feed-back that updates, SIGKILLed among its updates', () => {
  it(
    `${claimCount} claims created, a shared field fixed on every row and fed back, ${kills} kills: every case updated, nothing created again`,
    { timeout: sized(400_000, 120_000) },
    async () => {
      const seed = seedFrom(Math.floor(Math.random() * 0xffff_ffff));
      console.log(`sigkill-feed-back: seed ${seed} (replay with BULK_DISPUTES_SEED=${seed})`);
      const random = seededRandom(seed);
      const { dir, db, sandbox, input } = await faultyJob(seed, rowSpecs);
      const base = [
        '--mapping',
        mapping,
        '--base-url',
        sandbox.url,
        '--concurrency',
        '16',
        '--file-mode',
        'none',
        '--log-level',
        'warn',
      ];
      const runToTheEnd = async (args: string[]) => {
        for (let run = 0; run < 10; run++) {
          const exit = await startImportProcess(args, runDeadlineMs).exit;
          expect(exit.signal, exit.stderr).toBeNull();
          expect([0, 1, 3], exit.stderr).toContain(exit.code);
          if (exit.code === 0) return;
        }
        throw new Error('expected the run to end with exit 0 within 10 runs');
      };

      // The first import: every claim created, none filed (file mode none), nothing fixed yet.
      const firstResults = join(dir, 'first.results.csv');
      await runToTheEnd([
        cliBin,
        'import',
        input,
        ...base,
        '--journal',
        join(dir, 'first.journal.sqlite'),
        '--results',
        firstResults,
      ]);
      const created = sandboxCases(db);
      expect(created).toEqual({ cases: rowSpecs.length, claims: claimCount, fixed: 0 });

      // The reviewer's fix on every row: the cardholder's statement, a field shared by the claim.
      const results = await readResults(firstResults);
      const fedBack = join(dir, 'fixed.csv');
      await writeFile(
        fedBack,
        resultsCsv(
          results,
          results.rows.map((row) => ({ ...row, cardholder_statement: fix })),
        ),
      );
      const journal = join(dir, 'fixed.journal.sqlite');
      const fixedResults = join(dir, 'fixed.results.csv');
      const args = [cliBin, 'import', fedBack, ...base, '--journal', journal, '--results', fixedResults];

      // Kills while the updates go out: each once the sandbox holds some more fixed cases.
      const log: string[] = [];
      let landed = 0;
      for (let attempt = 0; landed < kills; attempt++) {
        expect(attempt, `only ${landed} of ${kills} kills landed:\n${log.join('\n')}`).toBeLessThan(kills * 3);
        const { fixed } = sandboxCases(db);
        const target = fixed + 1 + Math.floor(random() * Math.max(1, (rowSpecs.length - fixed) / (kills - landed + 1)));
        const run = startImportProcess(args, runDeadlineMs);
        while (run.exited() === undefined && sandboxCases(db).fixed < target) await sleep(5);
        const killed = run.exited() === undefined ? await run.kill() : run.exited();
        if (killed?.signal !== 'SIGKILL') {
          log.push(`run ${attempt + 1}: ended by itself (exit ${String(killed?.code)})`);
          continue;
        }
        landed++;
        log.push(`kill ${landed}: at ${JSON.stringify(sandboxCases(db))}`);
      }
      console.log(`sigkill-feed-back (seed ${seed}):\n  ${log.join('\n  ')}`);
      await runToTheEnd(args);

      // Every case fixed, nothing created again.
      expect(sandboxCases(db)).toEqual({ cases: rowSpecs.length, claims: claimCount, fixed: rowSpecs.length });
      // Every row once, in order, created (file mode none), with the field its update changed.
      const { rows } = await readResults(fixedResults);
      expect(rows.map((row) => row.case_id)).toEqual(rowSpecs.map(expectedCaseId));
      expect(
        rows
          .filter((row) => row.outcome !== 'created' || row.error_code !== '')
          .map((row) => `${row.line} ${row.outcome} ${row.error_code}`),
      ).toEqual([]);
      expect(
        rows
          .filter((row) => row.changed_fields !== 'shared.issuer_evidence.cardholder_explanation')
          .map((row) => `${row.line} ${row.changed_fields}`),
      ).toEqual([]);
    },
  );
});
