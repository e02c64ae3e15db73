import { createReadStream } from 'node:fs';
import { maskCardNumbers } from '../card-numbers/mask.js';
import type { CsvEncoding } from '../csv/dialect.js';
import { readRows } from '../csv/read-rows.js';
import { isSqlite, isZip } from '../files/file-kind.js';
import { hintFor } from '../job-files/hints.js';
import { renamedStatusCount, renameStatusColumns, statusColumns } from '../job-files/import/columns.js';
import { mergeShardJournals } from '../job-files/import/merge-journals.js';
import { MergeRefusedError } from '../job-files/import/merge.js';
import type { ThinnedUse } from '../job-files/import/thinned.js';
import { NotResultsError } from '../files/not-results-error.js';
import { restore } from '../csv/neutralise.js';
import { errorCellFill, errorColumns, outcomeFills } from '../job-files/import/results-workbook.js';
import { migrateOutcomeFills } from '../job-files/migrate/columns.js';
import { withdrawOkOutcomes, withdrawOutcomes } from '../job-files/withdraw/columns.js';
import { writeSheet, type CellMark, type SheetLine } from '../workbook/write-sheet.js';
import { detectFileDialect } from '../job-files/read/results-dialect.js';
import { resultsKindOf } from '../job-files/read/read-results.js';

const fills: Readonly<Record<string, string>> = { ...outcomeFills, ...migrateOutcomeFills };
/** A withdraw job's outcomes as its own workbook colours them (src/withdraw/results.ts): done green, the rest red. */
const withdrawFills: Readonly<Record<string, string>> = Object.fromEntries(
  withdrawOutcomes.map((outcome) => [outcome, withdrawOkOutcomes.includes(outcome) ? 'FFC6EFCE' : 'FFFFC7CE']),
);

/** Why `report --xlsx` refuses a thinned journal, and what to do instead (before the report is written too). */
export const workbookOfThinned: ThinnedUse = {
  needs: 'a workbook of every line repeats its cells',
  instead:
    'run `bulk-disputes report` without --xlsx for its outcomes, or the import again with its input and ' +
    '--journal, which writes its results with the cells read again from the input',
};

/**
 * `report --xlsx`: a results CSV (the import's, migrate-v1's or withdraw's), or an import's
 * journal, as a results workbook of text cells for review in a spreadsheet. A journal's workbook
 * marks the source cell behind each error (the journal records which columns each mapping field
 * reads); a results CSV's marks the cell when `error_field` names a column (an evidence column,
 * say): a CSV does not record its mapping.
 */
export async function writeReportWorkbook(file: string, out: string, encoding?: CsvEncoding): Promise<void> {
  if (await isSqlite(file)) {
    await mergeShardJournals([file], out, workbookOfThinned).catch((error: unknown) => {
      if (error instanceof MergeRefusedError)
        throw new NotResultsError(
          `${error.message} (a migrate-v1 or withdraw journal: run that command again with --results FILE.xlsx; it rewrites the results from its journal)`,
          { cause: error },
        );
      throw error;
    });
    return;
  }
  if (await isZip(file))
    throw new NotResultsError(
      'expected a results CSV or an import journal, got a workbook (it is one already: open it in a spreadsheet)',
    );
  const dialect = await detectFileDialect(file, encoding);
  let header: readonly string[] = [];
  let statusCount = 0;
  let outcomeFill = fills;
  const rows = readRows(
    createReadStream(file),
    { ...dialect, header: true, trim: false },
    {
      // The status columns keep their names in the workbook; renamed only to tell them from source columns.
      renameHeader: (names) => {
        const kind = resultsKindOf(names);
        if (kind === undefined)
          throw new NotResultsError(
            `header: expected a results CSV of import, migrate-v1 or withdraw, got ${names.slice(0, 3).join(', ')}, …`,
          );
        if (kind === 'withdraw') outcomeFill = withdrawFills;
        header = names;
        statusCount = renamedStatusCount(renameStatusColumns(names));
        return renameStatusColumns(names);
      },
    },
  );
  const lines = async function* (): AsyncGenerator<SheetLine> {
    const position = (column: string) => header.indexOf(column);
    for await (const row of rows) {
      // A record the results file itself garbles keeps its cells, unmarked: nothing is dropped.
      // Masked: a results file of a version before the import masked may hold card numbers (docs/report.md).
      const cells = (row.raw ?? []).map((cell) => maskCardNumbers(restore(cell)));
      const marks = new Map<number, CellMark>();
      const fill = outcomeFill[cells[position('outcome')] ?? ''];
      if (fill !== undefined) marks.set(position('outcome'), { fill });
      const errorField = statusCount > 0 ? (cells[position('error_field')] ?? '') : '';
      const code = cells[position('error_code')] ?? '';
      for (const column of errorField === '' ? [] : errorColumns(errorField, {})) {
        const at = header.indexOf(column, statusCount);
        if (at >= statusCount)
          marks.set(at, {
            fill: errorCellFill,
            note: `${code}: ${cells[position('error_message')] ?? ''}\nfix: ${hintFor(code)}`,
          });
      }
      yield { cells, marks };
    }
  };
  const iterator = lines();
  // The header is known once the first record is read: pull it before the sheet is opened.
  const first = await iterator.next();
  const sheetLines = async function* (): AsyncGenerator<SheetLine> {
    if (first.done !== true) yield first.value;
    yield* iterator;
  };
  if (header.length === 0) header = [...statusColumns];
  await writeSheet(out, { sheetName: 'results', header }, sheetLines());
}
