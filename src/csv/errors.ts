import { maskCardNumbers } from '../card-numbers/mask.js';
import { RefusalError } from '../errors/coded-error.js';

/** Codes of run-level CSV failures: the whole file cannot be read as declared. */
export type CsvFormatErrorCode =
  | 'csv_empty'
  | 'csv_header_empty'
  | 'csv_header_duplicate'
  | 'csv_line_endings'
  | 'csv_encoding'
  | 'csv_quote_not_closed'
  | 'csv_quote_unrecoverable'
  | 'csv_record_too_large'
  | 'csv_parse'
  // A report's layout (the mapping's `report`): no header where it says, or no record type column in it.
  | 'csv_header_not_found'
  | 'csv_record_type_column'
  // A fixed-width file (the mapping's `fixed_width`): a record of no type it lists, or outside its block.
  | 'fixed_width_record_type'
  | 'fixed_width_block'
  // The mapping's `controls`: the column whose amounts its total adds up is not in the header.
  | 'csv_control_column'
  // A workbook input: not a readable .xlsx, or without the sheet asked for.
  | 'workbook_unreadable'
  | 'workbook_sheet_missing'
  // A workbook part, cell or zip entry past its limit (src/workbook/parts/limits.ts): a bomb, or no real workbook.
  | 'xlsx_too_large';

/** Codes of row-level CSV failures: one record is bad, the rest of the file is fine. */
export type CsvRowErrorCode = 'csv_column_count' | 'csv_blank_line' | 'csv_quote';

export interface CsvRowError {
  readonly code: CsvRowErrorCode;
  readonly message: string;
}

/** Thrown when the file as a whole cannot be read: row failures are values, run failures are thrown. */
export class CsvFormatError extends RefusalError {
  override readonly name = 'CsvFormatError';
  readonly code: CsvFormatErrorCode;
  /** 1-based physical line where the problem starts. */
  readonly line: number;

  /** The message may quote the file's text (a header name, the parser's words): a card number in it is masked. */
  constructor(code: CsvFormatErrorCode, line: number, message: string, options?: ErrorOptions) {
    super(`line ${line}: ${maskCardNumbers(message)}`, options);
    this.code = code;
    this.line = line;
  }
}
