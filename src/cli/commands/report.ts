import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { csvEncodings, type CsvEncoding } from '../../csv/dialect.js';
import { NotResultsError } from '../../files/not-results-error.js';
import { renderHtml } from '../../report/render-html.js';
import { renderText } from '../../report/render-text.js';
import { describeServices, summariseFiles } from '../../report/run-report.js';
import { writeFileAtomic } from '../../files/write-file.js';
import { workbookOfThinned, writeReportWorkbook } from '../../report/write-workbook.js';
import { refuseThinned } from '../../job-files/import/thinned.js';
import { isWorkbookFile } from '../../workbook/read-rows.js';
import { viewTrackJournal } from '../../job-files/track/journal-view.js';
import { renderTrackHtml } from '../../track/render-html.js';
import { formatWorklist } from '../../track/render-text.js';
import { formatTrackSummary } from '../../job-files/track/summary.js';
import type { CliContext } from '../context.js';
import { ExitCode, UsageError } from '../exit-codes.js';

interface ReportFlags {
  html?: string;
  xlsx?: string;
  encoding?: CsvEncoding;
}

const helpText = `
Examples:
  # what happened, on the terminal
  bulk-disputes report out/disputes.results.csv

  # the same from the job's journal (the results CSV lost, or the run killed before writing it)
  bulk-disputes report out/disputes.journal.sqlite

  # a migration's results, or its journal
  bulk-disputes report migrate-v1.results.csv

  # a withdraw job's results (CSV or workbook), or its journal
  bulk-disputes report out/disputes.withdraw.results.xlsx

  # a page for staff who would rather look than read (self-contained: opens offline)
  bulk-disputes report out/disputes.results.csv --html out/disputes.report.html

  # the results as a workbook for review in a spreadsheet (text cells: ARNs and last4s stay intact)
  bulk-disputes report out/disputes.results.csv --xlsx out/disputes.results.xlsx

  # the four shards of one job (--shard i/4) as one report
  bulk-disputes report out/disputes.shard-*-of-4.journal.sqlite

Prints rows and claims, counts per outcome and per error code, the ten most frequent errors with
a fix hint each, and claims whose rows have different outcomes. Reads the results file (CSV or
.xlsx) of import, migrate-v1 or withdraw, or their journal (told apart by content, not name);
several files are summarised as one. A results CSV is read in the dialect it was written in (its
delimiter, quote, line ending and encoding are told by its status header and its bytes). Exit 0
when the report is written; 2 when a file is none of these; 3 when a run is still using a journal.
`;

/** `bulk-disputes report`: a results file or journal summarised on stdout and, with --html, as one page (withdraw's too). */
export function reportCommand(context: CliContext): Command {
  return new Command('report')
    .description(
      'summarise a results file or a journal: outcomes, error codes with fix hints, claims with mixed outcomes; optionally as an HTML page',
    )
    .argument(
      '<results...>',
      'results files (CSV or .xlsx) written by import, migrate-v1 or withdraw, or the journals of any ' +
        '(several: one report); or a track journal (alone): its summary and worklist',
    )
    .option(
      '--html <file>',
      'also write a self-contained HTML page with a chart of outcomes and a sortable table of failed rows',
    )
    .option(
      '--xlsx <file>',
      "also write the results as a workbook of text cells, outcomes coloured, each error's cell marked with its message (one results CSV or import journal)",
    )
    .addOption(
      new Option(
        '--encoding <encoding>',
        "the results CSVs' encoding (default: told by their bytes: BOM, UTF-16LE, valid UTF-8, else windows-1252)",
      ).choices(csvEncodings),
    )
    .addHelpText('after', helpText)
    .action(async (results: string[], flags: ReportFlags) => {
      await runReportCommand(results, flags, context);
      context.setExitCode(ExitCode.ok);
    });
}

