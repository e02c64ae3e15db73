import { z } from 'zod';

/**
 * Where the table sits in a report (docs/mappings.md, "Reports with title lines, trailers and
 * sections"): banks' reports open with title lines before the header, close with a trailer, leave
 * blank lines, repeat the header on every page, or hold records of several types. A mapping's
 * `report` section says how to find the header and where the data ends; every line outside is
 * counted by why, and none becomes a row.
 */

/** A pattern from a mapping file: compiled here, so that a bad one stops with the schema's message. */
export const regexSource = z
  .string()
  .min(1)
  .refine(
    (source) => {
      try {
        new RegExp(source, 'u');
        return true;
      } catch {
        return false;
      }
    },
    { error: (issue) => `expected a regular expression, got ${JSON.stringify(issue.input)}, which does not compile` },
  );

/** A line matched by its text with quotes removed, its cells joined by the delimiter. */
const linePattern = {
  starts_with: z.string().min(1).optional().describe('the line starts with this text (its cells without their quotes)'),
  matches: regexSource.optional().describe('or the line matches this regular expression (same text)'),
};

export const reportLayoutSchema = z.strictObject({
  header: z
    .strictObject({
      line: z.number().int().min(1).optional().describe('the header is the record that starts on this line (1-based)'),
      ...linePattern,
    })
    .refine(
      (header) => [header.line, header.starts_with, header.matches].filter((set) => set !== undefined).length === 1,
      { message: 'expected exactly one of line, starts_with and matches' },
    )
    .optional()
    .describe('where the header is; the lines before it are title lines (default: the first line)'),
  trailer: z
    .strictObject({
      // The reader holds this many rows back until the input ends: a trailer's few lines, never a file's worth.
      lines: z
        .number()
        .int()
        .min(1)
        .max(1000)
        .optional()
        .describe('the last this many non-blank lines are the trailer (1 to 1000)'),
      ...linePattern,
    })
    .refine(
      (trailer) =>
        [trailer.lines, trailer.starts_with, trailer.matches].filter((set) => set !== undefined).length === 1,
      { message: 'expected exactly one of lines, starts_with and matches' },
    )
    .optional()
    .describe(
      'where the data ends: the first line after the header that matches (it and every line after it are the ' +
        'trailer, unless a line matching the header starts another block), or the last lines',
    ),
  record_type: z
    .strictObject({
      column: z.string().min(1).describe("the header's column holding each record's type"),
      keep: z
        .array(z.string())
        .min(1)
        .describe('the types of the records to read; records of any other type are outside'),
    })
    .optional()
    .describe('a report whose records are of several types (detail, summary, …): only these types are rows'),
});

export type ReportLayout = z.output<typeof reportLayoutSchema>;
