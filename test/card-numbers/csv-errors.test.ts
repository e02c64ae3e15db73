import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { maskedForm } from '../../src/card-numbers/mask.js';
import { csvDialectSchema } from '../../src/csv/dialect.js';
import { CsvFormatError } from '../../src/csv/errors.js';
import { readRows } from '../../src/csv/read-rows.js';

/**
 * A file the CSV reader cannot read fails with a message that may quote the text it stopped at:
 * a card number in that text is quoted masked, in the message and in the error it wraps.
 */

const digits = '4970101000000012';

async function failureOf(text: string): Promise<CsvFormatError> {
  try {
    const rows = readRows(Readable.from([Buffer.from(text)]), csvDialectSchema.parse({}));
    while (!(await rows.next()).done) continue;
  } catch (error) {
    if (error instanceof CsvFormatError) return error;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

describe('CSV errors quote card numbers masked', () => {
  it.each([
    ['old Mac line ends (a lone CR): the header quoted', `card_number,notes\r${digits},x\r`, 'csv_line_endings'],
    ['a quote inside a header name: the parser quotes the name', `card_number,${digits}"x\n1,2\n`, 'csv_parse'],
  ])('%s', async (_, text, code) => {
    const error = await failureOf(text);
    expect(error.code).toBe(code);
    expect(error.message).toContain(maskedForm(digits));
    for (let cause: unknown = error; cause instanceof Error; cause = cause.cause)
      expect(cause.message).not.toContain(digits);
  });
});
