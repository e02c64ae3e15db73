import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ClaimsClient } from '../../src/api/client/index.js';
import { main } from '../../src/cli/main.js';
import { claimIds, startServiceBehindDoor, type ServiceBehindDoor } from '../helpers/service-doors.js';
import { saveAsWithSoffice, soffice, sofficeRequired } from '../helpers/soffice.js';
import {
  csvOf,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  runBin,
  type GenericRow,
  type Workspace,
} from '../import/e2e-fixtures.js';

/**
 * `bulk-disputes withdraw` against a real sandbox process behind a counting door. A
 * night's imports (filed, not filed, created) taken back from their journals; the dry run; a live
 * key with no terminal; cases of a results file a person filtered, saved by LibreOffice Calc, with
 * deletes; and the corrected file after the undo.
 */

const testKey = 'test_withdraw_key_0001';
const liveKey = 'live_withdraw_key_0001';
const env = (service: ServiceBehindDoor, key = testKey) => ({ CLAIMS_BASE_URL: service.url, CLAIMS_API_KEY: key });

interface ResultLine {
  claim_key: string;
  claim_id: string;
  case_id: string;
  status_before: string;
  outcome: string;
  status_after: string;
  error_code: string;
  error_message: string;
}

async function readLines(file: string, delimiter = ','): Promise<ResultLine[]> {
  return parse<ResultLine>(await readFile(file, 'utf8'), { columns: true, delimiter });
}

async function importIn(
  workspace: Workspace,
  name: string,
  rows: readonly GenericRow[],
  service: ServiceBehindDoor,
  extra: readonly string[] = [],
  key = testKey,
) {
  await workspace.write(`${name}.csv`, csvOf(rows));
  return runBin(
    [
      'import',
      `${name}.csv`,
      '--mapping',
      genericMapping,
      '--evidence-dir',
      'evidence',
      '--journal',
      `${name}.journal.sqlite`,
      '--results',
      `${name}.results.csv`,
      '--log-level',
      'warn',
      ...extra,
    ],
    env(service, key),
    { cwd: workspace.dir },
  );
}

async function withdraw(workspace: Workspace, args: readonly string[], service: ServiceBehindDoor, key = testKey) {
  return runBin(['withdraw', ...args, '--log-level', 'warn'], env(service, key), { cwd: workspace.dir });
}

/** Every case the key's environment holds: id → status and closed_reason. */
async function casesAt(client: ClaimsClient): Promise<Map<string, { status: string; closedReason: string | null }>> {
  const cases = new Map<string, { status: string; closedReason: string | null }>();
  for (const claimId of await claimIds(client)) {
    for (const item of (await client.claims.retrieve(claimId)).data.cases ?? [])
      cases.set(item.case_id, { status: item.status ?? '', closedReason: item.closed_reason ?? null });
  }
  return cases;
}

const writes = (service: ServiceBehindDoor, from = 0) =>
  service.door
    .requests()
    .slice(from)
    .filter((request) => !request.startsWith('GET '));

/** A night: six claims filed, two not filed (the card still active), three created only. */
async function night(workspace: Workspace, service: ServiceBehindDoor, key = testKey): Promise<void> {
  const filed = [1, 2, 3, 4, 5, 6].map((claim) => fraudRow(`N-${claim}`, 'T1'));
  filed.push(fraudRow('N-1', 'T2'));
  const notFiled = [7, 8].map((claim) => fraudRow(`N-${claim}`, 'T1', { card_active: 'yes' }));
  expect((await importIn(workspace, 'night', [...filed, ...notFiled], service, [], key)).exitCode).toBe(1);
  expect(
    (
      await importIn(
        workspace,
        'created',
        [9, 10, 11].map((claim) => fraudRow(`N-${claim}`, 'T1')),
        service,
        ['--file-mode', 'none'],
        key,
      )
    ).exitCode,
  ).toBe(0);
}