async function runReportCommand(results: readonly string[], flags: ReportFlags, context: CliContext): Promise<void> {
  if (flags.xlsx !== undefined) {
    if (results.length > 1)
      throw new UsageError(
        `--xlsx ${flags.xlsx}: expected one results file or journal, got ${results.length} (the shards of one import: merge-results --out FILE.xlsx)`,
      );
    if (!isWorkbookFile(flags.xlsx))
      throw new UsageError(`--xlsx ${flags.xlsx}: expected a name ending in .xlsx, got another`);
  }
  for (const file of results) {
    const found = await stat(file).catch(() => undefined);
    if (found?.isFile() !== true)
      throw new UsageError(
        `results ${file}: expected a results file or journal, got ${found === undefined ? 'nothing there' : 'something else'}`,
      );
  }
  if (await reportedAsTrack(results, flags, context)) return;
  const { summary, sources, services, thinned } = await summariseFiles(results, flags.encoding).catch(
    (error: unknown) => {
      // The error names its file (summariseFiles).
      if (error instanceof NotResultsError) throw new UsageError(error.message, { cause: error });
      throw error;
    },
  );
  // A workbook of a thinned journal would have no cells: refused before any of the report is written.
  if (flags.xlsx !== undefined) refuseThinned(results[0] ?? '', thinned[0], workbookOfThinned);
  const named = results.map((file, position) => `${file} (${sources[position] ?? 'results CSV'})`).join(', ');
  const service = describeServices(results, services);
  context.io.stdout.write(renderText(summary, named, service));
  if (flags.xlsx !== undefined) {
    const workbook = resolve(flags.xlsx);
    await writeReportWorkbook(results[0] ?? '', workbook, flags.encoding).catch((error: unknown) => {
      if (error instanceof NotResultsError)
        throw new UsageError(`${results[0] ?? ''}: ${error.message}`, { cause: error });
      throw error;
    });
    context.logger.info({ xlsx: workbook }, 'report workbook written');
    context.io.stderr.write(`xlsx: ${workbook}\n`);
  }
  if (flags.html !== undefined) {
    const page = resolve(flags.html);
    await writeFileAtomic(page, renderHtml(summary, results.join(', '), service));
    context.logger.info({ html: page }, 'report page written');
    context.io.stderr.write(`html: ${page}\n`);
  }
}

/**
 * A track journal reports what its last run found (docs/track.md): the summary and the worklist,
 * days left counted from now, due within the last run's `--due-within`; `--html` draws the track
 * page. It reports alone: its lines are cases' states, not results to add to another job's.
 */
async function reportedAsTrack(results: readonly string[], flags: ReportFlags, context: CliContext): Promise<boolean> {
  const views = await Promise.all(results.map(async (file) => viewTrackJournal(file, { asOf: Date.now() })));
  const view = views.find((found) => found !== undefined);
  if (view === undefined) return false;
  if (results.length > 1)
    throw new UsageError(
      `${results[views.indexOf(view)] ?? ''}: a track journal reports alone, expected it as the only file, got ${results.length}`,
    );
  if (flags.xlsx !== undefined)
    throw new UsageError(
      `--xlsx ${flags.xlsx}: a track journal has no results to write as a workbook (its status file is one: track --results FILE.xlsx)`,
    );
  const file = results[0] ?? '';
  context.io.stdout.write(
    `${file} (track journal), last run ${view.lastRunAt === '' ? 'never finished' : view.lastRunAt}\nservice: ${view.service}\n`,
  );
  context.io.stdout.write(formatTrackSummary(view.summary, false));
  context.io.stdout.write(formatWorklist(view.worklist));
  if (flags.html !== undefined) {
    const page = resolve(flags.html);
    await writeFileAtomic(
      page,
      renderTrackHtml(view.summary, view.worklist, {
        title: file,
        service: view.service,
        asOf: new Date().toISOString(),
      }),
    );
    context.logger.info({ html: page }, 'report page written');
    context.io.stderr.write(`html: ${page}\n`);
  }
  return true;
}
