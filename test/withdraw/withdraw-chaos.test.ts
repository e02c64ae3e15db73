import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { describe, expect, it, onTestFinished } from 'vitest';
import { testApiKey } from '../helpers/client.js';
import { startCountingProxy } from '../helpers/counting-proxy.js';
import { startImportProcess } from '../helpers/import-process.js';
import { cliBin, startSandboxProcess } from '../helpers/sandbox-process.js';
import { genericHeader, rowCells, type RowSpec } from '../import/generate.js';
import { runBin } from '../import/e2e-fixtures.js';
import { seedFrom, sized } from '../reliability/size.js';

/**
 * The proof of `withdraw` (docs/withdraw.md, "Exactly once"): an undo of a night of {claimCount}
 * claims (filed, not filed and created mixed) against a sandbox process answering 5% of requests
 * with 503 and dropping 3% of answers after committing, the withdraw SIGKILLed twice and then run
 * to the end. Every case is closed with `closed_reason: withdrawn` (the filed ones `lost`), each
 * exactly once (one `case.withdrawn` event each: no second withdrawal reached a case), every case
 * one results line `withdrawn`, and a run after that sends nothing.
 */

const mapping = fileURLToPath(new URL('../../mappings/generic.yaml', import.meta.url));
const claimCount = sized(500, 120);

/** The sandbox's data file, read beside the running sandbox (WAL). */
function heldCases(
  db: string,
): { case_id: string; status: string; closed_reason: string | null; withdrawals: number }[] {
  const database = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return database
      .prepare(
        `SELECT case_id, status, json_extract(document, '$.closed_reason') AS closed_reason,
           (SELECT count(*) FROM events WHERE events.type = 'case.withdrawn' AND events.case_id = cases.case_id) AS withdrawals
         FROM cases ORDER BY case_id`,
      )
      .all() as { case_id: string; status: string; closed_reason: string | null; withdrawals: number }[];
  } finally {
    database.close();
  }
}

/** Rows for the generic mapping; `notFiled` claims keep the card active, so filing refuses them. */
async function writeExport(
  file: string,
  claims: readonly number[],
  notFiled: (claim: number) => boolean,
): Promise<void> {
  const nowMs = Date.now();
  const active = genericHeader.indexOf('card_active');
  const lines = claims.map((claim) => {
    const cells = rowCells({ claim, transaction: 0 } satisfies RowSpec, nowMs);
    if (notFiled(claim)) cells[active] = 'yes';
    return cells.join(',');
  });
  await writeFile(file, `${[genericHeader.join(','), ...lines].join('\n')}\n`);
}

