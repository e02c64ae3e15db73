import { readAmount, type DecimalSeparator, type GroupSeparator } from '../transforms/index.js';
import type { Confidence } from './types.js';

export interface AmountReading {
  readonly decimal: DecimalSeparator;
  readonly group: GroupSeparator;
}

export type AmountGuess =
  | {
      readonly kind: 'amount';
      readonly reading: AmountReading;
      readonly confidence: Confidence;
      readonly evidence: string;
      readonly wholeNumbersOnly: boolean;
      /** Cells that read as negative amounts (their own sign, or their row's sign column). */
      readonly negatives: number;
    }
  /** Every value reads two ways that give different amounts (only `1,234`): a person decides. */
  | { readonly kind: 'ambiguous'; readonly readings: readonly AmountReading[]; readonly evidence: string };

/** One cell of an amount column, with the currency of its row when a currency column is known. */
export interface AmountCell {
  readonly text: string;
  readonly currency: string | undefined;
  /** The row's sign column makes it negative (sign-column.ts). */
  readonly negative?: boolean;
}

/** Every decimal/grouping pair the amount transform accepts, conventional pairs first. */
const readings: readonly AmountReading[] = [
  { decimal: '.', group: ',' },
  { decimal: ',', group: '.' },
  { decimal: '.', group: "'" },
  { decimal: ',', group: ' ' },
  { decimal: '.', group: ' ' },
  { decimal: ',', group: "'" },
  { decimal: '.', group: '' },
  { decimal: ',', group: '' },
];

/** An amount column may hold a few bad cells: those become row errors, not a different guess. */
const minimumShare = 0.9;
/** Stands in for an unknown currency: three decimals accept every reading any currency would. */
const unknownCurrency = 'KWD';

/**
 * The decimal and grouping separators of an amount column, found by reading every cell with
 * every pair the amount transform accepts (the transform itself, so the guess can never be one
 * the import reads differently). The pairs that read the most cells are kept; when they give
 * the same amounts for every cell the column is decided, otherwise it is ambiguous and flagged:
 * `1,234` alone is 1234 with grouping and 1.234 with a decimal comma. The row's currency takes
 * part: `1,234` in USD or JPY can only be grouping (USD has 2 decimals, JPY none), in KWD
 * (3 decimals) it stays ambiguous. `preferredDecimal` orders the readings of whole numbers,
 * which every pair reads alike (`,` for a `;` file, where the decimal comma is usual).
 */
export function classifyAmount(
  cells: readonly AmountCell[],
  preferredDecimal: DecimalSeparator = '.',
): AmountGuess | undefined {
  if (cells.length === 0) return undefined;
  const results = readings.map((reading) => cells.map((cell) => readAs(cell, reading)));
  const counts = results.map((values) => values.filter((value) => value !== undefined).length);
  const best = Math.max(...counts);
  if (best < cells.length * minimumShare) return undefined;

  // Readings that read the most cells, grouped by the amounts they give.
  const classes: { readings: AmountReading[]; values: (string | undefined)[] }[] = [];
  readings.forEach((reading, index) => {
    if (counts[index] !== best) return;
    const values = results[index] ?? [];
    const same = classes.find((group) => group.values.every((value, position) => value === values[position]));
    if (same) same.readings.push(reading);
    else classes.push({ readings: [reading], values });
  });
  const wholeNumbersOnly = cells.every((cell) => /^[-\u2212(]?\d+[-\u2212)]?$/.test(cell.text));
  const unread = cells.length - best;
  const unreadNote =
    unread === 0
      ? ''
      : `; ${unread} of ${cells.length} cells read no way, e.g. ` +
        JSON.stringify(cells.find((_, position) => classes[0]?.values[position] === undefined)?.text ?? '');

  if (classes.length > 1) {
    const representatives = classes.map((group) => pick(group.readings, cells, preferredDecimal));
    const disputed =
      cells.find((_, position) => new Set(classes.map((group) => group.values[position])).size > 1)?.text ?? '';
    const disputedAt = cells.findIndex((cell) => cell.text === disputed);
    return {
      kind: 'ambiguous',
      readings: representatives,
      evidence:
        `${JSON.stringify(disputed)} reads as ` +
        `${classes.map((group, index) => `${describeMinor(group.values[disputedAt])} with ${describeReading(representatives[index])}`).join(' or as ')}, ` +
        `and no cell tells which${unreadNote}`,
    };
  }
  const reading = pick(classes[0]?.readings ?? [], cells, preferredDecimal);
  const zeroDecimalCurrencies = cells.every(
    (cell) =>
      cell.currency !== undefined &&
      readAs({ text: '1.5', currency: cell.currency }, { decimal: '.', group: '' }) === undefined,
  );
  let confidence: Confidence = unread === 0 ? 'high' : 'medium';
  let evidence = `${describeReading(reading)}, e.g. ${JSON.stringify(example(cells, reading))}`;
  if (wholeNumbersOnly && !zeroDecimalCurrencies) {
    confidence = 'medium';
    evidence = 'whole numbers only: read as major units (if they are minor units, cents, use type: integer instead)';
  } else if (wholeNumbersOnly) {
    evidence = 'whole numbers in currencies without minor units (such as JPY)';
  }
  const negatives = cells.filter((cell) => cell.negative === true || isNegative(cell, reading)).length;
  return { kind: 'amount', reading, confidence, evidence: evidence + unreadNote, wholeNumbersOnly, negatives };
}

