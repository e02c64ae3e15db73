import type { FieldSpec } from './field-spec.js';
import type { Mapping } from './schema.js';
import { luxonDateFormat } from './transforms/date.js';

/** How one column's typed cells are read as text (the workbook reader's `readings` take these). */
export interface ColumnReading {
  readonly dateFormat?: string | undefined;
  readonly decimalSeparator?: '.' | ',' | undefined;
}

/**
 * How a mapping reads each column, for typed workbook cells: a date cell in a column the mapping
 * reads as a date comes in the mapping's own format (a person's date cell is a date, whatever the
 * format it shows in); a number in an amount column with the mapping's decimal separator.
 */
export function columnReadings(mapping: Mapping): Map<string, ColumnReading> {
  const readings = new Map<string, ColumnReading>();
  const specs: FieldSpec[] = [
    ...Object.values(mapping.shared),
    ...Object.values(mapping.case),
    ...Object.values(mapping.custom_fields),
  ].filter((spec) => spec !== undefined);
  for (const spec of specs) {
    // A split column (`09/28` read as month and year) is text, not one date or number.
    if (spec.column === undefined || spec.split !== undefined || readings.has(spec.column)) continue;
    // `yyyyDDD` as the date transform reads it (luxon's own DDD would write "May 21, 2017").
    if (spec.type === 'date' && spec.date !== undefined)
      readings.set(spec.column, { dateFormat: luxonDateFormat(spec.date.format) });
    // With implied decimals a typed number reads as it is: an integer is its digits, a fraction is refused.
    if (spec.type === 'amount' && spec.amount !== undefined)
      readings.set(spec.column, { decimalSeparator: spec.amount.decimal_separator });
  }
  return readings;
}
