import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sandboxKey, startTestSandbox } from '../helpers/sandbox.js';
import {
  csvOf,
  daysAgo,
  duplicateChargeRow,
  fraudRow,
  genericMapping,
  makeWorkspace,
  readResults,
  runCli,
  type ResultRow,
  type Workspace,
} from './e2e-fixtures.js';

/**
 * A dry run says which rows would not file, and the real run then files exactly the others
 * (docs/import.md, "A dry run"): the same export through `--dry-run` and then for real, against
 * one sandbox on a loopback port, compared row by row. Every filing rule the sandbox applies is
 * in play: receipts missing (or attached under another category), fraud on an active card, a
 * window passed, a parameter missing, and claims where some rows file and some do not.
 */

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const env = { CLAIMS_API_KEY: sandboxKey };

/** The export, its receipt and correspondence files in the workspace's evidence folder. */
async function mixedExport(workspace: Workspace): Promise<string> {
  await workspace.evidence('receipts/sakuragawa-folio.pdf', 'receipts/folio.pdf');
  await workspace.evidence('correspondence/northwind-support-reply.png', 'mail/reply.png');
  const rows = [
    // Files: fraud, the card cancelled, the fraud reported, two rows.
    fraudRow('D-OK', 'T1'),
    fraudRow('D-OK', 'T2'),
    // A duplicate charge without its receipt: documentation_missing.
    duplicateChargeRow('D-NO-RECEIPT', 'T1', ''),
    // A receipt on one row of two: the claim's documentation is every row's, so both file.
    duplicateChargeRow('D-SHARED-RECEIPT', 'T1', 'receipts/folio.pdf'),
    duplicateChargeRow('D-SHARED-RECEIPT', 'T2', ''),
    // Correspondence only, not a receipt: the category counts, not that a file is there.
    duplicateChargeRow('D-MAIL-ONLY', 'T1', '', { correspondence_files: 'mail/reply.png' }),
    // Fraud on a card still active, and not reported: two problems, the first named, the other counted.
    fraudRow('D-ACTIVE', 'T1', { card_active: 'yes', fraud_reported: 'no' }),
    // One transaction past the 120-day window, the other inside it: the claim splits.
    fraudRow('D-LATE', 'T1', { transaction_date: daysAgo(130) }),
    fraudRow('D-LATE', 'T2'),
    // No disputed amount: parameter_missing, named by the mapping field.
    fraudRow('D-NO-AMOUNT', 'T1', { disputed_amount: '' }),
  ];
  return workspace.write('export.csv', csvOf(rows));
}

function importRun(workspace: Workspace, input: string, name: string, extra: string[]): string[] {
  return [
    'import',
    input,
    '--mapping',
    genericMapping,
    '--evidence-dir',
    workspace.evidenceDir,
    '--results',
    join(workspace.dir, `${name}.results.csv`),
    '--journal',
    join(workspace.dir, `${name}.journal.sqlite`),
    '--log-level',
    'silent',
    ...extra,
  ];
}

/** Each row as the comparison reads it: which line, whether its case files, and the words why not. */
function filingOf(row: ResultRow, notFiled: string, filed: string) {
  const files = row.outcome === filed ? true : row.outcome === notFiled ? false : row.outcome;
  return {
    line: row.line,
    case_id: row.case_id,
    files,
    code: row.error_code,
    message: row.error_message,
    field: row.error_field,
  };
}

/** The summary's lines as a person reads them, its timing line left out. */
function summaryLines(stderr: string): string[] {
  return stderr
    .trim()
    .split('\n')
    .filter((line) => !line.startsWith('took '));
}

