import { quote } from './transforms/result.js';

/**
 * What a spreadsheet does to the cells this tool sends to the card network, caught before a row is
 * mapped: an identifier saved as a number in scientific notation (`1.48792E+22`, `7,78563E+22`: its
 * last digits are gone for good), a cell read as a time of day (`00:00.0`), an id written as a
 * decimal (`994268.00000`), a fixed-width code that lost its leading zeros (last4 `0123` saved as
 * `123`), a date saved as its serial number (`46021`) or as a time. Pure: text in, a row problem
 * or nothing out.
 */

export interface Damage {
  code: 'spreadsheet_damaged' | 'leading_zeros_dropped';
  message: string;
}

/** `1.5e3`, `1.48792E+22`, `7,78563E+22` (a decimal-comma locale), `-2E-5`: how a spreadsheet writes a number it shortened. */
const scientific = /^[+-]?\d+(?:[.,]\d+)?[eE][+-]?\d+$/;
/**
 * `00:00.0`, `12:34.5`: minutes, seconds and tenths, the way a spreadsheet shows a cell it read as
 * a time of day (a timestamp, or digits with a colon), and saves it back: the value is gone.
 */
const spreadsheetTime = /^\d{1,2}:\d{2}[.,]\d$/;
/** `994268.00000`: an id written as a decimal number, by a spreadsheet or the export's own tool. */
const decimalId = /^\d+[.,]0+$/;

/** Targets holding codes of a fixed number of digits, which a spreadsheet stores as numbers. */
const fixedWidth: Readonly<Record<string, { digits: number; what: string }>> = {
  'shared.card.last4': { digits: 4, what: "the card's last 4 digits" },
  'case.merchant.category_code': { digits: 4, what: 'a 4-digit merchant category code' },
};

/**
 * Targets whose values are identifiers or codes, never quantities: an id, a reference, an ARN or
 * switch serial number, a card's digits. A value of theirs in scientific notation is damage.
 */
export function isIdentifierTarget(field: string): boolean {
  if (field === 'claim.id' || field === 'claim.key' || field.startsWith('custom_fields.')) return true;
  if (field in fixedWidth) return true;
  return /(^|\.)(case_id|claim_id|program_id|issuer_id|arn|switch_serial_number|transaction_id|order_id|id|tracking_number)$/.test(
    field,
  );
}

/**
 * The damage a spreadsheet did to one identifier cell, or undefined when it looks untouched.
 * `readsLastFour`: the field takes the cell's last four digits (`last4: true`), so the cell is a
 * card number, not the field's fixed-width value: its width is the `last4` step's to check.
 * `splitsCell`: the field takes a part of the cell (`split`), which reads `994268.00000` as 994268.
 */
export function identifierDamage(
  field: string,
  column: string,
  cell: string,
  readsLastFour = false,
  splitsCell = false,
): Damage | undefined {
  const text = cell.trim();
  if (spreadsheetTime.test(text)) {
    return {
      code: 'spreadsheet_damaged',
      message:
        `column "${column}": expected the value as written, got ${quote(text)}, a time of day as a ` +
        `spreadsheet shows one (minutes, seconds, tenths): a spreadsheet read the cell as a time and saved it ` +
        `so, and the value is gone from this file; take the value from the original export (or open it with ` +
        `the column typed as text) and run again`,
    };
  }
  // A custom field may hold a quantity ("2.00"); a field that splits the cell has said how to read it.
  if (decimalId.test(text) && !field.startsWith('custom_fields.') && !splitsCell) {
    const digits = text.replace(/[.,]0+$/, '');
    const fix =
      field === 'claim.key'
        ? 'key on a column that holds the reference as written'
        : `take its whole part with split: { separator: ${JSON.stringify(text.charAt(digits.length))}, index: 0 } on the field`;
    return {
      code: 'spreadsheet_damaged',
      message:
        `column "${column}": expected an identifier's digits, got ${quote(text)}, a number written with ` +
        `decimals (was it ${digits}?): a spreadsheet or the export's tool wrote the id as a decimal number, and ` +
        `another export of it may write ${digits}; ${fix}, or export the column as text`,
    };
  }
  if (scientific.test(text)) {
    return {
      code: 'spreadsheet_damaged',
      message:
        `column "${column}": expected the value as written, got ${quote(text)}, a number in ` +
        `scientific notation: a spreadsheet saved the cell as a number and dropped its last digits, which ` +
        `cannot be recovered from this file; take the value from the original export (or open it with the ` +
        `column typed as text) and run again`,
    };
  }
  const width = readsLastFour ? undefined : fixedWidth[field];
  if (width !== undefined && /^\d+$/.test(text) && text.length < width.digits) {
    const padded = text.padStart(width.digits, '0');
    return {
      code: 'leading_zeros_dropped',
      message:
        `column "${column}": expected ${width.what}, got ${quote(text)} (${text.length} digits): a ` +
        `spreadsheet may have dropped its leading zeros (was it ${padded}?); check the original export and ` +
        `write the cell as text`,
    };
  }
  return undefined;
}

