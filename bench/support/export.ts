import {
  oneToThreeRows,
  plannedRows,
  writeDisputesCsv,
  type ExtraColumn,
  type WrittenCsv,
} from '../../test/import/generate.js';

/**
 * Generated issuer exports for the benchmarks: the same generator and the same shape as the
 * import's memory test (claims of 1 to 3 rows, interleaved in blocks of 50 claims, so the rows of
 * one claim are not adjacent), for mappings/generic.yaml. Every row maps and every claim files.
 */

/** Writes a `rows`-row export to `file` as a stream (flat memory for a million rows). */
export async function writeGenericExport(file: string, rows: number, extra?: ExtraColumn): Promise<WrittenCsv> {
  const written = await writeDisputesCsv(
    file,
    plannedRows({ rows, sizeOf: oneToThreeRows, block: 50 }),
    Date.now(),
    extra,
  );
  if (written.rows !== rows) throw new Error(`generated export ${file}: expected ${rows} rows, got ${written.rows}`);
  return written;
}

/** "200,000": sizes as the table shows them. */
export const count = (value: number): string => value.toLocaleString('en-US');