describe('a dry run predicts the filing of the real run', () => {
  it(
    'says which rows would not file, with the words and exit code the real run then gives',
    { timeout: 60_000 },
    async () => {
      const workspace = await makeWorkspace();
      const input = await mixedExport(workspace);
      const { sandbox } = await startTestSandbox();
      const service = ['--base-url', sandbox.url];

      const dry = await runCli(importRun(workspace, input, 'dry', ['--dry-run', ...service]), env);
      const real = await runCli(importRun(workspace, input, 'real', service), env);

      expect(dry.exitCode, dry.stderr).toBe(1);
      expect(real.exitCode, real.stderr).toBe(1);
      const predicted = (await readResults(join(workspace.dir, 'dry.results.csv'))).rows;
      const happened = (await readResults(join(workspace.dir, 'real.results.csv'))).rows;
      expect(predicted.map((row) => filingOf(row, 'would_not_file', 'valid'))).toEqual(
        happened.map((row) => filingOf(row, 'not_filed', 'filed')),
      );
      // What the comparison covered: each rule once at least, and rows that file beside rows that do not.
      expect(predicted.map((row) => [row.case_id, row.outcome, row.error_code, row.error_field])).toEqual([
        ['D-OK-T1', 'valid', '', ''],
        ['D-OK-T2', 'valid', '', ''],
        ['D-NO-RECEIPT-T1', 'would_not_file', 'documentation_missing', ''],
        ['D-SHARED-RECEIPT-T1', 'valid', '', ''],
        ['D-SHARED-RECEIPT-T2', 'valid', '', ''],
        ['D-MAIL-ONLY-T1', 'would_not_file', 'documentation_missing', ''],
        ['D-ACTIVE-T1', 'would_not_file', 'parameter_missing', 'shared.issuer_evidence.card.is_active'],
        ['D-LATE-T1', 'would_not_file', 'filing_window_expired', 'case.transaction.date'],
        ['D-LATE-T2', 'valid', '', ''],
        ['D-NO-AMOUNT-T1', 'would_not_file', 'parameter_missing', 'case.dispute.amount'],
      ]);
      expect(predicted.find((row) => row.case_id === 'D-NO-RECEIPT-T1')?.error_message).toBe(
        'duplicate_charge: a transaction receipt is required',
      );
      expect(predicted.find((row) => row.case_id === 'D-ACTIVE-T1')?.error_message).toBe(
        'fraud: the card must be cancelled (issuer_evidence.card.is_active false) (and 1 more: parameter_missing)',
      );
      // Nothing was sent by the dry run: the service holds only the real run's claims, each once.
      expect(new Set(happened.map((row) => row.claim_id)).size).toBe(7);

      expect(summaryLines(dry.stderr)).toEqual([
        'dry run finished: 10 rows, 7 claims',
        '  valid                 5',
        '  would_not_file        5',
        'rows whose case would not be filed: 5 (by the filing rules the sandbox applies; error_code and error_message ' +
          'say why, as the real run would)',
        'top errors:',
        '  documentation_missing               2',
        '  parameter_missing                   2',
        '  filing_window_expired               1',
        `results: ${join(workspace.dir, 'dry.results.csv')}`,
      ]);
      expect(summaryLines(real.stderr)).toEqual([
        `import into ${sandbox.url} (test key) finished: 10 rows, 7 claims`,
        '  filed             5',
        '  not_filed         5',
        'top errors:',
        '  documentation_missing               2',
        '  parameter_missing                   2',
        '  filing_window_expired               1',
        `results: ${join(workspace.dir, 'real.results.csv')}`,
      ]);
    },
  );

  it('predicts nothing of filing when the run would not file (--file-mode none): every row valid, exit 0', async () => {
    const workspace = await makeWorkspace();
    const input = await mixedExport(workspace);

    const dry = await runCli(importRun(workspace, input, 'dry', ['--dry-run', '--file-mode', 'none']), {});

    expect(dry.exitCode, dry.stderr).toBe(0);
    const rows = (await readResults(join(workspace.dir, 'dry.results.csv'))).rows;
    expect(new Set(rows.map((row) => row.outcome))).toEqual(new Set(['valid']));
  });
});

/**
 * The bundled samples (samples/README.md) against the embedded sandbox, at the clock they are
 * written for, where every claim files, and three months on, when the fraud and
 * product_not_received claims are past their window: the dry run checks filing at the embedded
 * sandbox's `--sandbox-clock`, and predicts the real run row by row.
 */
describe.each([
  ['mappings/generic.yaml', 'samples/generic-export.csv'],
  ['mappings/v1-cases.yaml', 'samples/v1-cases.csv'],
])('%s with %s', (mapping, sample) => {
  it.each([
    ['2026-11-20T12:00:00Z', 0],
    ['2027-03-01T12:00:00Z', 1],
  ])('at %s the dry run predicts the real run row by row (exit %i)', { timeout: 60_000 }, async (clock, exitCode) => {
    const workspace = await makeWorkspace();
    const run = (name: string, extra: string[]) => [
      'import',
      join(repoRoot, sample),
      '--mapping',
      join(repoRoot, mapping),
      '--evidence-dir',
      join(repoRoot, 'samples/evidence'),
      '--sandbox-clock',
      clock,
      '--sandbox-db',
      join(workspace.dir, 'sandbox.db'),
      '--results',
      join(workspace.dir, `${name}.results.csv`),
      '--journal',
      join(workspace.dir, `${name}.journal.sqlite`),
      '--log-level',
      'silent',
      ...extra,
    ];

    const dry = await runCli(run('dry', ['--dry-run']), {});
    const real = await runCli(run('real', []), {});

    expect(dry.exitCode, dry.stderr).toBe(exitCode);
    expect(real.exitCode, real.stderr).toBe(exitCode);
    const predicted = (await readResults(join(workspace.dir, 'dry.results.csv'))).rows;
    const happened = (await readResults(join(workspace.dir, 'real.results.csv'))).rows;
    expect(predicted.map((row) => filingOf(row, 'would_not_file', 'valid'))).toEqual(
      happened.map((row) => filingOf(row, 'not_filed', 'filed')),
    );
    const wouldNotFile = predicted.filter((row) => row.outcome === 'would_not_file').length;
    expect(wouldNotFile > 0).toBe(exitCode === 1);
    if (wouldNotFile > 0) {
      expect(summaryLines(dry.stderr)).toContain(`  would_not_file ${String(wouldNotFile).padStart(8)}`);
      expect(summaryLines(real.stderr)).toContain(`  not_filed  ${String(wouldNotFile).padStart(8)}`);
    }
  });
});
