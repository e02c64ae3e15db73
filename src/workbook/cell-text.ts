import { DateTime } from 'luxon';

/**
 * How one column's typed cells read as text: a date cell in a column the mapping reads as a date is
 * written in the mapping's own format, a number in an amount column with the mapping's decimal
 * separator. Without a hint, dates read as ISO 8601.
 */
export interface ColumnReading {
  readonly dateFormat?: string | undefined;
  readonly decimalSeparator?: '.' | ',' | undefined;
}

/** The parts of an exceljs cell this module reads (a `Cell` of the streaming reader). */
export interface ReadCell {
  readonly value: unknown;
  readonly numFmt?: string | undefined;
}

/**
 * A cell as the text a person sees, or the closest text that reads back the same way. Text cells
 * are taken as they are. A typed number is what a spreadsheet keeps of it: an integer of more than
 * 15 digits has lost its last digits (a spreadsheet keeps 15), so it reads in scientific notation,
 * as the spreadsheet shows it, and the mapping's damage check refuses it in an identifier column
 * instead of sending a corrupted ARN; a zero-padded format (`0000`) keeps its leading zeros, as
 * shown. A formula reads as its result; an error cell as its error (`#N/A`).
 */
export function cellText(cell: ReadCell, reading: ColumnReading = {}): string {
  return valueText(cell.value, cell.numFmt, reading);
}

function valueText(value: unknown, numFmt: string | undefined, reading: ColumnReading): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value, numFmt, reading);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value, reading);
  if (typeof value === 'object') {
    const object = value as {
      richText?: { text: string }[];
      text?: unknown;
      result?: unknown;
      formula?: unknown;
      error?: unknown;
    };
    if (Array.isArray(object.richText)) return object.richText.map((run) => run.text).join('');
    if ('error' in object) return String(object.error);
    if ('formula' in object || 'sharedFormula' in object) return valueText(object.result, numFmt, reading);
    if ('text' in object) return valueText(object.text, numFmt, reading);
    return JSON.stringify(value);
  }
  return typeof value === 'bigint' ? value.toString() : '';
}

/** Integers a spreadsheet stores exactly: 15 significant digits (IEEE doubles hold 15–17). */
const exactDigits = 15;

function numberText(value: number, numFmt: string | undefined, reading: ColumnReading): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) {
    const digits = String(Math.abs(value)).replace(/e.*$/, '').replace('.', '').length;
    if (Math.abs(value) >= 1e21 || digits > exactDigits) return value.toExponential().toUpperCase();
    // `0000`: shown padded to four digits (how a person keeps a last4's leading zero).
    const padded = /^0+$/.exec(numFmt ?? '');
    const text = String(Math.abs(value));
    return `${value < 0 ? '-' : ''}${padded === null ? text : text.padStart(padded[0].length, '0')}`;
  }
  // A double's shortest text (0.1 + 0.2 reads 0.30000000000000004): rounded to 15 significant digits, as shown.
  const text = String(Number(value.toPrecision(exactDigits)));
  return reading.decimalSeparator === ',' ? text.replace('.', ',') : text;
}

function dateText(value: Date, reading: ColumnReading): string {
  // exceljs reads a date serial as that wall-clock time in UTC.
  const time = DateTime.fromJSDate(value, { zone: 'UTC' });
  // `iso` is no luxon pattern: a typed date cell reads as the ISO date-time it holds.
  if (reading.dateFormat === 'iso') return time.toISO({ suppressMilliseconds: true }) ?? '';
  if (reading.dateFormat !== undefined) return time.toFormat(reading.dateFormat);
  const midnight = time.hour === 0 && time.minute === 0 && time.second === 0 && time.millisecond === 0;
  return midnight ? time.toFormat('yyyy-MM-dd') : time.toFormat("yyyy-MM-dd'T'HH:mm:ss");
}
