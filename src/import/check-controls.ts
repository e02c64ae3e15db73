import type { ControlMismatch } from '../csv/control-tally.js';
import { RefusalError } from '../errors/coded-error.js';
import type { Mapping } from '../mapping/schema.js';
import type { Journal } from './journal/journal.js';
import { columnReadings } from '../mapping/column-readings.js';
import { isWorkbookFile, readWorkbookRows } from '../workbook/read-rows.js';
import { exportLayout } from './export-layout.js';
import { controlTallyFor, exportRecordBatches } from './export-records.js';
import { byteSourceOf, type ByteSource } from '../files/byte-source.js';

/**
 * The input's trailers against what it holds, read once to its end before the journal is made
 * (docs/mappings.md, "Fixed-width files and control records"): a file cut short in transfer, or
 * two joined, stops the import with nothing staged, sent or written, as a header that does not fit
 * does. `--accept-trailer-mismatch` imports a file known to be wrong; its rows say so.
 */
export class ControlMismatchError extends RefusalError {
  readonly code: ControlMismatch['code'];

  constructor(
    readonly input: string,
    readonly mismatches: readonly ControlMismatch[],
    total: number,
  ) {
    const first = mismatches[0];
    const more =
      total > 1
        ? ` (and ${total - 1} more: ${mismatches
            .slice(1, 4)
            .map((each) => each.message)
            .join('; ')}${total > 4 ? '; …' : ''})`
        : '';
    const said = `${first?.message ?? 'a trailer disagrees with its block'}${more}`;
    super(
      `${input}: ${said}${/[.?]$/.test(said) ? '' : '.'} Nothing was staged or sent: fetch ` +
        'the file again, or import it as it is with --accept-trailer-mismatch',
    );
    this.name = 'ControlMismatchError';
    this.code = first?.code ?? 'TRAILER_MISMATCH';
  }
}

export interface InputControlsOptions {
  /** A local file (its path) or an object. */
  input: string | ByteSource;
  sheet?: string | undefined;
  mapping: Mapping;
  /** Import a file whose trailers disagree, its rows warned: the mismatches are returned instead of thrown. */
  accept?: boolean | undefined;
}

/** Reads the input to its end and checks every block; throws ControlMismatchError, or returns the mismatches accepted. */
export async function checkInputControls(options: InputControlsOptions): Promise<readonly ControlMismatch[]> {
  const { mapping } = options;
  const input = byteSourceOf(options.input);
  const tally = controlTallyFor(mapping);
  if (tally === undefined) return [];
  if (isWorkbookFile(input.name)) {
    if (mapping.controls === undefined) return [];
    const rows = readWorkbookRows(input, {
      sheet: options.sheet,
      readings: columnReadings(mapping),
      ...exportLayout(mapping),
      controls: { controls: mapping.controls, tally },
    });
    for await (const _row of rows);
  } else {
    // Only the tally is wanted: a fixed-width file's rows are not built (a CSV's are, to be counted).
    for await (const _batch of exportRecordBatches(await input.open(), mapping, { tally, tallyOnly: true }));
  }
  if (tally.mismatchCount === 0) return [];
  if (options.accept === true) return tally.mismatches;
  throw new ControlMismatchError(input.name, tally.mismatches, tally.mismatchCount);
}

/**
 * The rows of blocks whose trailer disagreed, imported all the same: each says so in the results'
 * `warnings`, after what staging changed in it (docs/import.md, "The results CSV").
 */
export function warnRowsOfBlocks(journal: Journal, mismatches: readonly ControlMismatch[]): void {
  if (mismatches.length === 0) return;
  const warn = journal.database.prepare(
    `UPDATE rows SET warnings = CASE WHEN warnings IS NULL OR warnings = '' THEN @warning
       ELSE warnings || ' | ' || @warning END
     WHERE line BETWEEN @first AND @last`,
  );
  journal.transaction(() => {
    for (const mismatch of mismatches)
      warn.run({
        warning: `trailer_mismatch_accepted: ${mismatch.message}`,
        first: mismatch.firstLine,
        last: mismatch.lastLine,
      });
  });
}
