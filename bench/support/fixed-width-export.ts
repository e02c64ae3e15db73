import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { parse, stringify } from 'yaml';
import {
  genericColumns,
  oneToThreeRows,
  plannedRows,
  rowCells,
  writeDisputesCsv,
  type RowSpec,
} from '../../test/import/generate.js';
import { genericMappingFile } from './paths.js';

/**
 * The same generated rows twice (bench/support/export.ts's generator, mappings/generic.yaml's
 * columns): as a CSV, and as a fixed-width file of header, detail and trailer records in blocks,
 * each trailer stating its block's record count (docs/mappings.md, "Fixed-width files and control
 * records"). The mapping for each reads the same columns into the same claims.
 */

/** Each column's width in a detail record: room for what the generator writes, padded as a bank's file is. */
const widths: Record<(typeof genericColumns)[number], number> = {
  dispute_ref: 12,
  transaction_ref: 6,
  reason_code: 4,
  dispute_date: 10,
  cardholder_name: 40,
  cardholder_email: 60,
  card_last4: 4,
  card_network: 12,
  card_type: 8,
  card_expiry: 7,
  card_active: 3,
  fraud_reported: 3,
  merchant_name: 40,
  mcc: 4,
  transaction_date: 10,
  transaction_amount: 15,
  disputed_amount: 15,
  currency: 3,
  arn: 23,
  cardholder_statement: 120,
  receipt_file: 40,
  correspondence_files: 60,
};

/** Detail records per block, each block between its own header and trailer. */
export const recordsPerBlock = 10_000;

/** Position 0 holds the record type; the fields follow it, each [first, last] inclusive. */
function detailFields(): Record<string, [number, number]> {
  const fields: Record<string, [number, number]> = {};
  let at = 1;
  for (const column of genericColumns) {
    fields[column] = [at, at + widths[column] - 1];
    at += widths[column];
  }
  return fields;
}

/** A detail record's length: the type, then every field. */
export const recordWidth = 1 + genericColumns.reduce((sum, column) => sum + widths[column], 0);

const countField: [number, number] = [1, 9];

function detailRecord(cells: readonly string[]): string {
  let record = 'D';
  for (const [position, column] of genericColumns.entries()) {
    const value = cells[position] ?? '';
    const width = widths[column];
    if (value.length > width)
      throw new Error(
        `fixed-width export: expected ${column} within ${width} characters, got ${JSON.stringify(value)}`,
      );
    record += value.padEnd(width);
  }
  return record;
}

const headerRecord = (block: number): string => `H${String(block).padStart(6, '0')}BENCH`.padEnd(recordWidth);
const trailerRecord = (records: number): string => `T${String(records).padStart(9, '0')}`.padEnd(recordWidth);

export interface WrittenExports {
  rows: number;
  csvBytes: number;
  fixedWidthBytes: number;
  blocks: number;
}

/** Writes `rows` rows as `csvFile` and as `fixedWidthFile`, the same cells in both. */
export async function writeBothExports(csvFile: string, fixedWidthFile: string, rows: number): Promise<WrittenExports> {
  const nowMs = Date.now();
  const specs = (): Iterable<RowSpec> => plannedRows({ rows, sizeOf: oneToThreeRows, block: 50 });
  const csv = await writeDisputesCsv(csvFile, specs(), nowMs);
  const output = createWriteStream(fixedWidthFile, { highWaterMark: 1 << 20 });
  let chunk = '';
  let bytes = 0;
  let written = 0;
  let blocks = 0;
  let inBlock = 0;
  const flush = async () => {
    bytes += Buffer.byteLength(chunk);
    const ok = output.write(chunk);
    chunk = '';
    if (!ok) await once(output, 'drain');
  };
  // The trailer counts every record of its block, its header and trailer included (as CBNOT's does).
  const closeBlock = () => {
    chunk += `${trailerRecord(inBlock + 2)}\n`;
    inBlock = 0;
  };
  for (const spec of specs()) {
    if (inBlock === 0) chunk += `${headerRecord(++blocks)}\n`;
    chunk += `${detailRecord(rowCells(spec, nowMs))}\n`;
    written++;
    if (++inBlock === recordsPerBlock) closeBlock();
    if (chunk.length >= 256 * 1024) await flush();
  }
  if (inBlock > 0) closeBlock();
  await flush();
  output.end();
  await finished(output);
  if (csv.rows !== rows || written !== rows)
    throw new Error(`generated exports: expected ${rows} rows, got ${csv.rows} (CSV) and ${written} (fixed-width)`);
  return { rows, csvBytes: csv.bytes, fixedWidthBytes: bytes, blocks };
}

/** mappings/generic.yaml reading the fixed-width file: its fields named as the CSV's columns, every trailer's count checked. */
export async function writeFixedWidthMapping(file: string): Promise<void> {
  const mapping = parse(await readFile(genericMappingFile, 'utf8')) as Record<string, unknown>;
  mapping.fixed_width = {
    encoding: 'utf-8',
    positions_from: 0,
    record_type: [0, 0],
    records: {
      H: { role: 'header', fields: { block_number: [1, 6] } },
      D: { role: 'detail', fields: detailFields() },
      T: { role: 'trailer', fields: { record_count: countField } },
    },
  };
  mapping.controls = { record_count: { field: 'record_count', counts: 'all_records' } };
  await writeFile(file, stringify(mapping));
}
