import { writeCsvFile } from '../csv/write-csv-file.js';
import { writeFileAtomic } from '../files/write-file.js';
import { namingFile } from '../files/resource-failure.js';
import type { TrackJournal } from '../job-files/track/journal.js';
import { isWorkbookFile } from '../workbook/read-rows.js';
import { writeSheet, writeSheets, type SheetLine, type SheetOf } from '../workbook/write-sheet.js';
import { renderTrackHtml } from './render-html.js';
import type { TrackPlan } from './plan.js';
import type { TrackReport } from './report.js';
import { jobStem } from '../job-files/job-name.js';
import {
  decimalFor,
  majorUnits,
  statusCells,
  statusColumns,
  statusLineOf,
  withDecimal,
  type Decimal,
} from '../job-files/track/status.js';
import { nextStepOf, whyText, worklistColumns, type WorkItem } from '../job-files/track/worklist.js';
import type { TrackSummary } from '../job-files/track/summary.js';
import { TrackTally } from '../job-files/track/tally.js';

/**
 * What a track run writes from its journal: the status file, the worklist (a file of its own, or
 * the status workbook's second sheet) and, when asked for, the summary as a page.
 */
export async function writeFiles(
  journal: TrackJournal,
  run: number,
  plan: Pick<TrackPlan, 'files' | 'sources' | 'worklist' | 'serviceName'>,
  format: TrackReport['format'],
): Promise<{ summary: TrackSummary; worklist: WorkItem[] }> {
  const { statusFile, worklistFile, htmlFile } = plan.files;
  const asOf = plan.worklist.asOf();
  const tally = new TrackTally(plan.worklist.dueWithinDays);
  // A workbook's cells are text in any locale; a CSV in a `;` dialect gets decimal commas.
  const decimalOf = (file: string | undefined): Decimal =>
    file === undefined || isWorkbookFile(file) ? '.' : decimalFor(format.delimiter);
  const lines = function* (): Generator<SheetLine> {
    for (const row of journal.rowsWithStates()) {
      const line = statusLineOf(row, run, asOf);
      tally.add(line);
      yield { cells: statusCells(line, decimalOf(statusFile)) };
    }
  };
  const worklistLines = (worklist: readonly WorkItem[]) =>
    worklist.map((item) => ({ cells: worklistCells(item, decimalOf(worklistFile)) }));
  let worklist: WorkItem[] = [];
  if (worklistFile === undefined) {
    // One workbook, the worklist its second sheet: known once every status line is written.
    const sheets: SheetOf[] = [
      { options: { sheetName: 'status', header: statusColumns }, lines },
      {
        options: { sheetName: 'worklist', header: worklistColumns },
        lines: () => worklistLines((worklist = tally.worklist())),
      },
    ];
    await writeSheets(statusFile, sheets).catch(namingFile(statusFile, { resumes: true }));
  } else {
    await writeTable(statusFile, 'status', statusColumns, lines(), format).catch(
      namingFile(statusFile, { resumes: true }),
    );
    worklist = tally.worklist();
    await writeTable(worklistFile, 'worklist', worklistColumns, worklistLines(worklist), format).catch(
      namingFile(worklistFile, { resumes: true }),
    );
  }
  const summary = tally.summary;
  if (htmlFile !== undefined) {
    const { sources } = plan;
    const page = renderTrackHtml(summary, worklist, {
      title: sources.all ? 'every case' : sources.files.map((source) => jobStem(source)).join(', '),
      service: plan.serviceName,
      asOf: new Date(asOf).toISOString(),
    });
    await writeFileAtomic(htmlFile, page).catch(namingFile(htmlFile, { resumes: true }));
  }
  return { summary, worklist };
}

export function worklistCells(item: WorkItem, decimal: Decimal = '.'): string[] {
  const { line } = item;
  const state = line.state;
  return [
    line.caseId,
    whyText[item.why],
    state?.resolutionDueDate ?? '',
    line.daysLeft === undefined ? '' : String(line.daysLeft),
    state?.status ?? '',
    state?.reviewStatus ?? '',
    state === undefined ? '' : withDecimal(majorUnits(state.amount, state.currency), decimal),
    state?.currency ?? '',
    state?.reason ?? '',
    line.claimId,
    line.claimKey,
    line.job,
    String(line.line),
    item.why === 'not_filed' ? line.jobError : '',
    nextStepOf(item),
  ];
}

async function writeTable(
  file: string,
  sheetName: string,
  header: readonly string[],
  lines: Iterable<SheetLine>,
  format: TrackReport['format'],
): Promise<void> {
  if (isWorkbookFile(file)) await writeSheet(file, { sheetName, header }, lines);
  else await writeCsvFile(file, header, lines, format);
}
