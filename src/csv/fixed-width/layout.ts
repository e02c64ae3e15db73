import { z } from 'zod';
import { csvEncodings } from '../dialect.js';

/**
 * A fixed-width record file's layout (docs/mappings.md, "Fixed-width files and control records"):
 * card networks' and processors' batch files (American Express's CBNOT, NACHA's ACH) and core
 * systems' exports write a header record, detail records and a trailer record, each type with its
 * fields at fixed positions. The layout is data, one entry per record type, as the published
 * layouts are; the detail records' fields become the rows' named columns.
 *
 * Positions: `[first, last]`, both inclusive, counted from `positions_from` (0 by default: the
 * record's first character is position 0, as pyxmex and paxmex list CBNOT; 1 for a layout
 * published counting from 1, as NACHA's and most banks' are).
 */

/** Field and record names become column names: plain words, so that a template's `{name}` reads them. */
export const fieldNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

const positions = z
  .tuple([z.number().int().nonnegative(), z.number().int().nonnegative()], {
    error: (issue) => `expected [first, last], two positions, got ${JSON.stringify(issue.input)}`,
  })
  .refine(([first, last]) => first <= last, {
    error: (issue) => `expected first <= last, got ${JSON.stringify(issue.input)}`,
  })
  .describe('[first, last]: the positions of the first and last character, both inclusive');

const fieldName = z.string().regex(fieldNamePattern, {
  error: (issue) => `expected a name of letters, digits and "_", got ${JSON.stringify(issue.input)}`,
});

export const recordRoles = ['header', 'detail', 'trailer', 'ignore'] as const;
export type RecordRole = (typeof recordRoles)[number];

const recordLayout = z.strictObject({
  role: z
    .enum(recordRoles)
    .describe(
      'header: opens a block; detail: a row, its fields the columns; trailer: closes the block, holds its ' +
        'control figures; ignore: read and counted, never a row (a batch header, an addenda record)',
    ),
  fields: z.record(fieldName, positions).default({}).describe('field name → [first, last]'),
  carry: z
    .array(fieldName)
    .optional()
    .describe(
      "a header's fields that every detail record of its block gets as columns (the file's date, its sequence " +
        'number): kept in the journal and the results beside each row, and readable by the mapping',
    ),
});

export const fixedWidthLayoutSchema = z
  .strictObject({
    encoding: z.enum(csvEncodings).default('utf-8').describe("the file's byte encoding"),
    positions_from: z
      .union([z.literal(0), z.literal(1)])
      .default(0)
      .describe("the first character's position in the layout: 0 (the default) or 1"),
    trim: z
      .boolean()
      .default(true)
      .describe('remove the padding spaces around each field (zero padding is kept: amounts read it)'),
    record_type: positions.describe("where each record's type code is, e.g. [0, 0] for a first character H, D or T"),
    blank_columns: z
      .array(fieldName)
      .optional()
      .describe(
        'columns the records do not hold (a CBNOT record has no ARN), blank in every row: the results file gets ' +
          'a column for each, for staff to fill in before feeding it back; never filled in by the tool',
      ),
    records: z
      .record(z.string().min(1), recordLayout)
      .refine((records) => Object.keys(records).length > 0, 'expected at least one record type')
      .describe('record type code → its role and fields'),
  })
  .superRefine((layout, context) => {
    const roles = Object.values(layout.records).map((record) => record.role);
    const count = (role: RecordRole) => roles.filter((each) => each === role).length;
    if (count('detail') !== 1)
      context.addIssue({
        code: 'custom',
        path: ['records'],
        message: `expected exactly one record type with role detail, got ${count('detail')}`,
      });
    for (const role of ['header', 'trailer'] as const)
      if (count(role) > 1)
        context.addIssue({
          code: 'custom',
          path: ['records'],
          message: `expected at most one record type with role ${role}, got ${count(role)}`,
        });
    const typeLength = layout.record_type[1] - layout.record_type[0] + 1;
    for (const [type, record] of Object.entries(layout.records)) {
      if (type.length > typeLength)
        context.addIssue({
          code: 'custom',
          path: ['records', type],
          message: `expected a type code of at most ${typeLength} characters (record_type), got ${JSON.stringify(type)}`,
        });
      for (const [name, [first]] of Object.entries(record.fields))
        if (first < layout.positions_from)
          context.addIssue({
            code: 'custom',
            path: ['records', type, 'fields', name],
            message: `expected positions from ${layout.positions_from} (positions_from), got ${first}`,
          });
      if (record.carry !== undefined && record.role !== 'header')
        context.addIssue({
          code: 'custom',
          path: ['records', type, 'carry'],
          message: `expected carry only on the header record, got it on a record with role ${record.role}`,
        });
      for (const name of record.carry ?? [])
        if (record.fields[name] === undefined)
          context.addIssue({
            code: 'custom',
            path: ['records', type, 'carry'],
            message: `expected a field of this record, got ${JSON.stringify(name)}`,
          });
    }
    // The columns of a row: the detail fields, then the carried header fields; one name each.
    const detail = Object.values(layout.records).find((record) => record.role === 'detail');
    const header = Object.values(layout.records).find((record) => record.role === 'header');
    for (const name of layout.blank_columns ?? [])
      if (detail?.fields[name] !== undefined || (header?.carry ?? []).includes(name))
        context.addIssue({
          code: 'custom',
          path: ['blank_columns'],
          message: `expected a blank column to be named apart from the fields read, got ${JSON.stringify(name)}`,
        });
    for (const name of header?.carry ?? [])
      if (detail?.fields[name] !== undefined)
        context.addIssue({
          code: 'custom',
          path: ['records'],
          message: `expected a carried header field to be named apart from the detail fields, got ${JSON.stringify(name)} in both`,
        });
  });

export type FixedWidthLayout = z.output<typeof fixedWidthLayoutSchema>;
export type RecordLayout = FixedWidthLayout['records'][string];