describe('withdraw SIGKILLed twice against a faulty sandbox, then run to the end', () => {
  it(
    `${claimCount} claims: every case withdrawn exactly once, filed ones lost; a later run sends nothing`,
    { timeout: sized(420_000, 120_000) },
    async () => {
      const seed = seedFrom(Math.floor(Math.random() * 0xffff_ffff));
      console.log(`withdraw-chaos: seed ${seed} (replay with BULK_DISPUTES_SEED=${seed})`);
      const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-withdraw-'));
      onTestFinished(async () => rm(dir, { recursive: true, force: true }));
      const db = join(dir, 'sandbox.db');
      const env = { CLAIMS_API_KEY: testApiKey };

      // The night, against a sound sandbox: 60% filed or refused by filing, 40% created only.
      const sandbox = await startSandboxProcess(['--api-key', testApiKey, '--db', db, '--control']);
      const door = await startCountingProxy(sandbox.url);
      const split = Math.floor(claimCount * 0.6);
      const claims = [...Array(claimCount).keys()];
      await writeExport(join(dir, 'filed.csv'), claims.slice(0, split), (claim) => claim % 5 === 1);
      await writeExport(join(dir, 'created.csv'), claims.slice(split), () => false);
      const common = ['--mapping', mapping, '--base-url', door.url, '--concurrency', '16', '--log-level', 'warn'];
      const filed = await runBin(
        [
          'import',
          'filed.csv',
          '--journal',
          'filed.journal.sqlite',
          '--results',
          'filed.results.csv',
          '--file-mode',
          'chargeback',
          ...common,
        ],
        env,
        { cwd: dir },
      );
      expect(filed.exitCode, filed.stderr).toBe(1);
      const created = await runBin(
        [
          'import',
          'created.csv',
          '--journal',
          'created.journal.sqlite',
          '--results',
          'created.results.csv',
          '--file-mode',
          'none',
          ...common,
        ],
        env,
        { cwd: dir },
      );
      expect(created.exitCode, created.stderr).toBe(0);
      const before = heldCases(db);
      expect(before).toHaveLength(claimCount);
      const filedBefore = new Set(before.filter((item) => item.status !== 'created').map((item) => item.case_id));
      expect(filedBefore.size).toBeGreaterThan(0);
      expect(filedBefore.size).toBeLessThan(split);

      // The same service, now failing: 503s and answers dropped after the commit.
      const faults = await fetch(new URL('/_sandbox/faults', sandbox.url), {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${testApiKey}:`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          seed,
          failRate: 0.05,
          dropAfterCommitRate: 0.03,
          latencyMs: { min: 0, max: 5 },
          retryAfterSeconds: 0,
        }),
      });
      expect(faults.status, await faults.text()).toBe(200);
      const args = [
        cliBin,
        'withdraw',
        join(dir, 'filed.journal.sqlite'),
        join(dir, 'created.journal.sqlite'),
        '--base-url',
        door.url,
        '--journal',
        join(dir, 'undo.journal.sqlite'),
        '--results',
        join(dir, 'undo.results.csv'),
        '--concurrency',
        '16',
        '--log-level',
        'warn',
      ];
      let killed = 0;
      for (const share of [0.2, 0.6]) {
        const run = startImportProcess(args, 120_000);
        while (
          run.exited() === undefined &&
          heldCases(db).filter((item) => item.closed_reason === 'withdrawn').length < claimCount * share
        )
          await sleep(20);
        const ended = run.exited();
        if (ended === undefined) {
          await run.kill();
          killed++;
        } else expect([0, 1, 3], ended.stderr).toContain(ended.code);
      }
      console.log(`withdraw-chaos: ${killed} of 2 kills landed mid-run`);
      expect(killed).toBeGreaterThan(0);
      const last = startImportProcess(args, 120_000);
      const end = await last.exit;
      expect(end.code, end.stderr).toBe(0);

      const after = heldCases(db);
      expect(
        after.filter((item) => item.closed_reason !== 'withdrawn').map((item) => `${item.case_id} ${item.status}`),
      ).toEqual([]);
      expect(
        after
          .filter((item) => item.status !== (filedBefore.has(item.case_id) ? 'lost' : 'closed'))
          .map((item) => item.case_id),
      ).toEqual([]);
      // Exactly once: one withdrawal event per case, whatever was retried, dropped or killed.
      expect(
        after.filter((item) => item.withdrawals !== 1).map((item) => `${item.case_id} ${item.withdrawals}`),
      ).toEqual([]);
      const lines = parse<{ case_id: string; outcome: string }>(await readFile(join(dir, 'undo.results.csv'), 'utf8'), {
        columns: true,
      });
      expect(lines.map((line) => line.case_id).sort()).toEqual(after.map((item) => item.case_id));
      expect(
        lines.filter((line) => line.outcome !== 'withdrawn').map((line) => `${line.case_id} ${line.outcome}`),
      ).toEqual([]);

      // Done: the same command again sends nothing at all.
      const writesBefore = door.requests().filter((request) => !request.startsWith('GET ')).length;
      const again = startImportProcess(args, 60_000);
      expect((await again.exit).code).toBe(0);
      expect(door.requests().filter((request) => !request.startsWith('GET ')).length).toBe(writesBefore);
    },
  );
});
