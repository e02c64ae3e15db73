import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ControlTally } from '../../src/csv/control-tally.js';
import { controlsSchema, type Controls } from '../../src/csv/controls.js';
import { readFixedWidthBatches } from '../../src/csv/fixed-width/read-records.js';
import { fixedWidthLayoutSchema, type FixedWidthLayout } from '../../src/csv/fixed-width/layout.js';

/**
 * The control pre-pass reads a fixed-width file with `tallyOnly` (no rows built, only the summed
 * field cut): what the tally finds, and the errors, must be those of the full read that stages it.
 */

const layout: FixedWidthLayout = fixedWidthLayoutSchema.parse({
  record_type: [0, 0],
  blank_columns: ['arn'],
  records: {
    H: { role: 'header', fields: { batch: [1, 4], file_date: [5, 12] }, carry: ['file_date', 'batch'] },
    D: { role: 'detail', fields: { case_number: [1, 6], amount: [7, 16] } },
    N: { role: 'ignore' },
    T: { role: 'trailer', fields: { record_count: [1, 4], amount_total: [5, 16] } },
  },
});

function controlsWith(sums: string): Controls {
  return controlsSchema.parse({
    record_count: { field: 'record_count', counts: 'all_records' },
    amount_total: { field: 'amount_total', sums, implied_decimals: 2 },
  });
}

const detail = (caseNumber: string, cents: number) => `D${caseNumber.padEnd(6)}${String(cents).padStart(10, '0')}`;

/** Two blocks: the first right, the second's trailer one record and one cent off; a note record, a blank line. */
const file = [
  'H000120260301',
  detail('C1', 1250),
  'Nfree text',
  detail('C2', 8995),
  'T0005000000010245',
  '',
  'H000220260302',
  detail('C3', 100),
  detail('C4', 200),
  'T0005000000000301',
].join('\r\n');

interface Read {
  rows: number;
  mismatches: ControlTally['mismatches'];
  mismatchCount: number;
  error: unknown;
}

async function read(text: string, controls: Controls, tallyOnly: boolean): Promise<Read> {
  const tally = new ControlTally(controls, true);
  let rows = 0;
  let error: unknown;
  // Cut into small chunks, so records straddle them.
  const bytes = Buffer.from(text);
  const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, at) => bytes.subarray(at * 7, at * 7 + 7));
  try {
    for await (const batch of readFixedWidthBatches(Readable.from(chunks), layout, { controls, tally, tallyOnly }))
      rows += batch.length;
  } catch (caught) {
    error = caught;
  }
  return { rows, mismatches: tally.mismatches, mismatchCount: tally.mismatchCount, error };
}

describe('the fixed-width control pre-pass (tallyOnly)', () => {
  it('finds what the full read finds, and yields no rows', async () => {
    const controls = controlsWith('amount');
    const full = await read(file, controls, false);
    const tallied = await read(file, controls, true);
    expect(full.rows).toBe(4);
    expect(full.error).toBeUndefined();
    expect(full.mismatchCount).toBe(2);
    expect(full.mismatches.map((each) => [each.code, each.line, each.firstLine, each.lastLine])).toEqual([
      ['TRAILER_MISMATCH', 10, 7, 10],
      ['TRAILER_MISMATCH', 10, 7, 10],
    ]);
    expect(tallied.rows).toBe(0);
    expect(tallied.error).toBeUndefined();
    expect(tallied.mismatches).toEqual(full.mismatches);
  });

  it('sums a carried header field or a blank column as the full read does', async () => {
    for (const sums of ['batch', 'file_date', 'arn']) {
      const controls = controlsWith(sums);
      const full = await read(file, controls, false);
      const tallied = await read(file, controls, true);
      expect(full.mismatchCount, sums).toBeGreaterThan(0);
      expect(tallied.mismatches, sums).toEqual(full.mismatches);
      expect(tallied.mismatchCount, sums).toBe(full.mismatchCount);
    }
  });

  it('stops on the same line with the same error', async () => {
    const broken = [file.replace('Nfree text', 'Xunknown'), file.replace('H000220260302\r\n', '')];
    for (const text of broken) {
      const full = await read(text, controlsWith('amount'), false);
      const tallied = await read(text, controlsWith('amount'), true);
      expect(full.error).toBeInstanceOf(Error);
      expect(tallied.error).toEqual(full.error);
      expect((tallied.error as Error).message).toBe((full.error as Error).message);
    }
  });
});
