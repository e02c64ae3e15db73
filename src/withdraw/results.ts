import { writeCsvFile } from '../csv/write-csv-file.js';
import { isWorkbookFile } from '../workbook/read-rows.js';
import { writeSheet, type SheetLine } from '../workbook/write-sheet.js';
import { withdrawColumns, withdrawOkOutcomes, withdrawOutcomes } from '../job-files/withdraw/columns.js';
import { lineValues, type WithdrawLine } from '../job-files/withdraw/journal.js';

export interface WithdrawSummary {
  cases: number;
  claims: number;
  byOutcome: Record<string, number>;
  allOk: boolean;
}

/** What the results are written as: a CSV in the source's delimiter and quote, or a workbook. */
export interface WithdrawResultsFormat {
  delimiter?: string | undefined;
  quote?: string | undefined;
}

/**
 * One line per case in the sources' order, written to a temporary file (0600: it names
 * cardholders' cases) and renamed; cells neutralised against formulas; `.xlsx` writes a workbook.
 */
export async function writeWithdrawResults(
  lines: Iterable<WithdrawLine>,
  file: string,
  format: WithdrawResultsFormat = {},
): Promise<WithdrawSummary> {
  const summary: WithdrawSummary = { cases: 0, claims: 0, byOutcome: {}, allOk: true };
  const claims = new Set<string>();
  const sheetLines = function* (): Generator<SheetLine> {
    for (const line of lines) {
      summary.cases++;
      summary.byOutcome[line.outcome] = (summary.byOutcome[line.outcome] ?? 0) + 1;
      if (!withdrawOkOutcomes.includes(line.outcome)) summary.allOk = false;
      if (line.claimId !== '') claims.add(line.claimId);
      const cells = lineValues(line).map(String);
      yield {
        cells,
        marks: new Map([
          [outcomeColumn, { fill: withdrawOkOutcomes.includes(line.outcome) ? 'FFC6EFCE' : 'FFFFC7CE' }],
        ]),
      };
    }
  };
  if (isWorkbookFile(file))
    await writeSheet(
      file,
      { sheetName: 'withdraw', header: withdrawColumns, widths: [20, 24, 24, 16, 14, 14, 20, 60, 8, 8] },
      sheetLines(),
    );
  else await writeCsvFile(file, withdrawColumns, sheetLines(), format);
  summary.claims = claims.size;
  return summary;
}

const outcomeColumn = withdrawColumns.indexOf('outcome');

/** The line that proves nothing was lost: every case counted once, by outcome. */
export function formatWithdrawSummary(summary: WithdrawSummary, dryRun: boolean): string {
  const parts = withdrawOutcomes
    .filter((outcome) => (summary.byOutcome[outcome] ?? 0) > 0)
    .map((outcome) => `${summary.byOutcome[outcome] ?? 0} ${outcome}`);
  return (
    `withdraw ${dryRun ? '(dry run, nothing sent) ' : ''}finished: ${summary.cases} cases of ` +
    `${summary.claims} claims = ${parts.length === 0 ? 'nothing' : parts.join(' + ')}\n`
  );
}
