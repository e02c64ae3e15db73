import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { CsvEncoding } from '../csv/dialect.js';
import { CsvFormatError } from '../csv/errors.js';
import { detectFileDialect } from './detect-dialect.js';
import { readJournal } from './read-journal.js';
import { NotResultsError, readResults } from './read-results.js';
import { Summariser, type Summary } from './summarise.js';

export type ReportSource = 'results CSV' | 'journal';

/** What the report read: the summary and which kind of file each was, for the heading. */
export interface Report {
  readonly summary: Summary;
  /** One per file, in the order given. */
  readonly sources: readonly ReportSource[];
}

/**
 * Results CSVs or job journals (the import's or migrate-v1's) streamed through one summariser, so
 * that the shards of one job (`--shard i/n`) report as one (issue 13): memory grows with claims,
 * not rows. A journal is told apart by SQLite's magic bytes, so a results CSV of any name (even
 * `*.sqlite`) reads as CSV; a results CSV's dialect is read from its own header.
 */
export async function summariseFiles(files: readonly string[], encoding?: CsvEncoding): Promise<Report> {
  const summariser = new Summariser();
  const sources: ReportSource[] = [];
  for (const file of files) {
    sources.push(
      await addFile(summariser, file, encoding).catch((error: unknown) => {
        throw withFileName(error, file);
      }),
    );
  }
  return { summary: summariser.summary(), sources };
}

/** One file's lines into the summariser; an error names the file it came from. */
async function addFile(summariser: Summariser, file: string, encoding: CsvEncoding | undefined): Promise<ReportSource> {
  if (await isSqlite(file)) {
    for await (const line of readJournal(file)) summariser.add(line);
    return 'journal';
  }
  const dialect = await detectFileDialect(file, encoding);
  for await (const line of readResults(createReadStream(file), dialect)) summariser.add(line);
  return 'results CSV';
}

/** With several files, a file that cannot be read must be named (a journal's errors name it already). */
function withFileName(error: unknown, file: string): unknown {
  if (error instanceof NotResultsError) return new NotResultsError(`${file}: ${error.message}`, { cause: error });
  if (error instanceof CsvFormatError) return new CsvFormatError(error.code, error.line, `${file}: ${error.message.replace(/^line \d+: /, '')}`, { cause: error });
  return error;
}

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');

export async function isSqlite(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(sqliteMagic.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(sqliteMagic);
  } finally {
    await handle.close();
  }
}
