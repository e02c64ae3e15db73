import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { CsvEncoding } from '../../src/csv/dialect.js';
import { encodeText } from '../../src/csv/encode.js';
import type { FaultInjector } from '../../src/sandbox/faults/fault-injector.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { editedMapping, genericColumns, type GenericRow, type Workspace } from './e2e-fixtures.js';

/**
 * Issuer exports in the dialects spreadsheets and core systems write, for tests that import them
 * and read back what the import wrote: the bytes made here by hand (csv-stringify, then the
 * encoding and its byte order mark), never by the code under test's writer.
 */

export interface ExportDialect {
  readonly name: string;
  readonly delimiter: string;
  readonly lineEnding: '\r\n' | '\n';
  readonly encoding: CsvEncoding;
  readonly byteOrderMark: boolean;
}

/** A German issuer's export as Excel saves it ("CSV UTF-8"): `;`, CRLF, UTF-8 with BOM. */
export const germanUtf8: ExportDialect = {
  name: '";" + CRLF + UTF-8 with BOM',
  delimiter: ';',
  lineEnding: '\r\n',
  encoding: 'utf-8',
  byteOrderMark: true,
};
/** Excel's "Unicode Text": tab-delimited UTF-16LE with BOM, CRLF. */
export const tabUtf16: ExportDialect = {
  name: 'tab + CRLF + UTF-16LE with BOM',
  delimiter: '\t',
  lineEnding: '\r\n',
  encoding: 'utf-16le',
  byteOrderMark: true,
};
/** Excel's plain "CSV" in a `;` locale on Windows: windows-1252, no BOM. */
export const germanWindows1252: ExportDialect = {
  name: '";" + CRLF + windows-1252',
  delimiter: ';',
  lineEnding: '\r\n',
  encoding: 'windows-1252',
  byteOrderMark: false,
};
/** A tab-delimited UTF-8 export from a core system: LF, no BOM. */
export const tabUtf8: ExportDialect = {
  name: 'tab + LF + UTF-8',
  delimiter: '\t',
  lineEnding: '\n',
  encoding: 'utf-8',
  byteOrderMark: false,
};

const byteOrderMarks: Partial<Record<CsvEncoding, Buffer>> = {
  'utf-8': Buffer.from([0xef, 0xbb, 0xbf]),
  'utf-16le': Buffer.from([0xff, 0xfe]),
};

/** Text as a file in the dialect's encoding, with its byte order mark when it has one. */
export function bytesIn(dialect: ExportDialect, text: string): Buffer {
  const mark = dialect.byteOrderMark ? (byteOrderMarks[dialect.encoding] ?? Buffer.alloc(0)) : Buffer.alloc(0);
  return Buffer.concat([mark, encodeText(text, dialect.encoding)]);
}

/** A file's text in the dialect's encoding, its byte order mark removed. */
export function textIn(dialect: ExportDialect, bytes: Uint8Array): string {
  // Streaming keeps Node off its one-shot latin1 path, which reads 0x80 as U+0080, not € (src/csv/decode.ts).
  const decoder = new TextDecoder(dialect.encoding, { fatal: true });
  return decoder.decode(bytes, { stream: true }) + decoder.decode();
}

/** Rows of the generic layout as an export in `dialect` (any line break in a cell quoted). */
export function exportIn(dialect: ExportDialect, rows: readonly GenericRow[]): Buffer {
  const text = stringify(
    rows.map((row) => genericColumns.map((column) => row[column] ?? '')),
    {
      header: true,
      columns: [...genericColumns],
      delimiter: dialect.delimiter,
      record_delimiter: dialect.lineEnding,
      quoted_match: /[\r\n]/,
    },
  );
  return bytesIn(dialect, text);
}

/**
 * A results CSV read in `dialect`: its header and rows keyed by column. Records must end in the
 * dialect's own line ending (a file in another would not split into rows of the header's width).
 */
export async function readResultsIn(
  dialect: ExportDialect,
  file: string,
): Promise<{ bytes: Buffer; text: string; header: string[]; rows: Record<string, string>[] }> {
  const bytes = await readFile(file);
  const text = textIn(dialect, bytes);
  const records: string[][] = parse(text, { delimiter: dialect.delimiter, record_delimiter: dialect.lineEnding });
  const [header = [], ...data] = records;
  const rows = data.map((record) =>
    Object.fromEntries(header.map((column, position) => [column, record[position] ?? ''])),
  );
  return { bytes, text, header, rows };
}

/** mappings/generic.yaml for an export in `dialect` with decimal commas (`849,99`). */
export async function mappingFor(workspace: Workspace, dialect: ExportDialect): Promise<string> {
  return editedMapping(workspace, (mapping) => {
    const { csv, case: caseFields } = mapping as {
      csv: Record<string, unknown>;
      case: Record<string, { amount?: Record<string, unknown> }>;
    };
    csv.delimiter = dialect.delimiter;
    csv.encoding = dialect.encoding;
    for (const field of ['dispute.amount', 'transaction.amount']) {
      const amount = caseFields[field]?.amount;
      if (amount !== undefined) amount.decimal_separator = ',';
    }
  });
}

/** A test sandbox that counts the creates (`POST /v2/issuer/new_claim`) it receives, at its own door. */
export async function countingSandbox(): Promise<TestSandbox & { creates: { count: number } }> {
  const creates = { count: 0 };
  const faults: FaultInjector = {
    decide: (route) => {
      if (route.method === 'POST' && route.pattern === '/v2/issuer/new_claim') creates.count++;
      return { latencyMs: 0, action: 'none' };
    },
  };
  return { ...(await startTestSandbox({ faults })), creates };
}