describe('bulk-disputes withdraw', () => {
  it(
    'takes a night back from its journals: every case closed as withdrawn (filed ones lost), one line per case; run again, it sends nothing',
    { timeout: 120_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([testKey]);
      await night(workspace, service);
      const reader = service.client(testKey);

      // The dry run: what would happen, reads only.
      const before = service.door.requests().length;
      const dry = await withdraw(
        workspace,
        ['night.journal.sqlite', 'created.journal.sqlite', '--dry-run', '--results', 'dry.results.csv'],
        service,
      );
      expect(dry.exitCode, dry.stderr).toBe(0);
      expect(writes(service, before)).toEqual([]);
      expect(dry.stderr).toMatch(/withdraw → lost\s+7/);
      expect(dry.stderr).toMatch(/withdraw → closed\s+5/);
      const preview = await readLines(join(workspace.dir, 'dry.results.csv'));
      expect(new Set(preview.map((line) => line.outcome))).toEqual(new Set(['would_withdraw']));
      expect([...(await casesAt(reader)).values()].every((item) => item.closedReason === null)).toBe(true);

      const run = await withdraw(workspace, ['night.journal.sqlite', 'created.journal.sqlite'], service);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).toContain('withdraw finished: 12 cases of 11 claims = 12 withdrawn');
      const results = join(workspace.dir, 'night.withdraw.results.csv');
      expect((await stat(results)).mode & 0o777).toBe(0o600);
      const lines = await readLines(results);
      expect(lines.map((line) => [line.case_id, line.status_before, line.outcome, line.status_after])).toEqual([
        ['N-1-T1', 'chargeback_filed', 'withdrawn', 'lost'],
        ['N-1-T2', 'chargeback_filed', 'withdrawn', 'lost'],
        ...[2, 3, 4, 5, 6].map((claim) => [`N-${claim}-T1`, 'chargeback_filed', 'withdrawn', 'lost']),
        ...[7, 8, 9, 10, 11].map((claim) => [`N-${claim}-T1`, 'created', 'withdrawn', 'closed']),
      ]);
      const held = await casesAt(reader);
      expect([...held.values()].every((item) => item.closedReason === 'withdrawn')).toBe(true);
      expect(held.get('N-1-T1')?.status).toBe('lost');
      expect(held.get('N-9-T1')?.status).toBe('closed');
      // One withdrawal per claim reached the service.
      expect(writes(service, before).filter((request) => request.endsWith('/withdraw'))).toHaveLength(11);

      const again = await withdraw(workspace, ['night.journal.sqlite', 'created.journal.sqlite'], service);
      expect(again.exitCode, again.stderr).toBe(0);
      const doorAfter = service.door.requests().length;
      const third = await withdraw(workspace, ['night.journal.sqlite', 'created.journal.sqlite'], service);
      expect(third.exitCode, third.stderr).toBe(0);
      expect(service.door.requests().length).toBe(doorAfter);
      expect((await readLines(results)).map((line) => line.outcome)).toEqual(Array(12).fill('withdrawn'));

      // A new journal for the same sources: the claims are closed already, said so, nothing sent.
      const fresh = await withdraw(
        workspace,
        ['night.journal.sqlite', '--journal', 'fresh.journal.sqlite', '--results', 'fresh.results.csv'],
        service,
      );
      expect(fresh.exitCode, fresh.stderr).toBe(0);
      expect(new Set((await readLines(join(workspace.dir, 'fresh.results.csv'))).map((line) => line.outcome))).toEqual(
        new Set(['already_closed']),
      );
    },
  );

  it(
    'a live key with no terminal and no --yes: exit 2, nothing sent, not even a read',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([liveKey]);
      await night(workspace, service, liveKey);
      const before = service.door.total();
      const refused = await withdraw(workspace, ['night.journal.sqlite'], service, liveKey);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain(
        'withdraw with a live key: expected --yes (or a terminal to confirm on), got neither; nothing was sent',
      );
      expect(service.door.total()).toBe(before);
      const confirmed = await withdraw(
        workspace,
        ['night.journal.sqlite', '--yes', '--outcome', 'not_filed'],
        service,
        liveKey,
      );
      expect(confirmed.exitCode, confirmed.stderr).toBe(0);
      expect(confirmed.stderr).toContain('2 withdrawn');
    },
  );

  it(
    'a live key on a terminal: the service, the counts and a sample are shown and asked about; "no" sends nothing (exit 2), "yes" takes the claims back',
    { timeout: 90_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([liveKey]);
      await night(workspace, service, liveKey);
      const asked: string[] = [];
      const onTerminal = async (answer: string) => {
        let stderr = '';
        const exitCode = await main(
          [
            'withdraw',
            join(workspace.dir, 'night.journal.sqlite'),
            '--journal',
            join(workspace.dir, 'undo.journal.sqlite'),
            '--results',
            join(workspace.dir, 'undo.results.csv'),
            '--log-level',
            'warn',
          ],
          {
            stdout: { write: () => true },
            stderr: { write: (text: string) => (stderr += text) },
            env: env(service, liveKey),
            ask: async (question) => {
              asked.push(question);
              return answer;
            },
          },
        );
        return { exitCode, stderr };
      };
      const before = service.door.requests().length;
      const declined = await onTerminal('no');
      expect(declined.exitCode, declined.stderr).toBe(2);
      expect(declined.stderr).toContain(`withdraw at ${service.url} (live key): 8 claims`);
      expect(declined.stderr).toMatch(/withdraw → lost\s+7/);
      expect(declined.stderr).toContain('for example:');
      expect(declined.stderr).toContain('not confirmed: nothing was sent');
      expect(asked).toEqual(['withdraw these claims at the live service? type yes to go on: ']);
      expect(writes(service, before)).toEqual([]);

      const confirmed = await onTerminal('yes');
      expect(confirmed.exitCode, confirmed.stderr).toBe(0);
      expect(confirmed.stderr).toContain('withdraw finished: 9 cases of 8 claims = 9 withdrawn');
      expect(writes(service, before).filter((request) => request.endsWith('/withdraw'))).toHaveLength(8);
    },
  );

  it.skipIf(soffice === undefined && !sofficeRequired)(
    'cases of a results file a person filtered and saved in LibreOffice Calc: --scope case, the unfiled one deleted, the filed one withdrawn; the rest untouched',
    { timeout: 180_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([testKey]);
      await night(workspace, service);
      const reader = service.client(testKey);
      // The person keeps the header and two lines: one filed case of N-1, one unfiled of N-7.
      const text = await readFile(join(workspace.dir, 'night.results.csv'), 'utf8');
      const [header, ...rows] = text.trimEnd().split('\n');
      const kept = rows.filter((row) => row.includes(',N-1-T2,') || row.includes(',N-7-T1,'));
      expect(kept).toHaveLength(2);
      await writeFile(join(workspace.dir, 'refunded.csv'), `${[header, ...kept].join('\n')}\n`);
      const workbook = await saveAsWithSoffice(join(workspace.dir, 'refunded.csv'), 'xlsx', workspace.dir);

      const run = await withdraw(
        workspace,
        [workbook, '--scope', 'case', '--delete-unfiled', '--results', 'refunded.withdraw.results.csv'],
        service,
      );
      expect(run.exitCode, run.stderr).toBe(0);
      const lines = await readLines(join(workspace.dir, 'refunded.withdraw.results.csv'));
      expect(lines.map((line) => [line.case_id, line.outcome, line.status_after])).toEqual([
        ['N-1-T2', 'withdrawn', 'lost'],
        ['N-7-T1', 'deleted', 'deleted'],
      ]);
      const held = await casesAt(reader);
      expect(held.get('N-1-T2')).toEqual({ status: 'lost', closedReason: 'withdrawn' });
      expect(held.has('N-7-T1')).toBe(false);
      // The other case of N-1 and every other claim stay as they were.
      expect(held.get('N-1-T1')).toEqual({ status: 'chargeback_filed', closedReason: null });
      expect(
        [...held.entries()].filter(([caseId]) => caseId !== 'N-1-T2').every(([, item]) => item.closedReason === null),
      ).toBe(true);
    },
  );

  it(
    'undo, then redo: a night imported with the wrong reason is withdrawn; the corrected file meets the withdrawn claims (claim_withdrawn, nothing reported filed on them); imported with --id-prefix it files as new claims, and a re-run creates nothing',
    { timeout: 120_000 },
    async () => {
      const workspace = await makeWorkspace();
      const service = await startServiceBehindDoor([testKey]);
      const reader = service.client(testKey);
      // The wrong reason: everything went out as fraud.
      const rows = [1, 2, 3].map((claim) => fraudRow(`U-${claim}`, 'T1'));
      expect((await importIn(workspace, 'wrong', rows, service)).exitCode).toBe(0);
      expect((await withdraw(workspace, ['wrong.journal.sqlite'], service)).exitCode).toBe(0);

      // The corrected export: the same disputes, the right reason (a duplicate charge with its receipt).
      await workspace.evidence('receipts/cafe-lumiere-receipt.pdf', 'receipt.pdf');
      const corrected = rows.map((row) => ({ ...row, reason_code: 'DUP', receipt_file: 'receipt.pdf' }));
      const blocked = await importIn(workspace, 'corrected', corrected, service);
      expect(blocked.exitCode).toBe(1);
      const refused = await readResults(join(workspace.dir, 'corrected.results.csv'));
      expect(refused.rows.map((row) => [row.outcome, row.error_code])).toEqual(
        Array(3).fill(['rejected', 'claim_withdrawn']),
      );
      expect(refused.rows[0]?.error_message).toContain('--id-prefix');

      const redo = await importIn(workspace, 'corrected', corrected, service, [
        '--id-prefix',
        'redo-1',
        '--journal',
        'redo.journal.sqlite',
        '--results',
        'redo.results.csv',
      ]);
      expect(redo.exitCode, redo.stderr).toBe(0);
      const filed = await readResults(join(workspace.dir, 'redo.results.csv'));
      expect(filed.rows.map((row) => [row.claim_id, row.outcome])).toEqual(
        [1, 2, 3].map((claim) => [`redo-1-CLM-U-${claim}`, 'filed']),
      );
      const claimsAfter = await claimIds(reader);
      expect(claimsAfter).toHaveLength(6);
      // The redo's re-run, with a lost journal: adopted, nothing created.
      const rerun = await importIn(workspace, 'corrected', corrected, service, [
        '--id-prefix',
        'redo-1',
        '--journal',
        'redo-again.journal.sqlite',
        '--results',
        'redo-again.results.csv',
      ]);
      expect(rerun.exitCode, rerun.stderr).toBe(0);
      expect(await claimIds(reader)).toEqual(claimsAfter);
    },
  );
});
