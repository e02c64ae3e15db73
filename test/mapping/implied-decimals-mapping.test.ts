import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { compileMapping } from '../../src/mapping/compile/index.js';
import { explainRow } from '../../src/mapping/explain.js';
import { MappingError, parseMapping } from '../../src/mapping/load.js';
import { mapRow, type RowMapping } from '../../src/mapping/map-row.js';
import type { Mapping } from '../../src/mapping/schema.js';
import { columnReadings } from '../../src/mapping/column-readings.js';
import { readWorkbookRows } from '../../src/workbook/read-rows.js';
import { temporaryFolder } from '../helpers/temporary-folder.js';

/**
 * A mapping of a fixed-width chargeback file's fields (each field a column): amounts with implied
 * decimals, a one-character sign field, a Julian date. Through the interpreter and the compiled
 * mapping alike.
 */

function mappingText(amount: string, extra = ''): string {
  return `
claim:
  key: [REF]
shared:
  card.last4: { column: LAST4, required: true }
  card.network: { constant: amex }
  cardholder.type: { constant: individual }
  dispute.raised_by: { constant: cardholder }
  dispute.reason: { column: REASON, required: true, enum: { "4553": fraud } }
  dispute.date: { column: JULIAN, type: date, date: { format: yyyyDDD } }
case:
  case_id: { column: REF }
  transaction.currency: { column: CUR, required: true }
  transaction.amount: { column: AMT, required: true, type: amount, amount: ${amount} }
  transaction.date: { column: TXN, required: true, type: date, date: { format: yyMMdd } }
  transaction.arn: { column: ARN, required: true }
${extra}`;
}

const header = ['REF', 'LAST4', 'REASON', 'JULIAN', 'CUR', 'AMT', 'SIGN', 'TXN', 'ARN'];

function rowOf(cells: Partial<Record<string, string>>): string[] {
  const base: Record<string, string> = {
    REF: 'CB-1',
    LAST4: '4242',
    REASON: '4553',
    JULIAN: '2017141',
    CUR: 'USD',
    AMT: '000000001235',
    SIGN: ' ',
    TXN: '170521',
    ARN: '74537604152001234509876',
  };
  return header.map((column) => cells[column] ?? base[column] ?? '');
}

/** The interpreter's answer, checked to be the compiled mapping's too. */
function mapped(mapping: Mapping, cells: Partial<Record<string, string>>): RowMapping {
  const raw = rowOf(cells);
  const byName = Object.fromEntries(header.map((column, position) => [column, raw[position] ?? '']));
  const interpreted = mapRow(byName, mapping);
  expect(compileMapping(mapping, header).map(raw)).toStrictEqual(interpreted);
  return interpreted;
}

function amountOf(result: RowMapping): unknown {
  if (!result.ok) return result.errors.map((error) => `${error.code}: ${error.message}`);
  return (result.row.case as { transaction?: { amount?: unknown } }).transaction?.amount;
}

function issuesOf(text: string): string[] {
  try {
    parseMapping(text, 'cbnot.yaml');
  } catch (error) {
    if (error instanceof MappingError) return error.issues.map((issue) => `${issue.field}: ${issue.message}`);
    throw error;
  }
  return [];
}

