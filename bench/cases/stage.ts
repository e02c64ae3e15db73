import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchCase, BenchContext, BenchRow } from '../types.js';
import { count, writeGenericExport } from '../support/export.js';
import { genericMappingFile } from '../support/paths.js';
import { expectSuccess, runNodeMeasured } from '../support/process.js';
import type { StageWorkerResult } from '../support/stage-worker.js';
import { cardNumberColumn, expectDetectionOff, writeDetectionOffMapping } from '../support/detection-off.js';
import { writeReportExport, writeReportMapping } from '../support/report-export.js';

/**
 * Stage throughput: rows/s of the import's stage step (parse → map → validate → journal,
 * `stageRows` from src/import/stage/index.ts, the first step of every import and dry run) on a generated
 * 200,000-row export, against csv-parse alone on the same file with the same dialect and decoder.
 * Each pass runs in a fresh process (bench/support/stage-worker.ts), the two kinds alternating so
 * that a noisy neighbour on a shared machine hits both. The best pass of each kind is reported: on
 * a shared machine the fastest pass is the one least slowed by others, for either side alike.
 *
 * A second row weighs card-number detection (docs/import.md, "Card numbers": every cell of every
 * row read for card numbers before it is mapped) where it costs most: the same export with a full
 * card number on every row, in a column of its own (as issuers' exports carry one), each found
 * and masked. The same stage step, the same build, with detection off against on, passes
 * alternating within the same rounds. "Off" is a switch no user has: the mapping's
 * `not_card_numbers` listing every column of the file, so that no cell is read for card numbers
 * (bench/support/detection-off.ts, which checks it is off before it is timed).
 */

const fullRows = 200_000;
const quickRows = 2_000;
/**
 * Rounds (one pass of each kind): at least one, and another only if it is expected (from the
 * rounds so far) to end within the budget. The 1,000,000-row memory case already takes most of
 * the suite's 15 minutes on a 2-core machine, so a slow stage gets a single round.
 */
const maxRounds = 3;
const roundsBudgetSeconds = 60;
const goalRatio = 0.5;
/** Detection on keeps at least this share of the rows/s with it off. */
const detectionGoalRatio = 0.9;
const workerScript = fileURLToPath(new URL('../support/stage-worker.js', import.meta.url));

type Side = 'stage' | 'csv-parse' | 'stage, card numbers' | 'stage, card numbers, detection off' | 'stage, report';

interface Files {
  csv: string;
  /** The same rows with a card number on every row (`cardNumberColumn`). */
  cardNumbersCsv: string;
  /** mappings/generic.yaml with every column in `not_card_numbers`: the stage with no cell read for card numbers. */
  detectionOffMapping: string;
  /** The same rows under title lines and above a trailer and padding, and the mapping whose `report` finds them. */
  reportCsv: string;
  reportMapping: string;
}

async function onePass(context: BenchContext, side: Side, files: Files, round: number): Promise<StageWorkerResult> {
  const journalFile = join(context.workDir, `stage-${round}.journal.sqlite`);
  const mapping =
    side === 'stage, card numbers, detection off'
      ? files.detectionOffMapping
      : side === 'stage, report'
        ? files.reportMapping
        : genericMappingFile;
  const csv =
    side === 'stage' || side === 'csv-parse'
      ? files.csv
      : side === 'stage, report'
        ? files.reportCsv
        : files.cardNumbersCsv;
  const args =
    side === 'csv-parse'
      ? [workerScript, 'csv-parse', csv, mapping]
      : [workerScript, 'stage', csv, mapping, journalFile];
  const run = await runNodeMeasured(args, {
    timeReport: join(context.workDir, 'stage-time.txt'),
    timeoutMs: 600_000,
    keepStdout: true,
  });
  expectSuccess(run, `stage worker (${side})`);
  // Each stage pass starts from an empty journal; the disk gets this one back now.
  await rm(journalFile, { force: true });
  await rm(`${journalFile}-wal`, { force: true });
  await rm(`${journalFile}-shm`, { force: true });
  const result = JSON.parse(run.stdout) as StageWorkerResult;
  context.log(`stage: round ${round + 1} ${side}: ${count(result.rows)} rows in ${result.seconds.toFixed(2)} s`);
  return result;
}

const rate = (result: StageWorkerResult): number => result.rows / result.seconds;
const perSecond = (value: number): string => `${count(Math.round(value))} rows/s`;

/** Each kind's rows/s, pass by pass, in the order they ran. */
type Rates = Record<Side, number[]>;

/**
 * One round: csv-parse, then the stage with detection on and off, which of the two goes first
 * alternating from round to round so that neither always runs on a page cache or a neighbour the
 * other left.
 */
async function oneRound(context: BenchContext, files: Files, rows: number, round: number, rates: Rates): Promise<void> {
  const onAndOff: Side[] = ['stage, card numbers', 'stage, card numbers, detection off'];
  // The report right after the plain stage, or right before it, alternating too.
  const plainAndReport: Side[] = round % 2 === 0 ? ['stage', 'stage, report'] : ['stage, report', 'stage'];
  const stages: Side[] = [...plainAndReport, ...(round % 2 === 0 ? onAndOff : onAndOff.reverse())];
  for (const side of ['csv-parse', ...stages] as const) {
    const result = await onePass(context, side, files, round);
    if (result.rows !== rows) throw new Error(`stage worker (${side}): expected ${rows} rows, got ${result.rows}`);
    rates[side].push(rate(result));
  }
}

