import type { Readable } from 'node:stream';
import type { CsvEncoding } from '../csv/dialect.js';
import { readResults } from './read-results.js';
import { Summariser, type Summary } from './summarise.js';

/** A results CSV streamed through the summariser: memory grows with claims, not rows. */
export async function summariseResults(input: Readable, encoding: CsvEncoding): Promise<Summary> {
  const summariser = new Summariser();
  for await (const line of readResults(input, encoding)) summariser.add(line);
  return summariser.summary();
}
