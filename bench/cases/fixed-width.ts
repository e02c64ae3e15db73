import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';
import { genericColumns } from '../../test/import/generate.js';
import { count } from '../support/export.js';
import {
  recordWidth,
  recordsPerBlock,
  writeBothExports,
  writeFixedWidthMapping,
} from '../support/fixed-width-export.js';
import { genericMappingFile } from '../support/paths.js';
import { expectSuccess, mib, runNodeMeasured, type MeasuredRun } from '../support/process.js';
import type { StageWorkerResult } from '../support/stage-worker.js';

/**
 * A fixed-width export against the same records as a CSV (docs/mappings.md, "Fixed-width files and
 * control records"): 100,000 detail records of about 500 characters, in blocks of 10,000 between a
 * header and a trailer stating the block's record count, read by mappings/generic.yaml with a
 * `fixed_width` layout and `controls.record_count`; the CSV read by mappings/generic.yaml itself.
 * Timed is everything a dry run does before it checks claims (bench/support/stage-worker.ts,
 * `pre-send`): the header check, the control pre-pass (the fixed-width file read once to its end
 * before the journal; nothing for the CSV) and the stage step into a fresh journal. Each pass in a
 * fresh process, the two kinds alternating, the best of each kept, as the stage case does.
 *
 * A second row: memory, measured as the memory case does, on the CLI (`import --dry-run`, whose heap
 * is tuned for streaming jobs: src/cli/heap-tuning.ts; the worker's is V8's default and says nothing
 * about a user's run): the fixed-width file's whole dry run at 100,000 records against 10,000, near 1
 * when memory is flat, the CSV's at 100,000 beside it.
 */

const fullSizes = { small: 10_000, large: 100_000 };
const quickSizes = { small: 1_000, large: 5_000 };
const maxRounds = 3;
const roundsBudgetSeconds = 90;
/** Fixed-width time / CSV time. */
const goalRatio = 1.2;
/** Peak RSS at the large size / at the small size (as the memory case's goal). */
const memoryGoalRatio = 1.3;
const workerScript = fileURLToPath(new URL('../support/stage-worker.js', import.meta.url));

type Side = 'csv' | 'fixed-width';

interface Files {
  csv: string;
  fixedWidth: string;
  fixedWidthSmall: string;
  fixedWidthMapping: string;
}

async function onePass(context: BenchContext, side: Side, files: Files, rows: number, round: number): Promise<number> {
  const journalFile = join(context.workDir, `fixed-width-${round}.journal.sqlite`);
  const input = side === 'csv' ? files.csv : files.fixedWidth;
  const mapping = side === 'csv' ? genericMappingFile : files.fixedWidthMapping;
  const run = await runNodeMeasured([workerScript, 'pre-send', input, mapping, journalFile], {
    timeReport: join(context.workDir, 'fixed-width-time.txt'),
    timeoutMs: 600_000,
    keepStdout: true,
  });
  expectSuccess(run, `pre-send worker (${side})`);
  for (const suffix of ['', '-wal', '-shm']) await rm(`${journalFile}${suffix}`, { force: true });
  const result = JSON.parse(run.stdout) as StageWorkerResult;
  if (result.rows !== rows) throw new Error(`pre-send worker (${side}): expected ${rows} rows, got ${result.rows}`);
  context.log(`fixed-width: round ${round + 1} ${side}: ${count(result.rows)} rows in ${result.seconds.toFixed(2)} s`);
  return result.seconds;
}

/** The CLI's whole dry run of one file, for its peak resident set. */
async function dryRun(context: BenchContext, input: string, mapping: string, what: string): Promise<MeasuredRun> {
  const run = await runNodeMeasured(
    [
      context.cliBin,
      'import',
      input,
      '--mapping',
      mapping,
      '--dry-run',
      '--results',
      join(context.workDir, 'fixed-width.results.csv'),
      '--log-level',
      'warn',
    ],
    { timeReport: join(context.workDir, 'fixed-width-time.txt'), timeoutMs: 600_000 },
  );
  expectSuccess(run, `dry run of ${what}`);
  context.log(`fixed-width: dry run of ${what}: ${run.seconds.toFixed(1)} s, peak RSS ${mib(run.peakRssBytes)}`);
  return run;
}

type Passes = Record<Side, number[]>;

interface DryRuns {
  large: MeasuredRun;
  small: MeasuredRun;
  csv: MeasuredRun;
}

