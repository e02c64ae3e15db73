import { CsvFormatError } from '../../csv/errors.js';

/**
 * A workbook part (or the zip, or a cell) past its limit: `xlsx_too_large`, exit 2, the part and
 * the limit named; at line 1 but for a cell, whose row is known.
 */
export function tooLarge(part: string, expected: string, got: string, line = 1): CsvFormatError {
  return new CsvFormatError('xlsx_too_large', line, `workbook ${part}: expected ${expected}, got ${got}`);
}

/** A zip that does not read as one: `workbook_unreadable`, as exceljs's own failures are. */
export function unreadable(part: string, expected: string, got: string): CsvFormatError {
  return new CsvFormatError('workbook_unreadable', 1, `workbook ${part}: expected ${expected}, got ${got}`);
}

/** A count as the messages write it: `1,048,576`. */
export function counted(value: number): string {
  return value.toLocaleString('en-US');
}
