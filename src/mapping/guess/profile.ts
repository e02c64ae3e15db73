import { classifyDate, type DateGuess } from './classify-date.js';
import {
  booleanSpelling,
  codeCounts,
  expirySeparator,
  isArn,
  isCodeColumn,
  isCurrencyCode,
  isEmail,
  isFourDigits,
  isNetworkColumn,
  maxCodes,
  mostly,
  type BooleanSpelling,
} from './classify-scalars.js';
import { holdsCardNumbers } from './card-number-column.js';
import { matchHeader, type HeaderMatch } from './header-names.js';
import { columnDamage } from '../spreadsheet-damage.js';
import type { ColumnValues, Sample } from './types.js';

/** What a column's values alone say it is, most specific first. */
export type ValueKind =
  | { kind: 'empty' }
  | { kind: 'arn' }
  | { kind: 'card_number' }
  | { kind: 'email' }
  | { kind: 'currency' }
  | { kind: 'network' }
  | { kind: 'boolean'; spelling: BooleanSpelling }
  | { kind: 'expiry'; separator: string }
  | { kind: 'date'; guess: DateGuess }
  | { kind: 'four_digits' }
  | { kind: 'number' }
  /** A spreadsheet's times of day (`00:00.0`) or ids written as decimals (`994268.00000`). */
  | { kind: 'damaged'; damage: 'spreadsheet_time' | 'decimal_id' }
  | { kind: 'codes' }
  | { kind: 'text' };

export interface ColumnProfile extends ColumnValues {
  readonly header: HeaderMatch | undefined;
  readonly kind: ValueKind;
}

/** Every column's values and what they look like, from the sample's rows. */
export function profileColumns(sample: Sample, hasHeaderLine: boolean): ColumnProfile[] {
  return sample.columns.map((column, position) => {
    const values: string[] = [];
    const rowIndexes: number[] = [];
    sample.rows.forEach((row, index) => {
      const value = (row[column] ?? '').trim();
      if (value === '') return;
      values.push(value);
      rowIndexes.push(index);
    });
    const columnValues: ColumnValues = {
      column,
      position,
      values,
      rowIndexes,
      blanks: sample.rows.length - values.length,
    };
    const header = hasHeaderLine ? matchHeader(column) : undefined;
    return { ...columnValues, header, kind: damagedKind(values, header) ?? valueKind(values) };
  });
}

/**
 * What a spreadsheet or an export's tool did to the whole column (spreadsheet-damage.ts): never a
 * claim key or a field. Decimals of zeros under a header that names an amount are whole amounts.
 */
function damagedKind(values: readonly string[], header: HeaderMatch | undefined): ValueKind | undefined {
  const damage = columnDamage(values);
  if (damage === undefined) return undefined;
  const roles = header === undefined ? [] : [header.role, ...(header.alternatives ?? [])];
  if (damage === 'decimal_id' && roles.some((role) => role.endsWith('amount'))) return undefined;
  return { kind: 'damaged', damage };
}

export function valueKind(values: readonly string[]): ValueKind {
  if (values.length === 0) return { kind: 'empty' };
  if (mostly(values, isArn)) return { kind: 'arn' };
  if (holdsCardNumbers(values)) return { kind: 'card_number' };
  if (mostly(values, isEmail)) return { kind: 'email' };
  if (mostly(values, isCurrencyCode) && new Set(values).size <= maxCodes) return { kind: 'currency' };
  if (isNetworkColumn(values)) return { kind: 'network' };
  const spelling = booleanSpelling(values);
  if (spelling !== undefined) return { kind: 'boolean', spelling };
  const separator = expirySeparator(values);
  if (separator !== undefined) return { kind: 'expiry', separator };
  const date = /\d/.test(values[0] ?? '') ? classifyDate(values) : undefined;
  if (date !== undefined) return { kind: 'date', guess: date };
  if (mostly(values, isFourDigits)) return { kind: 'four_digits' };
  // A debit as reports write it, "-435.52", "435.52-", "(435.52)", is a number too.
  if (mostly(values, (value) => /^[-\u2212(]?\d[\d.,' ]*[-\u2212)]?$/.test(value))) return { kind: 'number' };
  if (isCodeColumn(values)) return { kind: 'codes' };
  return { kind: 'text' };
}

/** A column's values in a few words, for the draft's comments: "codes FR (40), NR (12)". */
export function describeValues(profile: ColumnProfile): string {
  const { kind } = profile.kind;
  const example = JSON.stringify(profile.values[0] ?? '');
  switch (kind) {
    case 'empty':
      return 'always blank in the sample';
    case 'codes':
      return `codes ${listCodes(profile.values)}`;
    case 'boolean':
      return `booleans (${profile.kind.spelling.name})`;
    case 'date':
      return profile.kind.guess.kind === 'date'
        ? `dates as ${JSON.stringify(profile.kind.guess.format)}`
        : `dates, day or month first (${profile.kind.guess.formats.join(' or ')})`;
    case 'four_digits':
      return `4-digit numbers, e.g. ${example}`;
    case 'number':
      return `numbers, e.g. ${example}`;
    case 'damaged':
      return profile.kind.damage === 'spreadsheet_time'
        ? `times of day as a spreadsheet shows them, e.g. ${example}: a spreadsheet read the cells as times and ` +
            'their values are gone (spreadsheet damage: never the claim key; take the column from the original export)'
        : `ids written as decimals, e.g. ${example}: not proposed as the claim key or an id, as another export may ` +
            'write them without decimals; a field reading one takes split: { separator: ".", index: 0 }';
    case 'expiry':
      return `expiry dates, e.g. ${example}`;
    case 'card_number':
      return `card numbers (cardholder data, masked here), e.g. ${example}`;
    default:
      return `${kind === 'text' ? 'text' : kind}, e.g. ${example}`;
  }
}

/** "FR (40), NR (12), …" for at most `limit` codes, most frequent first. */
export function listCodes(values: readonly string[], limit = 12): string {
  const counts = codeCounts(values);
  const shown = counts.slice(0, limit).map(([code, count]) => `${JSON.stringify(code)} (${count})`);
  return counts.length > limit ? `${shown.join(', ')} and ${counts.length - limit} more` : shown.join(', ');
}
