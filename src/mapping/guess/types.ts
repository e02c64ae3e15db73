/**
 * The plain values `mapping guess` works on. Inference is pure: a sample in, a draft out; reading
 * the file and writing the draft are the command's job.
 */

// How sure a guess is: the CSV sniffers (src/csv) say it too.
import type { Confidence } from '../../csv/confidence.js';
export type { Confidence };

/** The first rows of an export, as read with the sniffed dialect. */
export interface Sample {
  /** Column names in file order (numbered "1", "2", … when the file has no header line). */
  readonly columns: readonly string[];
  /** Each row's cells by column name; a short row simply lacks the cells it lacks. */
  readonly rows: readonly Readonly<Record<string, string>>[];
}

/** One column's non-blank cells, trimmed, with the row each came from. */
export interface ColumnValues {
  readonly column: string;
  /** Position in the file, 0-based: "beside" a card network means the neighbouring position. */
  readonly position: number;
  readonly values: readonly string[];
  /** Index into Sample.rows of each value. */
  readonly rowIndexes: readonly number[];
  /** Rows with a blank or missing cell. */
  readonly blanks: number;
}

/** Something a person must decide before the draft can run; each is a TODO in the YAML. */
export interface Todo {
  /** Where in the mapping, e.g. `shared.dispute.reason`. */
  readonly field: string;
  readonly message: string;
}

/** One line of what `mapping guess` decided, with how sure it is. */
export interface Decision {
  readonly subject: string;
  readonly decision: string;
  readonly confidence: Confidence;
}
