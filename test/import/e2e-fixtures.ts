import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { onTestFinished } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { Sandbox } from '../../src/sandbox/server.js';
import { statusColumns } from '../../src/job-files/import/columns.js';
import { genericColumns } from './generate.js';

/**
 * Shared by the import end-to-end tests: a temporary workspace per test, CSVs in the layout of
 * mappings/generic.yaml, the CLI run in-process (or as the built bin), and readers for what the
 * import leaves behind (results CSV, payloads, the sandbox's tables).
 */

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const genericMapping = join(repoRoot, 'mappings/generic.yaml');
const samplesEvidence = join(repoRoot, 'samples/evidence');

/** The results CSV's status columns (docs/import.md, "The results CSV"; pinned in results.test.ts). */
export { statusColumns };

/** One line of a results CSV: the status columns, then the source columns by name. */
export type ResultRow = Record<(typeof statusColumns)[number], string> & Partial<Record<string, string>>;

/** The columns mappings/generic.yaml reads (kept in generate.ts, which must stay vitest-free for the benchmarks). */
export { genericColumns };

export type GenericRow = Partial<Record<(typeof genericColumns)[number], string>> & Record<string, string | undefined>;

const dayMs = 24 * 60 * 60 * 1000;
/** `yyyy-MM-dd`, `days` before today: inside the sandbox's 120-day filing window. */
export function daysAgo(days: number): string {
  return new Date(Date.now() - days * dayMs).toISOString().slice(0, 10);
}

let arnCounter = 0;

/**
 * One row of a fraud dispute that files as it is (card cancelled, fraud reported, recent dates);
 * `overrides` change any cell.
 */
export function fraudRow(disputeRef: string, transactionRef: string, overrides: GenericRow = {}): GenericRow {
  arnCounter++;
  return {
    dispute_ref: disputeRef,
    transaction_ref: transactionRef,
    reason_code: 'FR',
    dispute_date: daysAgo(3),
    cardholder_name: 'Maya Lindqvist',
    cardholder_email: 'maya@example.com',
    card_last4: '4417',
    card_network: 'VISA',
    card_type: 'Credit',
    card_expiry: '09/29',
    card_active: 'no',
    fraud_reported: 'yes',
    merchant_name: 'Larkspur Electronics',
    mcc: '5732',
    transaction_date: daysAgo(10),
    transaction_amount: '849.99',
    disputed_amount: '849.99',
    currency: 'usd',
    arn: `744921563020001847${String(arnCounter).padStart(5, '0')}`,
    cardholder_statement: 'I did not make this purchase.',
    receipt_file: '',
    correspondence_files: '',
    ...overrides,
  };
}

/** A duplicate-charge row: filing needs a transaction receipt, so `receipt` names one. */
export function duplicateChargeRow(
  disputeRef: string,
  transactionRef: string,
  receipt: string,
  overrides: GenericRow = {},
): GenericRow {
  return fraudRow(disputeRef, transactionRef, {
    reason_code: 'DUP',
    card_active: 'yes',
    fraud_reported: '',
    receipt_file: receipt,
    ...overrides,
  });
}

/** A CSV of `rows` with `columns` (default: the generic layout), quoted where needed. */
export function csvOf(
  rows: readonly GenericRow[],
  options: { columns?: readonly string[]; recordDelimiter?: 'unix' | 'windows' } = {},
): string {
  const columns = options.columns ?? genericColumns;
  return stringify(
    rows.map((row) => columns.map((column) => row[column] ?? '')),
    // Any line break is quoted: csv-stringify quotes only its own record delimiter otherwise.
    {
      header: true,
      columns: [...columns],
      record_delimiter: options.recordDelimiter ?? 'unix',
      quoted_match: /[\r\n]/,
    },
  );
}

export interface Workspace {
  dir: string;
  evidenceDir: string;
  results: string;
  journal: string;
  payloads: string;
  /** Writes a file in the workspace (path relative to it); returns its absolute path. */
  write: (relativePath: string, content: string | Uint8Array) => Promise<string>;
  /** Copies one of samples/evidence/ into the evidence directory, under `as`. */
  evidence: (sample: string, as: string) => Promise<void>;
}

