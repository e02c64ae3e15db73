import type { DialectGuess } from '../../../src/csv/sniff-dialect.js';
import { guessMapping, type Draft } from '../../../src/mapping/guess/guess-mapping.js';
import type { Sample } from '../../../src/mapping/guess/types.js';

/** The guess tests' samples and drafts: an export's rows as guess reads them, without a file. */

/** A sample of `columns`, each row's cells in the same order. */
export function sampleOf(columns: string[], rows: string[][]): Sample {
  return {
    columns,
    rows: rows.map((cells) => Object.fromEntries(columns.map((column, position) => [column, cells[position] ?? '']))),
  };
}

/** A comma-separated export with a header line, as sniffed for sure. */
export const testDialect: DialectGuess = {
  delimiter: ',',
  quote: '"',
  lineEnding: 'LF',
  header: true,
  confidence: 'high',
  evidence: 'test',
};

export interface GuessSampleOptions {
  readonly dialect?: Partial<DialectGuess>;
  /** The export's name in the draft's comments (default `sample.csv`). */
  readonly source?: string;
  readonly firstLine?: number;
}

/** The draft guess writes for a sample read as UTF-8 in `testDialect` (with `options.dialect` over it). */
export function guessSample(sample: Sample, options: GuessSampleOptions = {}): Draft {
  return guessMapping({
    sample,
    encoding: { encoding: 'utf-8', confidence: 'high', evidence: 'test' },
    dialect: { ...testDialect, ...options.dialect },
    source: options.source ?? 'sample.csv',
    unreadableRows: 0,
    schemaPath: 'mappings/mapping.schema.json',
    ...(options.firstLine === undefined ? {} : { firstLine: options.firstLine }),
  });
}
