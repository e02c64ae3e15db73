import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { stringify } from 'yaml';
import { ControlTally } from '../../src/csv/control-tally.js';
import type { LinesOutside } from '../../src/csv/report-region.js';
import { checkInputControls, ControlMismatchError } from '../../src/import/check-controls.js';
import { exportRows } from '../../src/import/export-records.js';
import { MappingError, parseMapping } from '../../src/mapping/load.js';
import type { Mapping } from '../../src/mapping/schema.js';

/**
 * Fixed-width record files read by their mapping's layout (docs/mappings.md, "Fixed-width files
 * and control records"): detail records the rows, every one once with its line; header, trailer
 * and ignored records never rows; a trailer's figures checked block by block. Files of our own: a
 * 40-character layout with a batch record the mapping ignores.
 */

/** A record of `length` spaces with values written at their 0-based first positions. */
const record = (length: number, fields: readonly (readonly [number, string])[]) => {
  let text = ' '.repeat(length);
  for (const [first, value] of fields) text = text.slice(0, first) + value + text.slice(first + value.length);
  return text;
};
const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** HDR: file date 3–9 (yyyyDDD); DTL: reference 3–10, amount in cents 11–20, sign 21, date 22–29; BAT: ignored; TRL: count 3–8, total 9–20. */
function batchFile(blocks: readonly { amounts: number[]; count?: number; total?: number }[]): string {
  const lines: string[] = [];
  let serial = 0;
  blocks.forEach((block, number) => {
    lines.push(
      record(40, [
        [0, 'HDR'],
        [3, `2026${pad(100 + number, 3)}`],
        [10, pad(number + 1, 3)],
      ]),
    );
    lines.push(
      record(40, [
        [0, 'BAT'],
        [3, 'BATCH 1'],
      ]),
    );
    for (const cents of block.amounts)
      lines.push(
        record(40, [
          [0, 'DTL'],
          [3, `REF${pad(++serial, 5)}`],
          [11, pad(Math.abs(cents), 10)],
          [21, cents < 0 ? '-' : ' '],
          [22, '20261130'],
        ]),
      );
    // The trailer's total adds the amounts' sizes, as a hash total does; the sign is a field of its own.
    const total = block.amounts.reduce((sum, cents) => sum + Math.abs(cents), 0);
    lines.push(
      record(40, [
        [0, 'TRL'],
        [3, pad(block.count ?? block.amounts.length, 6)],
        [9, pad(block.total ?? total, 12)],
      ]),
    );
  });
  return `${lines.join('\n')}\n`;
}

const layout = {
  record_type: [0, 2],
  records: {
    HDR: { role: 'header', fields: { file_date: [3, 9], batch: [10, 12] }, carry: ['batch', 'file_date'] },
    BAT: { role: 'ignore' },
    DTL: { role: 'detail', fields: { reference: [3, 10], amount: [11, 20], sign: [21, 21], date: [22, 29] } },
    TRL: { role: 'trailer', fields: { count: [3, 8], total: [9, 20] } },
  },
};
const controls = {
  record_count: { field: 'count', counts: 'detail_records' },
  amount_total: { field: 'total', sums: 'amount', implied_decimals: 2 },
};

/** A mapping over these columns with `sections` (a layout, controls); dates as `dateFormat`. */
function mappingOf(sections: Record<string, unknown>, dateFormat = 'yyyyMMdd'): Mapping {
  return parseMapping(
    stringify({
      ...sections,
      claim: { key: ['reference'] },
      shared: {
        'card.last4': { constant: '1234' },
        'card.network': { constant: 'visa' },
        'dispute.reason': { constant: 'fraud' },
      },
      case: {
        'transaction.amount': { column: 'amount', type: 'amount', amount: { currency: 'EUR', decimal_separator: '.' } },
        'transaction.currency': { constant: 'EUR' },
        'transaction.date': { column: 'date', type: 'date', date: { format: dateFormat } },
        'transaction.arn': { column: 'reference' },
      },
    }),
    'fixed.yaml',
  );
}