/** Whether the cell writes a debit (`-435.52`, `435.52-`, `(435.52)`). */
function isNegative(cell: AmountCell, reading: AmountReading): boolean {
  const result = readAmount(cell.text, {
    currency: cell.currency ?? unknownCurrency,
    decimalSeparator: reading.decimal,
    groupSeparator: reading.group,
  });
  return result.ok && result.value.negative;
}

/** The amount, sign apart, as "<minor units>@<exponent>" (comparable across readings), or undefined. */
function readAs(cell: AmountCell, reading: AmountReading): string | undefined {
  const currency = cell.currency ?? unknownCurrency;
  const result = readAmount(cell.text, {
    currency,
    decimalSeparator: reading.decimal,
    groupSeparator: reading.group,
  });
  return result.ok ? `${result.value.minorUnits}@${currency}` : undefined;
}

/**
 * Among readings that read the sample alike: the one whose separators appear in it, then the
 * preferred decimal, then the conventional pair (decimal `.` groups with `,`, `,` with `.`),
 * which also reads grouped amounts the sample did not happen to show.
 */
function pick(
  candidates: readonly AmountReading[],
  cells: readonly AmountCell[],
  preferredDecimal: DecimalSeparator,
): AmountReading {
  const seen = (character: string) => character !== '' && cells.some((cell) => cell.text.includes(character));
  const score = (reading: AmountReading) =>
    (seen(reading.decimal) ? 8 : 0) +
    (seen(reading.group) ? 4 : 0) +
    (reading.decimal === preferredDecimal ? 2 : 0) +
    (readings.indexOf(reading) < 2 ? 1 : 0);
  return (
    [...candidates].sort((left, right) => score(right) - score(left))[0] ?? { decimal: preferredDecimal, group: '' }
  );
}

export function describeReading(reading: AmountReading | undefined): string {
  if (reading === undefined) return '';
  return `decimal ${JSON.stringify(reading.decimal)}${reading.group === '' ? ', no grouping' : `, grouping ${JSON.stringify(reading.group)}`}`;
}

function describeMinor(value: string | undefined): string {
  if (value === undefined) return 'nothing';
  const [units = '', currency = ''] = value.split('@');
  return `${units} minor units${currency === unknownCurrency ? ' (at 3 decimals)' : ` of ${currency}`}`;
}

/** A cell that shows the reading best: one with its decimal separator, else any. */
function example(cells: readonly AmountCell[], reading: AmountReading): string {
  const withBoth = cells.find(
    (cell) => cell.text.includes(reading.decimal) && reading.group !== '' && cell.text.includes(reading.group),
  );
  return (withBoth ?? cells.find((cell) => cell.text.includes(reading.decimal)) ?? cells[0])?.text ?? '';
}
