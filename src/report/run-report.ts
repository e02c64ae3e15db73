import { createReadStream } from 'node:fs';
import type { CsvEncoding } from '../csv/dialect.js';
import { CsvFormatError } from '../csv/errors.js';
import { isSqlite, isZip } from '../files/file-kind.js';
import { NotResultsError } from '../files/not-results-error.js';
import { detectFileDialect } from '../job-files/read/results-dialect.js';
import { readJournal } from '../job-files/read/read-journal.js';
import { readResults } from '../job-files/read/read-results.js';
import { readResultsWorkbook } from '../job-files/read/read-results-workbook.js';
import { Summariser, type Summary } from '../job-files/summarise.js';
import type { Thinned } from '../journal/retention-meta.js';

export type ReportSource = 'results CSV' | 'results workbook' | 'journal';

/** What the report read: the summary and which kind of file each was, for the heading. */
export interface Report {
  readonly summary: Summary;
  /** One per file, in the order given. */
  readonly sources: readonly ReportSource[];
  /** One per file: the service a journal belongs to; undefined for a results CSV, which does not record it. */
  readonly services: readonly (string | undefined)[];
  /** One per file: when prune thinned an import journal (what needs its cells refuses it); undefined otherwise. */
  readonly thinned: readonly (Thinned | undefined)[];
}

/**
 * Results files or job journals (the import's, migrate-v1's or withdraw's) streamed through one
 * summariser, so that the shards of one job (`--shard i/n`) report as one: memory grows with
 * claims, not rows. A journal is told apart by SQLite's magic bytes and a workbook by a zip's
 * (withdraw's results may be one), so a results CSV of any name (even `*.sqlite`) reads as CSV; a
 * results CSV's dialect is read from its own header.
 */
export async function summariseFiles(files: readonly string[], encoding?: CsvEncoding): Promise<Report> {
  const summariser = new Summariser();
  const sources: ReportSource[] = [];
  const services: (string | undefined)[] = [];
  const thinned: (Thinned | undefined)[] = [];
  for (const file of files) {
    const read = await addFile(summariser, file, encoding).catch((error: unknown) => {
      throw withFileName(error, file);
    });
    sources.push(read.source);
    services.push(read.service);
    thinned.push(read.thinned);
  }
  return { summary: summariser.summary(), sources, services, thinned };
}

/** One file's lines into the summariser; an error names the file it came from. */
async function addFile(
  summariser: Summariser,
  file: string,
  encoding: CsvEncoding | undefined,
): Promise<{ source: ReportSource; service?: string; thinned?: Thinned }> {
  if (await isSqlite(file)) {
    let service: string | undefined;
    let thinned: Thinned | undefined;
    const lines = readJournal(
      file,
      (found) => (service = found),
      (found) => (thinned = found),
    );
    for await (const line of lines) summariser.add(line);
    return { source: 'journal', service, ...(thinned === undefined ? {} : { thinned }) };
  }
  if (await isZip(file)) {
    for await (const line of readResultsWorkbook(file)) summariser.add(line);
    return { source: 'results workbook' };
  }
  const dialect = await detectFileDialect(file, encoding);
  for await (const line of readResults(createReadStream(file), dialect)) summariser.add(line);
  return { source: 'results CSV' };
}

/**
 * The report's `service:` line: which service the journals belong to, each named when they differ
 * (shards of one job never should). Undefined when only results CSVs were read.
 */
export function describeServices(
  files: readonly string[],
  services: readonly (string | undefined)[],
): string | undefined {
  const named = files.flatMap((file, position) =>
    services[position] === undefined ? [] : [{ file, service: services[position] }],
  );
  const distinct = new Set(named.map((entry) => entry.service));
  const [only] = distinct;
  if (only === undefined) return undefined;
  if (distinct.size === 1) return `service: ${only}`;
  return `services (these journals belong to different services): ${named.map((entry) => `${entry.file}: ${entry.service}`).join('; ')}`;
}

/** With several files, a file that cannot be read must be named (a journal's errors name it already). */
function withFileName(error: unknown, file: string): unknown {
  if (error instanceof NotResultsError) return new NotResultsError(`${file}: ${error.message}`, { cause: error });
  if (error instanceof CsvFormatError)
    return new CsvFormatError(error.code, error.line, `${file}: ${error.message.replace(/^line \d+: /, '')}`, {
      cause: error,
    });
  return error;
}
