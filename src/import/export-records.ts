import { Readable } from 'node:stream';
import { ControlTally } from '../csv/control-tally.js';
import { readFixedWidthBatches } from '../csv/fixed-width/read-records.js';
import { recordOfRole } from '../csv/fixed-width/columns.js';
import { readRecordBatches, type ReadRowsOptions } from '../csv/read-rows.js';
import { toRow, type CsvRecord, type CsvRow } from '../csv/records.js';
import { statusColumns } from '../job-files/import/columns.js';
import type { Mapping } from '../mapping/schema.js';
import { exportLayout } from './export-layout.js';

/**
 * An export's records as its mapping reads them: a CSV in its dialect (a report by its `report`
 * layout), or a fixed-width file by its `fixed_width` layout (docs/mappings.md, "Fixed-width files
 * and control records"). One of our results files fed back is a CSV whatever the mapping reads:
 * it starts with its status columns.
 */
export type ExportHooks = Pick<ReadRowsOptions, 'onHeader' | 'onLayout' | 'onLinesOutside' | 'renameHeader'> & {
  /** Told the records as they are read, to check the control figures block by block. */
  tally?: ControlTally | undefined;
  /** A fixed-width file's records told to `tally` only, no rows built (the control pre-pass). */
  tallyOnly?: boolean | undefined;
};

export function exportRecordBatches(
  input: Readable,
  mapping: Mapping,
  hooks: ExportHooks = {},
): AsyncIterable<CsvRecord[]> {
  const { tally, tallyOnly: _tallyOnly, ...csvHooks } = hooks;
  const controls =
    tally === undefined || mapping.controls === undefined ? undefined : { controls: mapping.controls, tally };
  const layout = mapping.fixed_width;
  if (layout === undefined)
    return readRecordBatches(input, mapping.csv, { ...csvHooks, ...exportLayout(mapping), controls });
  return fixedWidthOrResults(input, mapping, layout, hooks);
}

/** The same records keyed by column, for a caller that reads a few rows by name (`mapping check`, `mapping explain`). */
export async function* exportRows(input: Readable, mapping: Mapping, hooks: ExportHooks = {}): AsyncGenerator<CsvRow> {
  let header: readonly string[] = [];
  const batches = exportRecordBatches(input, mapping, {
    ...hooks,
    onHeader: (names) => {
      header = names;
      hooks.onHeader?.(names);
    },
  });
  for await (const batch of batches)
    for (const record of batch)
      yield record.error === undefined
        ? toRow(header, record.raw ?? [], record.line, record.index)
        : {
            line: record.line,
            index: record.index,
            error: record.error,
            ...(record.raw === undefined ? {} : { raw: record.raw }),
          };
}

/** A tally for the mapping's control figures, when the import must check them before staging. */
export function controlTallyFor(mapping: Mapping): ControlTally | undefined {
  const layout = mapping.fixed_width;
  if (layout === undefined && mapping.controls === undefined) return undefined;
  const trailerExpected = layout === undefined || recordOfRole(layout, 'trailer') !== undefined;
  return new ControlTally(mapping.controls, trailerExpected);
}

async function* fixedWidthOrResults(
  input: Readable,
  mapping: Mapping,
  layout: NonNullable<Mapping['fixed_width']>,
  hooks: ExportHooks,
): AsyncGenerator<CsvRecord[]> {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await chunks.next();
  const head = first.done === true ? Buffer.alloc(0) : first.value;
  const rest = async function* () {
    if (first.done !== true) yield head;
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) yield next.value;
  };
  const stream = Readable.from(rest(), { objectMode: false });
  try {
    if (startsAsResults(head, mapping)) {
      const { tally: _tally, tallyOnly: _tallyOnly, ...csvHooks } = hooks;
      yield* readRecordBatches(stream, mapping.csv, csvHooks);
      return;
    }
    yield* readFixedWidthBatches(stream, layout, {
      onHeader: hooks.onHeader,
      onLayout: hooks.onLayout,
      onLinesOutside: hooks.onLinesOutside,
      controls: mapping.controls,
      tally: hooks.tally,
      tallyOnly: hooks.tallyOnly,
    });
  } finally {
    stream.destroy();
    input.destroy();
  }
}

/** Our results file starts with its first status columns, in the dialect the mapping's `csv` writes it. */
function startsAsResults(head: Buffer, mapping: Mapping): boolean {
  const text = new TextDecoder(mapping.csv.encoding).decode(head.subarray(0, 256)).replace(/^\uFEFF/, '');
  return text.startsWith(statusColumns.slice(0, 2).join(mapping.csv.delimiter));
}