export const benchCase: BenchCase = {
  name: 'fixed-width',
  async run(context) {
    const sizes = context.quick ? quickSizes : fullSizes;
    const files: Files = {
      csv: join(context.workDir, `fixed-width-${sizes.large}.csv`),
      fixedWidth: join(context.workDir, `fixed-width-${sizes.large}.txt`),
      fixedWidthSmall: join(context.workDir, `fixed-width-${sizes.small}.txt`),
      fixedWidthMapping: join(context.workDir, 'fixed-width.yaml'),
    };
    const written = await writeBothExports(files.csv, files.fixedWidth, sizes.large);
    await writeBothExports(join(context.workDir, 'unused-small.csv'), files.fixedWidthSmall, sizes.small);
    await writeFixedWidthMapping(files.fixedWidthMapping);
    context.log(
      `fixed-width: generated ${count(sizes.large)} rows: CSV ${(written.csvBytes / 1e6).toFixed(1)} MB, ` +
        `fixed-width ${(written.fixedWidthBytes / 1e6).toFixed(1)} MB in ${written.blocks} blocks`,
    );

    const passes: Passes = { csv: [], 'fixed-width': [] };
    const started = performance.now();
    const elapsedSeconds = () => (performance.now() - started) / 1000;
    const anotherRoundFits = (roundsDone: number) =>
      roundsDone === 0 || elapsedSeconds() * (1 + 1 / roundsDone) <= roundsBudgetSeconds;
    for (let round = 0; round < maxRounds && anotherRoundFits(round); round++) {
      // Which goes first alternates, so that neither always runs on what the other left.
      const order: Side[] = round % 2 === 0 ? ['csv', 'fixed-width'] : ['fixed-width', 'csv'];
      for (const side of order) passes[side].push(await onePass(context, side, files, sizes.large, round));
    }
    const dryRuns: DryRuns = {
      small: await dryRun(
        context,
        files.fixedWidthSmall,
        files.fixedWidthMapping,
        `${count(sizes.small)} fixed-width records`,
      ),
      large: await dryRun(
        context,
        files.fixedWidth,
        files.fixedWidthMapping,
        `${count(sizes.large)} fixed-width records`,
      ),
      csv: await dryRun(context, files.csv, genericMappingFile, `${count(sizes.large)} CSV rows`),
    };
    return [timeRow(sizes.large, passes), memoryRow(sizes, dryRuns)];
  },
};

const seconds = (value: number): string => `${value.toFixed(2)} s`;

function timeRow(rows: number, passes: Passes): BenchRow {
  const fixedWidth = Math.min(...passes['fixed-width']);
  const csv = Math.min(...passes.csv);
  const ratio = fixedWidth / csv;
  return {
    benchmark: `Fixed-width export staged vs the same records as CSV (${count(rows)} records)`,
    figure: `fixed-width: ${seconds(fixedWidth)}`,
    baseline: `CSV: ${seconds(csv)}`,
    ratio,
    goal: `<= ${goalRatio} (fixed-width time / CSV time, smaller is better)`,
    met: ratio <= goalRatio,
    note:
      `header check, control pre-pass (checkInputControls) and stageRows() into a fresh journal, each pass in its own ` +
      `process; ${recordWidth}-character records of ${genericColumns.length} fields, blocks of ${count(recordsPerBlock)} with a trailer ` +
      `record count; mappings/generic.yaml with fixed_width + controls against itself on the CSV; best of ` +
      `${passes.csv.length} alternating passes; all passes: fixed-width ${passes['fixed-width'].map(seconds).join(', ')}; ` +
      `CSV ${passes.csv.map(seconds).join(', ')}`,
  };
}

function memoryRow(sizes: { small: number; large: number }, dryRuns: DryRuns): BenchRow {
  const { large, small, csv } = dryRuns;
  const ratio = large.peakRssBytes / small.peakRssBytes;
  return {
    benchmark: `Fixed-width dry-run peak RSS (${count(sizes.large)} records vs ${count(sizes.small)})`,
    figure: `${count(sizes.large)} records: ${mib(large.peakRssBytes)}`,
    baseline: `${count(sizes.small)} records: ${mib(small.peakRssBytes)}`,
    ratio,
    goal: `<= ${memoryGoalRatio} (large / small, smaller is better)`,
    met: ratio <= memoryGoalRatio,
    note:
      `node dist/cli/bin.js import --dry-run as a child process, one run each; peak = max(GNU time %M, polled ` +
      `/proc VmHWM): large ${large.peakRssSource}, small ${small.peakRssSource}; the same ${count(sizes.large)} ` +
      `rows as CSV: ${mib(csv.peakRssBytes)}; dry-run wall time fixed-width ${large.seconds.toFixed(1)} s, ` +
      `CSV ${csv.seconds.toFixed(1)} s (one run each, not the goal's figure)`,
  };
}
