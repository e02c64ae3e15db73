import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readResultRecords } from '../../src/job-files/import/result-records.js';
import type { ResultRecord } from '../../src/job-files/import/records.js';
import { SettledRows } from '../../src/import/settled-rows.js';
import { settledResultRecords } from '../../src/import/settled-results.js';
import { readFile, writeFile } from 'node:fs/promises';
import { createFaultInjector } from '../../src/sandbox/faults/seeded-faults.js';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import { importArgs, makeWorkspace, readResults, runCli } from './e2e-fixtures.js';
import { genericColumns, oneToThreeRows, plannedRows, writeDisputesCsv } from './generate.js';

/**
 * The results written while claims are still sent (docs/import.md, "What happens, in order"):
 * a row is given once nothing the run does can change it, in input order, and the pages together
 * are the journal's records read at once, record for record.
 */

describe('settled rows', () => {
  it('holds back the rows from the oldest claim in flight, and from the first claim not yet passed', () => {
    const settled = new SettledRows();
    expect(settled.settledThrough).toBe(-1);
    settled.taken('a', 0);
    settled.taken('b', 3);
    settled.passed(5);
    // Claim a is in flight from row 0: nothing is settled.
    expect(settled.settledThrough).toBe(-1);
    settled.done('a');
    expect(settled.settledThrough).toBe(2);
    settled.done('b');
    expect(settled.settledThrough).toBe(5);
    settled.passedAll();
    expect(settled.settledThrough).toBe(Number.MAX_SAFE_INTEGER);
    settled.taken('c', 9);
    expect(settled.settledThrough).toBe(8);
    expect(settled.isInFlight('c')).toBe(true);
  });

  it('wakes a waiter once its row is settled, every waiter at the end, and rejects them when the run fails', async () => {
    const settled = new SettledRows();
    settled.taken('a', 0);
    let woken = false;
    const waiting = settled.until(4).then(() => (woken = true));
    settled.passed(7);
    await sleep(5);
    expect(woken).toBe(false);
    settled.done('a');
    await waiting;
    expect(woken).toBe(true);

    const atTheEnd = settled.until(1_000_000);
    settled.end();
    await atTheEnd;

    const failing = new SettledRows();
    const refused = failing.until(10);
    failing.fail(new Error('the import stopped'));
    await expect(refused).rejects.toThrow('the import stopped');
  });
});

describe('settled result records', () => {
  it(
    'gives the journal its records page by page as their claims settle, the same as read at once',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const input = join(workspace.dir, 'night.csv');
      // More rows than a page, the rows of a claim up to 4 rows apart.
      await writeDisputesCsv(input, plannedRows({ rows: 2_600, sizeOf: oneToThreeRows, block: 4 }));
      const run = await runCli([
        ...importArgs(workspace, input, ['--sandbox-db', join(workspace.dir, 'sandbox.db'), '--file-mode', 'none']),
        '--log-level',
        'warn',
      ]);
      expect(run.exitCode, run.stderr).toBe(0);
      const database = new Database(workspace.journal, { readonly: true });
      onTestFinished(() => {
        database.close();
      });
      const everyRecord = [...readResultRecords(database)];
      expect(everyRecord).toHaveLength(2_600);
      const claims = database.prepare('SELECT claim_key, first_idx FROM claims ORDER BY first_idx').all() as {
        claim_key: string;
        first_idx: number;
      }[];

      // The taking as the sending does it: a claim in flight at a time, the ones before it done.
      const settled = new SettledRows();
      const given: ResultRecord[] = [];
      let pages = 0;
      const reading = (async () => {
        for await (const page of settledResultRecords({ database, flush: () => undefined }, settled)) {
          pages++;
          // No row of a claim in flight, and none after the place the taking has reached.
          for (const record of page)
            expect(record.claim_key === null || !settled.isInFlight(record.claim_key)).toBe(true);
          expect(page.at(-1)?.idx ?? -1).toBeLessThanOrEqual(settled.settledThrough);
          given.push(...page);
        }
      })();
      const halfway = claims[Math.floor(claims.length / 2)];
      for (const claim of claims) {
        settled.taken(claim.claim_key, claim.first_idx);
        if (claim !== halfway) settled.done(claim.claim_key);
        await sleep(0);
      }
      settled.passedAll();
      await sleep(20);
      // Held at the claim still in flight: every row given lies before its first row.
      expect(given.length).toBeGreaterThanOrEqual(1_000);
      expect(given.every((record) => record.idx < (halfway?.first_idx ?? 0))).toBe(true);
      settled.done(halfway?.claim_key ?? '');
      settled.end();
      await reading;
      expect(pages).toBeGreaterThan(2);
      expect(given).toEqual(everyRecord);
    },
  );
});

describe('import: the results written while claims are sent', () => {
  it(
    "are the journal's results read once sending has ended, byte for byte, whatever became of each row",
    { timeout: 120_000 },
    async () => {
      const { sandbox } = await startTestSandbox({
        // Half the filings refused: a few outlast the retries, their claims left created, not filed.
        faults: createFaultInjector({
          failRate: 0.5,
          retryAfterSeconds: 0,
          latencyMs: 5,
          seed: 7,
          routes: ['POST /v2/issuer/claims/{claim_id}/file'],
        }),
      });
      const workspace = await makeWorkspace();
      const input = join(workspace.dir, 'night.csv');
      await writeDisputesCsv(input, plannedRows({ rows: 2_400, sizeOf: oneToThreeRows, block: 4 }));
      // Rows of every kind: an amount that is not one (the claim held back), a receipt not there
      // (the row held back), the rest filed, or created only where the 503s outlast the retries.
      const receipt = genericColumns.indexOf('receipt_file');
      const amount = genericColumns.indexOf('disputed_amount');
      const lines = (await readFile(input, 'utf8')).split('\n');
      const edited = lines.map((line, place) => {
        if (place === 0 || line === '') return line;
        const cells = line.split(',');
        if (place % 67 === 0) cells[amount] = 'abc';
        if (place % 41 === 0) cells[receipt] = `receipts/missing-${place}.pdf`;
        return cells.join(',');
      });
      await writeFile(input, edited.join('\n'));

      const run = await runCli(
        [
          ...importArgs(workspace, input, [
            '--base-url',
            sandbox.url,
            '--concurrency',
            '16',
            '--file-mode',
            'chargeback',
            '--breaker-threshold',
            '1000',
          ]),
          '--log-level',
          'warn',
        ],
        { CLAIMS_API_KEY: sandboxKey },
      );
      expect([0, 1], run.stderr).toContain(run.exitCode);
      const { rows } = await readResults(workspace.results);
      expect(rows.map((row) => Number(row.line))).toEqual(Array.from({ length: 2_400 }, (_, place) => place + 2));
      const outcomes = new Set(rows.map((row) => row.outcome));
      for (const outcome of ['filed', 'created', 'invalid']) expect(outcomes).toContain(outcome);

      // The same journal's results read at once, as merge-results reads them.
      const merged = join(workspace.dir, 'merged.results.csv');
      const merge = await runCli(['merge-results', '--out', merged, workspace.journal]);
      expect(merge.exitCode, merge.stderr).toBe(0);
      expect((await readFile(workspace.results)).equals(await readFile(merged))).toBe(true);
    },
  );
});
