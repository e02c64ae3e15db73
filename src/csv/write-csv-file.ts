import { once } from 'node:events';
import { rename, rm } from 'node:fs/promises';
import { createTemporaryStream, temporaryBeside } from '../files/own-file.js';
import { stringify } from 'csv-stringify/sync';
import type { Options } from 'csv-stringify';
import { csvWriteOptions } from './write-options.js';
import { neutralise } from './neutralise.js';

/**
 * A results CSV that has no input to follow (migrate-v1's, withdraw's): the header, then each
 * line's cells neutralised against formulas, written to a temporary file (0600: results name
 * cardholders' cases) with backpressure and renamed, so a reader never sees half a file.
 * `dialect`: a delimiter and quote other than the default comma and double quote.
 */
export async function writeCsvFile(
  file: string,
  header: readonly string[],
  lines: Iterable<{ cells: readonly string[] }>,
  dialect: { delimiter?: string | undefined; quote?: string | undefined } = {},
): Promise<void> {
  const options: Options = {
    ...csvWriteOptions,
    delimiter: dialect.delimiter ?? ',',
    quote: dialect.quote ?? '"',
    escape: dialect.quote ?? '"',
  };
  const temporary = temporaryBeside(file);
  const out = createTemporaryStream(temporary);
  const failedWrite = once(out, 'error');
  failedWrite.catch(() => undefined);
  const write = async (cells: readonly string[]) => {
    if (!out.write(stringify([cells.map(neutralise)], options))) await Promise.race([once(out, 'drain'), failedWrite]);
  };
  try {
    await write(header);
    for (const { cells } of lines) await write(cells);
    out.end();
    await Promise.race([once(out, 'finish'), failedWrite]);
    await rename(temporary, file);
  } catch (error) {
    out.destroy();
    await rm(temporary, { force: true });
    throw error;
  }
}
