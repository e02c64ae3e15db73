import { z } from 'zod';

/** Encodings an issuer export may arrive in (docs/mappings.md). */
export const csvEncodings = ['utf-8', 'utf-16le', 'windows-1252', 'latin1'] as const;
export type CsvEncoding = (typeof csvEncodings)[number];

// A delimiter or quote that is a line break would make record boundaries ambiguous.
const singleCharacter = z
  .string()
  .length(1, 'expected exactly one character')
  .refine((value) => value !== '\n' && value !== '\r', 'expected a character other than a line break');

export const csvDialectSchema = z
  .strictObject({
    delimiter: singleCharacter.default(',').describe('Field separator, one character.'),
    quote: singleCharacter.default('"').describe('Quote character, one character; doubled inside a quoted field.'),
    encoding: z
      .enum(csvEncodings)
      .default('utf-8')
      .describe(
        'Byte encoding of the file. A byte order mark of this encoding is always stripped. ' +
          '`latin1` is ISO-8859-1 (bytes 0x80-0x9F are C1 controls); exports from Excel on Windows are usually `windows-1252` (0x80 is €).',
      ),
    header: z
      .boolean()
      .default(true)
      .describe('Whether the first record names the columns. Without it, columns are keyed "1", "2", ….'),
    trim: z.boolean().default(false).describe('Trim white space around every cell and header name.'),
  })
  .refine((dialect) => dialect.delimiter !== dialect.quote, {
    message: 'expected a quote different from the delimiter',
    path: ['quote'],
  });

/** A validated dialect, defaults applied. */
export type CsvDialect = z.output<typeof csvDialectSchema>;
/** A dialect as written in a mapping file. */
export type CsvDialectInput = z.input<typeof csvDialectSchema>;