async function rowsOf(text: string, mapping: Mapping) {
  let header: readonly string[] = [];
  let outside: LinesOutside | undefined;
  const rows = [];
  for await (const row of exportRows(Readable.from([Buffer.from(text)]), mapping, {
    onHeader: (names) => (header = names),
    onLinesOutside: (found) => (outside = found),
  }))
    rows.push(row);
  return { header, rows, outside };
}

async function fileOf(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bulk-disputes-fixed-'));
  onTestFinished(async () => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'batch.txt');
  await writeFile(path, text);
  return path;
}

describe('fixed-width records', () => {
  it('reads each detail record once as a row with its line, the header fields carried, other records counted', async () => {
    const mapping = mappingOf({ fixed_width: layout, controls });
    const { header, rows, outside } = await rowsOf(batchFile([{ amounts: [1235, -50] }, { amounts: [99] }]), mapping);
    // The carried fields in the order `carry` names them, not the header's.
    expect(header).toEqual(['reference', 'amount', 'sign', 'date', 'batch', 'file_date']);
    expect(rows.map((row) => ('cells' in row ? [row.line, row.cells] : row))).toEqual([
      [
        3,
        { reference: 'REF00001', amount: '0000001235', sign: '', date: '20261130', batch: '001', file_date: '2026100' },
      ],
      [
        4,
        {
          reference: 'REF00002',
          amount: '0000000050',
          sign: '-',
          date: '20261130',
          batch: '001',
          file_date: '2026100',
        },
      ],
      [
        8,
        { reference: 'REF00003', amount: '0000000099', sign: '', date: '20261130', batch: '002', file_date: '2026101' },
      ],
    ]);
    expect(outside).toMatchObject({ headerRecords: 2, trailer: 2, otherTypes: { BAT: 2 } });
  });

  it('reads a record shorter than its layout (a trimmed line end) as blank past its end, and CRLF lines alike', async () => {
    const mapping = mappingOf({ fixed_width: layout });
    const lines = batchFile([{ amounts: [1235] }]).split('\n');
    lines[2] = (lines[2] ?? '').slice(0, 11);
    const { rows } = await rowsOf(lines.join('\r\n'), mapping);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ line: 3, cells: { reference: 'REF00001', amount: '', date: '' } });
  });

  it('stops at a record of a type the layout does not list, naming its line and type', async () => {
    const mapping = mappingOf({ fixed_width: layout });
    const text = batchFile([{ amounts: [1, 2] }]).replace('DTLREF00002', 'XYZREF00002');
    await expect(rowsOf(text, mapping)).rejects.toThrow(
      'line 4: record: expected a record of type "HDR", "BAT", "DTL" or "TRL" (fixed_width.records) at positions 0–2, got "XYZ"',
    );
  });

  it('stops at a detail record outside a block', async () => {
    const mapping = mappingOf({ fixed_width: layout });
    const [head = '', ...rest] = batchFile([{ amounts: [1] }]).split('\n');
    await expect(rowsOf([...rest, head].join('\n'), mapping)).rejects.toThrow(
      'record: expected the header record first, got a record of type "BAT" before any header',
    );
  });

  it('checks every block: a count, a total, a block without its trailer', async () => {
    const mapping = mappingOf({ fixed_width: layout, controls });
    expect(
      await checkInputControls({
        input: await fileOf(batchFile([{ amounts: [1235, -50] }, { amounts: [7] }])),
        mapping,
      }),
    ).toEqual([]);

    const wrongCount = await fileOf(batchFile([{ amounts: [1, 2] }, { amounts: [3, 4, 5], count: 5 }]));
    const refused = await checkInputControls({ input: wrongCount, mapping }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ControlMismatchError);
    expect((refused as ControlMismatchError).code).toBe('TRAILER_MISMATCH');
    expect((refused as Error).message).toContain(
      'the trailer on line 11 says 5 detail records, block 2 (lines 6–11) holds 3 between its header and trailer: a file cut short or joined?',
    );
    expect((refused as Error).message).toContain('--accept-trailer-mismatch');

    // Accepted: the mismatches come back, each with its block's lines.
    const accepted = await checkInputControls({ input: wrongCount, mapping, accept: true });
    expect(accepted).toMatchObject([{ code: 'TRAILER_MISMATCH', block: 2, firstLine: 6, lastLine: 11, line: 11 }]);

    const wrongTotal = await fileOf(batchFile([{ amounts: [1235, 100], total: 1235 }]));
    await expect(checkInputControls({ input: wrongTotal, mapping })).rejects.toThrow(
      'the trailer on line 5 says a total of 12.35, the amount amounts of block 1 (lines 1–5) add up to 13.35',
    );

    const [, ...cut] = batchFile([{ amounts: [1, 2] }, { amounts: [3, 4] }])
      .trimEnd()
      .split('\n')
      .reverse();
    const cutShort = await fileOf(`${cut.reverse().join('\n')}\n`);
    const missing = await checkInputControls({ input: cutShort, mapping }).catch((error: unknown) => error);
    expect((missing as ControlMismatchError).code).toBe('TRAILER_MISSING');
    expect((missing as Error).message).toContain(
      'block 2 (lines 6–9) ends on line 9 without its trailer: a file cut short?',
    );
  });

  it('masks a card number where a figure that does not read is quoted', () => {
    const tally = new ControlTally({ record_count: { field: 'count', counts: 'detail_records' } }, true);
    tally.header(1);
    tally.record(2);
    tally.detail(2, undefined);
    tally.trailer(3, { count: '4111 1111 1111 1111' });
    tally.end();
    const [mismatch] = tally.mismatches;
    expect(mismatch?.message).toContain('where its record count is, expected digits');
    expect(mismatch?.message).not.toContain('4111 1111 1111 1111');
    expect(mismatch?.message).toContain('1111');
  });

  it('checks a CSV report whose trailer line states its count', async () => {
    const mapping = mappingOf(
      {
        report: { trailer: { starts_with: 'TOTAL' } },
        controls: { record_count: { matches: '^TOTAL RECORDS,(\\d+)', counts: 'detail_records' } },
      },
      'yyyy-MM-dd',
    );
    const csv = (count: number) =>
      `reference,amount,date\nA,1.00,2026-11-30\nB,2.00,2026-11-30\nTOTAL RECORDS,${count}\n\n`;
    expect(await checkInputControls({ input: await fileOf(csv(2)), mapping })).toEqual([]);
    await expect(checkInputControls({ input: await fileOf(csv(5)), mapping })).rejects.toThrow(
      'the trailer on line 4 says 5 detail records, block 1 (lines 1–4) holds 2 between its header and trailer',
    );
    // Cut before its trailer: the count is not there to agree.
    await expect(
      checkInputControls({ input: await fileOf('reference,amount,date\nA,1.00,2026-11-30\n'), mapping }),
    ).rejects.toThrow('without its trailer: a file cut short?');
  });

  it('refuses controls the file cannot state, naming the setting', () => {
    const trailerLine = (matches: string) =>
      mappingOf({
        report: { trailer: { starts_with: 'TOTAL' } },
        controls: { record_count: { matches, counts: 'detail_records' } },
      });
    expect(() => trailerLine('(\\d+')).toThrow('which does not compile');
    expect(() => trailerLine('\\d+')).toThrow('expected a regular expression with one capturing group, got "\\\\d+"');
    expect(() =>
      mappingOf({ fixed_width: layout, controls: { record_count: { field: 'nope', counts: 'all_records' } } }),
    ).toThrow(MappingError);
    expect(() =>
      mappingOf({ fixed_width: layout, controls: { record_count: { field: 'nope', counts: 'all_records' } } }),
    ).toThrow('expected a field of the trailer record "TRL", got "nope"');
    expect(() =>
      mappingOf({
        report: { trailer: { lines: 1 } },
        controls: { record_count: { matches: '(\\d+)', counts: 'all_records' } },
      }),
    ).toThrow('expected report.trailer found by starts_with or matches (its lines known as they are read), got lines');
    expect(() => mappingOf({ controls: { record_count: { matches: '(\\d+)', counts: 'all_records' } } })).toThrow(
      'expected report.trailer (the lines the figures are read from), got none',
    );
  });
});