describe('a mapping with implied decimals', () => {
  const usd = parseMapping(mappingText('{ currency_field: transaction.currency, implied_decimals: 2 }'), 'cbnot.yaml');

  it('reads the amount, the Julian date and the two-digit year, compiled and interpreted alike', () => {
    const result = mapped(usd, {});
    expect(result).toMatchObject({
      ok: true,
      row: {
        shared: { dispute: { date: '2017-05-21T00:00:00.000Z' } },
        case: { transaction: { amount: 1235, currency: 'USD', date: '2017-05-21T00:00:00.000Z' } },
      },
    });
    expect(amountOf(mapped(usd, { CUR: 'JPY', AMT: '000000123400' }))).toBe(1234);
    expect(amountOf(mapped(usd, { CUR: 'BHD', AMT: '000000001235' }))).toBe(12350);
    expect(amountOf(mapped(usd, { CUR: 'JPY' }))).toEqual([
      'amount_precision: amount: expected at most 0 fraction digits for JPY (or zeros after them), got ' +
        '"000000001235" (12.35 with 2 implied decimals)',
    ]);
    expect(amountOf(mapped(usd, { AMT: '12.35' }))).toEqual([
      'amount_format: amount: expected digits only (2 implied decimals, no decimal separator), got "12.35"',
    ]);
    expect(amountOf(mapped(usd, { AMT: '000000001235-' }))).toEqual([expect.stringMatching(/^amount_negative: /)]);
    // A blank amount field is the required step's error, before the amount is read.
    expect(amountOf(mapped(usd, { AMT: '            ' }))).toEqual([
      'required_missing: expected a value, got a blank cell in column "AMT"',
    ]);
    expect(mapped(usd, { JULIAN: '2017366' })).toMatchObject({
      ok: false,
      errors: [{ field: 'shared.dispute.date', code: 'date_invalid' }],
    });
  });

  it('takes its sign from a one-character field: "-"/"+" or "D"/"C", blank as listed', () => {
    const signed = (negative: string, positive: string) =>
      parseMapping(
        mappingText(
          `{ currency: BHD, implied_decimals: 3, negative: magnitude, sign_column: { column: SIGN, negative: ${negative}, positive: ${positive} } }`,
        ),
        'cbnot.yaml',
      );
    const minus = signed('["-"]', '["+", ""]');
    for (const sign of ['-', '+', ' ', ''])
      expect(amountOf(mapped(minus, { SIGN: sign, AMT: '000000012345' })), JSON.stringify(sign)).toBe(12345);
    expect(amountOf(mapped(minus, { SIGN: 'D' }))).toEqual([
      'amount_sign_unknown: amount.sign_column: expected "-" (negative) or "+", "" (positive) in column "SIGN", got "D"',
    ]);
    const debitCredit = signed('[D]', '[C]');
    expect(amountOf(mapped(debitCredit, { SIGN: 'D' }))).toBe(1235);
    expect(amountOf(mapped(debitCredit, { SIGN: 'C', AMT: '000000001235-' }))).toEqual([
      expect.stringMatching(/^amount_sign_conflict: /),
    ]);
    expect(amountOf(mapped(debitCredit, { SIGN: ' ' }))).toEqual([
      'amount_sign_unknown: amount.sign_column: expected "D" (negative) or "C" (positive) in column "SIGN", got a blank cell',
    ]);
    // Refused by default: the row's sign says it is a credit.
    const refusing = parseMapping(
      mappingText(
        '{ currency: USD, implied_decimals: 2, sign_column: { column: SIGN, negative: [D], positive: [C] } }',
      ),
      'cbnot.yaml',
    );
    expect(amountOf(mapped(refusing, { SIGN: 'D' }))).toEqual([expect.stringMatching(/^amount_negative: /)]);
  });

  it('is explained as implied decimals', () => {
    const cells = Object.fromEntries(header.map((column, position) => [column, rowOf({})[position] ?? '']));
    const field = explainRow(cells, usd).fields.find((candidate) => candidate.field === 'case.transaction.amount');
    expect(field?.steps.at(-1)).toEqual({
      step: 'amount',
      detail: 'in transaction.currency, implied 2 decimals',
      result: { ok: true, value: 1235 },
    });
    const one = parseMapping(mappingText('{ currency: USD, implied_decimals: 1 }'), 'cbnot.yaml');
    expect(
      explainRow(cells, one)
        .fields.find((f) => f.field === 'case.transaction.amount')
        ?.steps.at(-1),
    ).toMatchObject({
      detail: 'in USD, implied 1 decimal',
      result: { ok: true, value: 12350 },
    });
  });

  it('reads workbook cells of its columns without a decimal separator, and Julian dates as the transform does', () => {
    const readings = columnReadings(usd);
    expect(readings.get('AMT')).toEqual({ decimalSeparator: undefined });
    expect(readings.get('JULIAN')).toEqual({ dateFormat: 'yyyyooo' });
    expect(readings.get('TXN')).toEqual({ dateFormat: 'yyMMdd' });
  });

  it('maps a workbook’s typed cells: a whole number as its digits, a fraction refused, a date cell as yyyyDDD', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Chargebacks');
    sheet.addRow(header);
    const typed = (amount: number) => rowOf({}).map((cell, position) => (header[position] === 'AMT' ? amount : cell));
    sheet.addRow(
      typed(1235).map((cell, position) => (header[position] === 'JULIAN' ? new Date(Date.UTC(2017, 4, 21)) : cell)),
    );
    sheet.addRow(typed(12.35));
    const file = join(await temporaryFolder('implied-decimals-'), 'chargebacks.xlsx');
    await workbook.xlsx.writeFile(file);
    const results: RowMapping[] = [];
    for await (const row of readWorkbookRows(file, { readings: columnReadings(usd) })) {
      if ('error' in row) throw new Error(`expected a row, got ${JSON.stringify(row.error)}`);
      results.push(
        mapped(usd, Object.fromEntries(header.map((column, position) => [column, row.raw[position] ?? '']))),
      );
    }
    expect(results.map(amountOf)).toEqual([
      1235,
      ['amount_format: amount: expected digits only (2 implied decimals, no decimal separator), got "12.35"'],
    ]);
    expect(results[0]).toMatchObject({ ok: true, row: { shared: { dispute: { date: '2017-05-21T00:00:00.000Z' } } } });
  });
});

describe('the amount section of a mapping file', () => {
  it('needs decimal_separator or implied_decimals, not both, and no grouping with implied decimals', () => {
    expect(issuesOf(mappingText('{ currency: USD }'))).toEqual([
      'case.transaction.amount.amount: expected decimal_separator or implied_decimals, got neither',
    ]);
    expect(issuesOf(mappingText('{ currency: USD, decimal_separator: ".", implied_decimals: 2 }'))).toEqual([
      'case.transaction.amount.amount.implied_decimals: expected decimal_separator or implied_decimals, got both',
    ]);
    expect(issuesOf(mappingText('{ currency: USD, implied_decimals: 2, group_separator: "," }'))).toEqual([
      'case.transaction.amount.amount.group_separator: expected no group_separator with implied_decimals (its digits are never grouped)',
    ]);
    for (const value of ['-1', '16', '1.5', '"2"'])
      expect(issuesOf(mappingText(`{ currency: USD, implied_decimals: ${value} }`)), value).toEqual([
        expect.stringMatching(/^case\.transaction\.amount\.amount\.implied_decimals: /),
      ]);
    expect(issuesOf(mappingText('{ currency: USD, implied_decimals: 0 }'))).toEqual([]);
    expect(issuesOf(mappingText('{ currency: USD, implied_decimals: 15 }'))).toEqual([]);
    expect(issuesOf(mappingText('{ currency: USD, decimal_separator: "," }'))).toEqual([]);
  });

  it('refuses a D token beside a year in a date format, naming ooo', () => {
    const text = mappingText('{ currency: USD, implied_decimals: 2 }').replace('format: yyyyDDD', 'format: yyyyD');
    expect(issuesOf(text)).toEqual([
      'shared.dispute.date.date.format: expected DDD or ooo for a day of the year (or MM and dd for a month and day) ' +
        'beside a year, got "yyyyD" (D, DD and DDDD are a whole localized date in luxon)',
    ]);
  });
});