export const benchCase: BenchCase = {
  name: 'stage',
  async run(context) {
    const rows = context.quick ? quickRows : fullRows;
    const files: Files = {
      csv: join(context.workDir, `stage-${rows}.csv`),
      cardNumbersCsv: join(context.workDir, `stage-${rows}-card-numbers.csv`),
      detectionOffMapping: join(context.workDir, 'stage-detection-off.yaml'),
      reportCsv: join(context.workDir, `stage-${rows}-report.csv`),
      reportMapping: join(context.workDir, 'stage-report.yaml'),
    };
    const written = await writeGenericExport(files.csv, rows);
    await writeGenericExport(files.cardNumbersCsv, rows, cardNumberColumn);
    await writeDetectionOffMapping(files.detectionOffMapping);
    await expectDetectionOff(context.workDir, files.detectionOffMapping);
    await writeReportExport(files.csv, files.reportCsv);
    await writeReportMapping(files.reportMapping);
    context.log(`stage: generated ${count(rows)} rows (${(written.bytes / 1e6).toFixed(1)} MB)`);

    const rates: Rates = {
      stage: [],
      'csv-parse': [],
      'stage, card numbers': [],
      'stage, card numbers, detection off': [],
      'stage, report': [],
    };
    const started = performance.now();
    const elapsedSeconds = () => (performance.now() - started) / 1000;
    const anotherRoundFits = (roundsDone: number) =>
      roundsDone === 0 || elapsedSeconds() * (1 + 1 / roundsDone) <= roundsBudgetSeconds;
    for (let round = 0; round < maxRounds && anotherRoundFits(round); round++)
      await oneRound(context, files, rows, round, rates);
    return [stageRow(rows, rates), detectionRow(rows, rates), reportRow(rows, rates)];
  },
};

function stageRow(rows: number, rates: Rates): BenchRow {
  const ours = Math.max(...rates.stage);
  const theirs = Math.max(...rates['csv-parse']);
  const ratio = ours / theirs;
  return {
    benchmark: `Stage throughput (${count(rows)} rows)`,
    figure: `stage: ${perSecond(ours)}`,
    baseline: `csv-parse alone: ${perSecond(theirs)}`,
    ratio,
    goal: `>= ${goalRatio} (ours / csv-parse)`,
    met: ratio >= goalRatio,
    note:
      `stageRows() (src/import/stage/index.ts) into a fresh journal: parse, map, wire-schema check, SQLite; ` +
      `best of ${rates.stage.length} alternating passes, each in its own process; all passes: stage ${rates.stage.map(perSecond).join(', ')}; ` +
      `csv-parse ${rates['csv-parse'].map(perSecond).join(', ')} (same decoder and dialect, records counted)`,
  };
}

function detectionRow(rows: number, rates: Rates): BenchRow {
  const on = Math.max(...rates['stage, card numbers']);
  const off = Math.max(...rates['stage, card numbers, detection off']);
  const ratio = on / off;
  return {
    benchmark: `Stage throughput, card-number detection on vs off (${count(rows)} rows, a card number on each)`,
    figure: `detection on: ${perSecond(on)}`,
    baseline: `detection off: ${perSecond(off)}`,
    ratio,
    goal: `>= ${detectionGoalRatio} (on / off)`,
    met: ratio >= detectionGoalRatio,
    note:
      `the same stageRows() and build on the export above with a column more: a full card number on every row, ` +
      `in groups, read by no field (as an issuer's "Numéro de carte"); on: each found and masked; off: the mapping's ` +
      `not_card_numbers names every column (a bench-only switch), so no cell is read for card numbers; ` +
      `best of ${rates['stage, card numbers'].length} passes each, on and off alternating first; ` +
      `all passes: on ${rates['stage, card numbers'].map(perSecond).join(', ')}; ` +
      `off ${rates['stage, card numbers, detection off'].map(perSecond).join(', ')}`,
  };
}

/** A report's table read through its layout against the same rows as a plain export: what finding the table costs. */
function reportRow(rows: number, rates: Rates): BenchRow {
  const report = Math.max(...rates['stage, report']);
  const plain = Math.max(...rates.stage);
  const ratio = report / plain;
  return {
    benchmark: `Stage throughput, a report with title lines and a trailer vs the same rows plain (${count(rows)} rows)`,
    figure: `report: ${perSecond(report)}`,
    baseline: `plain export: ${perSecond(plain)}`,
    ratio,
    goal: '>= 0.95 (report / plain: within noise)',
    met: ratio >= 0.95,
    note:
      'the same stageRows() and build; the report is the plain export under two title lines, above a trailer ' +
      'repeating the first and 5,000 blank lines, read through mappings/generic.yaml with a report section ' +
      `(header starts_with, trailer starts_with); best of ${rates['stage, report'].length} passes each, which goes ` +
      `first alternating; all passes: report ${rates['stage, report'].map(perSecond).join(', ')}; ` +
      `plain ${rates.stage.map(perSecond).join(', ')}`,
  };
}