/** Networks whose acquirer reference numbers are 23 digits (the ARN's check digit included). */
const twentyThreeDigitNetworks = new Set(['visa', 'mastercard']);

/**
 * An ARN checked as an ARN: 23 digits for Visa and Mastercard; digits only for the other networks,
 * whose formats the service does not give. A spreadsheet's rounding shows here too:
 * `74492156302000200000000` has the length but not the digits, which only the original export can
 * tell, so the message points there.
 */
export function arnProblem(
  arn: string,
  network: string | undefined,
): Damage | { code: 'arn_invalid'; message: string } | undefined {
  if (network !== undefined && twentyThreeDigitNetworks.has(network)) {
    if (/^\d{23}$/.test(arn)) return undefined;
    const got = /^\d+$/.test(arn) ? `${arn.length} digits` : `${quote(arn)}, with characters other than digits`;
    return {
      code: 'arn_invalid',
      message:
        `arn: expected the 23 digits of a ${network} acquirer reference number, got ${got}; check the ` +
        `original export (a spreadsheet may have rounded or reformatted it)`,
    };
  }
  if (/^\d+$/.test(arn)) return undefined;
  return { code: 'arn_invalid', message: `arn: expected digits only, got ${quote(arn)}` };
}

/** Days from the spreadsheets' day 0 (1899-12-30, after Lotus 1-2-3's leap-year slip) to 1970-01-01. */
const serialEpochOffsetDays = 25_569;
const dayMs = 86_400_000;

/**
 * A date cell that a spreadsheet turned into its serial number: the date it stands for, said in
 * the date error (`46021` is 2025-12-30). Serials from 1927 to 2118 (10,000 to 80,000); anything
 * else is not taken for one.
 */
export function serialDateHint(cell: string): string | undefined {
  const text = cell.trim();
  if (!/^\d{5}(?:[.,]\d+)?$/.test(text)) return undefined;
  const serial = Math.floor(Number(text.replace(',', '.')));
  if (serial < 10_000 || serial > 80_000) return undefined;
  const date = new Date((serial - serialEpochOffsetDays) * dayMs).toISOString().slice(0, 10);
  return (
    `${quote(text)} looks like a spreadsheet's serial number for ${date}: the spreadsheet saved ` +
    `the date as a number; write the date as the mapping's format says (or format the column as text ` +
    `before saving)`
  );
}

/**
 * A date cell that a spreadsheet read as a time of day and saved as one (`00:00.0`): said in the
 * date error, as nothing of the date is left to read.
 */
export function spreadsheetTimeHint(cell: string): string | undefined {
  const text = cell.trim();
  if (!spreadsheetTime.test(text)) return undefined;
  return (
    `${quote(text)} is a time of day as a spreadsheet shows one (minutes, seconds, tenths): the ` +
    `spreadsheet read the cell as a time and saved it so, and its date is gone; take the date from the ` +
    `original export (or open it with the column typed as text)`
  );
}

/**
 * What a spreadsheet or an export's tool did to a whole column of a sample, for `mapping guess`:
 * times of day (`00:00.0`) where values were, or ids written as decimals (`994268.00000`, every
 * value: a column of amounts in whole units, `25.00`, looks the same, so the guess asks the header
 * first). Undefined when the column looks untouched.
 */
export function columnDamage(values: readonly string[]): 'spreadsheet_time' | 'decimal_id' | undefined {
  if (values.length === 0) return undefined;
  if (values.every((value) => spreadsheetTime.test(value.trim()))) return 'spreadsheet_time';
  // Two zeros or more: "25.0" is as likely a quantity.
  if (values.every((value) => /^\d+[.,]0{2,}$/.test(value.trim()))) return 'decimal_id';
  return undefined;
}