/** A temporary directory with `evidence/` in it, removed when the test finishes. */
export async function makeWorkspace(): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-import-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const evidenceDir = join(dir, 'evidence');
  await mkdir(evidenceDir);
  const write = async (relativePath: string, content: string | Uint8Array) => {
    const path = join(dir, relativePath);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    return path;
  };
  return {
    dir,
    evidenceDir,
    results: join(dir, 'out.results.csv'),
    journal: join(dir, 'job.journal.sqlite'),
    payloads: join(dir, 'payloads.jsonl'),
    write,
    evidence: async (sample, as) => {
      const target = join(evidenceDir, as);
      await mkdir(dirname(target), { recursive: true });
      await copyFile(join(samplesEvidence, sample), target);
    },
  };
}

export { runBin, runCli, type CliRun } from '../helpers/cli.js';

/** `import INPUT` with the workspace's results, journal and evidence directory. */
export function importArgs(
  workspace: Workspace,
  input: string,
  extra: string[] = [],
  mapping = genericMapping,
): string[] {
  return [
    'import',
    input,
    '--mapping',
    mapping,
    '--results',
    workspace.results,
    '--journal',
    workspace.journal,
    '--evidence-dir',
    workspace.evidenceDir,
    ...extra,
  ];
}

/** `import INPUT` as a job of its own: results `<name>.results.csv`, journal `<name>.journal.sqlite`. */
export function jobArgs(
  workspace: Workspace,
  name: string,
  input: string,
  extra: string[] = [],
): { args: string[]; results: string } {
  const results = join(workspace.dir, `${name}.results.csv`);
  const args = [
    'import',
    input,
    '--mapping',
    genericMapping,
    '--results',
    results,
    '--journal',
    join(workspace.dir, `${name}.journal.sqlite`),
    '--evidence-dir',
    workspace.evidenceDir,
    ...extra,
  ];
  return { args, results };
}

export interface ResultsFile {
  header: string[];
  rows: ResultRow[];
  text: string;
}

/**
 * A results CSV: its header and its rows keyed by column. Read as UTF-8, or as windows-1252 when
 * it is not UTF-8 (results written in a single-byte input's own encoding).
 */
export async function readResults(file: string): Promise<ResultsFile> {
  const bytes = await readFile(file);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Streaming keeps Node off its one-shot latin1 path, which reads 0x80 as U+0080, not € (src/csv/decode.ts).
    const decoder = new TextDecoder('windows-1252');
    text = decoder.decode(bytes, { stream: true }) + decoder.decode();
  }
  const records: string[][] = parse(text);
  const [header = [], ...data] = records;
  const rows = data.map(
    (record) => Object.fromEntries(header.map((column, position) => [column, record[position] ?? ''])) as ResultRow,
  );
  return { header, rows, text };
}

/** Results rows (fixed by a test, as staff would) as a CSV again, with the results' own header. */
export function resultsCsv(results: ResultsFile, rows: readonly ResultRow[]): string {
  return stringify(
    rows.map((row) => results.header.map((column) => row[column] ?? '')),
    { header: true, columns: results.header },
  );
}

/** The results rows of one case id. */
export function rowOf(results: ResultsFile, caseId: string): ResultRow {
  const row = results.rows.find((candidate) => candidate.case_id === caseId);
  if (row === undefined)
    throw new Error(
      `expected a results row for case ${caseId}, got ${results.rows.map((item) => item.case_id).join(', ')}`,
    );
  return row;
}

/** The results row of one input line. */
export function lineOf(results: ResultsFile, line: number): ResultRow {
  const row = results.rows.find((candidate) => candidate.line === String(line));
  if (row === undefined)
    throw new Error(
      `expected a results row for line ${line}, got lines ${results.rows.map((item) => item.line).join(', ')}`,
    );
  return row;
}

export interface Payload {
  claim_id: string;
  cases: ({ case_id: string } & Record<string, unknown>)[];
  [field: string]: unknown;
}

/** Each line of a `--payloads` file, parsed. */
export async function readPayloads(file: string): Promise<Payload[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Payload);
}

/** How many rows one of the sandbox's tables holds (claims, cases, files). */
export function countIn(sandbox: Sandbox, table: 'claims' | 'cases' | 'files'): number {
  return (sandbox.core.database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

/** mappings/generic.yaml, changed by `edit`, written into the workspace; returns its path. */
export async function editedMapping(
  workspace: Workspace,
  edit: (mapping: Record<string, Record<string, Record<string, unknown>>>) => void,
): Promise<string> {
  const mapping = parseYaml(await readFile(genericMapping, 'utf8')) as Record<
    string,
    Record<string, Record<string, unknown>>
  >;
  edit(mapping);
  return workspace.write('mapping.yaml', stringifyYaml(mapping));
}
