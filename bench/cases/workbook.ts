import { join } from 'node:path';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';
import { count, writeGenericExport } from '../support/export.js';
import { genericMappingFile } from '../support/paths.js';
import { expectSuccess, mib, runNodeMeasured, type MeasuredRun } from '../support/process.js';

/**
 * Results as a workbook: a 100,000-row dry run writing its results as a workbook (exceljs's
 * streaming writer: text cells, marks, notes) against the same run writing CSV; then the workbook
 * fed back (exceljs's streaming reader) against the CSV fed back. Both as the CLI runs them, as
 * child processes, peak RSS measured as the memory case does. The goal is the dry run's memory
 * goal: under 250 MiB; the ratios say what the workbook costs in time.
 */

const sizes = { full: 100_000, quick: 2_000 };
const peakLimitBytes = 250 * 1024 * 1024;

interface Pass {
  readonly run: MeasuredRun;
  readonly rowsPerSecond: number;
}

async function dryRun(
  context: BenchContext,
  input: string,
  results: string,
  rows: number,
  what: string,
): Promise<Pass> {
  const args = [
    context.cliBin,
    'import',
    input,
    '--mapping',
    genericMappingFile,
    '--dry-run',
    '--results',
    results,
    '--journal',
    `${results}.journal.sqlite`,
    '--log-level',
    'warn',
  ];
  const run = await runNodeMeasured(args, {
    timeReport: join(context.workDir, 'workbook-time.txt'),
    timeoutMs: 1_800_000,
  });
  // Exit 1 when some generated rows are invalid (the generator makes some): the run itself finished.
  if (run.code !== 1) expectSuccess(run, what);
  context.log(`workbook: ${what}: ${run.seconds.toFixed(1)} s, peak RSS ${mib(run.peakRssBytes)}`);
  return { run, rowsPerSecond: rows / run.seconds };
}

const rate = (pass: Pass) => `${count(Math.round(pass.rowsPerSecond))} rows/s, peak ${mib(pass.run.peakRssBytes)}`;

export const benchCase: BenchCase = {
  name: 'workbook',
  async run(context): Promise<BenchRow[]> {
    const rows = context.quick ? sizes.quick : sizes.full;
    const input = join(context.workDir, 'workbook-export.csv');
    await writeGenericExport(input, rows);
    const csv = join(context.workDir, 'export.results.csv');
    const xlsx = join(context.workDir, 'export.results.xlsx');
    const writeCsv = await dryRun(context, input, csv, rows, `${count(rows)} rows, results CSV`);
    const writeXlsx = await dryRun(context, input, xlsx, rows, `${count(rows)} rows, results workbook`);
    const readCsv = await dryRun(
      context,
      csv,
      join(context.workDir, 'fed-csv.results.csv'),
      rows,
      'the results CSV fed back',
    );
    const readXlsx = await dryRun(
      context,
      xlsx,
      join(context.workDir, 'fed-xlsx.results.csv'),
      rows,
      'the results workbook fed back',
    );
    return [
      {
        benchmark: `Results workbook written (${count(rows)}-row dry run)`,
        figure: rate(writeXlsx),
        baseline: `results CSV: ${rate(writeCsv)}`,
        ratio: writeXlsx.rowsPerSecond / writeCsv.rowsPerSecond,
        goal: "peak RSS < 250 MiB (the dry run's memory goal); the ratio is the workbook's cost in time",
        met: writeXlsx.run.peakRssBytes < peakLimitBytes,
        note: 'node dist/cli/bin.js import --dry-run --results FILE.xlsx vs FILE.csv, whole runs (stage, checks, results)',
      },
      {
        benchmark: `Results workbook read back (${count(rows)} rows fed back, dry run)`,
        figure: rate(readXlsx),
        baseline: `results CSV fed back: ${rate(readCsv)}`,
        ratio: readXlsx.rowsPerSecond / readCsv.rowsPerSecond,
        goal: 'peak RSS < 250 MiB',
        met: readXlsx.run.peakRssBytes < peakLimitBytes,
        note: 'import FILE.xlsx --dry-run (exceljs streaming reader, inline strings) vs the CSV, whole runs',
      },
    ];
  },
};
