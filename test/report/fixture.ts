import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { fileURLToPath } from 'node:url';
import { legacyStatusLayouts } from '../../src/job-files/import/columns.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The bundled sample imported into an embedded sandbox with the first claim's disputed amount
 * replaced by `badAmount`: that claim is held back (exit 1), the others filed.
 */
export async function importSampleWithBadAmount(
  folder: string,
  badAmount: string,
): Promise<{ input: string; journal: string; results: string; imported: CliRun }> {
  const sample = await readFile(join(root, 'samples/generic-export.csv'), 'utf8');
  const input = join(folder, 'export.csv');
  await writeFile(input, sample.replace(',849.99,849.99,', `,849.99,${badAmount},`));
  const journal = join(folder, 'export.journal.sqlite');
  const results = join(folder, 'export.results.csv');
  const imported = await runCli([
    'import',
    input,
    '--mapping',
    join(root, 'mappings/generic.yaml'),
    '--evidence-dir',
    join(root, 'samples/evidence'),
    '--sandbox-db',
    join(folder, 'sandbox.db'),
    '--sandbox-clock',
    '2026-11-20T12:00:00Z',
    '--journal',
    journal,
    '--results',
    results,
    '--log-level',
    'silent',
  ]);
  return { input, journal, results, imported };
}

/** A folder of its own for one test, removed when the test finishes. */
export async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'bulk-disputes-report-'));
  onTestFinished(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return folder;
}

const quote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/** Results lines: status columns (line, claim_key, claim_id, case_id, outcome, error_code, error_message, error_field), then two source columns. */
const results: readonly (readonly string[])[] = [
  ['2', 'D-1', 'CLM-D-1', 'case_1', 'filed', '', '', '', '201', '1', 'file_1', 'D-1', '10.00'],
  [
    '3',
    'D-1',
    'CLM-D-1',
    'case_2',
    'not_filed',
    'documentation_missing',
    'fraud: a transaction receipt is required',
    '',
    '200',
    '1',
    '',
    'D-1',
    '12.00',
  ],
  ['4', 'D-2', 'CLM-D-2', 'case_3', 'filed', '', '', '', '201', '1', '', 'D-2', '5.00'],
  [
    '5',
    'D-3',
    '',
    '',
    'invalid',
    'amount_format',
    'amount: expected digits with "." as decimal separator and no digit grouping, got "9,99"',
    'case.dispute.amount',
    '',
    '',
    '',
    'D-3',
    '9,99',
  ],
  [
    '6',
    'D-4',
    '',
    '',
    'invalid',
    'amount_format',
    'amount: expected digits, got "<script>alert(1)</script>"',
    'case.dispute.amount',
    '',
    '',
    '',
    'D-4',
    '<script>alert(1)</script>',
  ],
  ['7', 'D-5', 'CLM-D-5', '', 'failed', 'CLAIMS_UNAVAILABLE', 'service unavailable', '', '503', '5', '', 'D-5', '1.00'],
  ['8', 'D-6', '', '', 'invalid', 'mystery_code', 'something new, with a comma', '', '', '', '', 'D-6', '2.00'],
  ['9', 'D-7', 'CLM-D-7', 'case_9', 'created', '', '', '', '201', '1', '', 'D-7', '3.00'],
];

export const failedLines = ['3', '5', '6', '7', '8'];

/**
 * A small results CSV written by hand (its columns are a contract: docs/import.md, "The results
 * CSV"), with the status columns of a file written before `changed_fields` existed: such files
 * keep reading.
 */
export async function writeResultsCsv(folder: string): Promise<string> {
  const file = join(folder, 'disputes.results.csv');
  const header = [...(legacyStatusLayouts[1] ?? []), 'dispute_ref', 'amount'];
  await writeFile(file, [header, ...results].map((cells) => cells.map(quote).join(',')).join('\r\n') + '\r\n');
  return file;
}
