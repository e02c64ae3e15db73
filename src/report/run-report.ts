import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { CsvEncoding } from '../csv/dialect.js';
import { readJournal } from './read-journal.js';
import { readResults } from './read-results.js';
import { Summariser, type Summary } from './summarise.js';

/** What the report read: the summary and which kind of file it was, for the heading. */
export interface Report {
  readonly summary: Summary;
  readonly source: 'results CSV' | 'journal';
}

/**
 * A results CSV or a job journal (the import's or migrate-v1's) streamed through the summariser:
 * memory grows with claims, not rows. A journal is told apart by SQLite's magic bytes, so a
 * results CSV of any name (even `*.sqlite`) reads as CSV.
 */
export async function summariseFile(file: string, encoding: CsvEncoding): Promise<Report> {
  const summariser = new Summariser();
  if (await isSqlite(file)) {
    for await (const line of readJournal(file)) summariser.add(line);
    return { summary: summariser.summary(), source: 'journal' };
  }
  for await (const line of readResults(createReadStream(file), encoding)) summariser.add(line);
  return { summary: summariser.summary(), source: 'results CSV' };
}

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');

async function isSqlite(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(sqliteMagic.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(sqliteMagic);
  } finally {
    await handle.close();
  }
}
